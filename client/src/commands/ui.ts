/**
 * What the commands need from the editor, as interfaces: the commands stay
 * free of `vscode` and are tested with fakes; `vscodeUi.ts` implements them.
 */

export interface PickItem<T> {
  label: string;
  description?: string;
  detail?: string;
  value: T;
  /** Selected when a multi-select picker opens. */
  picked?: boolean;
}

export interface InputOptions {
  title: string;
  prompt: string;
  value: string;
  /** The error shown under the box, undefined when the text is acceptable. */
  validate(text: string): string | undefined;
}

/**
 * A new integrated terminal: `env` is added to the environment its shell starts with; `message` is shown at its top.
 */
export interface TerminalRequest {
  name: string;
  env: Record<string, string>;
  message?: string;
}

export interface Ui {
  /** A short-lived message (status bar): the outcome of an action. */
  notify(message: string): void;
  info(message: string): void;
  error(message: string): void;
  /** A modal question; true when the user chose `action`. */
  confirm(message: string, detail: string, action: string): Promise<boolean>;
  /** An information message with buttons; the chosen button, or undefined. */
  offer(message: string, ...actions: string[]): Promise<string | undefined>;
  input(options: InputOptions): Promise<string | undefined>;
  pick<T>(items: readonly PickItem<T>[], placeholder: string): Promise<T | undefined>;
  /** A multi-select picker (items with `picked` start selected); the values chosen, or undefined when cancelled. */
  pickMany<T>(items: readonly PickItem<T>[], placeholder: string): Promise<T[] | undefined>;
  /** Opens read-only text in an editor (events tables). `name` becomes the tab title. */
  showText(name: string, text: string): Promise<void>;
  /**
   * Opens a workspace file, named as the sandbox names it (`web.yaml`; `app/web.yaml` in a multi-root workspace), with
   * the cursor on the 0-based `line`; `focus` moves the focus to it (else it stays where it is).
   */
  openFile(source: string, line: number | undefined, focus: boolean): Promise<void>;
  copy(text: string): Promise<void>;
  /** Shows the "Kube Reconcile" output channel. */
  showLog(): void;
  /** Opens and shows a new integrated terminal. */
  openTerminal(request: TerminalRequest): void;
  /** A notification with a progress indicator, titled `title`, open until `done()`. */
  progress(title: string): Progress;
  /**
   * Opens a read-only document named `name` that grows as `append` is called (a followed log); `onClose` runs when the
   * user closes it.
   */
  openStream(name: string, text: string, onClose: () => void): Promise<TextStream>;
}

export interface Progress {
  /** Replaces the message under the title. */
  report(message: string): void;
  done(): void;
}

export interface TextStream {
  append(text: string): void;
}

/** Files in the workspace and the extension, for the walkthrough's example; workspace files by their source names. */
export interface WorkspaceFiles {
  /** The source name of `relative` in the first workspace folder, or undefined with no folder open. */
  inFirstFolder(relative: string): string | undefined;
  exists(source: string): Promise<boolean>;
  /** A file shipped with the extension, by path relative to its root (`examples/web.yaml`). */
  readBundled(relative: string): Promise<string>;
  write(source: string, text: string): Promise<void>;
}
