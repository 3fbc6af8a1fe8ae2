/**
 * Batches what the worker pushes to the host — watch changes and log lines —
 * into at most one `changes` and one `log` notification per interval (100 ms:
 * at most 10 batches a second while the sandbox is busy). Changes keep
 * resourceVersion order; repeated changes to one object within a batch
 * collapse into its latest state. With `idleFor` (how long until the sandbox
 * has work due), the moment it goes quiet — nothing due within an interval —
 * what is pending is sent at once, marked `quiet`, or, when the last batch went
 * out while it was still busy, an empty quiet batch says it settled: the state
 * a burst settles into reaches the host without waiting out the interval, and
 * the host knows the sandbox settled (foresight plans only then). Quiet batches
 * come no faster than the interval either, except for what the user or a
 * client does meanwhile: the sandbox's next work is at least an interval away.
 */
import type { LogEntry } from '../../../sandbox/client/reconcileLog';
import type { Notification, WatchChange } from '../sandbox/protocol';

export const BATCH_INTERVAL_MS = 100;

export interface HostTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const nodeTimers: HostTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

function changeKey(c: WatchChange): string {
  return `${c.resource}|${c.object.metadata.namespace ?? ''}|${c.object.metadata.name ?? ''}`;
}

export class Batcher {
  private changes: (WatchChange | undefined)[] = [];
  /** Object key → index in `changes` of its latest change in this batch. */
  private latest = new Map<string, number>();
  private logs: LogEntry[] = [];
  private timer: unknown = undefined;
  /** The next check of whether the sandbox went quiet (after the current turn, or after its next work). */
  private quietCheck: unknown = undefined;
  /** Whether the last batch sent told the host that the sandbox was quiet. */
  private hostKnowsQuiet = true;

  constructor(
    private readonly send: (n: Notification) => void,
    private readonly intervalMs = BATCH_INTERVAL_MS,
    private readonly timers: HostTimers = nodeTimers,
    /**
     * Host milliseconds until the sandbox has work due (undefined: none); without it, batches go by the interval and
     * are never marked quiet.
     */
    private readonly idleFor?: () => number | undefined,
  ) {}

  change(c: WatchChange): void {
    const key = changeKey(c);
    const i = this.latest.get(key);
    let next = c;
    const prev = i === undefined ? undefined : this.changes[i];
    if (prev && prev.type !== 'DELETED') {
      // The host has not seen `prev` yet: only the latest state matters, at the latest position.
      this.changes[i!] = undefined;
      if (prev.type === 'ADDED' && c.type === 'DELETED') {
        this.latest.delete(key);
        return;
      }
      if (prev.type === 'ADDED') next = { ...c, type: 'ADDED' };
    }
    this.latest.set(key, this.changes.push(next) - 1);
    this.arm();
  }

  log(entry: LogEntry): void {
    this.logs.push(entry);
    this.arm();
  }

  /** Sends what is pending now (changes first, then log lines). */
  flush(): void {
    this.cancel();
    const changes = this.changes.filter((c): c is WatchChange => c !== undefined);
    const logs = this.logs;
    this.changes = [];
    this.latest = new Map();
    this.logs = [];
    const quiet = this.isQuiet();
    if (changes.length > 0 || (quiet && !this.hostKnowsQuiet)) {
      this.send({ kind: 'changes', changes, ...(quiet ? { quiet: true } : {}) });
      this.hostKnowsQuiet = quiet;
    }
    // Sent while busy: the host hears when it settles, even if nothing else changes.
    if (!this.hostKnowsQuiet) this.checkQuietSoon(0);
    if (logs.length > 0) this.send({ kind: 'log', entries: logs });
  }

  /** Drops everything pending (after a reset, a fresh `list` replaces it). */
  discard(): void {
    this.cancel();
    this.changes = [];
    this.latest = new Map();
    this.logs = [];
  }

  private arm(): void {
    if (this.timer === undefined) this.timer = this.timers.setTimeout(() => this.flush(), this.intervalMs);
    this.checkQuietSoon(0);
  }

  private isQuiet(): boolean {
    if (!this.idleFor) return false;
    const idle = this.idleFor();
    return idle === undefined || idle >= this.intervalMs;
  }

  /** Checks after `ms` (after the sandbox's next work, which its clock set first) whether it went quiet. */
  private checkQuietSoon(ms: number): void {
    const idleFor = this.idleFor;
    if (!idleFor || this.quietCheck !== undefined) return;
    this.quietCheck = this.timers.setTimeout(() => {
      this.quietCheck = undefined;
      const idle = idleFor();
      if (idle === undefined || idle >= this.intervalMs) this.flush();
      else this.checkQuietSoon(idle);
    }, ms);
  }

  private cancel(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    if (this.quietCheck !== undefined) this.timers.clearTimeout(this.quietCheck);
    this.timer = undefined;
    this.quietCheck = undefined;
  }
}
