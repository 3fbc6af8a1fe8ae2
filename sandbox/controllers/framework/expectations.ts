/**
 * Controller expectations (pkg/controller/controller_utils.go): after a
 * controller asks for N creates or deletes, it does not act on that owner
 * again until its informer has observed them (or 5 minutes pass), so a stale
 * cache never makes it create or delete twice.
 */
import type { Clock } from '../../clock/clock';

/** Upstream ExpectationsTimeout. */
export const EXPECTATIONS_TIMEOUT_MS = 5 * 60 * 1000;

interface Expectation {
  adds: number;
  /** Keys of pods whose deletion is expected (UID-tracking expectations). */
  deletes: Set<string>;
  setAt: number;
}

export class Expectations {
  private readonly byOwner = new Map<string, Expectation>();

  constructor(private readonly clock: Clock) {}

  /** True when the owner may act: nothing expected, all observed, or expired. */
  satisfied(ownerKey: string): boolean {
    const e = this.byOwner.get(ownerKey);
    if (!e) return true;
    if (e.adds <= 0 && e.deletes.size === 0) return true;
    return this.clock.now() - e.setAt > EXPECTATIONS_TIMEOUT_MS;
  }

  expectCreations(ownerKey: string, count: number): void {
    this.byOwner.set(ownerKey, { adds: count, deletes: new Set(), setAt: this.clock.now() });
  }

  expectDeletions(ownerKey: string, podKeys: readonly string[]): void {
    this.byOwner.set(ownerKey, { adds: 0, deletes: new Set(podKeys), setAt: this.clock.now() });
  }

  creationObserved(ownerKey: string): void {
    const e = this.byOwner.get(ownerKey);
    if (e) e.adds--;
  }

  /** A create that was expected but not made (it failed or was skipped). */
  lowerCreations(ownerKey: string, count = 1): void {
    const e = this.byOwner.get(ownerKey);
    if (e) e.adds -= count;
  }

  deletionObserved(ownerKey: string, podKey: string): void {
    this.byOwner.get(ownerKey)?.deletes.delete(podKey);
  }

  forget(ownerKey: string): void {
    this.byOwner.delete(ownerKey);
  }
}
