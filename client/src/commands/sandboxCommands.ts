/**
 * Sandbox controls: Pause, Resume, Step, Speed, Reset, Fast-forward Until Settled, and the status bar's quick pick of
 * them.
 */
import { humanDuration } from '../../../sandbox/printers';
import { SPEEDS, sandboxSettings } from '../model/settings';
import type { ControlAction, Requests, SandboxStatus } from '../sandbox/protocol';
import type { Command, CommandContext, CommandFactory } from './context';
import { errorMessage } from './context';

/** Step's codicon: a straight arrow down to a dot, unlike Refresh's circular arrow (debug-step-over looked like it). */
export const STEP_ICON = 'debug-step-into';

/** How far Step advances the sandbox clock. */
export const STEP_MS = 10_000;
/** The most virtual time Fast-forward runs before giving up on the cluster settling. */
export const FAST_FORWARD_LIMIT_MS = 10 * 60_000;

async function control(
  ctx: CommandContext,
  title: string,
  action: ControlAction,
): Promise<Requests['control']['result'] | undefined> {
  try {
    return await ctx.connection.request('control', action);
  } catch (e) {
    ctx.ui.error(`${title} failed: ${errorMessage(e)}`);
    return undefined;
  }
}

export const pause: CommandFactory = (ctx) => async () => {
  await control(ctx, 'Pause', { type: 'pause' });
};

export const resume: CommandFactory = (ctx) => async () => {
  await control(ctx, 'Resume', { type: 'resume' });
};

export const step: CommandFactory = (ctx) => async () => {
  if (await control(ctx, 'Step', { type: 'step', ms: STEP_MS }))
    ctx.ui.notify(`Sandbox clock advanced ${STEP_MS / 1000}s`);
};

export const speed: CommandFactory = (ctx) => async () => {
  const current = ctx.connection.status?.speed;
  const items = SPEEDS.map((s) => ({
    label: `${s}×`,
    description: s === current ? 'current' : s === 1 ? 'real time' : undefined,
    value: s,
  }));
  const chosen = await ctx.ui.pick(items, 'Sandbox speed: how fast its clock runs against real time');
  if (chosen !== undefined) await control(ctx, 'Speed', { type: 'speed', speed: chosen });
};

export const reset: CommandFactory = (ctx) => async () => {
  const ok = await ctx.ui.confirm(
    'Reset the sandbox?',
    'Every object in the cluster is deleted and a fresh cluster starts; the saved manifests are the desired state again.',
    'Reset Sandbox',
  );
  if (ok && (await control(ctx, 'Reset Sandbox', { type: 'reset' }))) await ctx.forgetSavedState?.();
};

/**
 * Runs the sandbox's clock until nothing is pending (at most FAST_FORWARD_LIMIT_MS of its time), under a progress
 * notification; then says how far it went and, when it stopped without settling, what is still not converged.
 */
export const fastForward: CommandFactory = (ctx) => async () => {
  const progress = ctx.ui.progress('Fast-forwarding the sandbox until it settles');
  progress.report(`at most ${humanDuration(FAST_FORWARD_LIMIT_MS)} of sandbox time`);
  const after = await control(ctx, 'Fast-forward', { type: 'fastForward', limitMs: FAST_FORWARD_LIMIT_MS });
  progress.done();
  const report = after?.fastForward;
  if (!report) return;
  if (report.settled) {
    ctx.ui.notify(`Fast-forwarded ${humanDuration(report.elapsedMs)} of sandbox time: the cluster settled`);
    return;
  }
  const shown = report.pending.slice(0, 5);
  const more = report.pending.length > shown.length ? ` (and ${report.pending.length - shown.length} more)` : '';
  ctx.ui.info(
    `Fast-forward stopped after ${humanDuration(report.elapsedMs)} of sandbox time without settling: ${
      shown.length > 0 ? `${shown.join('; ')}${more}` : 'timers kept firing'
    }.`,
  );
};

/**
 * Applies a changed node count or seed: a new cluster from the worker's
 * `init` with the current settings, then the workspace's manifests applied
 * to it again (they are the desired state).
 */
export async function resetWithSettings(ctx: CommandContext): Promise<void> {
  try {
    const api = ctx.api?.();
    await ctx.connection.request('init', { settings: sandboxSettings(ctx.settings()), ...(api ? { api } : {}) });
  } catch (e) {
    ctx.ui.error(`Reset Sandbox failed: ${errorMessage(e)}`);
    return;
  }
  await ctx.forgetSavedState?.();
  await ctx.applyWorkspace?.();
}

/** The controls offered by the status bar item, given the sandbox's state. */
export function controlChoices(status: SandboxStatus | undefined): { label: string; value: CommandFactory }[] {
  return [
    status?.paused
      ? { label: '$(debug-continue) Resume', value: resume }
      : { label: '$(debug-pause) Pause', value: pause },
    { label: `$(${STEP_ICON}) Step 10 s`, value: step },
    { label: '$(dashboard) Speed…', value: speed },
    { label: '$(run-all) Fast-forward Until Settled', value: fastForward },
    { label: '$(discard) Reset Sandbox…', value: reset },
    { label: '$(output) Show Reconciliation Log', value: (c) => async () => c.ui.showLog() },
  ];
}

export const sandboxControls: CommandFactory = (ctx) => async () => {
  const chosen = await ctx.ui.pick(controlChoices(ctx.connection.status), 'Kube Reconcile sandbox');
  if (chosen) await (chosen(ctx) as Command)();
};
