/**
 * `kubectl rollout history` and `kubectl rollout undo` for StatefulSets and DaemonSets (kubectl
 * pkg/polymorphichelpers: `StatefulSetHistoryViewer`/`DaemonSetHistoryViewer` and `printHistory` in history.go;
 * `StatefulSetRollbacker`/`DaemonSetRollbacker` and `findHistory` in rollback.go), and the history of Deployments
 * (`DeploymentHistoryViewer`, from their ReplicaSets' revision annotations). Built on the API verbs only: the
 * ControllerRevisions the controllers keep, and a strategic merge patch of a revision's data for an undo.
 */
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { ApiServer, ResourceRef } from '../apiserver/apiServer';
import { qualifiedKind } from '../api/resources';
import type { ResourceType } from '../api/resources';
import { labelSelectorFromObject } from '../api/selectors/labelSelector';
import type { KubeObject } from '../api/types';
import { revisionBytes, templatePatch } from './revisionPatch';

/** `ChangeCauseAnnotation`. */
export const CHANGE_CAUSE_ANNOTATION = 'kubernetes.io/change-cause';

function refOf(r: ResourceType, name: string): string {
  return `${qualifiedKind(r).toLowerCase()}/${name}`;
}

function isRevisioned(r: ResourceType): boolean {
  return r.group === 'apps' && (r.kind === 'StatefulSet' || r.kind === 'DaemonSet');
}

/** `controlledHistory`: the revisions matching the workload's selector that it controls. */
export function controlledHistory(api: ApiServer, obj: KubeObject): (ControllerRevision & KubeObject)[] {
  const selector = labelSelectorFromObject((obj.spec as { selector?: object } | undefined)?.selector);
  return api
    .list('controllerrevisions', { namespace: obj.metadata.namespace })
    .items.filter(
      (r) =>
        selector.matches(r.metadata.labels) &&
        (r.metadata.ownerReferences ?? []).some((o) => o.controller === true && o.uid === obj.metadata.uid),
    );
}

/** `tabbedString` with Go's tabwriter (minwidth 0, padding 2): each column padded to its widest cell plus two. */
function tabbed(rows: readonly string[][]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows
    .map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] + 2))).join(''))
    .join('\n');
}

/** `printHistory`'s table: REVISION and CHANGE-CAUSE, by revision (one row per number, the last one seen wins). */
function historyTable(entries: readonly { revision: number; annotations?: Record<string, string> }[]): string {
  const byRevision = new Map<number, Record<string, string> | undefined>();
  for (const e of entries) byRevision.set(e.revision, e.annotations);
  if (byRevision.size === 0) return 'No rollout history found.';
  const rows = [['REVISION', 'CHANGE-CAUSE']];
  for (const revision of [...byRevision.keys()].sort((a, b) => a - b)) {
    const cause = byRevision.get(revision)?.[CHANGE_CAUSE_ANNOTATION];
    rows.push([String(revision), cause ? cause : '<none>']);
  }
  return `${tabbed(rows)}\n`;
}

/**
 * `kubectl rollout history TYPE/NAME`: kubectl's output, `statefulset.apps/web ` (the name printer's line with an
 * empty operation) then the table. `--revision=N` prints the revision's pod template as `kubectl describe` does,
 * which the sandbox does not model: that is an error saying so.
 */
export function rolloutHistory(
  api: ApiServer,
  resource: ResourceRef,
  namespace: string | undefined,
  name: string,
  revision = 0,
): string {
  const r = api.resolve(resource);
  const obj = api.get(r, namespace, name);
  let entries: { revision: number; annotations?: Record<string, string> }[];
  if (isRevisioned(r)) {
    entries = controlledHistory(api, obj).map((h) => ({ revision: h.revision, annotations: h.metadata.annotations }));
  } else if (r.group === 'apps' && r.kind === 'Deployment') {
    entries = [];
    for (const rs of api.list('replicasets', { namespace }).items) {
      if (!(rs.metadata.ownerReferences ?? []).some((o) => o.controller === true && o.uid === obj.metadata.uid))
        continue;
      const text = rs.metadata.annotations?.['deployment.kubernetes.io/revision'];
      if (text === undefined || !/^\d+$/.test(text)) continue;
      entries.push({ revision: Number(text), annotations: rs.metadata.annotations });
    }
  } else throw new Error(`no history viewer has been implemented for "${qualifiedKind(r)}"`);
  if (revision > 0) {
    if (!entries.some((e) => e.revision === revision)) throw new Error('unable to find the specified revision');
    throw new Error(
      `rollout history --revision=${revision}: the sandbox does not model kubectl's pod template description`,
    );
  }
  return `${refOf(r, name)} \n${historyTable(entries)}`;
}

/**
 * `kubectl rollout undo` of a StatefulSet or DaemonSet: the revision `toRevision` (the one before the newest for 0)
 * is applied as a strategic merge patch of its data; skipped when the template already matches.
 */
export function rolloutUndoRevision(
  api: ApiServer,
  resource: ResourceRef,
  namespace: string | undefined,
  name: string,
  toRevision = 0,
): { object: KubeObject; message: string } {
  const r = api.resolve(resource);
  if (!isRevisioned(r)) throw new Error(`no rollbacker has been implemented for "${qualifiedKind(r)}"`);
  if (toRevision < 0) throw new Error(`unable to find specified revision ${toRevision} in history`);
  const obj = api.get(r, namespace, name);
  const history = controlledHistory(api, obj).sort((a, b) => a.revision - b.revision);
  if (toRevision === 0 && history.length <= 1) throw new Error('no last revision to roll back to');
  const target = toRevision === 0 ? history[history.length - 2] : history.find((h) => h.revision === toRevision);
  if (!target) throw new Error(`unable to find specified revision ${toRevision} in history`);
  const current = templatePatch((obj.spec as { template?: object } | undefined)?.template);
  if (revisionBytes(current) === revisionBytes(target.data ?? null))
    return {
      object: obj,
      message: `${refOf(r, name)} skipped rollback (current template already matches revision ${toRevision})`,
    };
  const object = api.patch(r, namespace, name, 'strategic', target.data);
  return { object, message: `${refOf(r, name)} rolled back` };
}
