/**
 * The status-bar item of the sandbox: `$(pulse) Sandbox 5× · 12 pods`,
 * `$(debug-pause) Sandbox paused · 12 pods` (on the warning background), and
 * what needs attention: `· $(error) 1 pod failing`.
 */
import type { SandboxStatus } from '../sandbox/protocol';
import type { HealthSummary } from './liveState';

export interface StatusBarText {
  text: string;
  tooltip: string;
  /** A theme colour id for the item's background (`statusBarItem.warningBackground` while paused). */
  background?: string;
}

export const WARNING_BACKGROUND = 'statusBarItem.warningBackground';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Running operations (a drain waiting on a PodDisruptionBudget) after the text and in the tooltip. */
function withOperations(base: StatusBarText, status: SandboxStatus): StatusBarText {
  const ops = status.operations ?? [];
  if (ops.length === 0) return base;
  const titles = ops.map((o) => o.title).join(', ');
  return {
    ...base,
    text: `${base.text} · $(sync~spin) ${titles}`,
    tooltip: [base.tooltip, ...ops.map((o) => `${o.title}: ${o.detail}`)].join('\n'),
  };
}

/**
 * Drains that failed on nodes still cordoned, until the user acts on them: `$(warning) Drain node-2 failed`, kubectl's
 * error in the tooltip.
 */
function withRefusedDrains(base: StatusBarText, status: SandboxStatus): StatusBarText {
  const refused = status.refusedDrains ?? [];
  if (refused.length === 0) return base;
  const what = refused.length === 1 ? `Drain ${refused[0].node} failed` : `${refused.length} drains failed`;
  return {
    ...base,
    text: `${base.text} · $(warning) ${what}`,
    tooltip: [
      base.tooltip,
      ...refused.map(
        (r) => `Drain ${r.node} failed: ${r.message}. ${r.node} stays cordoned: Uncordon it, or drain it again.`,
      ),
    ].join('\n'),
  };
}

function withHealth(base: StatusBarText, health: HealthSummary | undefined): StatusBarText {
  if (!health || health.text === '') return base;
  const icon = /failing|NotReady/.test(health.text) ? '$(error)' : '$(warning)';
  return {
    ...base,
    text: `${base.text} · ${icon} ${health.text}`,
    tooltip: [base.tooltip, ...health.details].join('\n'),
  };
}

/** Text and tooltip for the latest status; `undefined` status means the worker has not reported yet. */
export function statusBarText(status: SandboxStatus | undefined, health?: HealthSummary): StatusBarText {
  if (status === undefined)
    return { text: '$(loading~spin) Sandbox starting', tooltip: 'Kube Reconcile: the sandbox cluster is starting' };
  return withOperations(withRefusedDrains(withHealth(baseText(status), health), status), status);
}

function baseText(status: SandboxStatus): StatusBarText {
  const pods = plural(status.pods, 'pod');
  const clock = new Date(status.time).toISOString().slice(11, 19);
  const size = `${plural(status.nodes, 'node')}, ${pods}, clock ${clock}`;
  if (!status.running)
    return {
      text: `$(circle-slash) Sandbox stopped · ${pods}`,
      tooltip: `Kube Reconcile sandbox stopped (${size}). Click for sandbox controls.`,
    };
  if (status.paused)
    return {
      text: `$(debug-pause) Sandbox paused · ${pods}`,
      tooltip: `Kube Reconcile sandbox paused: its clock stands still, nothing reconciles (${size}). Click for sandbox controls: Resume, Step.`,
      background: WARNING_BACKGROUND,
    };
  return {
    text: `$(pulse) Sandbox ${status.speed}× · ${pods}`,
    tooltip: `Kube Reconcile sandbox running at ${status.speed}× (${size}). Click for sandbox controls.`,
  };
}
