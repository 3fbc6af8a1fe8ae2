/**
 * Resources by apiVersion, then kind: what `apiVersion|kind` keys answered, without building that key (and hashing
 * a new string) on every lookup — each write looks its resource up several times. Neither an apiVersion nor a kind
 * holds a `|` (upstream's group, version and kind names), so the two levels answer exactly as the joined key did.
 */
export class GvkIndex<T> {
  private readonly byVersion = new Map<string, Map<string, T>>();

  get(apiVersion: string, kind: string): T | undefined {
    return this.byVersion.get(apiVersion)?.get(kind);
  }

  /** Sets (or replaces) the resource of `apiVersion` and `kind`. */
  set(apiVersion: string, kind: string, r: T): void {
    let kinds = this.byVersion.get(apiVersion);
    if (kinds === undefined) {
      kinds = new Map();
      this.byVersion.set(apiVersion, kinds);
    }
    kinds.set(kind, r);
  }

  clear(): void {
    this.byVersion.clear();
  }
}
