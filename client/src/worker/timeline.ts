/**
 * The causal timeline in the worker: the applies of saved files recorded as the roots of the chains they start (the
 * GitOps sync loop applies with `kubectl apply` semantics but records only its Events there), linked to the line of
 * the first field they changed; self-heal reverts and Revert Live to Manifest recorded the same way; and the
 * `timeline` request — one object's chain, the same selection as `simulate --explain KIND/NAME` (sandbox/timeline),
 * with the manifest `file:line` each step goes back to and, for a pod, the scheduler's per-node results.
 */
import type { ApiServer } from '../../../sandbox/apiserver/apiServer';
import type { KubeObject } from '../../../sandbox/api/types';
import type { Cluster } from '../../../sandbox/cluster/cluster';
import type { Revert, SyncResult } from '../../../sandbox/gitops/gitOpsSync';
import { manifestObjects } from '../../../sandbox/manifests/parseManifests';
import { recordApply, recordSelfHeal } from '../../../sandbox/timeline/apply';
import type { ManifestSource, RevertBy } from '../../../sandbox/timeline/apply';
import type { ManifestInput, TimelineObject, TimelineReply } from '../sandbox/protocol';
import { BadRequest, record, text } from './params';

/** The most recent steps one reply carries (an object's chain is tens of steps; a crash-looping pod's grows). */
export const TIMELINE_STEP_LIMIT = 200;

export function timelineObjectOf(value: unknown): TimelineObject {
  const p = record(value, 'params');
  if (p.namespace !== undefined && typeof p.namespace !== 'string') throw new BadRequest('namespace must be a string');
  const namespace = p.namespace === undefined || p.namespace === '' ? undefined : p.namespace;
  return { kind: text(p.kind, 'kind'), name: text(p.name, 'name'), ...(namespace ? { namespace } : {}) };
}

/** The stored object a manifest names, if any (namespaced kinds default to `default`, as the sync loop applies). */
function liveOf(api: ApiServer, manifest: KubeObject): KubeObject | undefined {
  try {
    const r = api.resourceOf(manifest);
    const name = manifest.metadata?.name;
    if (!name) return undefined;
    return api.tryGet(r, r.namespaced ? manifest.metadata.namespace || 'default' : undefined, name);
  } catch {
    return undefined;
  }
}

type FieldPath = string | readonly (string | number)[];

/**
 * The 1-based line of `field` in the document of `text` that starts on 0-based line `docLine` (the key's line, or the
 * nearest ancestor's the text has), when that document declares `expect` (kind and name); undefined otherwise. Only
 * that document is parsed: it runs to the next `---` or `...` line.
 */
export function fieldLine(
  text: string,
  docLine: number,
  field: FieldPath,
  expect?: { kind?: string; name?: string },
): number | undefined {
  let start = 0;
  for (let i = 0; i < docLine; i++) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) return undefined;
    start = nl + 1;
  }
  const firstEnd = text.indexOf('\n', start);
  let end = text.length;
  if (firstEnd >= 0) {
    const marker = /^(?:---|\.\.\.)(?:[ \t]|$)/gm;
    marker.lastIndex = firstEnd + 1;
    const next = marker.exec(text);
    if (next) end = next.index;
  }
  const doc = manifestObjects(text.slice(start, end)).manifests[0];
  if (!doc) return undefined;
  if (expect && (doc.object.kind !== expect.kind || doc.object.metadata?.name !== expect.name)) return undefined;
  return docLine + doc.fieldSpan(field).line + 1;
}

/**
 * The text of each file as last applied (`applyFile` carries it), so that an apply or a self-heal revert links to
 * the line of the field it changed. A file applied without its text, or removed, has none: its steps link to the
 * document's first line, as do those of declarations restored from a saved sandbox.
 */
export class SourceTexts {
  private readonly texts = new Map<string, string>();

  set(file: string, text: string | undefined): void {
    if (text === undefined) this.texts.delete(file);
    else this.texts.set(file, text);
  }

  delete(file: string): void {
    this.texts.delete(file);
  }

  /** Where a declaration of `file` starting on 0-based `line` came from, with the line of each field when known. */
  source(file: string, line: number, object: KubeObject): ManifestSource {
    const text = this.texts.get(file);
    const source: ManifestSource = { file, line: line + 1 };
    if (text === undefined) return source;
    const expect = { kind: object.kind, name: object.metadata?.name };
    source.lineOf = (field) => fieldLine(text, line, field, expect) ?? line + 1;
    return source;
  }
}

/**
 * Runs `apply` (the sync loop applying `file`'s manifests) and records on the cluster's timeline, when it keeps one,
 * each document it created or configured: the root of the chains that follow, with `file:line` — the line of the
 * first field it changed when `texts` holds the file's text, else the document's first line (1-based) — and the
 * fields it changed. Unchanged documents are not steps (a save re-applies the whole file).
 */
export function applyRecorded(
  cluster: Cluster,
  file: string,
  manifests: readonly ManifestInput[],
  apply: () => SyncResult,
  texts?: SourceTexts,
): SyncResult {
  const timeline = cluster.timeline;
  if (!timeline) return apply();
  const before = manifests.map((m) => liveOf(cluster.api, m.object));
  const result = apply();
  // One outcome per manifest, in order (GitOpsSync.setSource).
  result.outcomes.forEach((o, i) => {
    const m = manifests[i];
    if (!m || !o.ok || (o.action !== 'created' && o.action !== 'configured')) return;
    const after = liveOf(cluster.api, m.object);
    if (!after) return;
    const source = texts ? texts.source(file, m.line, m.object) : { file, line: m.line + 1 };
    recordApply(timeline, cluster.clock.now(), o.action, before[i], after, source);
  });
  return result;
}

/**
 * A GitOps self-heal revert (the sync loop applied a file's declaration again to undo drift), or the user's Revert
 * Live to Manifest (`by`), recorded on the cluster's timeline, when it keeps one, as an apply: the root of the chains
 * that follow, like a save — `self-heal: reverted spec.replicas 5 → 3 from web.yaml:16`, linked to the first reverted
 * field's line. A Revert Live to Manifest that found nothing to put back is no step (as an unchanged apply).
 */
export function recordRevert(cluster: Cluster, revert: Revert, texts?: SourceTexts, by: RevertBy = 'self-heal'): void {
  const timeline = cluster.timeline;
  if (!timeline || (!revert.recreated && revert.changes.length === 0)) return;
  const t = revert.tracked;
  const after = liveOf(cluster.api, { ...t.manifest, metadata: { ...t.manifest.metadata, namespace: t.namespace } });
  if (!after) return;
  const source = texts ? texts.source(t.source, t.line, t.manifest) : { file: t.source, line: t.line + 1 };
  const fields = revert.changes.map((c) => ({ path: c.path, segments: c.segments, live: c.live, desired: c.desired }));
  recordSelfHeal(timeline, cluster.clock.now(), after, fields, revert.recreated, source, by);
}

/**
 * After Reset Sandbox applied the whole desired state to a fresh cluster (`GitOpsSync.syncAll`): each declared object
 * that now exists is recorded as created by its file's apply, so that the new cluster's chains start at their files.
 */
export function recordSyncAll(
  cluster: Cluster,
  declared: readonly { source: string; line: number; manifest: KubeObject }[],
): void {
  const timeline = cluster.timeline;
  if (!timeline) return;
  for (const d of declared) {
    const after = liveOf(cluster.api, d.manifest);
    if (after)
      recordApply(timeline, cluster.clock.now(), 'created', undefined, after, { file: d.source, line: d.line + 1 });
  }
}

/**
 * The chain of one object (see the module comment): the most recent `limit` steps, each with the `file:line` of the
 * apply it goes back to; `since` is when the session's recording began.
 */
export function timelineOf(
  cluster: Cluster,
  since: number,
  object: TimelineObject,
  limit = TIMELINE_STEP_LIMIT,
): TimelineReply {
  const timeline = cluster.timeline;
  if (!timeline) return { recording: false, steps: [], truncated: false, capacity: 0 };
  const namespace = object.namespace ?? '';
  const { entries, truncated } = timeline.explain({ kind: object.kind, namespace, name: object.name });
  const kept = entries.length > limit ? entries.slice(-limit) : entries;
  const reply: TimelineReply = {
    recording: true,
    since,
    truncated,
    capacity: timeline.capacity,
    steps: kept.map((e) => {
      const origin = timeline.origin(e.id)?.source;
      return origin ? { ...e, origin } : { ...e };
    }),
  };
  if (kept.length < entries.length) reply.omitted = entries.length - kept.length;
  if (object.kind === 'Pod' && namespace) {
    // The scheduler keeps its last decision per pod: shown under the pod's last scheduling step (as --explain).
    const last = [...kept]
      .reverse()
      .find((e) => (e.what === 'Scheduled' || e.what === 'FailedScheduling') && e.subject.kind === 'Pod');
    const explanation = last ? cluster.explain(namespace, object.name) : undefined;
    if (last && explanation) reply.scheduling = { step: last.id, explanation };
  }
  return reply;
}
