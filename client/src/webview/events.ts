/**
 * The recent events about one object, in `kubectl get events` words
 * (LAST SEEN, TYPE, REASON, OBJECT, MESSAGE), oldest first as `kubectl events` prints them.
 */
import type { Event } from 'kubernetes-types/core/v1';
import { isKind } from '../../../sandbox/api/resourceObjects';
import type { KubeObject } from '../../../sandbox/api/types';
import { since } from '../../../sandbox/printers/table';
import type { MirrorCache } from '../sandbox/mirror';
import type { EventRow } from './protocol';

/** How many of the most recent events a view shows. */
export const MAX_EVENTS = 20;

/** True when `event` is about the object named `kind`/`namespace`/`name`. */
export function isEventFor(event: KubeObject, kind: string, namespace: string | undefined, name: string): boolean {
  const involved = isKind(event, 'Event') ? event.involvedObject : undefined;
  return involved?.kind === kind && involved.name === name && (involved.namespace ?? undefined) === namespace;
}

function lastSeenTime(ev: Event): string {
  return ev.series?.lastObservedTime ?? ev.lastTimestamp ?? ev.eventTime ?? ev.firstTimestamp ?? '';
}

/**
 * Events for the object, the most recent `MAX_EVENTS`, oldest first. Cluster-scoped objects' events live in `default`.
 */
export function eventRows(
  cache: MirrorCache,
  kind: string,
  namespace: string | undefined,
  name: string,
  now: number,
): EventRow[] {
  const events = cache
    .list('events', namespace ?? 'default')
    .filter((e) => isEventFor(e, kind, namespace, name))
    .sort((a, b) => lastSeenTime(a).localeCompare(lastSeenTime(b)));
  return events.slice(-MAX_EVENTS).map((ev) => ({
    lastSeen: since(lastSeenTime(ev), now),
    type: ev.type ?? '',
    reason: ev.reason ?? '',
    object: `${(ev.involvedObject.kind ?? '').toLowerCase()}/${ev.involvedObject.name ?? ''}`,
    message: (ev.message ?? '').trim(),
    count: ev.series?.count ?? ev.count ?? 1,
  }));
}
