/**
 * The log of one container instance (one container ID), as the runtime's log
 * file holds it: the last `LOG_CAPACITY` lines, each with its time. Lines
 * come from the program's sources (read lazily up to the clock's now) and
 * from events appended as they happen (start-up, SIGTERM, exit). Followers
 * are told about new lines as they appear; while anyone follows, a
 * background timer wakes the log when its program's next line falls due.
 */
import type { Clock, TimerHandle } from '../../clock/clock';
import type { LineSource, LogLine } from './lineSource';

/** Lines kept per container instance (the sandbox's stand-in for the kubelet's 10 MiB log rotation). */
export const LOG_CAPACITY = 1000;

export interface LogListener {
  /** New lines, oldest first. */
  lines(lines: readonly LogLine[]): void;
  /** The instance ended (or the log is going away): nothing more will come. */
  end(): void;
}

/** A source's lines with `lo ≤ at < hi`. */
function windowed(s: LineSource, lo: number, hi: number): LineSource {
  return {
    between: (from, to, max) =>
      s.between(Math.max(from, lo - 1e-6), Math.min(to, hi - 1e-6), max).filter((l) => l.at >= lo && l.at < hi),
    nextAfter: (after) => {
      const next = s.nextAfter(Math.max(after, lo - 1e-6));
      return next !== undefined && next < hi ? next : undefined;
    },
  };
}

const NO_LINES: LogLine[] = Object.freeze([]) as unknown as LogLine[];

export class InstanceLog {
  /** The shared empty list until the first line (issue 16: an empty list per instance otherwise). */
  private lines: LogLine[] = NO_LINES;
  /** Lines read from the sources up to this time. */
  // Undefined for -Infinity, and below for NaN: a number field holds a boxed number per object (issue 16).
  private cursor: number | undefined = undefined;
  private endedAt: number | undefined;
  /** Made on the first follow: most logs are never followed (issue 16). */
  private listeners: Set<LogListener> | undefined;
  private timer: TimerHandle | undefined;
  /** When the timer is due (undefined: no timer). */
  private timerDue: number | undefined = undefined;

  constructor(
    readonly containerID: string,
    private readonly clock: Clock,
    private sources: readonly LineSource[],
  ) {}

  /** From `at` on, the lines come from `sources` (the process was worked out again): the old ones stop there. */
  rebase(at: number, sources: readonly LineSource[]): void {
    this.sources = [
      ...this.sources.map((s) => windowed(s, -Infinity, at)),
      ...sources.map((s) => windowed(s, at, Infinity)),
    ];
    this.arm();
  }

  get ended(): boolean {
    return this.endedAt !== undefined;
  }

  /** The lines so far, oldest first (at most `LOG_CAPACITY`). */
  read(): readonly LogLine[] {
    this.catchUp();
    return this.lines.length > LOG_CAPACITY ? this.lines.slice(-LOG_CAPACITY) : this.lines;
  }

  /** Lines the container prints now (after whatever its program printed up to now). */
  append(texts: readonly string[]): void {
    if (this.ended) return;
    const now = this.clock.now();
    const fresh = this.collect(now);
    for (const text of texts) fresh.push({ at: now, text });
    this.publish(fresh);
  }

  /** The instance exited: its program prints nothing after now; followers are ended. */
  end(): void {
    if (this.ended) return;
    this.publish(this.collect(this.clock.now()));
    this.endedAt = this.clock.now();
    this.closeListeners();
  }

  /** Follows new lines; returns the unsubscribe. An ended log ends the listener at once. */
  listen(listener: LogListener): () => void {
    if (this.ended) {
      listener.end();
      return () => undefined;
    }
    (this.listeners ??= new Set()).add(listener);
    this.arm();
    return () => {
      this.listeners?.delete(listener);
      this.arm();
    };
  }

  /** Ends every follower (the kubelet became unreachable, or the pod is gone); the log itself stays. */
  closeListeners(): void {
    const all = [...(this.listeners ?? [])];
    this.listeners?.clear();
    this.arm();
    for (const l of all) l.end();
  }

  private catchUp(): void {
    const fresh = this.collect(Math.min(this.clock.now(), this.endedAt ?? Infinity));
    if (fresh.length > 0) this.publish(fresh);
  }

  /** The program's lines in (cursor, to], merged in time order (ties keep source order). */
  private collect(to: number): LogLine[] {
    const from = this.cursor ?? -Infinity;
    if (to <= from) return [];
    this.cursor = to;
    const merged = this.sources.flatMap((s, i) => s.between(from, to, LOG_CAPACITY).map((line, j) => ({ line, i, j })));
    merged.sort((a, b) => a.line.at - b.line.at || a.i - b.i || a.j - b.j);
    return merged.map((m) => m.line);
  }

  private publish(fresh: LogLine[]): void {
    if (fresh.length === 0) return;
    if (this.lines === NO_LINES) this.lines = fresh.slice();
    else this.lines.push(...fresh);
    if (this.lines.length > 2 * LOG_CAPACITY) this.lines = this.lines.slice(-LOG_CAPACITY);
    const delivered = fresh.length > LOG_CAPACITY ? fresh.slice(-LOG_CAPACITY) : fresh;
    for (const l of [...(this.listeners ?? [])]) l.lines(delivered);
    this.arm();
  }

  /** Keeps one background timer at the program's next line while anyone follows. */
  private arm(): void {
    const due = (this.listeners?.size ?? 0) > 0 && !this.ended ? this.nextDue() : undefined;
    if (due === this.timerDue || (due === undefined && this.timer === undefined)) return;
    if (this.timer) this.clock.clearTimer(this.timer);
    this.timer = undefined;
    this.timerDue = undefined;
    if (due === undefined) return;
    this.timerDue = due;
    this.timer = this.clock.setTimer(
      due - this.clock.now(),
      () => {
        this.timer = undefined;
        this.timerDue = undefined;
        this.catchUp();
        this.arm();
      },
      { background: true },
    );
  }

  private nextDue(): number | undefined {
    let next: number | undefined;
    for (const s of this.sources) {
      const t = s.nextAfter(this.cursor ?? -Infinity);
      if (t !== undefined && (next === undefined || t < next)) next = t;
    }
    return next;
  }
}
