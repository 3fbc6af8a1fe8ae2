/**
 * When the Cluster view tells VS Code that rows changed. The extension host
 * debounces a tree provider's `onDidChangeTreeData` for 200 ms with a leading
 * edge (upstream: src/vs/workbench/api/common/extHostTreeViews.ts,
 * ExtHostTreeView's constructor: `Event.debounce(…, 200, true)`): a change
 * fired 200 ms or more after the previous one renders at once; one fired
 * sooner renders 200 ms after *it*, and while changes keep coming faster than
 * that, nothing renders at all. So the view fires at most once per
 * `REFRESH_SPACING_MS`, leading edge first: the first change after a quiet
 * moment shows at once, a later one as soon as a fire renders at once — never
 * later than it would have rendered had it been fired at once.
 * (Holding a busy sandbox's first change until it settles was measured and
 * dropped: VS Code then builds the new rows — a Deployment's ReplicaSet and
 * pods — all at the end, which took longer than the wait it saved;
 * bench/RESULTS.md, "Save → tree (issue 16)".)
 * No `vscode`: the timer is injected.
 */
import { systemTimer } from './throttle';
import type { Timer } from './throttle';

/** VS Code's debounce of a tree's change events (see above). */
export const VSCODE_TREE_DEBOUNCE_MS = 200;
/** The least time between two fires: the debounce and a margin, so that each fire renders at once. */
export const REFRESH_SPACING_MS = VSCODE_TREE_DEBOUNCE_MS + 10;

export class RefreshPacer {
  private handle: unknown = undefined;
  private lastFired = Number.NEGATIVE_INFINITY;
  private disposed = false;

  constructor(
    /** Refreshes; returns whether it fired a change to VS Code. */
    private readonly action: () => boolean,
    private readonly timer: Timer = systemTimer,
  ) {}

  /** Asks for a refresh: on the next turn when the last fire is far enough back, else as soon as it is. */
  request(): void {
    if (this.disposed || this.handle !== undefined) return;
    const wait = Math.max(0, this.lastFired + REFRESH_SPACING_MS - this.timer.now());
    this.handle = this.timer.setTimeout(() => this.run(), wait);
  }

  /** A change was fired outside the pacer (a whole-tree refresh): it counts for the spacing. */
  fired(): void {
    this.lastFired = this.timer.now();
  }

  /** Cancels a pending run; later requests do nothing. */
  dispose(): void {
    this.disposed = true;
    if (this.handle !== undefined) this.timer.clearTimeout(this.handle);
    this.handle = undefined;
  }

  private run(): void {
    this.handle = undefined;
    if (this.action()) this.lastFired = this.timer.now();
  }
}
