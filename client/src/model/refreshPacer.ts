/**
 * When the Cluster view tells VS Code that rows changed. The extension host
 * debounces a tree provider's `onDidChangeTreeData` for 200 ms with a leading
 * edge (upstream: src/vs/workbench/api/common/extHostTreeViews.ts,
 * ExtHostTreeView's constructor: `Event.debounce(…, 200, true)`): a change
 * fired 200 ms or more after the previous one renders at once; one fired
 * sooner renders 200 ms after *it*, and while changes keep coming faster than
 * that, nothing renders at all. So the view fires at most once per
 * `REFRESH_SPACING_MS` — every fire renders at once — and picks the moment:
 * - the sandbox settled (its last batch of changes was quiet: nothing due
 *   soon): as soon as a fire renders at once;
 * - still busy: `BUSY_HOLD_MS` after the first request of the burst (a short
 *   burst settles first, and its end then shows at once rather than 200 ms
 *   after an intermediate state), then once per spacing while it lasts.
 * No `vscode`: the timer is injected.
 */
import { systemTimer } from './throttle';
import type { Timer } from './throttle';

/** VS Code's debounce of a tree's change events (see above). */
export const VSCODE_TREE_DEBOUNCE_MS = 200;
/** The least time between two fires: the debounce and a margin, so that each fire renders at once. */
export const REFRESH_SPACING_MS = VSCODE_TREE_DEBOUNCE_MS + 10;
/** How long a busy sandbox's first change waits for the burst to settle before it is shown anyway. */
export const BUSY_HOLD_MS = REFRESH_SPACING_MS;

export class RefreshPacer {
  private handle: unknown = undefined;
  /** When the pending run is due (Infinity: none). */
  private due = Number.POSITIVE_INFINITY;
  private lastFired = Number.NEGATIVE_INFINITY;
  /** When the first request since the last run came. */
  private burstStart: number | undefined;
  private disposed = false;

  constructor(
    /** Refreshes; returns whether it fired a change to VS Code. */
    private readonly action: () => boolean,
    private readonly timer: Timer = systemTimer,
  ) {}

  /** Asks for a refresh: `settled` when the sandbox has nothing due soon (what it shows now will stay). */
  request(settled: boolean): void {
    if (this.disposed) return;
    const now = this.timer.now();
    this.burstStart ??= now;
    const earliest = this.lastFired + REFRESH_SPACING_MS;
    const due = settled ? Math.max(now, earliest) : Math.max(earliest, this.burstStart + BUSY_HOLD_MS);
    if (due >= this.due) return;
    if (this.handle !== undefined) this.timer.clearTimeout(this.handle);
    this.due = due;
    this.handle = this.timer.setTimeout(() => this.run(), due - now);
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
    this.due = Number.POSITIVE_INFINITY;
    this.burstStart = undefined;
    if (this.action()) this.lastFired = this.timer.now();
  }
}
