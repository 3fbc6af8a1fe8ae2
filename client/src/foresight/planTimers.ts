/**
 * When foresight plans a document. A plan runs on the sandbox worker's thread; one that starts while the document
 * is being saved takes that thread from the save's apply, which then waits behind it (bench/extension measured the
 * worker picking an apply up 276–312 ms late at p95 when a plan, scheduled by the last keystroke, fell due between
 * onWillSave and the apply). So a save holds its document's plan: a pending one is put off, and any asked for while
 * the save lasts waits, until the save ends, then plans after the usual delay (by then the apply is on its way, and
 * the plan waits for the sandbox to settle). A save that never ends (its write failed: VS Code then fires no
 * onDidSave) lets go after `SAVE_HOLD_MAX_MS`. No `vscode`: the timer is injected.
 */
import { systemTimer } from '../model/throttle';
import type { Timer } from '../model/throttle';

/** The longest a save holds its document's plan. */
export const SAVE_HOLD_MAX_MS = 2000;

interface Hold {
  /** The plan put off or asked for while the save lasts. */
  run: (() => void) | undefined;
  /** Lets go if the save never ends. */
  expiry: unknown;
}

export class PlanTimers {
  private readonly timers = new Map<string, unknown>();
  /** Documents being saved. */
  private readonly held = new Map<string, Hold>();

  constructor(private readonly timer: Timer = systemTimer) {}

  /** Runs `run` after `delayMs`, replacing the document's pending plan; while its save lasts, only after it. */
  schedule(key: string, delayMs: number, run: () => void): void {
    this.clear(key);
    const hold = this.held.get(key);
    if (hold) {
      hold.run = run;
      return;
    }
    this.timers.set(
      key,
      this.timer.setTimeout(() => {
        this.timers.delete(key);
        run();
      }, delayMs),
    );
  }

  /** A save of the document started (onWillSave): its pending plan waits for the save to end. */
  hold(key: string, run: () => void): void {
    const pending = this.timers.has(key);
    this.clear(key);
    const before = this.held.get(key);
    if (before) this.timer.clearTimeout(before.expiry);
    this.held.set(key, {
      run: pending ? run : before?.run,
      expiry: this.timer.setTimeout(() => this.release(key, 0), SAVE_HOLD_MAX_MS),
    });
  }

  /** The save ended (onDidSave): a plan put off or asked for meanwhile is scheduled after `delayMs`. */
  release(key: string, delayMs: number): void {
    const hold = this.held.get(key);
    if (!hold) return;
    this.timer.clearTimeout(hold.expiry);
    this.held.delete(key);
    if (hold.run) this.schedule(key, delayMs, hold.run);
  }

  /** Whether a plan of the document is waiting (on its timer or on a save). */
  pending(key: string): boolean {
    return this.timers.has(key) || this.held.get(key)?.run !== undefined;
  }

  /** Forgets the document's pending plan and hold. */
  cancel(key: string): void {
    this.clear(key);
    const hold = this.held.get(key);
    if (hold) this.timer.clearTimeout(hold.expiry);
    this.held.delete(key);
  }

  dispose(): void {
    for (const key of [...this.timers.keys(), ...this.held.keys()]) this.cancel(key);
  }

  private clear(key: string): void {
    const handle = this.timers.get(key);
    if (handle !== undefined) this.timer.clearTimeout(handle);
    this.timers.delete(key);
  }
}
