/**
 * The recent changes, in resourceVersion order, that a watch can resume from.
 * Like etcd's compaction, older changes are dropped; asking for them is an
 * error (410 Gone) and the client must re-list.
 */
import type { KubeObject } from '../api/types';

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface ChangeRecord {
  readonly revision: number;
  readonly type: ChangeType;
  /** Which kind: see `kindKey()`. */
  readonly kindKey: string;
  readonly namespace: string;
  /** The object after the change (for DELETED: its last state, stamped with the deletion's resourceVersion). */
  readonly object: KubeObject;
  /** The object before the change (MODIFIED and DELETED). */
  readonly previous?: KubeObject;
}

export class ChangeHistory {
  /** Slots before `start` are dropped (emptied, so the objects they held can be collected before the next slice). */
  private records: (ChangeRecord | undefined)[] = [];
  private start = 0;
  /** Changes at or below this revision are no longer available. */
  compactedRevision = 0;

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.records.length - this.start;
  }

  append(record: ChangeRecord): void {
    this.records.push(record);
    if (this.size > this.capacity) this.dropOldest(this.size - this.capacity);
  }

  /** Forgets every change at or below `revision`. */
  compact(revision: number): void {
    let n = 0;
    while (this.start + n < this.records.length && this.records[this.start + n]!.revision <= revision) n++;
    this.dropOldest(n);
    if (revision > this.compactedRevision) this.compactedRevision = revision;
  }

  /** Changes after `revision`, oldest first; undefined when some of them were compacted away. */
  since(revision: number): ChangeRecord[] | undefined {
    if (revision < this.compactedRevision) return undefined;
    const recs = this.records;
    let lo = this.start;
    let hi = recs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (recs[mid]!.revision <= revision) lo = mid + 1;
      else hi = mid;
    }
    return recs.slice(lo) as ChangeRecord[];
  }

  private dropOldest(n: number): void {
    if (n <= 0) return;
    this.compactedRevision = Math.max(this.compactedRevision, this.records[this.start + n - 1]!.revision);
    for (let i = this.start; i < this.start + n; i++) this.records[i] = undefined;
    this.start += n;
    if (this.start > 4096 && this.start * 2 > this.records.length) {
      this.records = this.records.slice(this.start);
      this.start = 0;
    }
  }
}
