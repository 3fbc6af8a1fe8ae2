/**
 * What every control-plane component gets from the cluster's composition
 * root: the API server, the clock, its own seeded randomness, the shared
 * informers, the reconciliation log, and an event recorder per component.
 */
import type { ApiServer } from '../apiserver/apiServer';
import type { Clock } from '../clock/clock';
import type { SeededRandom } from '../clock/random';
import type { KubeObject } from '../api/types';
import { EventRecorder } from './eventRecorder';
import type { EventType } from './eventRecorder';
import type { InformerFactory } from './informerFactory';
import type { ResourceMetricsSource } from './metrics/metricsServer';
import type { ReconcileLog } from './reconcileLog';
import type { Timeline } from '../timeline/timeline';
import { refOf } from '../timeline/changes';

export interface ComponentContext {
  api: ApiServer;
  clock: Clock;
  /** The cluster's generator; components take `random.fork(name)` for their own sequence. */
  random: SeededRandom;
  informers: InformerFactory;
  log: ReconcileLog;
  /** The causal timeline (sandbox/timeline), when the cluster records one. */
  timeline?: Timeline;
  /** The resource metrics API (metrics-server); absent on a cluster without one. */
  metrics?: ResourceMetricsSource;
}

/** A running part of the control plane (a controller, the scheduler, a kubelet). */
export interface Component {
  readonly name: string;
  start(): void;
  stop(): void;
}

/**
 * Records a Kubernetes Event and the matching reconciliation-log line — the
 * one way components say what they did.
 */
export class Recorder {
  private readonly events: EventRecorder;

  constructor(
    private readonly ctx: ComponentContext,
    readonly component: string,
    host?: string,
  ) {
    this.events = new EventRecorder(ctx.api, host ? { component, host } : { component });
  }

  /**
   * `decision`: for the causal timeline, the object the decision acted on when it is not `obj` (the ReplicaSet a
   * Deployment scaled, the pod a ReplicaSet created) and why, when the message does not say.
   */
  event(
    obj: KubeObject,
    type: EventType,
    reason: string,
    message: string,
    decision?: { target?: KubeObject; why?: string },
  ): void {
    this.events.record(obj, type, reason, message);
    this.logOnly(obj, type, reason, message);
    this.ctx.timeline?.record({
      time: this.ctx.clock.now(),
      type: 'decision',
      component: this.component,
      subject: refOf(obj),
      what: reason,
      message,
      level: type,
      ...(decision?.target ? { target: refOf(decision.target) } : {}),
      ...(decision?.why ? { why: decision.why } : {}),
    });
  }

  /**
   * The log line for a failed reconcile that the work queue will retry: `sync "<key>" failed: <why> (retry in <n>ms)`.
   */
  syncFailed(key: string, error: unknown, retryMs: number, what = `sync "${key}"`): void {
    this.logOnly(
      key,
      'Warning',
      'SyncError',
      `${what} failed: ${error instanceof Error ? error.message : String(error)} (retry in ${retryMs}ms)`,
    );
  }

  /** A log line without a Kubernetes Event (for transitions upstream does not record as events). */
  logOnly(obj: KubeObject | string, type: EventType, reason: string, message: string): void {
    const ref =
      typeof obj === 'string'
        ? obj
        : obj.metadata.namespace
          ? `${obj.metadata.namespace}/${obj.metadata.name}`
          : (obj.metadata.name ?? '');
    this.ctx.log.append({
      time: this.ctx.clock.now(),
      component: this.component,
      level: type,
      reason,
      object: ref,
      message,
    });
  }
}
