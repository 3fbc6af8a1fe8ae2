/**
 * Reads and analyzes workspace files one at a time, so indexing a large
 * folder never holds more than one file's text and never floods the event
 * loop. Enqueueing a file again supersedes a run in progress for it.
 */

/** Processes one file; `isCurrent()` turns false once the file was enqueued again or cancelled. */
export type ProcessFile = (uri: string, isCurrent: () => boolean) => Promise<void>;

export class DiskQueue {
  /** Waiting URIs, in arrival order (a Set keeps insertion order and drops repeats). */
  private readonly pending = new Set<string>();
  private readonly generation = new Map<string, number>();
  private running = false;
  private waiters: Array<() => void> = [];

  /**
   * @param process analyzes one file
   * @param onDrained runs each time the queue becomes empty
   */
  constructor(
    private readonly process: ProcessFile,
    private readonly onDrained: () => void,
  ) {}

  /** Queues `uri` (again), superseding any run in progress for it. */
  enqueue(uri: string): void {
    this.bump(uri);
    this.pending.add(uri);
    if (!this.running) void this.loop();
  }

  /** Drops `uri` from the queue and stops a run in progress for it. */
  cancel(uri: string): void {
    this.bump(uri);
    this.pending.delete(uri);
  }

  /** Drops everything. */
  clear(): void {
    for (const uri of [...this.pending]) this.cancel(uri);
    this.generation.clear();
  }

  get idle(): boolean {
    return !this.running && this.pending.size === 0;
  }

  /** Resolves when the queue is next empty (at once when it is). */
  drained(): Promise<void> {
    if (this.idle) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private bump(uri: string): void {
    this.generation.set(uri, (this.generation.get(uri) ?? 0) + 1);
  }

  private async loop(): Promise<void> {
    this.running = true;
    try {
      for (let uri = first(this.pending); uri !== undefined; uri = first(this.pending)) {
        this.pending.delete(uri);
        const gen = this.generation.get(uri);
        try {
          await this.process(uri, () => this.generation.get(uri) === gen);
        } catch {
          // A failure on one file (it vanished mid-read) must not stop the queue.
        }
      }
    } finally {
      this.running = false;
    }
    this.onDrained();
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

function first(set: ReadonlySet<string>): string | undefined {
  for (const v of set) return v;
  return undefined;
}
