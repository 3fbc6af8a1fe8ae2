/**
 * Stored objects share the sub-objects they carry alike (issue 16: heap per pod). Every pod gets the same two NoExecute
 * tolerations (DefaultTolerationSeconds), the same projected source in its `kube-api-access-…` volume (ServiceAccount
 * admission) and, when it writes none, an empty `securityContext`; the pods of one ReplicaSet carry the same labels,
 * owner reference, containers' resources, ports, env and probes, and the same first status; workloads made from one
 * template (a Deployment's ReplicaSets, a CronJob's Jobs) the same pod template. On create, just before the object is
 * stored, a sub-object written exactly as a canonical one (see `writtenAs`) becomes that one deeply frozen object: a
 * pod's admission defaults' canonical objects first, then any part written as the same part of the object of its kind
 * created before it (a ReplicaSet creates its pods one after another).
 *
 * Safe because a stored object is deeply frozen (`ObjectStore.put` → `deepFreeze`, which leaves an already frozen
 * object as it is) and every reader treats it as immutable: whoever changes an object copies the part it changes.
 * What the API answers is unchanged: a shared object's JSON is the JSON of the one it replaces, and every YAML writer
 * writes a repeated object in full (sandbox/util/yamlText.ts). The caches keyed by a frozen object (the strict-field
 * walk, the measured members, the kubelet's requests per spec) hold what its content alone decides, so sharing cannot
 * change their answers. Nothing decides a change by identity across two objects (the scheduler and the kubelet compare
 * two versions of one object, and a new object has none).
 */
import type { KubeObject } from '../api/types';
import { applyDefaultTolerations } from '../admission/defaults/tolerations';
import { SERVICE_ACCOUNT_VOLUME_PREFIX, tokenVolumeSource } from '../admission/plugins/serviceAccount';
import { deepFreeze, isPlainObject } from '../util/json';
import { repeatedKeyOrder } from '../util/keyOrder';

/** The tolerations DefaultTolerationSeconds gives a pod without any, as the plugin writes them. */
const DEFAULT_TOLERATIONS: unknown = (() => {
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: {} } as KubeObject;
  applyDefaultTolerations(pod);
  return deepFreeze((pod.spec as Record<string, unknown>).tolerations);
})();

/** The projected source of a `kube-api-access-…` volume as admission writes it (`defaultMode` 420 already set). */
const TOKEN_VOLUME_SOURCE: unknown = deepFreeze(tokenVolumeSource());

const EMPTY_SECURITY_CONTEXT: unknown = deepFreeze({});

/** One plain object or array written with a repeated key (the decoder recorded it): never shared. */
function repeats(value: object): boolean {
  return !Array.isArray(value) && repeatedKeyOrder(value as Record<string, unknown>) !== undefined;
}

/**
 * `value` written exactly as `canonical`: the same JSON text and YAML text — keys in the same order, numbers the
 * same to their sign (`-0` is not `0` in YAML), nothing recorded as written with a repeated key on either side.
 */
export function writtenAs(value: unknown, canonical: unknown): boolean {
  if (typeof value !== 'object' || value === null || typeof canonical !== 'object' || canonical === null)
    return Object.is(value, canonical);
  if (value === canonical) return true;
  if (Array.isArray(value) !== Array.isArray(canonical) || repeats(value) || repeats(canonical)) return false;
  if (Array.isArray(value)) {
    const c = canonical as unknown[];
    if (value.length !== c.length) return false;
    for (let i = 0; i < c.length; i++) if (!writtenAs(value[i], c[i])) return false;
    return true;
  }
  const v = value as Record<string, unknown>;
  const c = canonical as Record<string, unknown>;
  const keys = Object.keys(v);
  const want = Object.keys(c);
  if (keys.length !== want.length) return false;
  for (let i = 0; i < want.length; i++) if (keys[i] !== want[i] || !writtenAs(v[keys[i]], c[keys[i]])) return false;
  return true;
}

/**
 * `value` with its parts written exactly as the same parts of `frozen` (a deeply frozen object) replaced by those
 * parts, in place; answers `frozen` itself when the whole of `value` is written as it, else `value`. One pass,
 * bottom up: a part is written as the other once its children are the other's children, and its keys in the same
 * order (checked last, only then). JSON values hold no `undefined`, so a member the other lacks reads as undefined.
 */
export function shareFrom(value: unknown, frozen: unknown): unknown {
  if (value === frozen) return value;
  if (typeof value !== 'object' || value === null || typeof frozen !== 'object' || frozen === null) return value;
  if (!Object.isFrozen(frozen)) return value;
  // A frozen part (a canonical object already, or a member kept from the body) cannot take shared children.
  if (Object.isFrozen(value)) return writtenAs(value, frozen) ? frozen : value;
  if (Array.isArray(value)) {
    if (!Array.isArray(frozen)) return value;
    const f = frozen as readonly unknown[];
    let same = value.length === f.length;
    const n = Math.min(value.length, f.length);
    for (let i = 0; i < n; i++) {
      const v = value[i];
      const shared = typeof v === 'object' && v !== null ? shareFrom(v, f[i]) : v;
      if (shared !== v) value[i] = shared;
      if (same && !Object.is(shared, f[i])) same = false;
    }
    return same ? frozen : value;
  }
  if (Array.isArray(frozen)) return value;
  const v = value as Record<string, unknown>;
  const f = frozen as Readonly<Record<string, unknown>>;
  let same = true;
  let count = 0;
  for (const key in v) {
    count++;
    const mine = v[key];
    const theirs = f[key];
    if (theirs === undefined) {
      same = false;
      continue;
    }
    const shared = typeof mine === 'object' && mine !== null ? shareFrom(mine, theirs) : mine;
    if (shared !== mine) v[key] = shared;
    if (same && !Object.is(shared, theirs)) same = false;
  }
  if (!same) return value;
  let theirCount = 0;
  for (const _ in f) theirCount++;
  return theirCount === count && sameKeyOrder(v, f) && !repeats(v) && !repeats(f) ? frozen : value;
}

function sameKeyOrder(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean {
  const x = Object.keys(a);
  const y = Object.keys(b);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/** The members that may be another object's whole: not `metadata`, where the store stamps the resourceVersion. */
const SHARED_MEMBERS = ['spec', 'status'] as const;

/**
 * The kinds whose new objects share with the one of their kind created before them: pods, and the workloads whose pod
 * templates repeat (a Deployment's ReplicaSets, a CronJob's Jobs). Not custom resources or CRDs (their schemas
 * compile to validations that name field paths), not Events (their own path).
 */
const SHARING_KINDS: ReadonlySet<string> = new Set([
  '/Pod',
  '/ReplicationController',
  'apps/ReplicaSet',
  'apps/Deployment',
  'apps/StatefulSet',
  'apps/DaemonSet',
  'batch/Job',
  'batch/CronJob',
]);

/** Whether new objects of this kind share sub-objects (`shareSubObjects`), by group and kind. */
export function sharesSubObjects(group: string, kind: string): boolean {
  return SHARING_KINDS.has(`${group}/${kind}`);
}

/**
 * Before a new object of a sharing kind is stored: a pod's admission defaults become the canonical objects, and every
 * part written as the same part of `previous` (the object of its kind stored before it, deeply frozen) becomes that
 * part. `obj` is the API server's private copy, about to be frozen by the store.
 */
export function shareSubObjects(obj: KubeObject, previous: KubeObject | undefined): void {
  if (obj.kind === 'Pod') sharePodDefaults(obj);
  if (previous === undefined) return;
  const meta = obj.metadata as unknown as Record<string, unknown>;
  const theirs = previous.metadata as unknown as Record<string, unknown>;
  if (!Object.isFrozen(meta)) for (const key of Object.keys(meta)) shareMember(meta, key, theirs[key]);
  const q = previous as unknown as Record<string, unknown>;
  for (const member of SHARED_MEMBERS) shareMember(obj as unknown as Record<string, unknown>, member, q[member]);
}

function sharePodDefaults(pod: KubeObject): void {
  const spec = pod.spec;
  if (!isPlainObject(spec) || Object.isFrozen(spec)) return;
  shareMember(spec, 'tolerations', DEFAULT_TOLERATIONS);
  shareMember(spec, 'securityContext', EMPTY_SECURITY_CONTEXT);
  const volumes = spec.volumes;
  if (!Array.isArray(volumes) || Object.isFrozen(volumes)) return;
  for (const v of volumes) {
    if (!isPlainObject(v) || Object.isFrozen(v) || typeof v.name !== 'string') continue;
    if (v.name.startsWith(SERVICE_ACCOUNT_VOLUME_PREFIX)) shareMember(v, 'projected', TOKEN_VOLUME_SOURCE);
  }
}

/** `obj[key]` (when `obj` has it) with its parts shared from `frozen` (see `shareFrom`). */
function shareMember(obj: Record<string, unknown>, key: string, frozen: unknown): void {
  const value = obj[key];
  if (value === undefined || frozen === undefined) return;
  const shared = shareFrom(value, frozen);
  if (shared !== value) obj[key] = shared;
}

/** Distinct Event sources kept (a recorder's component and node): beyond it, a new one is stored as written. */
const MAX_EVENT_SOURCES = 100_000;

/**
 * Core Events share their `source` (issue 16: a copy per Event, ~0.2 KiB a pod at the envelope's shape): every Event a
 * recorder writes carries the same `{component, host}`, which the body's decoding copies. A `source` written as one of
 * those two shapes (string members, no repeated key) becomes the frozen object first stored with the same text; any
 * other `source` is stored as written. Safe as `shareSubObjects` is (stored objects are deeply frozen), and the API
 * answers the same JSON.
 */
export class EventSources {
  /**
   * By component, then host (`alone`: the source written without a host): the strings are the recorder's own, hashed
   * once, where a key joined from them was a new string to hash every Event (issue 16: ~0.3% of the quick envelope).
   */
  private readonly known = new Map<string, { alone?: object; byHost: Map<string, object> }>();
  private count = 0;

  /**
   * `event.source` replaced, in place, by the shared object written as it (`event` is the API server's copy). A frozen
   * `source` is the client's own, kept uncopied by the decoding (decodeBody.ts `KEPT_FROZEN`): of the shape taken
   * here (string members only) it is frozen all the way down, so it is shared as a copy of it would be.
   */
  share(event: KubeObject): void {
    const source = event.source;
    if (!isPlainObject(source) || repeats(source)) return;
    const keys = Object.keys(source);
    const component = source.component;
    if (typeof component !== 'string' || keys[0] !== 'component' || keys.length > 2) return;
    const host = source.host;
    if (keys.length === 2 && (keys[1] !== 'host' || typeof host !== 'string')) return;
    let sources = this.known.get(component);
    const shared =
      sources === undefined ? undefined : keys.length === 2 ? sources.byHost.get(host as string) : sources.alone;
    if (shared !== undefined) {
      if (writtenAs(source, shared)) event.source = shared;
      return;
    }
    if (this.count >= MAX_EVENT_SOURCES) return;
    if (sources === undefined) this.known.set(component, (sources = { byHost: new Map() }));
    if (keys.length === 2) sources.byHost.set(host as string, deepFreeze(source));
    else sources.alone = deepFreeze(source);
    this.count++;
  }

  /** Sources kept (tests). */
  get size(): number {
    return this.count;
  }
}
