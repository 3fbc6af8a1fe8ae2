/**
 * A `kubectl apply` on the timeline: the root of the chains it starts, with the manifest's `file:line` and the
 * fields it changed (`image nginx:1.25 → nginx:1.27`), found by comparing the stored object before and after.
 */
import type { KubeObject } from '../api/types';
import { refOf } from './changes';
import type { Timeline } from './timeline';

/**
 * Where a manifest came from: its file, the document's line, and the 1-based line of a field (an upstream path, or its
 * keys and indexes).
 */
export interface ManifestSource {
  file: string;
  line: number;
  lineOf?(field: string | readonly (string | number)[]): number;
}

export interface FieldChange {
  /** Upstream path: `spec.template.spec.containers[0].image`. */
  path: string;
  /** The path's keys and indexes, dots kept in keys (`['metadata', 'labels', 'app.kubernetes.io/name']`). */
  segments: (string | number)[];
  before: unknown;
  after: unknown;
}

/** Fields no user writes: left out of an apply's changes. */
const IGNORED_META = new Set([
  'resourceVersion',
  'generation',
  'managedFields',
  'uid',
  'creationTimestamp',
  'annotations.kubectl.kubernetes.io/last-applied-configuration',
]);

/** The changed leaves of `spec`, `metadata.labels`, `metadata.annotations` (and `data` for ConfigMaps), in order. */
export function changedFields(before: KubeObject, after: KubeObject, limit = 20): FieldChange[] {
  const out: FieldChange[] = [];
  const walk = (a: unknown, b: unknown, path: string, segments: (string | number)[]) => {
    if (out.length >= limit) return;
    if (a === b) return;
    const objA = typeof a === 'object' && a !== null;
    const objB = typeof b === 'object' && b !== null;
    if (objA && objB && Array.isArray(a) === Array.isArray(b)) {
      if (Array.isArray(a)) {
        const bb = b as unknown[];
        for (let i = 0; i < Math.max(a.length, bb.length); i++) walk(a[i], bb[i], `${path}[${i}]`, [...segments, i]);
        return;
      }
      const ra = a as Record<string, unknown>;
      const rb = b as Record<string, unknown>;
      for (const k of new Set([...Object.keys(ra), ...Object.keys(rb)]))
        walk(ra[k], rb[k], path ? `${path}.${k}` : k, [...segments, k]);
      return;
    }
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ path, segments, before: a, after: b });
  };
  for (const top of ['spec', 'data', 'stringData']) {
    walk((before as Record<string, unknown>)[top], (after as Record<string, unknown>)[top], top, [top]);
  }
  for (const meta of ['labels', 'annotations'] as const) {
    const strip = (m: Record<string, string> | undefined) =>
      m && Object.fromEntries(Object.entries(m).filter(([k]) => !IGNORED_META.has(`${meta}.${k}`)));
    walk(strip(before.metadata[meta]), strip(after.metadata[meta]), `metadata.${meta}`, ['metadata', meta]);
  }
  return out;
}

function show(v: unknown): string {
  if (v === undefined) return '(none)';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/**
 * `image nginx:1.25 → nginx:1.27`: the last key of the path (a label's whole key, `app.kubernetes.io/name`), then the
 * values.
 */
export function describeChange(c: FieldChange): string {
  const leaf = c.segments.filter((s): s is string => typeof s === 'string').pop() ?? c.path;
  return `${leaf} ${show(c.before)} → ${show(c.after)}`;
}

/**
 * Records an apply: `created`, `configured` (with the changed fields, the line of the first) or `unchanged`, with
 * the stored object's resourceVersion. Returns the entry's id.
 */
export function recordApply(
  timeline: Timeline,
  time: number,
  action: 'created' | 'configured' | 'unchanged',
  before: KubeObject | undefined,
  after: KubeObject,
  source: ManifestSource | undefined,
): number {
  const changes = before && action === 'configured' ? changedFields(before, after) : [];
  // By its keys: a dotted key (`app.kubernetes.io/name`) is one key, where the dotted path would split it.
  const line = changes.length > 0 && source?.lineOf ? source.lineOf(changes[0].segments) : source?.line;
  const shown = changes.slice(0, 3).map(describeChange);
  if (changes.length > 3) shown.push(`${changes.length - 3} more`);
  return timeline.record({
    time,
    type: 'apply',
    component: 'apply',
    subject: refOf(after),
    what: action,
    message: `${after.kind.toLowerCase()}/${after.metadata.name} ${action}`,
    resourceVersion: after.metadata.resourceVersion,
    ...(shown.length > 0 ? { why: shown.join(', ') } : {}),
    ...(source ? { source: `${source.file}:${line}` } : {}),
  });
}

/** A field a self-heal revert put back: its upstream path, the live (drifted) value and the declared one. */
export interface RevertedField {
  path: string;
  /** The path's keys and indexes, dots kept in keys (`['metadata', 'labels', 'app.kubernetes.io/name']`). */
  segments?: readonly (string | number)[];
  live: unknown;
  desired: unknown;
}

/** Fields named in a self-heal step's message before "N more". */
const LISTED_REVERTS = 3;

/** Who put a declaration back: the GitOps sync loop's self-heal, or the user's Revert Live to Manifest. */
export type RevertBy = 'self-heal' | 'revert';

/** The words a revert step's message starts with (its `what` is `by`). */
export const REVERT_TITLES: Record<RevertBy, string> = {
  'self-heal': 'self-heal',
  revert: 'Revert Live to Manifest',
};

/**
 * Records a GitOps self-heal revert (or the user's Revert Live to Manifest, `by`) as an apply — the root of the chains
 * it starts, as a save is: the file's declaration was applied again to undo drift.
 * `self-heal: reverted spec.replicas 5 → 3 from web.yaml:9` (`recreated from web.yaml:9` when the object had been
 * deleted), its `file:line` the line of the first reverted field (`lineOf`) or the document's. Returns the entry's id.
 */
export function recordSelfHeal(
  timeline: Timeline,
  time: number,
  after: KubeObject,
  reverted: readonly RevertedField[],
  recreated: boolean,
  source: ManifestSource,
  by: RevertBy = 'self-heal',
): number {
  const line =
    reverted.length > 0 && source.lineOf ? source.lineOf(reverted[0].segments ?? reverted[0].path) : source.line;
  const at = `${source.file}:${line}`;
  const listed = reverted.slice(0, LISTED_REVERTS).map((c) => `${c.path} ${show(c.live)} → ${show(c.desired)}`);
  if (reverted.length > LISTED_REVERTS) listed.push(`${reverted.length - LISTED_REVERTS} more`);
  const what = recreated || reverted.length === 0 ? 'recreated' : `reverted ${listed.join(', ')}`;
  return timeline.record({
    time,
    type: 'apply',
    component: 'apply',
    subject: refOf(after),
    what: by,
    message: `${REVERT_TITLES[by]}: ${what} from ${at}`,
    resourceVersion: after.metadata.resourceVersion,
    source: at,
  });
}
