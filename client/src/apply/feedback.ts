/**
 * What the user hears after a save or an apply: a short result in the status
 * bar (`web.yaml applied: 1 configured, 1 unchanged`, `web.yaml not applied:
 * 1 error`), and for an explicit save refused for its errors, a notification
 * that offers to apply it regardless (the API server then answers, in the
 * Problems panel) and records the refusal in the reconciliation log.
 */
import * as vscode from 'vscode';
import type { SaveDecision } from '../model/applyDecision';
import { applyCounts, applySummary } from '../model/applySummary';
import type { SandboxConnection } from '../sandbox/connection';
import type { ApplyReply } from '../sandbox/protocol';

/** How long a result stays in the status bar. */
export const FEEDBACK_MS = 8000;
export const APPLY_ANYWAY = 'Apply Anyway';
export const SHOW_PROBLEMS = 'Show Problems';

function status(icon: string, text: string): void {
  vscode.window.setStatusBarMessage(`$(${icon}) ${text}`, FEEDBACK_MS);
}

export class ApplyFeedback {
  constructor(private readonly connection: Pick<SandboxConnection, 'request'>) {}

  /** The result of applying one file. */
  applied(file: string, reply: ApplyReply): void {
    const { text, ok } = applySummary(file, reply);
    status(ok ? 'check' : 'warning', text);
  }

  /** What taking a file out of the desired state did (deleted, or no longer selected): pruned or handed over. */
  removed(file: string, how: string, reply: Omit<ApplyReply, 'outcomes'>): void {
    if (reply.pruned.length === 0 && !reply.reapplied?.length) return;
    status('check', `${file} ${how}: ${applyCounts(reply)}`);
  }

  /** The result of Apply Workspace: how many files, and what they did together. */
  workspaceApplied(replies: readonly ApplyReply[]): void {
    const all: ApplyReply = {
      outcomes: replies.flatMap((r) => r.outcomes),
      pruned: replies.flatMap((r) => r.pruned),
      reapplied: replies.flatMap((r) => r.reapplied ?? []),
    };
    const rejected = all.outcomes.some((o) => !o.ok);
    status(
      rejected ? 'warning' : 'check',
      `Apply Workspace: ${replies.length} file${replies.length === 1 ? '' : 's'}, ${applyCounts(all)}`,
    );
  }

  /** A save that was not applied, and why; `applyAnyway` applies the saved text regardless. */
  notApplied(file: string, decision: Extract<SaveDecision, { apply: false }>, applyAnyway: () => void): void {
    if (decision.message === undefined) return;
    status(decision.why === 'errors' ? 'error' : 'info', decision.message);
    if (!decision.offerApplyAnyway) return;
    void this.connection
      .request('record', { level: 'Warning', reason: 'NotApplied', object: file, message: decision.message })
      .catch(() => undefined);
    void vscode.window
      .showWarningMessage(
        `${decision.message}. Fix it, or apply it anyway to see the API server's answer.`,
        APPLY_ANYWAY,
        SHOW_PROBLEMS,
      )
      .then((choice) => {
        if (choice === APPLY_ANYWAY) applyAnyway();
        else if (choice === SHOW_PROBLEMS) void vscode.commands.executeCommand('workbench.actions.view.problems');
      });
  }
}
