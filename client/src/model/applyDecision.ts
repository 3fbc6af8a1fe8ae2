/**
 * When a saved file is applied to the sandbox, and what the user is told when
 * it is not. Saves are applied only when the user asked for them (Ctrl+S, Save
 * All: not the auto-saves `files.autoSave` makes after a delay or on a focus
 * change) unless `kubeReconcile.applyOn` says otherwise, and never while the
 * language server reports an error in the text: a half-typed edit must not
 * start a rollout. What the API server would refuse anyway (an unknown field)
 * it refuses too, in its own words, when the user applies regardless.
 */
import { errorCount } from './applySummary';
import type { ApplyOn, ApplyOnStartup } from './settings';

/**
 * The `source` of the language server's diagnostics (server/src/services/diagnostic.ts): only these count as errors
 * that keep a save from applying — not the sandbox's own answers to an earlier apply, nor other extensions'.
 */
export const LANGUAGE_SERVER_SOURCE = 'kube-reconcile';

/** How a document came to be saved (VS Code's TextDocumentSaveReason). */
export type SaveKind = 'explicit' | 'afterDelay' | 'focusOut';

export interface SaveFacts {
  kind: SaveKind;
  applyOn: ApplyOn;
  /** The file matches `kubeReconcile.desiredState.include` and no `exclude`. */
  inDesiredState: boolean;
  /** Errors the language server reports in the saved text (YAML, schema, the API server's validation rules). */
  errors: number;
  /** The text declares Kubernetes objects, or the file declared some before (so an apply could prune). */
  relevant: boolean;
}

export type NotAppliedReason = 'outside' | 'never' | 'autoSave' | 'errors';

export type SaveDecision =
  | { apply: true }
  | {
      apply: false;
      why: NotAppliedReason;
      /** The status-bar line, when the user should hear of it. */
      message?: string;
      /** Offer to apply regardless (an explicit save of a text with errors): the API server then decides. */
      offerApplyAnyway: boolean;
    };

const skip = (why: NotAppliedReason, message?: string, offerApplyAnyway = false): SaveDecision => ({
  apply: false,
  why,
  ...(message === undefined ? {} : { message }),
  offerApplyAnyway,
});

/**
 * Whether a save applies the file. `file` names it in messages. Nothing is said about files that declare no object
 * (a CI workflow is YAML too).
 */
export function decideSave(file: string, f: SaveFacts): SaveDecision {
  const say = (message: string) => (f.relevant ? message : undefined);
  if (!f.inDesiredState)
    return skip(
      'outside',
      f.kind === 'explicit' ? say(`${file} not applied: not in kubeReconcile.desiredState`) : undefined,
    );
  if (f.applyOn === 'never')
    return skip(
      'never',
      f.kind === 'explicit' ? say(`${file} not applied: kubeReconcile.applyOn is never`) : undefined,
    );
  if (f.applyOn === 'explicitSave' && f.kind !== 'explicit')
    return skip('autoSave', say(`${file} auto-saved, not applied: Ctrl+S applies it`));
  if (f.errors > 0 && f.relevant)
    return skip('errors', `${file} not applied: ${errorCount(f.errors)}`, f.kind === 'explicit');
  if (!f.relevant) return skip('outside');
  return { apply: true };
}

/** What to do with the workspace's manifests at start-up. */
export type StartupAction = 'apply' | 'ask' | 'skip';

/** The answer remembered for this workspace when the setting is `ask`. */
export type StartupAnswer = 'always' | 'never';

export function decideStartup(setting: ApplyOnStartup, remembered: StartupAnswer | undefined): StartupAction {
  if (setting !== 'ask') return setting === 'always' ? 'apply' : 'skip';
  return remembered === undefined ? 'ask' : remembered === 'always' ? 'apply' : 'skip';
}

/** The question asked once per workspace, and its answers. */
export const STARTUP_QUESTION =
  'Apply the manifests of this workspace to the Kube Reconcile sandbox? Nothing runs until you save or apply: your answer is remembered for this workspace (setting kubeReconcile.applyOnStartup).';
export const STARTUP_APPLY = 'Apply Now and at Every Start';
export const STARTUP_SKIP = 'Not at Start-up';

/** The remembered answer for a button of the question (undefined when it was dismissed: asked again next time). */
export function startupAnswer(button: string | undefined): StartupAnswer | undefined {
  return button === STARTUP_APPLY ? 'always' : button === STARTUP_SKIP ? 'never' : undefined;
}
