/**
 * How long VS Code takes to ask for a refreshed row's children: from a change
 * fired to the Cluster view until its next `getChildren` call — one round trip
 * from the extension host through the workbench's renderer and back. New rows
 * under an expanded parent cost one such round trip per level before VS Code
 * shows them (the group, the new Deployment, its ReplicaSet), so holding a
 * busy sandbox's first change until it settles (model/refreshPacer.ts) pays
 * only while round trips are cheap: on a loaded machine (bench/RESULTS.md,
 * "Save → tree", seventh session: 12–178 ms a round trip at load 7–10) the
 * rows built at the end cost more than the spacing's wait the hold saves.
 * No `vscode`: the clock is passed in.
 */

/** Round trips up to this long make the hold pay: three of them cost less than the ~100 ms wait for a spacing. */
export const CHEAP_ROUND_TRIP_MS = 30;
/** A `getChildren` later than this after a fire is the user expanding a row, not VS Code refreshing one. */
const UNRELATED_AFTER_MS = 1_000;
/** The median of this many latest round trips decides: one slow or fast turn does not flip it. */
const WINDOW = 5;

export class RowRoundTrip {
  private firedAt: number | undefined = undefined;
  private readonly samples: number[] = [];

  /** A change was fired to VS Code at `now`. */
  fired(now: number): void {
    this.firedAt = now;
  }

  /** VS Code asked for children at `now`: the first such call after a fire closes a round trip. */
  childrenAsked(now: number): void {
    if (this.firedAt === undefined) return;
    const took = now - this.firedAt;
    this.firedAt = undefined;
    if (took < 0 || took > UNRELATED_AFTER_MS) return;
    this.samples.push(took);
    if (this.samples.length > WINDOW) this.samples.shift();
  }

  /** The median of the latest round trips; undefined before any. */
  get typical(): number | undefined {
    if (this.samples.length === 0) return undefined;
    const sorted = [...this.samples].sort((a, b) => a - b);
    return sorted[(sorted.length - 1) >> 1];
  }

  /** Whether round trips are cheap enough for the hold; true until one is measured (an idle machine's case). */
  get cheap(): boolean {
    const t = this.typical;
    return t === undefined || t <= CHEAP_ROUND_TRIP_MS;
  }
}
