/**
 * The Kubernetes schema, generated at build time (scripts/generate-schema.mjs)
 * and bundled into the server, the CLI and the sandbox worker (OpenAPI, strategic merge), with the lookups every
 * schema-based service needs. Loaded once; every answer is shared and must be
 * treated as read-only.
 */
import generated from '../../server/generated/kubernetes-schema.json';
import type { Definition, KindEntry, KubeSchema, PropertySchema, SchemaType } from './types';

const SCHEMA = generated as unknown as KubeSchema;

let byKind: Map<string, KindEntry[]> | undefined;
let byPair: Map<string, KindEntry> | undefined;

/** The whole schema. */
export function getSchema(): KubeSchema {
  return SCHEMA;
}

function index(): { byKind: Map<string, KindEntry[]>; byPair: Map<string, KindEntry> } {
  if (byKind === undefined || byPair === undefined) {
    byKind = new Map();
    byPair = new Map();
    for (const k of SCHEMA.kinds) {
      byPair.set(`${k.apiVersion}|${k.kind}`, k);
      const list = byKind.get(k.kind);
      if (list === undefined) byKind.set(k.kind, [k]);
      else list.push(k);
    }
  }
  return { byKind, byPair };
}

/** The kind served as exactly this apiVersion/kind pair (case-sensitive), or undefined. */
export function kindEntry(apiVersion: string, kind: string): KindEntry | undefined {
  return index().byPair.get(`${apiVersion}|${kind}`);
}

/** Every apiVersion serving a kind name (case-sensitive), in the schema's order; empty when none does. */
export function kindsFor(kind: string): KindEntry[] {
  return index().byKind.get(kind) ?? [];
}

/** The definition with this fully qualified name (`io.k8s.api.core.v1.Container`), or undefined. */
export function definition(name: string): Definition | undefined {
  return Object.hasOwn(SCHEMA.definitions, name) ? SCHEMA.definitions[name] : undefined;
}

/** The definition a `ref` type points at; undefined for every other type (arrays and maps of refs included). */
export function resolveRef(t: SchemaType): Definition | undefined {
  return t.kind === 'ref' ? definition(t.name) : undefined;
}

/**
 * The type at a YAML path (keys and list indices) below `root`, with the
 * property schema and the definition that declares it when the last step is a
 * property of a definition. Map keys are any string; a path into free-form
 * JSON (`any`) stays `any`. Undefined when the path leaves the schema (an
 * unknown property, an index into a non-list, a key into a scalar).
 */
export function typeAtPath(
  root: Definition,
  path: readonly (string | number)[],
): { type: SchemaType; property?: PropertySchema; parent?: Definition } | undefined {
  let type: SchemaType = { kind: 'ref', name: root.name };
  let property: PropertySchema | undefined;
  let parent: Definition | undefined;
  for (const seg of path) {
    property = undefined;
    parent = undefined;
    if (type.kind === 'any') continue;
    if (typeof seg === 'number') {
      if (type.kind !== 'array') return undefined;
      type = type.items;
    } else if (type.kind === 'map') {
      type = type.values;
    } else {
      const def = resolveRef(type);
      if (def === undefined || !Object.hasOwn(def.properties, seg)) return undefined;
      property = def.properties[seg];
      parent = def;
      type = property.type;
    }
  }
  return { type, ...(property === undefined ? {} : { property, parent }) };
}

/**
 * Go-like type text as `kubectl explain` prints it: `string`, `integer`, `[]Container`, `map[string]string`,
 * `IntOrString`, `Quantity`, `Object`.
 */
export function describeType(t: SchemaType): string {
  switch (t.kind) {
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
      return t.kind;
    case 'intOrString':
      return 'IntOrString';
    case 'quantity':
      return 'Quantity';
    case 'any':
      return 'Object';
    case 'array':
      return `[]${describeType(t.items)}`;
    case 'map':
      return `map[string]${describeType(t.values)}`;
    case 'ref':
      return definition(t.name)?.title ?? t.name.slice(t.name.lastIndexOf('.') + 1);
  }
}

/**
 * `spec.template.spec.containers[].ports[].containerPort` for `['spec', 'template', 'spec', 'containers', 0, 'ports',
 * 1, 'containerPort']`.
 */
export function fieldPathText(path: readonly (string | number)[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += '[]';
    else out += out === '' ? seg : `.${seg}`;
  }
  return out;
}
