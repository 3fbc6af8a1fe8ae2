/**
 * Pods whose tracking finalizer this controller removed and whose removal the
 * informer has not shown yet (upstream `uidTrackingExpectations`): a sync
 * skips them so a stale cache never counts a pod twice.
 */
export class FinalizerExpectations {
  private readonly byJob = new Map<string, Set<string>>();

  expected(jobKey: string): ReadonlySet<string> {
    return this.byJob.get(jobKey) ?? new Set();
  }

  expectRemoved(jobKey: string, uids: readonly string[]): void {
    let set = this.byJob.get(jobKey);
    if (!set) this.byJob.set(jobKey, (set = new Set()));
    for (const u of uids) set.add(u);
  }

  removalObserved(jobKey: string, uid: string): void {
    const set = this.byJob.get(jobKey);
    if (!set) return;
    set.delete(uid);
    if (set.size === 0) this.byJob.delete(jobKey);
  }

  forget(jobKey: string): void {
    this.byJob.delete(jobKey);
  }
}
