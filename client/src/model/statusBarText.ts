/** The status-bar item of the sandbox: `$(pulse) Sandbox 5× · 12 pods`, `$(debug-pause) Sandbox paused · 12 pods`. */
import type { SandboxStatus } from '../sandbox/protocol';

export interface StatusBarText {
  text: string;
  tooltip: string;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Running operations (a drain waiting on a PodDisruptionBudget) after the text and in the tooltip. */
function withOperations(base: StatusBarText, status: SandboxStatus): StatusBarText {
  const ops = status.operations ?? [];
  if (ops.length === 0) return base;
  const titles = ops.map((o) => o.title).join(', ');
  return {
    text: `${base.text} · $(sync~spin) ${titles}`,
    tooltip: [base.tooltip, ...ops.map((o) => `${o.title}: ${o.detail}`)].join('\n'),
  };
}

/** Text and tooltip for the latest status; `undefined` status means the worker has not reported yet. */
export function statusBarText(status: SandboxStatus | undefined): StatusBarText {
  if (status === undefined)
    return { text: '$(loading~spin) Sandbox starting', tooltip: 'Kube Reconcile: the sandbox cluster is starting' };
  return withOperations(baseText(status), status);
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
      tooltip: `Kube Reconcile sandbox paused (${size}). Click for sandbox controls.`,
    };
  return {
    text: `$(pulse) Sandbox ${status.speed}× · ${pods}`,
    tooltip: `Kube Reconcile sandbox running at ${status.speed}× (${size}). Click for sandbox controls.`,
  };
}
