/**
 * OpenAPI schema → CEL types, as Kubernetes maps them (upstream: apiserver/pkg/cel/common/schemas.go: SchemaDeclType):
 * `integer` → int, `number` → double, `boolean` → bool, `string` → string (`byte` → bytes, `duration` → duration,
 * `date`/`date-time` → timestamp), arrays → lists, objects with `additionalProperties` → maps with string keys,
 * objects with properties (and embedded resources, with their `apiVersion`, `kind` and `metadata.name`) → object
 * types whose fields are the escaped property names, `x-kubernetes-int-or-string` and
 * `x-kubernetes-preserve-unknown-fields` without properties → dyn.
 */
import type { Environment } from '@marcbachmann/cel-js';
import type { CelTypeName } from './engine';
import { escapeProperty } from './escaping';
import type { CelSchema } from './schema';
import { isDynamic, mapValues, propertiesOf } from './schema';

/** The CEL type of a scalar schema, or undefined for lists, maps and objects. */
export function scalarType(s: CelSchema): CelTypeName | undefined {
  switch (s.type) {
    case 'integer':
      return 'int';
    case 'number':
      return 'double';
    case 'boolean':
      return 'bool';
    case 'string':
      if (s.format === 'byte') return 'bytes';
      if (s.format === 'duration') return 'google.protobuf.Duration';
      if (s.format === 'date' || s.format === 'date-time') return 'google.protobuf.Timestamp';
      return 'string';
    default:
      return undefined;
  }
}

/**
 * Declares in `env` the object types `schema` needs, named `<name>`, `<name>.<field>`, … (upstream names them after
 * a generated `selfType`), and returns the CEL type of the schema itself.
 */
export function declareSchemaType(env: Environment, schema: CelSchema | undefined, name: string): CelTypeName {
  if (schema === undefined || isDynamic(schema)) return 'dyn';
  const scalar = scalarType(schema);
  if (scalar !== undefined) return scalar;
  if (schema.type === 'array') return `list<${declareSchemaType(env, schema.items, `${name}.__items__`)}>`;
  const values = mapValues(schema);
  if (values !== undefined && schema.properties === undefined)
    return `map<string, ${declareSchemaType(env, values, `${name}.__values__`)}>`;
  if (schema.type !== 'object' && schema.type !== undefined) return 'dyn';
  const fields: Record<string, string> = {};
  for (const [prop, child] of Object.entries(propertiesOf(schema))) {
    const field = escapeProperty(prop);
    if (field !== undefined) fields[field] = declareSchemaType(env, child, `${name}.${field}`);
  }
  env.registerType(name, { fields });
  env.registerOperator(`${name} == ${name}`, () => false); // checking only: evaluation runs over plain values
  return name;
}
