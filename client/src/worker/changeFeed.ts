/**
 * List + watch of every resource the sandbox serves: the `list` the host's
 * mirror starts from, then every change after it, in resourceVersion order
 * (watches are delivered synchronously on each write, so one sink sees them
 * in write order).
 */
import type { ApiServer } from '../../../sandbox/apiserver/apiServer';
import type { KubeObject, WatchEvent } from '../../../sandbox/api/types';
import type { WatchHandle } from '../../../sandbox/store/watchHub';
import type { ResourceType } from '../../../sandbox/api/resources';
import type { Notification, WatchChange } from '../sandbox/protocol';

export class ChangeFeed {
  private handles: WatchHandle[] = [];
  /** Kinds watched, `group/kind`: custom resources join when their CRD is established. */
  private readonly watched = new Set<string>();
  private checkQueued = false;

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
    // Every stored kind once; custom resources under `plural.group` (mirrorResource).
    const kinds = this.api.resources.storedKinds();
    for (const r of kinds) {
      for (const object of this.api.list(r).items) objects.push({ resource: mirrorResource(r), object });
    }
    for (const r of kinds) this.watchKind(r, resourceVersion);
    return { kind: 'list', resourceVersion, objects };
  }

  private watchKind(r: ResourceType, resourceVersion: string): void {
    this.watched.add(`${r.group}/${r.kind}`);
    const resource = mirrorResource(r);
    this.handles.push(this.api.watch(r, { resourceVersion }, (ev) => this.deliver(resource, ev)));
  }

  /**
   * A CRD changed: the kinds it serves are registered after its Established status is written, so they are looked
   * for once that write is over; their objects so far come as ADDED, then their watch.
   */
  private watchNewKinds(): void {
    this.checkQueued = false;
    if (this.handles.length === 0) return;
    for (const r of this.api.resources.storedKinds()) {
      if (r.custom === undefined || this.watched.has(`${r.group}/${r.kind}`)) continue;
      const list = this.api.list(r);
      const resource = mirrorResource(r);
      for (const object of list.items) this.onChange({ type: 'ADDED', resource, object });
      this.watchKind(r, this.api.resourceVersion);
    }
  }

  stop(): void {
    for (const h of this.handles) h.stop();
    this.handles = [];
    this.watched.clear();
  }

  private deliver(resource: string, ev: WatchEvent): void {
    if (ev.type === 'ERROR') {
      this.stop();
      this.onLost();
      return;
    }
    if (ev.type === 'BOOKMARK') return;
    this.onChange({ type: ev.type, resource, object: ev.object });
    if (resource === 'customresourcedefinitions' && !this.checkQueued) {
      this.checkQueued = true;
      queueMicrotask(() => this.watchNewKinds());
    }
  }
}

/** The mirror's name of a resource: the plural for built-in kinds, `plural.group` for custom resources. */
export function mirrorResource(r: ResourceType): string {
  return r.custom === undefined ? r.plural : `${r.plural}.${r.group}`;
}
