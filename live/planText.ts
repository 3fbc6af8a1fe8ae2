/**
 * A plan against a real context, as text: a snapshot of the live state (`snapshot.ts`, GET only) loaded into a
 * sandbox fork, the change applied there (`sandbox/plan`, run by the caller's planner), and `kube-reconcile plan`'s
 * report led by which cluster was copied and what the snapshot could not see. The header is shared by
 * `plan --kubeconfig` (cli/plan.ts, which runs the engine itself) and the editor's Plan Against Cluster…
 * (client/src/live, whose planner is the sandbox worker). This file loads no plan engine: the extension host imports
 * it. Nothing is written to the cluster.
 */
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
}

/**
 * Runs the plan engine on a live snapshot and answers the report's text (sandbox/plan/format.ts): in the editor the
 * sandbox worker does (its `planLive` request), so that the extension host never loads the control plane.
 */
export type LivePlanner = (live: LiveSnapshot) => Promise<string>;

/** Plans on a snapshot of `conn`'s cluster with `planner`: the report's text, led by `liveHeader`. */
export async function planAgainstLive(
  conn: LiveConnection,
  planner: LivePlanner,
  options: LivePlanOptions,
): Promise<string> {
  const live = await takeLiveSnapshot(conn, {
    time: options.time,
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
  });
  return liveHeader(live, conn.context) + (await planner(live));
}
