/**
 * Records `Event`s the way client-go's recorder does: one Event object per
 * (object, type, reason, message, source), whose `count` and `lastTimestamp`
 * grow when the same thing happens again. Controllers and kubelets use this to
 * say what they did; `kubectl get events` and the views read them.
 */
import type { ApiServer } from '../apiserver/apiServer';
import { formatTimestamp } from '../clock/clock';
import { isApiError } from '../api/errors';
import type { KubeObject } from '../api/types';

export type EventType = 'Normal' | 'Warning';

export interface EventSource {
  /** e.g. `deployment-controller`, `default-scheduler`, `kubelet`. */
  component: string;
  /** Node name for kubelets. */
  host?: string;
}

interface Aggregate {
  name: string;
  namespace: string;
  count: number;
}

const MAX_MESSAGE = 1024;

export class EventRecorder {
  private readonly seen = new Map<string, Aggregate>();
  private sequence = 0;

  constructor(
    private readonly api: ApiServer,
    private readonly source: EventSource,
  ) {}

  /** Records that `reason` happened to `involved`. Never throws: a lost event must not break a controller. */
  record(involved: KubeObject, type: EventType, reason: string, message: string): KubeObject | undefined {
    const meta = involved.metadata;
    const namespace = meta.namespace || 'default';
    const text = message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 3)}...` : message;
    const key = [meta.uid ?? `${namespace}/${meta.name}`, involved.kind, type, reason, text].join('\u0000');
    const now = this.api.clock.now();
    try {
      const previous = this.seen.get(key);
      if (previous) {
        const existing = this.api.tryGet('events', previous.namespace, previous.name);
        if (existing) {
          previous.count++;
          return this.api.update({ ...existing, count: previous.count, lastTimestamp: formatTimestamp(now) });
        }
      }
      const created = this.createEvent(namespace, meta.name ?? 'unknown', now, {
        involvedObject: {
          apiVersion: involved.apiVersion,
          kind: involved.kind,
          name: meta.name,
          namespace: meta.namespace,
          uid: meta.uid,
          resourceVersion: meta.resourceVersion,
        },
        reason,
        message: text,
        type,
        source: this.source.host
          ? { component: this.source.component, host: this.source.host }
          : { component: this.source.component },
        reportingComponent: this.source.component,
        reportingInstance: this.source.host ?? '',
        firstTimestamp: formatTimestamp(now),
        lastTimestamp: formatTimestamp(now),
        eventTime: null,
        count: 1,
      });
      this.seen.set(key, { name: created.metadata.name!, namespace, count: 1 });
      return created;
    } catch (e) {
      if (isApiError(e)) return undefined;
      throw e;
    }
  }

  /**
   * Creates the Event under a fresh name; another recorder (its own sequence) may have taken the name in the same
   * instant for the same object, in which case the next name is tried.
   */
  private createEvent(namespace: string, objectName: string, now: number, body: Record<string, unknown>): KubeObject {
    for (let attempt = 0; ; attempt++) {
      try {
        return this.api.create({
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { name: this.eventName(objectName, now), namespace },
          ...body,
        });
      } catch (e) {
        if (!isApiError(e, 409) || attempt >= 8) throw e;
      }
    }
  }

  /** `<object>.<hex nanoseconds>` as upstream; a sequence keeps names unique within one instant. */
  private eventName(objectName: string, now: number): string {
    const nanos = BigInt(Math.floor(now)) * 1_000_000n + BigInt(this.sequence++ % 1_000_000);
    return `${objectName}.${nanos.toString(16)}`;
  }
}
