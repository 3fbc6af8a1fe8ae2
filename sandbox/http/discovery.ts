/**
 * Discovery: what `kubectl api-resources`, `kubectl api-versions` and every
 * client's REST mapper read before anything else — `/version`, `/api`,
 * `/apis`, `/apis/<group>`, `/api/v1` and `/apis/<group>/<version>` — in the
 * legacy format and as aggregated discovery (apidiscovery.k8s.io/v2), which
 * client-go asks for first. Everything is derived from the discovery table
 * (sandbox/api/resources.ts); the verbs and subresources listed here are the
 * ones the HTTP API serves, so clients never try what would be refused.
 */
import { createHash } from 'node:crypto';
import { notAcceptable } from '../api/errors';
import { storageVersionOf } from '../api/resources';
import { defaultRegistry } from '../api/registry';
import type { ResourceRegistry } from '../api/registry';
import { kubernetesVersion } from '../schema/schema';
import { deepFreeze } from '../util/json';
import type { ResourceType } from '../api/resources';
import { compareKubeAwareVersions } from '../apiextensions/served';

/** The `/version` document (k8s.io/apimachinery/pkg/version.Info). */
export interface VersionInfo {
  major: string;
  minor: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

/**
 * `GET /version`: a server of the active Kubernetes release (`kubeReconcile.kubernetesVersion`,
 * `--kubernetes-version`; v1.32 by default), marked as kube-reconcile in the semver build metadata.
 */
export function versionInfo(): VersionInfo {
  const [major, minor] = kubernetesVersion().split('.');
  return {
    major,
    minor,
    gitVersion: `v${major}.${minor}.0+kube-reconcile`,
    gitCommit: '',
    gitTreeState: 'clean',
    // Upstream's value when a build does not stamp one.
    buildDate: '1970-01-01T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'tsc',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}

/** A group/version/kind as discovery and OpenAPI spell it. */
export interface Gvk {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** A subresource the HTTP API serves, with the kind its requests and answers carry. */
export interface Subresource {
  /** `status`, `scale`, `log`… */
  readonly name: string;
  readonly verbs: readonly string[];
  readonly kind: Gvk;
}

const ALL_VERBS = Object.freeze(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
// Upstream's namespace storage has no DeleteCollection: deleting every namespace is not one request.
const NAMESPACE_VERBS = Object.freeze(ALL_VERBS.filter((v) => v !== 'deletecollection'));
const READ_WRITE = Object.freeze(['get', 'patch', 'update']);

const CREATE_ONLY = Object.freeze(['create']);
const READ_ONLY = Object.freeze(['get', 'list']);

/** The verbs served on a resource, sorted as upstream lists them. */
export function resourceVerbs(r: ResourceType): readonly string[] {
  if (r.serving === 'create-only') return CREATE_ONLY;
  if (r.serving === 'read-only') return READ_ONLY;
  return r.group === '' && r.plural === 'namespaces' ? NAMESPACE_VERBS : ALL_VERBS;
}

function gvkOf(r: ResourceType): Gvk {
  return { group: r.group, version: r.version, kind: r.kind };
}

const subresourceCache = new WeakMap<ResourceType, readonly Subresource[]>();

/** The subresources served under a resource (`pods/status`, `deployments/scale`, …), sorted by name. */
export function subresources(r: ResourceType): readonly Subresource[] {
  let found = subresourceCache.get(r);
  if (found === undefined) {
    const list: Subresource[] = [];
    if (r.statusSubresource) list.push({ name: 'status', verbs: READ_WRITE, kind: gvkOf(r) });
    if (r.scaleSubresource)
      list.push({ name: 'scale', verbs: READ_WRITE, kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' } });
    if (r.group === '' && r.plural === 'pods') {
      list.push(
        { name: 'binding', verbs: ['create'], kind: { group: '', version: 'v1', kind: 'Binding' } },
        { name: 'eviction', verbs: ['create'], kind: { group: 'policy', version: 'v1', kind: 'Eviction' } },
        { name: 'log', verbs: ['get'], kind: gvkOf(r) },
      );
    }
    if (r.group === '' && r.plural === 'namespaces') list.push({ name: 'finalize', verbs: ['update'], kind: gvkOf(r) });
    if (r.group === '' && r.plural === 'serviceaccounts')
      list.push({
        name: 'token',
        verbs: ['create'],
        kind: { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' },
      });
    list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    found = deepFreeze(list);
    subresourceCache.set(r, found);
  }
  return found;
}

/** Upstream's group priority (kube-apiserver's discovery order); groups it does not name follow in table order. */
const GROUP_PRIORITY = [
  'apps',
  'events.k8s.io',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'autoscaling',
  'batch',
  'certificates.k8s.io',
  'networking.k8s.io',
  'policy',
  'rbac.authorization.k8s.io',
  'storage.k8s.io',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'scheduling.k8s.io',
  'coordination.k8s.io',
  'node.k8s.io',
  'discovery.k8s.io',
  'flowcontrol.apiserver.k8s.io',
];

const servedGroupsOf = (registry: ResourceRegistry): readonly ServedGroup[] => servedGroups(registry);

/** A served group with its versions, preferred first. */
export interface ServedGroup {
  readonly name: string;
  readonly versions: readonly string[];
}

interface RegistryMemo {
  generation: number;
  groups?: readonly ServedGroup[];
  documents: Map<string, unknown>;
}

const registryMemos = new WeakMap<ResourceRegistry, RegistryMemo>();

/** What has been built from a registry, forgotten when its served resources change (a CRD came or went). */
function memoOf(registry: ResourceRegistry): RegistryMemo {
  let m = registryMemos.get(registry);
  if (m === undefined || m.generation !== registry.generation) {
    m = { generation: registry.generation, documents: new Map() };
    registryMemos.set(registry, m);
  }
  return m;
}

/**
 * Every served group, the core group (`''`) first, then built-in groups in upstream's priority order, then the
 * groups of CRDs by name (their APIServices' priority, 1000, is below every built-in group's), each with its
 * versions, preferred first.
 */
export function servedGroups(registry: ResourceRegistry = defaultRegistry()): readonly ServedGroup[] {
  const memo = memoOf(registry);
  if (memo.groups === undefined) {
    const byName = new Map<string, string[]>();
    const custom = new Set<string>();
    for (const r of registry.list()) {
      const versions = byName.get(r.group) ?? [];
      if (!versions.includes(r.version)) versions.push(r.version);
      byName.set(r.group, versions);
      if (r.custom !== undefined) custom.add(r.group);
    }
    const builtIn = (g: string) => !custom.has(g) || registry.list().some((r) => r.group === g && !r.custom);
    const rank = (g: string): number =>
      g === ''
        ? -1
        : GROUP_PRIORITY.includes(g)
          ? GROUP_PRIORITY.indexOf(g)
          : builtIn(g)
            ? GROUP_PRIORITY.length
            : GROUP_PRIORITY.length + 1;
    const names = [...byName.keys()].sort(
      (a, b) => rank(a) - rank(b) || (rank(a) > GROUP_PRIORITY.length ? (a < b ? -1 : 1) : 0),
    );
    memo.groups = Object.freeze(
      names.map((name) => {
        const versions = byName.get(name)!;
        if (!builtIn(name)) versions.sort(compareKubeAwareVersions);
        return Object.freeze({ name, versions: Object.freeze(versions) });
      }),
    );
  }
  return memo.groups;
}

/** The served resources of one group/version, in table order. */
export function resourcesOf(
  group: string,
  version: string,
  registry: ResourceRegistry = defaultRegistry(),
): readonly ResourceType[] {
  return registry.list().filter((r) => r.group === group && r.version === version);
}

/** upstream's storageVersionHash: the first 8 bytes of sha256("group/version/kind") of the storage version, base64. */
function storageVersionHash(r: ResourceType): string {
  return createHash('sha256')
    .update(`${r.group}/${storageVersionOf(r)}/${r.kind}`)
    .digest()
    .subarray(0, 8)
    .toString('base64');
}

// ---------------------------------------------------------------------------
// Content negotiation

/** One media range of an Accept header. */
export interface MediaRange {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
}

/** The media ranges of an Accept header, best first (by q, then as written); an absent header accepts anything. */
export function acceptedMediaRanges(accept: string | undefined): MediaRange[] {
  const header = accept === undefined || accept.trim() === '' ? '*/*' : accept;
  const ranges: MediaRange[] = [];
  for (const clause of header.split(',')) {
    const [mediaType, ...rawParams] = clause.split(';').map((s) => s.trim());
    const slash = mediaType.indexOf('/');
    if (slash <= 0) continue;
    const params: Record<string, string> = {};
    let q = 1;
    for (const p of rawParams) {
      const eq = p.indexOf('=');
      if (eq <= 0) continue;
      const key = p.slice(0, eq).trim().toLowerCase();
      const value = p
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
      if (key === 'q') q = Number.isFinite(Number(value)) ? Number(value) : 0;
      else params[key] = value;
    }
    if (q <= 0) continue;
    ranges.push({
      type: mediaType.slice(0, slash).toLowerCase(),
      subtype: mediaType.slice(slash + 1).toLowerCase(),
      params,
      q,
    });
  }
  return ranges
    .map((r, i) => ({ r, i }))
    .sort((a, b) => b.r.q - a.r.q || a.i - b.i)
    .map(({ r }) => r);
}

/**
 * Whether a range accepts plain JSON: `application/json` (no `as=` asking for another shape), `application/*` or
 * `*\/*`.
 */
export function acceptsJson(range: MediaRange): boolean {
  if (range.type === '*' && range.subtype === '*') return true;
  if (range.type !== 'application') return false;
  return range.subtype === '*' || (range.subtype === 'json' && range.params.as === undefined);
}

/** The Content-Type of aggregated discovery; clients recognise the answer by it. */
export const AGGREGATED_DISCOVERY_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

function asksForAggregatedV2(range: MediaRange): boolean {
  return (
    range.type === 'application' &&
    range.subtype === 'json' &&
    range.params.g === 'apidiscovery.k8s.io' &&
    range.params.v === 'v2' &&
    range.params.as === 'APIGroupDiscoveryList'
  );
}

// ---------------------------------------------------------------------------
// Documents

type Document = { contentType: string; body: unknown };

function memoized(registry: ResourceRegistry, key: string, build: () => unknown): unknown {
  const memo = memoOf(registry).documents;
  let body = memo.get(key);
  if (body === undefined) {
    body = deepFreeze(build());
    memo.set(key, body);
  }
  return body;
}

function groupVersion(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

function groupForDiscovery(g: ServedGroup): object {
  const versions = g.versions.map((v) => ({ groupVersion: groupVersion(g.name, v), version: v }));
  return { name: g.name, versions, preferredVersion: versions[0] };
}

/** APIResourceList entries for one group/version: resources and their subresources, sorted by name as upstream does. */
function apiResources(group: string, version: string, registry: ResourceRegistry): object[] {
  const entries: { name: string; entry: object }[] = [];
  for (const r of resourcesOf(group, version, registry)) {
    entries.push({
      name: r.plural,
      entry: {
        name: r.plural,
        singularName: r.singular,
        namespaced: r.namespaced,
        kind: r.kind,
        verbs: [...resourceVerbs(r)],
        ...(r.shortNames.length > 0 ? { shortNames: [...r.shortNames] } : {}),
        ...(r.categories.length > 0 ? { categories: [...r.categories] } : {}),
        ...(r.serving === 'stored' || r.serving === undefined ? { storageVersionHash: storageVersionHash(r) } : {}),
      },
    });
    for (const s of subresources(r)) {
      const other = s.kind.group !== r.group || s.kind.version !== r.version;
      entries.push({
        name: `${r.plural}/${s.name}`,
        entry: {
          name: `${r.plural}/${s.name}`,
          singularName: '',
          namespaced: r.namespaced,
          ...(other ? { group: s.kind.group, version: s.kind.version } : {}),
          kind: s.kind.kind,
          verbs: [...s.verbs],
        },
      });
    }
  }
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((e) => e.entry);
}

/** One group in the aggregated format (apidiscovery.k8s.io/v2 APIGroupDiscovery). */
function aggregatedGroup(g: ServedGroup, registry: ResourceRegistry): object {
  return {
    metadata: g.name === '' ? {} : { name: g.name },
    versions: g.versions.map((version) => ({
      version,
      resources: resourcesOf(g.name, version, registry).map((r) => ({
        resource: r.plural,
        responseKind: gvkOf(r),
        scope: r.namespaced ? 'Namespaced' : 'Cluster',
        singularResource: r.singular,
        verbs: [...resourceVerbs(r)],
        ...(r.shortNames.length > 0 ? { shortNames: [...r.shortNames] } : {}),
        ...(r.categories.length > 0 ? { categories: [...r.categories] } : {}),
        ...(subresources(r).length > 0
          ? {
              subresources: subresources(r).map((s) => ({
                subresource: s.name,
                responseKind: { ...s.kind },
                verbs: [...s.verbs],
              })),
            }
          : {}),
      })),
      freshness: 'Current',
    })),
  };
}

function aggregatedList(core: boolean, registry: ResourceRegistry): object {
  const groups = servedGroups(registry).filter((g) => (g.name === '') === core);
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2',
    metadata: {},
    items: groups.map((g) => aggregatedGroup(g, registry)),
  };
}

/**
 * The discovery document at `path` as the Accept header asks for it, or
 * undefined when `path` is not a discovery path (an unknown group or version
 * included: the caller answers 404). Throws 406 when no acceptable format is
 * served. `/api` and `/apis` answer aggregated discovery (with its own
 * Content-Type) when the Accept header prefers it, as client-go 1.26+ does.
 */
export function discoveryDocument(
  path: string,
  accept: string | undefined,
  registry: ResourceRegistry = defaultRegistry(),
): Document | undefined {
  const servedGroups = () => servedGroupsOf(registry);
  const clean = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  const parts = clean.split('/').slice(1);
  const root = parts[0];
  if (root !== 'api' && root !== 'apis') return undefined;

  let legacy: (() => unknown) | undefined;
  let aggregated: (() => unknown) | undefined;
  if (root === 'api' && parts.length === 1) {
    legacy = () => ({ kind: 'APIVersions', versions: [...servedGroups()[0].versions], serverAddressByClientCIDRs: [] });
    aggregated = () => aggregatedList(true, registry);
  } else if (root === 'api' && parts.length === 2) {
    const version = parts[1];
    if (!servedGroups().some((g) => g.name === '' && g.versions.includes(version))) return undefined;
    legacy = () => ({ kind: 'APIResourceList', groupVersion: version, resources: apiResources('', version, registry) });
  } else if (root === 'apis' && parts.length === 1) {
    legacy = () => ({
      kind: 'APIGroupList',
      apiVersion: 'v1',
      groups: servedGroups()
        .filter((g) => g.name !== '')
        .map(groupForDiscovery),
    });
    aggregated = () => aggregatedList(false, registry);
  } else if (root === 'apis' && (parts.length === 2 || parts.length === 3)) {
    const group = servedGroups().find((g) => g.name !== '' && g.name === parts[1]);
    if (group === undefined) return undefined;
    if (parts.length === 2) {
      legacy = () => ({ kind: 'APIGroup', apiVersion: 'v1', ...groupForDiscovery(group) });
    } else {
      const version = parts[2];
      if (!group.versions.includes(version)) return undefined;
      legacy = () => ({
        kind: 'APIResourceList',
        apiVersion: 'v1',
        groupVersion: groupVersion(group.name, version),
        resources: apiResources(group.name, version, registry),
      });
    }
  } else {
    return undefined;
  }

  for (const range of acceptedMediaRanges(accept)) {
    if (aggregated !== undefined && asksForAggregatedV2(range)) {
      return { contentType: AGGREGATED_DISCOVERY_V2, body: memoized(registry, `aggregated:${clean}`, aggregated) };
    }
    if (acceptsJson(range))
      return { contentType: 'application/json', body: memoized(registry, `legacy:${clean}`, legacy) };
  }
  throw notAcceptable(aggregated === undefined ? ['application/json'] : ['application/json', AGGREGATED_DISCOVERY_V2]);
}
