/**
 * The Events table every describer ends with (upstream: staging/src/k8s.io/kubectl/pkg/describe/describe.go —
 * DescribeEvents).
 */
import type { Event } from 'kubernetes-types/core/v1';
import type { KubeObject } from '../../api/types';
import { asResource } from '../../api/resourceObjects';
import { parseTimestamp } from '../../clock/clock';
import { since } from './format';
import { L0, L1 } from './writer';
import type { PrefixWriter } from './writer';

function eventTime(e: Event): number {
  const t = e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? e.metadata?.creationTimestamp;
  return t ? parseTimestamp(t) : 0;
}

/** DescribeEvents: the table after a flush, oldest first (event.SortableEvents). */
export function describeEvents(w: PrefixWriter, list: readonly KubeObject[], now: number): void {
  if (list.length === 0) return w.write(L0, 'Events:\t<none>\n');
  w.flush();
  const events = list.map((e) => asResource('events', e)).sort((a, b) => eventTime(a) - eventTime(b));
  w.write(L0, 'Events:\n  Type\tReason\tAge\tFrom\tMessage\n');
  w.write(L1, '----\t------\t----\t----\t-------\n');
  for (const e of events) {
    const first = e.eventTime ? since(e.eventTime, now) : since(e.firstTimestamp, now);
    let interval = first;
    if (e.series) interval = `${since(e.series.lastObservedTime, now)} (x${e.series.count} over ${first})`;
    else if ((e.count ?? 0) > 1) interval = `${since(e.lastTimestamp, now)} (x${e.count} over ${first})`;
    const source = e.source?.component || e.reportingComponent || '';
    w.write(L1, `${e.type ?? ''}\t${e.reason ?? ''}\t${interval}\t${source}\t${(e.message ?? '').trim()}\n`);
  }
}
