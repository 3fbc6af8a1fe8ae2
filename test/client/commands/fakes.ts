/** A scripted sandbox connection and editor UI that record what the commands do. */
import type { CommandContext } from '../../../client/src/commands/context';
import type {
  InputOptions,
  PickItem,
  Progress,
  TerminalRequest,
  TextStream,
  Ui,
  WorkspaceFiles,
} from '../../../client/src/commands/ui';
import { DEFAULT_SETTINGS } from '../../../client/src/model/settings';
import type { Settings } from '../../../client/src/model/settings';
import type {
  Disposable,
  OperationNotification,
  PodLogNotification,
  SandboxConnection,
} from '../../../client/src/sandbox/connection';
import { DesiredIndex } from '../../../client/src/sandbox/desiredIndex';
import type { MirrorCache } from '../../../client/src/sandbox/mirror';
import type {
  Method,
  Requests,
  SandboxStatus,
  SelfHealRevert,
  WatchChange,
} from '../../../client/src/sandbox/protocol';
import { cacheOf } from '../model/fixtures';

export interface Sent {
  method: Method;
  params: unknown;
}

const NONE: Disposable = { dispose: () => undefined };

export class FakeConnection implements SandboxConnection {
  readonly sent: Sent[] = [];
  status: SandboxStatus | undefined = { running: true, paused: false, speed: 1, time: 0, pods: 0, nodes: 3 };
  /** Replies by method; a function may throw to fail the request. */
  replies: Partial<{ [M in Method]: (params: Requests[M]['params']) => Requests[M]['result'] }> = {};

  readonly desired = new DesiredIndex();

  constructor(readonly cache: MirrorCache = cacheOf([])) {}

  async request<M extends Method>(method: M, params: Requests[M]['params']): Promise<Requests[M]['result']> {
    this.sent.push({ method, params });
    const reply = this.replies[method] as ((p: Requests[M]['params']) => Requests[M]['result']) | undefined;
    if (!reply) throw new Error(`no reply scripted for ${method}`);
    return reply(params);
  }

  private readonly changeListeners = new Set<(changes: WatchChange[]) => void>();

  onDidChange(listener: (changes: WatchChange[]) => void): Disposable {
    this.changeListeners.add(listener);
    return { dispose: () => this.changeListeners.delete(listener) };
  }

  /** Watch changes from the worker (the cache is not updated: tests that need it build the cache). */
  fireChange(changes: WatchChange[]): void {
    for (const l of [...this.changeListeners]) l(changes);
  }

  /** Whether the worker's last batch was quiet (the host's `settled`). */
  settled: boolean | undefined = true;
  private readonly settleListeners = new Set<() => void>();

  onDidSettle(listener: () => void): Disposable {
    this.settleListeners.add(listener);
    return { dispose: () => this.settleListeners.delete(listener) };
  }

  /** A quiet batch from the worker. */
  fireSettle(): void {
    this.settled = true;
    for (const l of [...this.settleListeners]) l();
  }

  onDidLog(): Disposable {
    return NONE;
  }

  private readonly statusListeners = new Set<(status: SandboxStatus) => void>();

  onDidStatus(listener: (status: SandboxStatus) => void): Disposable {
    this.statusListeners.add(listener);
    return { dispose: () => this.statusListeners.delete(listener) };
  }

  private readonly operationListeners = new Set<(n: OperationNotification) => void>();

  onDidOperation(listener: (n: OperationNotification) => void): Disposable {
    this.operationListeners.add(listener);
    return { dispose: () => this.operationListeners.delete(listener) };
  }

  private readonly desiredListeners = new Set<() => void>();

  onDidChangeDesired(listener: () => void): Disposable {
    this.desiredListeners.add(listener);
    return { dispose: () => this.desiredListeners.delete(listener) };
  }

  private readonly selfHealListeners = new Set<(reverts: SelfHealRevert[]) => void>();

  onDidSelfHeal(listener: (reverts: SelfHealRevert[]) => void): Disposable {
    this.selfHealListeners.add(listener);
    return { dispose: () => this.selfHealListeners.delete(listener) };
  }

  /** A self-heal notification from the worker. */
  fireSelfHeal(reverts: SelfHealRevert[]): void {
    for (const l of [...this.selfHealListeners]) l(reverts);
  }

  private readonly podLogListeners = new Set<(n: PodLogNotification) => void>();

  onDidPodLog(listener: (n: PodLogNotification) => void): Disposable {
    this.podLogListeners.add(listener);
    return { dispose: () => this.podLogListeners.delete(listener) };
  }

  /** A followed log's text or end from the worker. */
  firePodLog(n: PodLogNotification): void {
    for (const l of [...this.podLogListeners]) l(n);
  }

  /** An operation notification from the worker (a drain's line or end). */
  fireOperation(n: OperationNotification): void {
    for (const l of [...this.operationListeners]) l(n);
  }

  /** A status notification from the worker. */
  fireStatus(status: SandboxStatus): void {
    this.status = status;
    for (const l of this.statusListeners) l(status);
  }

  dispose(): void {}
}

/** What the UI was asked to show, in order, as `kind: text` lines. */
export class FakeUi implements Ui {
  readonly shown: string[] = [];
  /**
   * Answers, consumed in order: to confirm (boolean), input (string or undefined), pick (a label or undefined), offer
   * (a button).
   */
  answers: unknown[] = [];
  /** The validation messages input() saw for `probes`. */
  probes: string[] = [];
  validated: (string | undefined)[] = [];
  copied: string[] = [];
  opened: { file: string; line: number | undefined; focus: boolean }[] = [];
  texts: { name: string; text: string }[] = [];
  terminals: TerminalRequest[] = [];

  notify(message: string): void {
    this.shown.push(`notify: ${message}`);
  }

  info(message: string): void {
    this.shown.push(`info: ${message}`);
  }

  error(message: string): void {
    this.shown.push(`error: ${message}`);
  }

  async confirm(message: string, _detail: string, action: string): Promise<boolean> {
    this.shown.push(`confirm: ${message} [${action}]`);
    return this.answers.shift() === true;
  }

  async offer(message: string, ...actions: string[]): Promise<string | undefined> {
    this.shown.push(`offer: ${message} [${actions.join(', ')}]`);
    return this.answers.shift() as string | undefined;
  }

  async input(options: InputOptions): Promise<string | undefined> {
    this.shown.push(`input: ${options.title} (${options.value})`);
    this.validated = this.probes.map((p) => options.validate(p));
    return this.answers.shift() as string | undefined;
  }

  async pick<T>(items: readonly PickItem<T>[], placeholder: string): Promise<T | undefined> {
    this.shown.push(`pick: ${placeholder} [${items.map((i) => i.label).join(', ')}]`);
    const label = this.answers.shift();
    return items.find((i) => i.label === label)?.value;
  }

  /** Answered with an array of labels (or undefined: cancelled); `pickedShown` records what started selected. */
  async pickMany<T>(items: readonly PickItem<T>[], placeholder: string): Promise<T[] | undefined> {
    this.shown.push(`pickMany: ${placeholder} [${items.map((i) => `${i.picked ? '[x] ' : ''}${i.label}`).join(', ')}]`);
    const labels = this.answers.shift() as string[] | undefined;
    return labels?.map((l) => {
      const item = items.find((i) => i.label === l);
      if (!item) throw new Error(`pickMany: no item ${l}`);
      return item.value;
    });
  }

  async showText(name: string, text: string): Promise<void> {
    this.texts.push({ name, text });
  }

  async openFile(file: string, line: number | undefined, focus: boolean): Promise<void> {
    this.opened.push({ file, line, focus });
  }

  async copy(text: string): Promise<void> {
    this.copied.push(text);
  }

  showLog(): void {
    this.shown.push('showLog');
  }

  openTerminal(request: TerminalRequest): void {
    this.terminals.push(request);
  }

  progress(title: string): Progress {
    this.shown.push(`progress: ${title}`);
    return {
      report: (message) => this.shown.push(`progress ${title}: ${message}`),
      done: () => this.shown.push(`progress ${title}: done`),
    };
  }

  /** Streams opened: their name, text so far, and how to close them as the user would. */
  streams: { name: string; text: string; close: () => void }[] = [];

  async openStream(name: string, text: string, onClose: () => void): Promise<TextStream> {
    const stream = { name, text, close: onClose };
    this.streams.push(stream);
    return { append: (more) => (stream.text += more) };
  }
}

export class FakeFiles implements WorkspaceFiles {
  readonly files = new Map<string, string>();

  /** `folder`: the first folder's name in a multi-root workspace, '' for a single folder, undefined for none. */
  constructor(
    private readonly folder: string | undefined,
    private readonly bundled: Record<string, string> = {},
  ) {}

  inFirstFolder(relative: string): string | undefined {
    if (this.folder === undefined) return undefined;
    return this.folder === '' ? relative : `${this.folder}/${relative}`;
  }

  async exists(source: string): Promise<boolean> {
    return this.files.has(source);
  }

  async readBundled(relative: string): Promise<string> {
    const text = this.bundled[relative];
    if (text === undefined) throw new Error(`not bundled: ${relative}`);
    return text;
  }

  async write(source: string, text: string): Promise<void> {
    this.files.set(source, text);
  }
}

export function contextOf(
  connection: FakeConnection,
  ui: FakeUi,
  files = new FakeFiles(''),
  settings: Settings = DEFAULT_SETTINGS,
): CommandContext {
  return { connection, ui, files, settings: () => settings };
}
