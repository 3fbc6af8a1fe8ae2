/**
 * What the extension's views and commands use to talk to the sandbox: typed
 * requests, the mirrored object cache, and change/log/status notifications
 * (already coalesced by the worker to at most 10 batches a second).
 * Implemented by `SandboxHost` (worker thread); tests may provide a fake.
 */
import type { LogEntry } from '../../../sandbox/client/reconcileLog';
import type { DesiredIndex } from './desiredIndex';
import type { MirrorCache } from './mirror';
import type { Method, Notification, Requests, SandboxStatus, SelfHealRevert, WatchChange } from './protocol';

/** A line or the end of an operation that outlived its request (a drain). */
export type OperationNotification = Extract<Notification, { kind: 'operation' }>;

/** Text a followed container printed, or the end of its stream. */
export type PodLogNotification = Extract<Notification, { kind: 'podLog' }>;

export interface Disposable {
  dispose(): void;
}

export interface SandboxConnection {
  request<M extends Method>(method: M, params: Requests[M]['params']): Promise<Requests[M]['result']>;
  readonly cache: MirrorCache;
  /** The GitOps desired state, as the worker last sent it. */
  readonly desired: DesiredIndex;
  /** The latest status the worker sent. */
  readonly status: SandboxStatus | undefined;
  /**
   * Whether the latest batch of changes was sent as the sandbox went quiet (nothing due soon: the state a burst of work
   * settled into); undefined where the connection cannot tell (a real cluster).
   */
  readonly settled?: boolean;
  onDidChange(listener: (changes: WatchChange[]) => void): Disposable;
  /**
   * A batch marked quiet arrived (`settled` turned or stayed true), after its changes, if any, were fired — also an
   * empty one, which says only that the sandbox settled. Absent where the connection cannot tell.
   */
  onDidSettle?(listener: () => void): Disposable;
  onDidLog(listener: (entries: LogEntry[]) => void): Disposable;
  onDidStatus(listener: (status: SandboxStatus) => void): Disposable;
  onDidOperation(listener: (operation: OperationNotification) => void): Disposable;
  /** The desired state changed (`desired` holds the new one). */
  onDidChangeDesired(listener: () => void): Disposable;
  /** Self-heal put objects back to their manifests. */
  onDidSelfHeal(listener: (reverts: SelfHealRevert[]) => void): Disposable;
  onDidPodLog(listener: (log: PodLogNotification) => void): Disposable;
  dispose(): void;
}
