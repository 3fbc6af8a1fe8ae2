/**
 * List + watch of every resource the sandbox serves: the `list` the host's
 * mirror starts from, then every change after it, in resourceVersion order
 * (watches are delivered synchronously on each write, so one sink sees them
 * in write order).
 */
import type { ApiServer } from '../../../sandbox/apiserver/apiServer';
import type { KubeObject, WatchEvent } from '../../../sandbox/api/types';
import type { WatchHandle } from '../../../sandbox/store/watchHub';
import type { Notification, WatchChange } from '../sandbox/protocol';

export class ChangeFeed {
  private handles: WatchHandle[] = [];

  constructor(
    private readonly api: ApiServer,
    private readonly onChange: (c: WatchChange) => void,
    /** A watch failed (e.g. fell behind compaction): the caller should send a fresh list. */
    private readonly onLost: () => void,
  ) {}

  /** Lists everything and (re)starts the watches right after that list. */
  list(): Extract<Notification, { kind: 'list' }> {
    this.stop();
    const resourceVersion = this.api.resourceVersion;
    const objects: { resource: string; object: KubeObject }[] = [];
    // Built-in kinds, each once (custom resources are not mirrored to the views yet).
    const kinds = this.api.resources.storedKinds().filter((r) => r.custom === undefined);
    for (const r of kinds) {
      for (const object of this.api.list(r).items) objects.push({ resource: r.plural, object });
    }
    for (const r of kinds) {
      this.handles.push(this.api.watch(r, { resourceVersion }, (ev) => this.deliver(r.plural, ev)));
    }
    return { kind: 'list', resourceVersion, objects };
  }

  stop(): void {
    for (const h of this.handles) h.stop();
    this.handles = [];
  }

  private deliver(resource: string, ev: WatchEvent): void {
    if (ev.type === 'ERROR') {
      this.stop();
      this.onLost();
      return;
    }
    if (ev.type === 'BOOKMARK') return;
    this.onChange({ type: ev.type, resource, object: ev.object });
  }
}
