/**
 * When the Cluster view tells VS Code that rows changed. The extension host
 * debounces a tree provider's `onDidChangeTreeData` for 200 ms with a leading
 * edge (upstream: src/vs/base/common/event.ts, `Event.debounce`, as
 * src/vs/workbench/api/common/extHostTreeViews.ts's ExtHostTreeView
 * constructor uses it: `Event.debounce(…, 200, true)`): a change fired when
 * no debounce timer is pending renders at once and starts a 200 ms timer; one
 * fired while it is pending restarts it and renders only when it expires — 200
 * ms after *that* change —, and while changes keep coming faster than that,
 * nothing renders at all. So the view fires at most once per spacing, leading
 * edge first: the first change after a quiet moment shows at once, a later one
 * as soon as a fire renders at once — never later than it would have rendered
 * had it been fired at once.
 * The spacing is timed by a timer started in the same turn as VS Code's own,
 * right after each fire, 1 ms longer: Node runs timers in order of when they
 * are due, so VS Code's has run by the time this one does, whatever the event
 * loop's lag, and the next fire renders at once with no margin to wait out.
 * The first change after a quiet moment made while the sandbox is busy (a
 * save's apply: the Deployment at 0/10, its ReplicaSet and pods to come) waits
 * for the sandbox to settle, `firstHoldMs` at most: a save that converges
 * within it shows in one fire, at the moment it settles, where a fire at once
 * would shut the settled state out for a whole spacing. VS Code then builds
 * the new rows all at once (the group, the Deployment, its ReplicaSet: one
 * round trip each), which costs less than the spacing's wait it saves on this
 * path while VS Code's round trips are cheap (bench/RESULTS.md, "Save → tree
 * (issue 16)", seventh session). On a loaded machine they are not, and the
 * Cluster view passes no hold (model/rowRoundTrip.ts). A change made while the
 * sandbox is quiet fires at once.
 * A later change is different: when the spacing ends while the sandbox is
 * still busy (`busy`: its last batch was not marked quiet), the refresh is held
 * until it settles (`settled()`, or a change that arrives quiet), for at most one
 * more spacing. A fire at the spacing's end would show a state about to change
 * and shut out the settled one for another 200 ms; held, the settled state
 * shows as soon as it lands. So while the sandbox stays busy the view fires
 * every two spacings at least, and the state a burst settles into (one busy
 * stretch, then quiet) is never shown later than with a fire at every spacing.
 * No `vscode`: the timer is injected.
 */
import { systemTimer } from './throttle';
import type { Timer } from './throttle';

/** VS Code's debounce of a tree's change events (see above). */
export const VSCODE_TREE_DEBOUNCE_MS = 200;
/** From a fire until the next one renders at once: VS Code's debounce timer, started in the same turn, and 1 ms. */
export const REFRESH_SPACING_MS = VSCODE_TREE_DEBOUNCE_MS + 1;
/**
 * How long the first change made while the sandbox is busy waits for it to settle: longer than a 10-replica
 * Deployment takes to converge at 20× (~110 ms from its apply on an idle machine), shorter than a spacing, so that a
 * longer convergence still shows its progress soon.
 */
export const FIRST_CHANGE_HOLD_MS = 150;

export class RefreshPacer {
  /** The run on the next turn, when one is asked for and the spacing allows it. */
  private handle: unknown = undefined;
  /** The spacing after the last fire, while it lasts. */
  private spacing: unknown = undefined;
  /** After a spacing that ended while the sandbox was busy: the refresh waits for it to settle, one spacing at most. */
  private hold: unknown = undefined;
  /** A refresh was asked for while the spacing (or a hold) lasted: it runs when it ends. */
  private requested = false;
  private disposed = false;

  constructor(
    /** Refreshes; returns whether it fired a change to VS Code. */
    private readonly action: () => boolean,
    private readonly timer: Timer = systemTimer,
    /** Whether the sandbox is still busy (more changes due soon); never, where that cannot be told. */
    private readonly busy: () => boolean = () => false,
    /** How long the first change while busy waits for the sandbox to settle (0: it fires at once, busy or not). */
    private readonly firstHoldMs: () => number = () => 0,
  ) {}

  /**
   * Asks for a refresh: on the next turn when no fire is within the spacing (while the sandbox is busy, once it
   * settles, `firstHoldMs` at most), else as soon as the spacing ends (while a busy sandbox's refresh is held, as
   * soon as it is no longer busy).
   */
  request(): void {
    if (this.disposed || this.handle !== undefined) return;
    if (this.spacing !== undefined) this.requested = true;
    else if (this.hold !== undefined) {
      this.requested = true;
      if (!this.busy()) this.release();
    } else if (this.busy() && this.firstHoldMs() > 0) {
      this.requested = true;
      this.startHold(this.firstHoldMs());
    } else this.handle = this.timer.setTimeout(() => this.run(), 0);
  }

  /** The sandbox went quiet: a refresh held for it runs on the next turn. */
  settled(): void {
    if (this.disposed || this.hold === undefined) return;
    this.release();
  }

  /** A change was fired outside the pacer (a whole-tree refresh): the spacing starts again from it. */
  fired(): void {
    if (this.disposed) return;
    if (this.handle !== undefined) {
      // A run due on the next turn would now land within VS Code's debounce: it waits for the spacing instead.
      this.timer.clearTimeout(this.handle);
      this.handle = undefined;
      this.requested = true;
    }
    this.endHold();
    this.startSpacing();
  }

  /** Cancels what is pending; later requests do nothing. */
  dispose(): void {
    this.disposed = true;
    if (this.handle !== undefined) this.timer.clearTimeout(this.handle);
    if (this.spacing !== undefined) this.timer.clearTimeout(this.spacing);
    this.endHold();
    this.handle = undefined;
    this.spacing = undefined;
  }

  private startSpacing(): void {
    if (this.spacing !== undefined) this.timer.clearTimeout(this.spacing);
    this.spacing = this.timer.setTimeout(() => {
      this.spacing = undefined;
      if (!this.requested) return;
      if (this.busy()) {
        // What is pending is about to change: held until the sandbox settles, for one more spacing at most.
        this.startHold(REFRESH_SPACING_MS);
        return;
      }
      this.requested = false;
      this.run();
    }, REFRESH_SPACING_MS);
  }

  /** Holds what was asked for until the sandbox settles (`release`), `ms` at most. */
  private startHold(ms: number): void {
    this.hold = this.timer.setTimeout(() => {
      this.hold = undefined;
      this.requested = false;
      this.run();
    }, ms);
  }

  /** Ends a hold: what was asked for meanwhile runs on the next turn. */
  private release(): void {
    this.endHold();
    if (!this.requested) return;
    this.requested = false;
    this.handle = this.timer.setTimeout(() => this.run(), 0);
  }

  private endHold(): void {
    if (this.hold !== undefined) this.timer.clearTimeout(this.hold);
    this.hold = undefined;
  }

  private run(): void {
    this.handle = undefined;
    if (this.action()) this.startSpacing();
  }
}
