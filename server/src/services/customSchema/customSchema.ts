/**
 * Completion and hover for custom resources: a CustomResourceDefinition version's OpenAPI v3 schema (from the
 * workspace's CRDs, sandbox/apiextensions/workspace.ts) walked along a YAML path, and its fields described in the
 * language server's schema model (`SchemaType`), so key and value completion share the built-in kinds' inserts.
 * `metadata` is ObjectMeta's, as the API server treats it (a CRD's schema may not restrict it).
 */
import type { JSONSchemaProps } from '../../../../sandbox/apiextensions/schema/types';
import { additionalSchema, itemsSchema } from '../../../../sandbox/apiextensions/schema/types';
import { definition } from '../../schema/schema';
import type { Definition, PropertySchema, SchemaType } from '../../schema/types';

/** The schema of a served custom kind, or undefined (not served by a workspace CRD, or served without a schema). */
export type CustomSchemaLookup = (apiVersion: string, kind: string) => JSONSchemaProps | undefined;

/** Where a path leads in a CRD schema: the schema there, the map that declares it and whether it lists it required. */
export interface CustomField {
  readonly schema: JSONSchemaProps;
  /** The object schema holding the last key (undefined for list items and the root). */
  readonly parent?: JSONSchemaProps;
}

/** The schema at `path` (keys and list indices) under `root`; undefined where the schema says nothing. */
export function customFieldAt(root: JSONSchemaProps, path: readonly (string | number)[]): CustomField | undefined {
  let field: CustomField = { schema: root };
  for (const seg of path) {
    const s = field.schema;
    if (typeof seg === 'number') {
      const items = itemsSchema(s);
      if (items === undefined) return undefined;
      field = { schema: items };
      continue;
    }
    const declared = s.properties !== undefined && Object.hasOwn(s.properties, seg) ? s.properties[seg] : undefined;
    const next = declared ?? additionalSchema(s);
    if (next === undefined) return undefined;
    field = declared === undefined ? { schema: next } : { schema: next, parent: s };
  }
  return field;
}

/**
 * A CRD schema as the schema model's type: `int-or-string`, scalars with their enum, arrays, maps
 * (`additionalProperties`), objects with properties (`object`), free-form JSON (`Object`).
 */
export function customType(s: JSONSchemaProps): SchemaType {
  if (s['x-kubernetes-int-or-string'] === true) return { kind: 'intOrString' };
  switch (s.type) {
    case 'string': {
      const values = (s.enum ?? []).filter((v): v is string => typeof v === 'string');
      return values.length > 0 ? { kind: 'string', enum: values } : { kind: 'string' };
    }
    case 'integer':
      return { kind: 'integer' };
    case 'number':
      return { kind: 'number' };
    case 'boolean':
      return { kind: 'boolean' };
    case 'array': {
      const items = itemsSchema(s);
      return { kind: 'array', items: items === undefined ? { kind: 'any' } : customType(items) };
    }
    case 'object': {
      if (s.properties !== undefined && Object.keys(s.properties).length > 0) return { kind: 'ref', name: 'object' };
      const values = additionalSchema(s);
      return values === undefined ? { kind: 'any' } : { kind: 'map', values: customType(values) };
    }
    default:
      return { kind: 'any' };
  }
}

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/**
 * The object schema `s` as a schema-model Definition (its properties' types and descriptions, its required list), so
 * key completion offers a custom resource's fields as it does a built-in kind's. At the root, `apiVersion`, `kind`
 * and `metadata` are added when the CRD's schema leaves them out (the API server serves them anyway).
 */
export function customDefinition(s: JSONSchemaProps, title: string, root: boolean): Definition {
  const properties: Record<string, PropertySchema> = {};
  if (root) {
    properties.apiVersion = { type: { kind: 'string' } };
    properties.kind = { type: { kind: 'string' } };
    properties.metadata = { type: { kind: 'ref', name: OBJECT_META } };
  }
  for (const [name, p] of Object.entries(s.properties ?? {}))
    properties[name] = {
      type: root && name === 'metadata' ? { kind: 'ref', name: OBJECT_META } : customType(p),
      ...(p.description === undefined ? {} : { description: p.description }),
    };
  return {
    name: title,
    title,
    ...(s.description === undefined ? {} : { description: s.description }),
    properties,
    required: root ? ['apiVersion', 'kind', ...(s.required ?? [])] : [...(s.required ?? [])],
  };
}

/** ObjectMeta's definition: `metadata` of a custom resource is checked and completed as every kind's. */
export function objectMeta(): Definition | undefined {
  return definition(OBJECT_META);
}
