/**
 * A plan against a real context, as text: a snapshot of the live state (`snapshot.ts`, GET only) loaded into a
 * sandbox fork, the change applied there (`sandbox/plan`), and `kube-reconcile plan`'s report led by which cluster
 * was copied and what the snapshot could not see. Shared by `plan --kubeconfig` (cli/plan.ts) and the editor's
 * Plan Against Cluster… (client/src/live). Nothing is written to the cluster.
 */
import { formatPlanText } from '../sandbox/plan/format';
import { runPlan } from '../sandbox/plan/plan';
import type { PlanManifest } from '../sandbox/plan/plan';
import type { LiveConnection } from './connection';
import type { LiveContext } from './kubeconfig';
import { takeLiveSnapshot } from './snapshot';
import type { LiveSnapshot } from './snapshot';

/** The text plan's first lines: which cluster, what was copied, what could not be seen. */
export function liveHeader(live: LiveSnapshot, ctx: LiveContext): string {
  const counts = Object.entries(live.counts)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${kind}${n === 1 ? '' : kind.endsWith('s') ? 'es' : 's'}`)
    .join(', ');
  return [
    `Planned on a snapshot of context "${ctx.name}" (${ctx.server}): ${counts || 'no objects'}.`,
    'Nothing was written to the cluster. The snapshot could not see:',
    ...live.unseen.map((u) => `  - ${u}`),
    '',
    '',
  ].join('\n');
}

export interface LivePlanOptions {
  /** Wall-clock milliseconds: the snapshot's time. */
  time: number;
  seed?: number | string;
  limitMs?: number;
  namespace?: string;
}

/** Plans `manifests` on a snapshot of `conn`'s cluster: the report's text, led by `liveHeader`. */
export async function planAgainstLive(
  conn: LiveConnection,
  manifests: readonly PlanManifest[],
  options: LivePlanOptions,
): Promise<string> {
  const live = await takeLiveSnapshot(conn, {
    time: options.time,
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
  });
  const report = runPlan({
    manifests,
    snapshot: live.snapshot,
    nodes: live.nodes,
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.limitMs !== undefined ? { limitMs: options.limitMs } : {}),
    ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
  });
  return liveHeader(live, conn.context) + formatPlanText(report);
}
