/** What every command factory receives, and the factory's shape (rust-analyzer's `Cmd`). */
import type { LiveValue, ManifestEdits } from '../model/manifestEdits';
import type { SandboxConnection } from '../sandbox/connection';
import type { ApiSettings, ApplyReply, ObjectRef } from '../sandbox/protocol';
import type { Settings } from '../model/settings';
import type { TreeOptions } from '../model/treeOptions';
import type { Ui, WorkspaceFiles } from './ui';

export interface CommandContext {
  connection: SandboxConnection;
  ui: Ui;
  files: WorkspaceFiles;
  /** The current settings. */
  settings(): Settings;
  /** Opens the desired-vs-actual panel for an object. */
  showDesiredVsActual?: (ref: ObjectRef) => void;
  /** Opens the cluster overview panel. */
  showClusterOverview?: () => void;
  /** Forgets the sandbox state saved in the workspace storage (after a reset). */
  forgetSavedState?: () => Promise<void>;
  /** Applies every manifest of the workspace again (after a new cluster was built by `init`). */
  applyWorkspace?: () => Promise<void>;
  /** The HTTP API settings with the kubeconfig path the worker writes (absent: the API is never started). */
  api?: () => ApiSettings;
  /** Applies a workspace file (by its source name) as saved ("Sync"); the result is shown by the apply glue. */
  applySource?: (source: string) => Promise<ApplyReply | undefined>;
  /**
   * Writes live values into the manifest at `line` of a workspace file, in its editor (unsaved, shown); undefined when
   * no manifest starts at that line.
   */
  editManifest?: (source: string, line: number, values: readonly LiveValue[]) => Promise<ManifestEdits | undefined>;
  /** Turns `kubeReconcile.selfHeal` off (the settings change reaches the sandbox). */
  turnOffSelfHeal?: () => Promise<void>;
  /** The Cluster view: its grouping and filters, and the row the keyboard is on. */
  tree?: TreeControl;
}

export interface TreeControl {
  options(): TreeOptions;
  setOptions(options: TreeOptions): Promise<void>;
  /** The object of the selected row: what a keybinding acts on. */
  selected(): ObjectRef | undefined;
}

/**
 * A registered command: receives what VS Code passes (a tree node from a context menu, or nothing from the palette).
 */
export type Command = (...args: unknown[]) => Promise<void>;

export type CommandFactory = (ctx: CommandContext) => Command;

/** The text of an error as the user should read it: the API server's message when there is one. */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string')
    return (e as { message: string }).message;
  return String(e);
}
