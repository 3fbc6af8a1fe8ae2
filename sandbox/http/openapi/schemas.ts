/**
 * The generated schema (sandbox/schema) as OpenAPI schema objects, in the
 * shapes kube-apiserver publishes: OpenAPI 3 components (`$ref` wrapped in
 * `allOf` when the property adds a description, as upstream does) and Swagger
 * 2.0 definitions (`$ref` with the description beside it). Kinds carry
 * `x-kubernetes-group-version-kind` — kubectl finds a kind's schema by it — and
 * properties carry the patch strategy, merge key and list type of
 * sandbox/schema/listStrategies.ts, which kubectl's strategic merge patch and
 * server-side apply read.
 */
import { parseApiVersion } from '../../api/types';
import { definition, getSchema } from '../../schema/schema';
import { listStrategy } from '../../schema/listStrategies';
import type { Definition, PropertySchema, SchemaType } from '../../schema/types';
import type { Gvk } from '../discovery';

export type Style = 'v2' | 'v3';
export type JsonSchema = Record<string, unknown>;

/** Names of the definitions the schema has no entry for but the types refer to (upstream's names). */
export const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
export const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';

/** Where a style keeps its named schemas. */
export function refTo(name: string, style: Style): JsonSchema {
  return { $ref: style === 'v3' ? `#/components/schemas/${name}` : `#/definitions/${name}` };
}

let gvkIndex: Map<string, Gvk[]> | undefined;

/** The kinds a definition is served as (every apiVersion still served), in the schema's order. */
export function kindsOfDefinition(name: string): readonly Gvk[] {
  if (gvkIndex === undefined) {
    gvkIndex = new Map();
    for (const k of getSchema().kinds) {
      if (k.removed) continue;
      const { group, version } = parseApiVersion(k.apiVersion);
      const list = gvkIndex.get(k.definition) ?? [];
      list.push({ group, version, kind: k.kind });
      gvkIndex.set(k.definition, list);
    }
  }
  return gvkIndex.get(name) ?? [];
}

/** `{group, kind, version}` in that key order, `group` present even when empty (kubectl compares whole maps). */
export function gvkExtension(g: Gvk): JsonSchema {
  return { group: g.group, kind: g.kind, version: g.version };
}

function typeSchema(t: SchemaType, style: Style): JsonSchema {
  switch (t.kind) {
    case 'string':
      return { type: 'string', ...(t.format ? { format: t.format } : {}), ...(t.enum ? { enum: [...t.enum] } : {}) };
    case 'integer':
    case 'boolean':
      return { type: t.kind };
    case 'number':
      return { type: 'number', format: 'double' };
    case 'intOrString':
      return refTo(INT_OR_STRING, style);
    case 'quantity':
      return refTo(QUANTITY, style);
    case 'any':
      // RawExtension, FieldsV1 and friends: an object the schema does not describe.
      return { type: 'object' };
    case 'array':
      return { type: 'array', items: typeSchema(t.items, style) };
    case 'map':
      return { type: 'object', additionalProperties: typeSchema(t.values, style) };
    case 'ref':
      return refTo(t.name, style);
  }
}

/**
 * The TypeMeta descriptions. The models the schema is generated from declare
 * `apiVersion` and `kind` of kinds as literals without documentation; Status
 * (a kind declared field by field) carries the same TypeMeta text.
 */
function typeMetaDescription(property: string): string | undefined {
  return definition('io.k8s.apimachinery.pkg.apis.meta.v1.Status')?.properties[property]?.description;
}

function propertySchema(
  def: Definition,
  name: string,
  prop: PropertySchema,
  style: Style,
  isKind: boolean,
): JsonSchema {
  const base = typeSchema(prop.type, style);
  const description =
    prop.description ?? (isKind && (name === 'apiVersion' || name === 'kind') ? typeMetaDescription(name) : undefined);
  let out: JsonSchema;
  if (description === undefined) out = base;
  else if (style === 'v3' && '$ref' in base) out = { allOf: [base], description };
  else out = { ...base, description };
  const s = listStrategy(def.name, name);
  if (s !== undefined) {
    out = { ...out };
    if (s.listMapKeys !== undefined) out['x-kubernetes-list-map-keys'] = [...s.listMapKeys];
    if (s.listType !== undefined) out['x-kubernetes-list-type'] = s.listType;
    if (s.patchMergeKey !== undefined) out['x-kubernetes-patch-merge-key'] = s.patchMergeKey;
    if (s.patchStrategy !== undefined) out['x-kubernetes-patch-strategy'] = s.patchStrategy;
  }
  return out;
}

/** The schema object of a named definition (synthesized for IntOrString and Quantity), or undefined when unknown. */
export function definitionSchema(name: string, style: Style): JsonSchema | undefined {
  if (name === INT_OR_STRING) {
    return style === 'v3'
      ? { format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] }
      : { type: 'string', format: 'int-or-string' };
  }
  if (name === QUANTITY)
    return style === 'v3' ? { oneOf: [{ type: 'string' }, { type: 'number' }] } : { type: 'string' };
  const def = definition(name);
  if (def === undefined) return undefined;
  const kinds = kindsOfDefinition(name);
  const properties: JsonSchema = {};
  for (const [key, prop] of Object.entries(def.properties))
    properties[key] = propertySchema(def, key, prop, style, kinds.length > 0);
  return {
    ...(def.description !== undefined ? { description: def.description } : {}),
    type: 'object',
    properties,
    ...(def.required.length > 0 ? { required: [...def.required] } : {}),
    ...(kinds.length > 0 ? { 'x-kubernetes-group-version-kind': kinds.map(gvkExtension) } : {}),
  };
}

function referencedNames(t: SchemaType, out: string[]): void {
  switch (t.kind) {
    case 'ref':
      out.push(t.name);
      return;
    case 'intOrString':
      out.push(INT_OR_STRING);
      return;
    case 'quantity':
      out.push(QUANTITY);
      return;
    case 'array':
      referencedNames(t.items, out);
      return;
    case 'map':
      referencedNames(t.values, out);
      return;
    default:
      return;
  }
}

/** `$ref`s inside a schema object written out (a custom resource's). */
function refsIn(schema: unknown, out: string[]): void {
  if (Array.isArray(schema)) for (const s of schema) refsIn(s, out);
  else if (typeof schema === 'object' && schema !== null) {
    for (const [k, v] of Object.entries(schema)) {
      if (k === '$ref' && typeof v === 'string') out.push(v.slice(v.lastIndexOf('/') + 1));
      else refsIn(v, out);
    }
  }
}

/**
 * Every definition reachable from `roots` (roots included), sorted by name as upstream serializes them. `extra`:
 * definitions the generated schema does not have (custom resources'), already as schema objects.
 */
export function closure(roots: Iterable<string>, extra: Readonly<Record<string, JsonSchema>> = {}): string[] {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    if (Object.hasOwn(extra, name)) {
      seen.add(name);
      const refs: string[] = [];
      refsIn(extra[name], refs);
      for (const r of refs) if (!seen.has(r)) queue.push(r);
      continue;
    }
    if (name !== INT_OR_STRING && name !== QUANTITY && definition(name) === undefined) continue;
    seen.add(name);
    const def = definition(name);
    if (def === undefined) continue;
    const refs: string[] = [];
    for (const prop of Object.values(def.properties)) referencedNames(prop.type, refs);
    for (const r of refs) if (!seen.has(r)) queue.push(r);
  }
  return [...seen].sort();
}

/** The named schemas for `roots` and everything they reach, keyed by name (`extra`: see `closure`). */
export function schemasFor(
  roots: Iterable<string>,
  style: Style,
  extra: Readonly<Record<string, JsonSchema>> = {},
): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const name of closure(roots, extra)) {
    const schema = Object.hasOwn(extra, name) ? extra[name] : definitionSchema(name, style);
    if (schema !== undefined) out[name] = schema;
  }
  return out;
}
