// Generates the Kubernetes schema of each supported release into sandbox/schema/generated/ (git-ignored):
//
//   kubernetes-1.30.json … kubernetes-1.34.json   one KubeSchema (sandbox/schema/types.ts) per release
//   kubernetes-versions.json                       what differs between them (kinds and fields by release)
//   kubernetes-releases.json                       the supported releases and the default one
//
//   node scripts/generate-schema.mjs [--force]
//
// Where each piece comes from (all npm packages, fetched at build time by scripts/schema/sources.mjs, pinned
// by version and integrity; nothing is fetched at run time or committed):
//
// - Definitions, fields, field types with their OpenAPI formats (int32/int64/double/date-time/byte),
//   required fields and descriptions, per release: the `@kubernetes/client-node` release generated from that
//   release's OpenAPI document (scripts/schema/clientNode.mjs): 1.0.0-rc7 (v1.30.1), 1.1.2 (v1.32.0),
//   1.3.0 (v1.33.0), 1.4.0 (v1.34.0).
// - Kinds: the definitions of the group/versions the release's API serves (client-node's API classes)
//   that carry apiVersion, kind and metadata.
// - 1.31, from which no client-node was generated: a definition or field that 1.30 and 1.32 both have is in
//   1.31 (Kubernetes does not drop a field and bring it back); where they differ, the field list of the
//   Pulumi Kubernetes SDK 4.18.1, generated from 1.31, decides (scripts/schema/pulumi.mjs). Its types,
//   formats and descriptions are 1.32's (1.30's for what 1.32 dropped). A definition 1.30 had and 1.32
//   dropped is kept in 1.31 (Pulumi keeps every old API version, so it cannot tell): the lenient side.
// - Enum values and which string fields are Quantities: `kubernetes-models` (scripts/schema/kubernetesModels.mjs,
//   Kubernetes 1.36 over older releases; its OpenAPI carries the enums upstream's published document
//   dropped in 1.24), for a field of the same name and shape; also the description of a field whose type is
//   another definition (client-node's generator drops the description next to a `$ref`). Its fully qualified names also map client-node's
//   model names (`V1Container`, `CoreV1Event`) back to upstream's (`io.k8s.api.core.v1.Container`).
// - Not from any package: the list and patch strategies (`x-kubernetes-list-type`, `-list-map-keys`,
//   `-patch-strategy`, `-patch-merge-key`, `-map-type`). None of these packages keeps them (client-node's,
//   Pulumi's and kubernetes-models' generators drop vendor extensions; kubernetes-types has neither); only
//   compiled Go binaries (kubectl) on npm carry them. They stay in sandbox/schema/listStrategies.ts, checked
//   against each release's fields (an entry applies only where its field exists).
//
// Skips the work when the outputs are newer than the generator and came from the pinned sources, unless --force.
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { readClientNode } from './schema/clientNode.mjs';
import { readKubernetesModels } from './schema/kubernetesModels.mjs';
import { readPulumiFields } from './schema/pulumi.mjs';
import { CLIENT_NODE, MEMBERSHIP, fetchSource, sourceList } from './schema/sources.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, 'sandbox', 'schema', 'generated');
const VERSIONS = ['1.30', '1.31', '1.32', '1.33', '1.34'];
const DEFAULT_VERSION = '1.32';
const indexFile = join(outDir, 'kubernetes-versions.json');
const releasesFile = join(outDir, 'kubernetes-releases.json');
const force = process.argv.includes('--force');

/** Group/version of the API (`apps/v1`, `v1`) → the package of its definitions. */
function packageOf(groupVersion) {
  const slash = groupVersion.indexOf('/');
  if (slash < 0) return `io.k8s.api.core.${groupVersion}`;
  const group = groupVersion.slice(0, slash);
  const version = groupVersion.slice(slash + 1);
  if (group === 'apiextensions.k8s.io') return `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.${version}`;
  if (group === 'apiregistration.k8s.io') return `io.k8s.kube-aggregator.pkg.apis.apiregistration.${version}`;
  if (group === 'internal.apiserver.k8s.io') return `io.k8s.api.apiserverinternal.${version}`;
  return `io.k8s.api.${group.split('.')[0]}.${version}`;
}

/** Packages every release has besides its API groups' (apimachinery's). */
const APIMACHINERY = ['io.k8s.apimachinery.pkg.apis.meta.v1', 'io.k8s.apimachinery.pkg.runtime'];
const SPECIAL_MODELS = { VersionInfo: 'io.k8s.apimachinery.pkg.version.Info' };

/** `CoreV1Event` → { group: 'core', version: 'v1', title: 'Event' }. */
function splitModelName(name) {
  const m = /^([A-Z][a-z]+)?(V\d+(?:alpha\d+|beta\d+)?)([A-Z]\w*)$/.exec(name);
  if (m === null) return undefined;
  return { group: m[1]?.toLowerCase(), version: m[2].toLowerCase(), title: m[3] };
}

function lastSegment(pkg) {
  const parts = pkg.split('.');
  return parts[parts.length - 2];
}

/** client-node model name → fully qualified definition name, for every model of one release. */
function resolveNames(cn, known) {
  const packages = [...[...cn.groupVersions].map(packageOf), ...APIMACHINERY];
  const names = new Map();
  const pending = [];
  for (const name of cn.models.keys()) {
    if (SPECIAL_MODELS[name]) {
      names.set(name, SPECIAL_MODELS[name]);
      continue;
    }
    const parts = splitModelName(name);
    if (parts === undefined) throw new Error(`client-node model ${name}: unexpected name`);
    let candidates = packages.filter((p) => p.endsWith(`.${parts.version}`));
    if (parts.group !== undefined) {
      candidates = candidates.filter((p) => lastSegment(p) === parts.group || p.startsWith(`io.k8s.${parts.group}`));
    }
    const knownHere = candidates.filter((p) => known.has(`${p}.${parts.title}`));
    if (knownHere.length === 1) names.set(name, `${knownHere[0]}.${parts.title}`);
    else if (candidates.length === 1) names.set(name, `${candidates[0]}.${parts.title}`);
    else pending.push({ name, parts, candidates: knownHere.length > 1 ? knownHere : candidates });
  }
  // What is left is named alike in several groups and new to kubernetes-models: a kind lives in the package
  // of the API that serves it, anything else in the package of the definitions that refer to it.
  for (let i = pending.length - 1; i >= 0; i--) {
    const { name, parts, candidates } = pending[i];
    const served = [...(cn.apiModels.get(name) ?? [])].map(packageOf).filter((p) => candidates.includes(p));
    if (new Set(served).size === 1) {
      names.set(name, `${served[0]}.${parts.title}`);
      pending.splice(i, 1);
    }
  }
  for (let progress = true; pending.length > 0 && progress; ) {
    progress = false;
    for (let i = pending.length - 1; i >= 0; i--) {
      const { name, parts, candidates } = pending[i];
      const referrers = new Set();
      for (const [other, model] of cn.models) {
        if ([...model.properties.values()].some((p) => refNames(p.type).includes(name)) && names.has(other)) {
          const pkg = names.get(other).slice(0, names.get(other).lastIndexOf('.'));
          if (candidates.includes(pkg)) referrers.add(pkg);
        }
      }
      if (referrers.size === 1) {
        names.set(name, `${[...referrers][0]}.${parts.title}`);
        pending.splice(i, 1);
        progress = true;
      }
    }
  }
  if (pending.length > 0) throw new Error(`unresolved client-node models: ${pending.map((p) => p.name).join(', ')}`);
  return names;
}

function refNames(type) {
  return [...type.matchAll(/\b([A-Z]\w*V\d\w*|V\d\w+|VersionInfo)\b/g)].map((m) => m[1]);
}

class Converter {
  constructor(cn, names, km) {
    this.cn = cn;
    this.names = names;
    this.km = km;
  }

  /** A client-node type (`Array<V1Container>`, `{ [key: string]: string; }`) as a SchemaType. */
  type(text, format) {
    const t = text.trim();
    const array = /^Array<(.*)>$/.exec(t);
    if (array) return { kind: 'array', items: this.type(array[1], format) };
    const map = /^\{ \[key: string\]: (.*); \}$/.exec(t);
    if (map) return { kind: 'map', values: this.type(map[1], format) };
    switch (t) {
      case 'string':
        return format === 'byte' ? { kind: 'string', format: 'byte' } : { kind: 'string' };
      case 'number':
        if (format === 'int32' || format === 'int64') return { kind: 'integer', format };
        if (format === 'double' || format === 'float') return { kind: 'number' };
        throw new Error(`number without a known format: ${format}`);
      case 'boolean':
        return { kind: 'boolean' };
      case 'Date':
        return { kind: 'string', format: 'date-time' };
      case 'IntOrString':
        return { kind: 'intOrString' };
      case 'any':
      case 'object':
        return { kind: 'any' };
    }
    if (format === 'date-time-micro') return { kind: 'string', format: 'date-time' };
    const target = this.cn.models.get(t);
    if (target === undefined) throw new Error(`unknown client-node type ${t}`);
    // Models without fields (RawExtension, FieldsV1, apiextensions JSON…) hold free-form JSON.
    if (target.properties.size === 0) return { kind: 'any' };
    return { kind: 'ref', name: this.names.get(t) };
  }

  /**
   * What kubernetes-models knows better about the same field: enum values of a string and Quantity for a
   * string (client-node's generator flattens the Quantity definition to `string`).
   */
  overlay(type, kmType) {
    if (kmType === undefined) return type;
    if (type.kind === 'array' && kmType.kind === 'array')
      return { ...type, items: this.overlay(type.items, kmType.items) };
    if (type.kind === 'map' && kmType.kind === 'map')
      return { ...type, values: this.overlay(type.values, kmType.values) };
    if (type.kind === 'string' && type.format === undefined) {
      if (kmType.kind === 'quantity') return { kind: 'quantity' };
      if (kmType.kind === 'string' && kmType.enum !== undefined) return { kind: 'string', enum: kmType.enum };
    }
    return type;
  }

  definition(name) {
    const model = this.cn.models.get(name);
    const fqn = this.names.get(name);
    const kmDef = this.km.definitions[fqn];
    const title = fqn.slice(fqn.lastIndexOf('.') + 1);
    const typeMeta = model.properties.has('apiVersion') && model.properties.has('kind');
    const properties = {};
    const required = [];
    for (const key of [...model.properties.keys()].sort(cmp)) {
      const p = model.properties.get(key);
      const type = this.overlay(this.type(p.type, p.format), kmDef?.properties[key]?.type);
      // client-node's generator drops the description next to a `$ref`: kubernetes-models keeps it.
      const description = p.description ?? kmDef?.properties[key]?.description;
      properties[key] = description === undefined ? { type } : { type, description };
      // apiVersion/kind are checked against the kind table, not as required fields.
      if (p.required && !(typeMeta && (key === 'apiVersion' || key === 'kind'))) required.push(key);
    }
    return {
      name: fqn,
      title,
      ...(model.description === undefined ? {} : { description: model.description }),
      properties,
      required,
    };
  }
}

function cmp(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One release generated from its client-node release. */
function fromClientNode(version, km) {
  const cn = readClientNode(fetchSource(root, CLIENT_NODE[version], ['package/dist/gen']));
  const names = resolveNames(cn, new Set(Object.keys(km.definitions)));
  const converter = new Converter(cn, names, km);
  const definitions = {};
  for (const name of [...cn.models.keys()].sort((a, b) => cmp(names.get(a), names.get(b)))) {
    if (cn.models.get(name).properties.size === 0) continue;
    definitions[names.get(name)] = converter.definition(name);
  }
  const kinds = [];
  for (const gv of cn.groupVersions) {
    const pkg = packageOf(gv);
    for (const def of Object.values(definitions)) {
      if (!def.name.startsWith(`${pkg}.`) || def.name.slice(pkg.length + 1).includes('.')) continue;
      if (['apiVersion', 'kind', 'metadata'].every((k) => Object.hasOwn(def.properties, k)))
        kinds.push({ apiVersion: gv, kind: def.title, definition: def.name });
    }
  }
  kinds.sort((a, b) => cmp(a.apiVersion, b.apiVersion) || cmp(a.kind, b.kind));
  const source = CLIENT_NODE[version];
  return { source: `${source.name}@${source.version}, ${km.source}`, version, definitions, kinds };
}

/** 1.31 from its neighbours, the differences decided by the Pulumi SDK's field lists (see the header). */
function between(version, before, after) {
  const pulumi = readPulumiFields(fetchSource(root, MEMBERSHIP[version], MEMBERSHIP[version].files));
  const definitions = {};
  const stats = { decidedByPulumi: 0, keptUndecided: 0 };
  const names = [...new Set([...Object.keys(before.definitions), ...Object.keys(after.definitions)])].sort(cmp);
  for (const name of names) {
    const a = before.definitions[name];
    const b = after.definitions[name];
    const fields = pulumi.get(name);
    // Added in 1.31 or 1.32: in 1.31 when the SDK generated from 1.31 has it (a kind's List with the kind).
    if (a === undefined && fields === undefined && !(name.endsWith('List') && pulumi.has(name.slice(0, -4)))) continue;
    const base = b ?? a;
    const keys = [...new Set([...Object.keys(a?.properties ?? {}), ...Object.keys(b?.properties ?? {})])].sort(cmp);
    const properties = {};
    for (const key of keys) {
      const inBoth =
        a !== undefined && b !== undefined && Object.hasOwn(a.properties, key) && Object.hasOwn(b.properties, key);
      if (!inBoth) {
        if (fields !== undefined) {
          stats.decidedByPulumi++;
          if (!fields.has(key)) continue;
        } else {
          stats.keptUndecided++;
        }
      }
      properties[key] = b !== undefined && Object.hasOwn(b.properties, key) ? b.properties[key] : a.properties[key];
    }
    const required = base.required.filter((r) => Object.hasOwn(properties, r));
    definitions[name] = { ...base, properties, required };
  }
  const kinds = new Map();
  for (const k of [...before.kinds, ...after.kinds]) {
    if (Object.hasOwn(definitions, k.definition)) kinds.set(`${k.apiVersion}|${k.kind}`, k);
  }
  const sorted = [...kinds.values()].sort((x, y) => cmp(x.apiVersion, y.apiVersion) || cmp(x.kind, y.kind));
  const source = MEMBERSHIP[version];
  return {
    schema: {
      source: `${before.source.split(',')[0]} and ${after.source.split(',')[0]}, fields decided by ${source.name}@${source.version}`,
      version,
      definitions,
      kinds: sorted,
    },
    stats,
  };
}

/**
 * What differs between releases, for diagnostics that name them: every kind and every field that is not in
 * all of them, with the releases that have it.
 */
function versionIndex(schemas) {
  const kindVersions = new Map();
  const fieldVersions = new Map();
  for (const s of schemas) {
    for (const k of s.kinds) {
      const key = `${k.apiVersion}|${k.kind}`;
      if (!kindVersions.has(key)) kindVersions.set(key, []);
      kindVersions.get(key).push(s.version);
    }
    for (const def of Object.values(s.definitions)) {
      for (const prop of Object.keys(def.properties)) {
        const key = `${def.name}|${prop}`;
        if (!fieldVersions.has(key)) fieldVersions.set(key, []);
        fieldVersions.get(key).push(s.version);
      }
    }
  }
  const all = schemas.length;
  const kinds = {};
  for (const [key, versions] of [...kindVersions].sort((x, y) => cmp(x[0], y[0])))
    if (versions.length < all) kinds[key] = versions;
  const fields = {};
  for (const [key, versions] of [...fieldVersions].sort((x, y) => cmp(x[0], y[0]))) {
    if (versions.length === all) continue;
    const [def, prop] = key.split('|');
    (fields[def] ??= {})[prop] = versions;
  }
  return { versions: schemas.map((s) => s.version), defaultVersion: DEFAULT_VERSION, kinds, fields };
}

function currentSource() {
  const km = JSON.parse(readFileSync(join(root, 'node_modules', 'kubernetes-models', 'package.json'), 'utf8')).version;
  return [...sourceList(), `kubernetes-models@${km}`].join(', ');
}

/** Up to date when every output is newer than the generator's files and was generated from the pinned sources. */
function upToDate() {
  if (force || !existsSync(indexFile)) return false;
  const scripts = [
    fileURLToPath(import.meta.url),
    ...readdirSync(join(root, 'scripts', 'schema')).map((f) => join(root, 'scripts', 'schema', f)),
  ];
  const newest = Math.max(...scripts.map((f) => statSync(f).mtimeMs));
  const outputs = [indexFile, releasesFile, ...VERSIONS.map((v) => join(outDir, `kubernetes-${v}.json`))];
  if (outputs.some((f) => !existsSync(f) || statSync(f).mtimeMs < newest)) return false;
  return JSON.parse(readFileSync(indexFile, 'utf8')).source === currentSource();
}

if (upToDate()) {
  console.log(`generate-schema: ${relative(root, outDir)} is up to date`);
} else {
  const started = performance.now();
  const km = readKubernetesModels(root);
  const byVersion = new Map();
  for (const v of Object.keys(CLIENT_NODE)) byVersion.set(v, fromClientNode(v, km));
  const { schema: s131, stats } = between('1.31', byVersion.get('1.30'), byVersion.get('1.32'));
  byVersion.set('1.31', s131);
  const schemas = VERSIONS.map((v) => byVersion.get(v));
  mkdirSync(outDir, { recursive: true });
  const sizes = [];
  for (const s of schemas) {
    const file = join(outDir, `kubernetes-${s.version}.json`);
    const text = `${JSON.stringify(s)}\n`;
    writeFileSync(file, text);
    sizes.push(
      `${s.version}: ${Object.keys(s.definitions).length} definitions, ${s.kinds.length} kinds, ${Math.round(text.length / 1024)} kB`,
    );
  }
  mkdirSync(dirname(indexFile), { recursive: true });
  writeFileSync(indexFile, `${JSON.stringify({ source: currentSource(), ...versionIndex(schemas) })}\n`);
  // The release list alone, for code that must not bundle the schemas (the extension host).
  writeFileSync(releasesFile, `${JSON.stringify({ versions: VERSIONS, defaultVersion: DEFAULT_VERSION })}\n`);
  const ms = Math.round(performance.now() - started);
  console.log(`generate-schema: ${relative(root, outDir)} in ${ms} ms\n  ${sizes.join('\n  ')}`);
  console.log(
    `  1.31: ${stats.decidedByPulumi} fields decided by the Pulumi SDK, ${stats.keptUndecided} kept undecided`,
  );
}
