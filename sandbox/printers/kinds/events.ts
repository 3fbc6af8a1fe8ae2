/** `kubectl get events` (upstream `printEvent`): LAST SEEN, TYPE, REASON, OBJECT (`pod/web-x`), MESSAGE. */
import type { Event } from 'kubernetes-types/core/v1';
import type { Typed } from '../../api/types';
import type { KindPrinter, TableCell } from '../table';
import { col, since, wide } from '../table';

function source(ev: Event): string {
  const component = ev.source?.component || ev.reportingComponent || '';
  const host = ev.source?.host || ev.reportingInstance || '';
  return host ? `${component}, ${host}` : component;
}

export const eventPrinter: KindPrinter<Typed<Event>> = {
  columns: [
    col('Last Seen', 'string', 'The time at which the most recent occurrence of this event was recorded.'),
    col('Type', 'string', 'Type of this event (Normal, Warning), new types could be added in the future'),
    col(
      'Reason',
      'string',
      "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
    ),
    col('Object', 'string', 'The object that this event is about.'),
    wide(
      'Subobject',
      'string',
      'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement.',
    ),
    wide('Source', 'string', 'The component reporting this event.'),
    col('Message', 'string', 'A human-readable description of the status of this operation.'),
    wide('First Seen', 'string', 'The time at which the event was first recorded.'),
    wide('Count', 'string', 'The number of times this event has occurred.'),
    {
      name: 'Name',
      type: 'string',
      format: 'name',
      priority: 1,
      description: 'Name must be unique within a namespace.',
    },
  ],
  row(ev: Typed<Event>, now: number): TableCell[] {
    const first = ev.firstTimestamp ? since(ev.firstTimestamp, now) : since(ev.eventTime ?? undefined, now);
    let last = ev.lastTimestamp ? since(ev.lastTimestamp, now) : first;
    let count = ev.count ?? 0;
    if (ev.series) {
      last = since(ev.series.lastObservedTime ?? undefined, now);
      count = ev.series.count ?? 0;
    } else if (count === 0) count = 1;
    const involved = ev.involvedObject;
    const kind = (involved?.kind ?? '').toLowerCase();
    const target = involved?.name ? `${kind}/${involved.name}` : kind;
    return [
      last,
      ev.type ?? '',
      ev.reason ?? '',
      target,
      involved?.fieldPath ?? '',
      source(ev),
      (ev.message ?? '').trim(),
      first,
      count,
      ev.metadata.name ?? '',
    ];
  },
};
