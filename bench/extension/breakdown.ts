/**
 * Where one save's time goes, from the trace the extension writes when `KUBE_RECONCILE_TRACE` names a file
 * (client/src/sandbox/saveTrace.ts) plus the page's two instants (the Ctrl+S keydown and the row reading its
 * final READY). Every instant is epoch milliseconds: the page, the extension host and the worker share the machine's
 * clock. A stage whose mark is missing (the trace was off, or the path changed) is left out rather than guessed.
 */
import type { TraceLine } from '../../client/src/sandbox/saveTrace';

/** The stages of one save, in path order; each is the time from the previous instant found. */
export const STAGES = [
  ['willSave', 'keydown → onWillSave (VS Code: the keybinding, the save participants)'],
  ['save', 'onWillSave → onDidSave (the file written)'],
  ['parsed', 'manifests read and parsed on the host'],
  ['verdict', "the language server's verdict on the saved text"],
  ['request', 'applyFile posted to the worker'],
  ['apply', 'the worker picks the request up'],
  ['applied', 'apply in the worker (GitOps sync, API server writes)'],
  ['ready', 'the sandbox converges (wall time; its sandbox time ÷ speed below)'],
  ['flush', 'the batch with the converged Deployment leaves the worker (batcher)'],
  ['changes', 'the host receives it (mirror cache updated)'],
  ['refresh', 'the tree model refreshes (throttle, then the changed rows fired)'],
  ['shown', 'VS Code renders the row (page sees it)'],
] as const;

export type Stage = (typeof STAGES)[number][0];

export interface SaveBreakdown {
  /** Milliseconds per stage (only those found). */
  stages: Partial<Record<Stage, number>>;
  /** Keydown to the row shown. */
  total: number;
  /**
   * What the extension adds: the total less VS Code's save (keydown → onDidSave) and the sandbox converging (apply →
   * ready), neither of which it controls; undefined when a mark is missing.
   */
  overhead?: number;
  /** Sandbox time from the apply to the Deployment ready, when both were traced. */
  sandboxMs?: number;
  /** Plans (foresight) the worker started between the keydown and the row shown, and the time they held its thread. */
  plans: number;
  planMs: number;
  /** Batches of changes the host received meanwhile. */
  batches: number;
}

function first(lines: readonly TraceLine[], after: number, match: (l: TraceLine) => boolean): TraceLine | undefined {
  return lines.find((l) => l.t >= after && match(l));
}

function shows(l: TraceLine, deployment: string): boolean {
  return Array.isArray(l.deployments) && (l.deployments as unknown[]).includes(deployment);
}

/**
 * The breakdown of the save whose keydown was at `keydown` and whose row was seen at `shown`, for the Deployment
 * `deployment` as the trace prints it (`default/web 10/10`).
 */
export function breakdown(
  trace: readonly TraceLine[],
  keydown: number,
  shown: number,
  deployment: string,
): SaveBreakdown {
  const lines = trace.filter((l) => l.t >= keydown && l.t <= shown).sort((a, b) => a.t - b.t);
  const at: Partial<Record<Stage, TraceLine>> = {};
  let cursor = keydown;
  const find = (stage: Stage, match: (l: TraceLine) => boolean) => {
    const l = first(lines, cursor, match);
    if (l) {
      at[stage] = l;
      cursor = l.t;
    }
  };
  find('willSave', (l) => l.stage === 'willSave');
  find('save', (l) => l.stage === 'save');
  find('parsed', (l) => l.stage === 'parsed');
  find('verdict', (l) => l.stage === 'verdict');
  find('request', (l) => l.stage === 'request' && l.method === 'applyFile');
  find('apply', (l) => l.stage === 'apply');
  find('applied', (l) => l.stage === 'applied');
  find('ready', (l) => l.stage === 'watch' && shows(l, deployment));
  find('flush', (l) => l.stage === 'flush' && shows(l, deployment));
  find('changes', (l) => l.stage === 'changes' && shows(l, deployment));
  find('refresh', (l) => l.stage === 'refresh');
  const stages: Partial<Record<Stage, number>> = {};
  let previous = keydown;
  for (const [stage] of STAGES) {
    const t = stage === 'shown' ? shown : at[stage]?.t;
    if (t === undefined) continue;
    stages[stage] = t - previous;
    previous = t;
  }
  const applyTime = at.apply?.sandboxTime;
  const readyTime = at.ready?.sandboxTime;
  const overhead =
    at.save && at.apply && at.ready ? shown - keydown - (at.save.t - keydown) - (at.ready.t - at.apply.t) : undefined;
  return {
    stages,
    total: shown - keydown,
    ...(overhead === undefined ? {} : { overhead }),
    ...(typeof applyTime === 'number' && typeof readyTime === 'number' ? { sandboxMs: readyTime - applyTime } : {}),
    plans: lines.filter((l) => l.stage === 'plan').length,
    planMs: planTime(lines),
    batches: lines.filter((l) => l.stage === 'changes').length,
  };
}

/**
 * The worker's time inside plans among `lines`. Nothing else on its thread marks the trace while a plan runs, so a
 * `planned` before any other worker line belongs to a plan that started before the window: counted from its start.
 */
function planTime(lines: readonly TraceLine[]): number {
  let total = 0;
  let started: number | undefined = lines[0]?.t;
  for (const l of lines) {
    if (l.thread !== 'worker') continue;
    if (l.stage === 'plan') started = l.t;
    else if (l.stage === 'planned') {
      if (started !== undefined) total += l.t - started;
      started = undefined;
    } else started = undefined;
  }
  return total;
}
