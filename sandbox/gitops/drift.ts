/**
 * Drift: does the live object still hold what its manifest sets? Asked the
 * way `kubectl diff` asks it — a dry-run `kubectl apply` (the three-way merge
 * from the last-applied manifest) — so fields the manifest never sets
 * (status, controller annotations, defaults) and values the API server would
 * default back anyway are not drift, while a hand-scaled Deployment is.
 */
import type { ApiServer } from '../apiserver/apiServer';
import type { KubeObject } from '../api/types';
import { applyManifest, LAST_APPLIED } from '../operations/apply/apply';
import { isPlainObject, jsonEqual } from '../util/json';

/** One field the apply would put back: its path and the live and desired values. */
export interface FieldChange {
  path: string;
  /** The path's keys and list indexes (`['metadata', 'labels', 'app.kubernetes.io/name']`): dots kept in keys. */
  segments: (string | number)[];
  live: unknown;
  desired: unknown;
}

/** Changes listed in an event message before "and N more". */
export const MAX_LISTED_CHANGES = 5;

/** Bookkeeping a write always touches; never drift by itself. */
function ignored(path: string): boolean {
  return (
    path === 'metadata.generation' ||
    path === 'metadata.resourceVersion' ||
    path === 'metadata.managedFields' ||
    path === `metadata.annotations.${LAST_APPLIED}`
  );
}

function join(path: string, key: string): string {
  return /^[A-Za-z_$][\w$-]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;
}

/** Leaf differences between two JSON values, in key order of `b` then of keys only in `a`. */
export function diffJson(
  a: unknown,
  b: unknown,
  path = '',
  out: FieldChange[] = [],
  segments: (string | number)[] = [],
): FieldChange[] {
  if (jsonEqual(a, b)) return out;
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = [...Object.keys(b), ...Object.keys(a).filter((k) => !(k in b))];
    for (const k of keys) diffJson(a[k], b[k], join(path, k), out, [...segments, k]);
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((item, i) => diffJson(item, b[i], `${path}[${i}]`, out, [...segments, i]));
    return out;
  }
  if (!ignored(path)) out.push({ path, segments, live: a, desired: b });
  return out;
}

/**
 * The fields a re-apply of `manifest` would change on the live object, or
 * `undefined` when the object does not exist (or is being deleted). Throws the
 * ApiError when the apply itself would be rejected.
 */
export function detectDrift(api: ApiServer, manifest: KubeObject, namespace?: string): FieldChange[] | undefined {
  const r = api.resourceOf(manifest);
  const ns = r.namespaced ? manifest.metadata.namespace || namespace || 'default' : undefined;
  const live = api.tryGet(r, ns, manifest.metadata.name ?? '');
  if (!live || live.metadata.deletionTimestamp) return undefined;
  const result = applyManifest(api, manifest, { namespace, dryRun: true });
  if (result.object === live) return [];
  return diffJson(stripStatus(live, r.statusSubresource), stripStatus(result.object, r.statusSubresource));
}

function stripStatus(obj: KubeObject, hasStatusSubresource: boolean): KubeObject {
  if (!hasStatusSubresource) return obj;
  const { status: _status, ...rest } = obj;
  return rest as KubeObject;
}

function show(value: unknown): string {
  if (value === undefined) return '<none>';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** `spec.replicas 5 → 3, metadata.labels.tier <none> → web` (at most MAX_LISTED_CHANGES, then "and N more"). */
export function describeChanges(changes: readonly FieldChange[]): string {
  const listed = changes.slice(0, MAX_LISTED_CHANGES).map((c) => `${c.path} ${show(c.live)} → ${show(c.desired)}`);
  const more = changes.length - listed.length;
  return more > 0 ? `${listed.join(', ')} and ${more} more` : listed.join(', ');
}
