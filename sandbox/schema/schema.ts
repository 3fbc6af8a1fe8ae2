/**
 * The Kubernetes schema of each supported release, generated at build time (scripts/generate-schema.mjs)
 * into `generated/`, with the lookups every schema-based service needs. The default release's schema is
 * bundled; the others are JSON files read on first use (next to the bundle in `schemas/`, or from
 * `generated/` when running from source). Every answer is shared and must be treated as read-only.
 *
 * One release is active per process (the language server's, the CLI's or the sandbox worker's setting):
 * the lookups answer for it unless given a `version`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import defaultGenerated from './generated/kubernetes-1.32.json';
import versionsGenerated from './generated/kubernetes-versions.json';
import type { Definition, KindEntry, KubeSchema, PropertySchema, SchemaType } from './types';
import {
  DEFAULT_KUBERNETES_VERSION,
  KUBERNETES_VERSIONS,
  isSupportedKubernetesVersion,
  normalizeKubernetesVersion,
  unsupportedVersionMessage,
} from './versions';

export * from './versions';

/** What differs between the supported releases (scripts/generate-schema.mjs: versionIndex). */
interface VersionIndex {
  readonly versions: readonly string[];
  readonly defaultVersion: string;
  /** `apiVersion|kind` → the releases serving it, for kinds not served by all of them. */
  readonly kinds: Readonly<Record<string, readonly string[]>>;
  /** definition → field → the releases having it, for fields not in all of them. */
  readonly fields: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
}

const INDEX = versionsGenerated as unknown as VersionIndex;

interface Loaded {
  readonly schema: KubeSchema;
  /** The definitions by name (`definition`). */
  byName?: Map<string, Definition>;
  byKind?: Map<string, KindEntry[]>;
  /** By apiVersion, then kind (two lookups by the caller's strings: no `apiVersion|kind` string built per call). */
  byPair?: Map<string, Map<string, KindEntry>>;
  groups?: ReadonlySet<string>;
}

const loaded = new Map<string, Loaded>([
  [DEFAULT_KUBERNETES_VERSION, { schema: defaultGenerated as unknown as KubeSchema }],
]);
let active = DEFAULT_KUBERNETES_VERSION;
/** The active release's definitions by name, once read (undone by a release switch). */
let activeByName: Map<string, Definition> | undefined;
const listeners: (() => void)[] = [];

/**
 * Makes `version` the release the lookups answer for (loading its schema now, so that a missing file fails
 * here and not in the middle of a request). Throws for an unsupported release.
 */
export function setKubernetesVersion(version: string): void {
  const v = normalizeKubernetesVersion(version);
  if (v === undefined || !isSupportedKubernetesVersion(v)) throw new Error(unsupportedVersionMessage(version));
  load(v);
  if (v === active) return;
  active = v;
  activeByName = undefined;
  for (const l of listeners) l();
}

/** The active release: `1.32` unless set. */
export function kubernetesVersion(): string {
  return active;
}

/** Called after the active release changes (memos keyed by schema answers reset themselves). */
export function onKubernetesVersionChange(listener: () => void): void {
  listeners.push(listener);
}

/** Where the schema files of the other releases are: next to the bundle, or generated next to this file. */
function schemaFile(version: string): string {
  const name = `kubernetes-${version}.json`;
  const candidates = [join(__dirname, 'schemas', name), join(__dirname, 'generated', name)];
  const file = candidates.find((f) => existsSync(f));
  if (file !== undefined) return file;
  throw new Error(`the Kubernetes ${version} schema is missing (looked for ${candidates.join(', ')})`);
}

function load(version: string): Loaded {
  const found = loaded.get(version);
  if (found !== undefined) return found;
  if (!isSupportedKubernetesVersion(version)) throw new Error(unsupportedVersionMessage(version));
  const schema = JSON.parse(readFileSync(schemaFile(version), 'utf8')) as KubeSchema;
  const entry: Loaded = { schema };
  loaded.set(version, entry);
  return entry;
}

/** The whole schema of a release (the active one by default). */
export function getSchema(version: string = active): KubeSchema {
  return load(version).schema;
}

function index(version: string): { byKind: Map<string, KindEntry[]>; byPair: Map<string, Map<string, KindEntry>> } {
  const l = load(version);
  if (l.byKind === undefined || l.byPair === undefined) {
    const byKind = new Map<string, KindEntry[]>();
    const byPair = new Map<string, Map<string, KindEntry>>();
    for (const k of l.schema.kinds) {
      let kinds = byPair.get(k.apiVersion);
      if (kinds === undefined) byPair.set(k.apiVersion, (kinds = new Map()));
      kinds.set(k.kind, k);
      const list = byKind.get(k.kind);
      if (list === undefined) byKind.set(k.kind, [k]);
      else list.push(k);
    }
    l.byKind = byKind;
    l.byPair = byPair;
  }
  return { byKind: l.byKind, byPair: l.byPair };
}

/**
 * The kind served as exactly this apiVersion/kind pair (case-sensitive), or undefined. Looked up by apiVersion then
 * kind, where a key `apiVersion|kind` was joined (a new string to hash) on every call, once per write (issue 16): the
 * same answers, as no served apiVersion or kind holds a `|`.
 */
export function kindEntry(apiVersion: string, kind: string, version: string = active): KindEntry | undefined {
  return index(version).byPair.get(apiVersion)?.get(kind);
}

/** Every apiVersion serving a kind name (case-sensitive), in the schema's order; empty when none does. */
export function kindsFor(kind: string, version: string = active): KindEntry[] {
  return index(version).byKind.get(kind) ?? [];
}

/**
 * The definition with this fully qualified name (`io.k8s.api.core.v1.Container`), or undefined. Read from a `Map`: the
 * schema's object has ~700 keys (a dictionary), and reading it by a name that is not an interned string (a type's
 * `name`) looks the string up in V8's string table first, at every call; the decoders call this per object they walk.
 */
export function definition(name: string, version: string = active): Definition | undefined {
  if (version === active) return (activeByName ??= definitionsByName(load(active))).get(name);
  return definitionsByName(load(version)).get(name);
}

function definitionsByName(l: Loaded): Map<string, Definition> {
  if (l.byName === undefined) {
    const defs = l.schema.definitions;
    l.byName = new Map(Object.keys(defs).map((name) => [name, defs[name]]));
  }
  return l.byName;
}

/** The definition a `ref` type points at; undefined for every other type (arrays and maps of refs included). */
export function resolveRef(t: SchemaType, version: string = active): Definition | undefined {
  return t.kind === 'ref' ? definition(t.name, version) : undefined;
}

/**
 * The API groups a release serves (`''` for the core group, `apps`, `networking.k8s.io`…): what is built
 * into its API server. A kind of any other group is a custom resource.
 */
export function builtInGroups(version: string = active): ReadonlySet<string> {
  const l = load(version);
  if (l.groups === undefined) {
    l.groups = new Set(l.schema.kinds.map((k) => (k.apiVersion.includes('/') ? k.apiVersion.split('/')[0] : '')));
  }
  return l.groups;
}

/**
 * The supported releases that serve this apiVersion/kind, oldest first (every release when all of them do;
 * none when none does).
 */
export function kindVersions(apiVersion: string, kind: string): readonly string[] {
  const key = `${apiVersion}|${kind}`;
  if (Object.hasOwn(INDEX.kinds, key)) return INDEX.kinds[key];
  return kindEntry(apiVersion, kind, DEFAULT_KUBERNETES_VERSION) === undefined ? [] : KUBERNETES_VERSIONS;
}

/**
 * The supported releases whose definition has this field, oldest first (every release when all of them do;
 * none when none does): `fieldVersions('io.k8s.api.core.v1.PodSpec', 'hostnameOverride')` is `['1.34']`.
 */
export function fieldVersions(definitionName: string, property: string): readonly string[] {
  const byDef = Object.hasOwn(INDEX.fields, definitionName) ? INDEX.fields[definitionName] : undefined;
  if (byDef !== undefined && Object.hasOwn(byDef, property)) return byDef[property];
  const def = definition(definitionName, DEFAULT_KUBERNETES_VERSION);
  return def !== undefined && Object.hasOwn(def.properties, property) ? KUBERNETES_VERSIONS : [];
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
  version: string = active,
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
      const def = resolveRef(type, version);
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
      return t.name.slice(t.name.lastIndexOf('.') + 1);
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
