/**
 * The events about one object, as `kubectl get events
 * --field-selector involvedObject.name=…` prints them, read from the mirror cache.
 */
import type { Event } from 'kubernetes-types/core/v1';
import type { KubeObject, Typed } from '../../../sandbox/api/types';
import { parseTimestamp } from '../../../sandbox/clock/clock';
import { formatTable, tableFor } from '../../../sandbox/printers';
import type { MirrorCache } from '../sandbox/mirror';

function lastSeen(e: Event): number {
  const t =
    e.series?.lastObservedTime ?? e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? e.metadata?.creationTimestamp;
  return typeof t === 'string' ? parseTimestamp(t) : 0;
}

/**
 * Events whose involved object is `obj` (by uid, or by kind, namespace and name when the event has no uid), oldest
 * first.
 */
export function eventsFor(cache: MirrorCache, obj: KubeObject): Typed<Event>[] {
  const uid = obj.metadata.uid;
  const matches = cache.list('events').filter((o) => {
    const involved = o.involvedObject;
    if (!involved) return false;
    if (uid && involved.uid) return involved.uid === uid;
    return (
      involved.kind === obj.kind &&
      involved.name === obj.metadata.name &&
      (involved.namespace ?? undefined) === obj.metadata.namespace
    );
  });
  return matches.sort((a, b) => lastSeen(a) - lastSeen(b));
}

/** The events table (kubectl's columns), or kubectl's "No events found" line. */
export function eventsText(events: readonly KubeObject[], now: number, namespace: string | undefined): string {
  if (events.length === 0) return namespace ? `No events found in ${namespace} namespace.\n` : 'No events found.\n';
  return formatTable(tableFor('Event', events, now));
}
