/**
 * Sync status for the views, per live object, from the host's caches: the
 * desired state the worker sent and the mirrored live object. Remembered per
 * object until either side changes (the tree asks again on every refresh).
 */
import type { KubeObject } from '../../../sandbox/api/types';
import { syncStatusOf } from '../health/syncStatus';
import type { SyncStatus } from '../health/syncStatus';
import type { DesiredIndex } from '../sandbox/desiredIndex';

export class SyncStatuses {
  private readonly memo = new Map<string, { stamp: string; status: SyncStatus | undefined }>();

  constructor(private readonly desired: DesiredIndex) {}

  /** The status of a live object of `resource` (undefined for objects the cluster made). */
  of(resource: string, live: KubeObject): SyncStatus | undefined {
    const { namespace, name = '', resourceVersion = '' } = live.metadata;
    const key = `${resource}|${namespace ?? ''}|${name}`;
    const stamp = `${resourceVersion}|${this.desired.revision}`;
    const known = this.memo.get(key);
    if (known?.stamp === stamp) return known.status;
    const status = syncStatusOf(this.desired.get(resource, namespace, name), live);
    if (this.memo.size > 10_000) this.memo.clear();
    this.memo.set(key, { stamp, status });
    return status;
  }
}
