/**
 * The namespace controller (pkg/controller/namespace/): when a Namespace is
 * being deleted, deletes all of its content, reports progress in its
 * conditions, looks again while content remains (pods terminating
 * gracefully, objects held by finalizers), and finally removes the
 * `kubernetes` finalizer through `/finalize`, which lets the Namespace go.
 */
import type { Namespace } from 'kubernetes-types/core/v1';
import type { KubeObject } from '../../api/types';
import type { Component, ComponentContext } from '../../client/component';
import { Recorder } from '../../client/component';
import { jsonEqual } from '../../util/json';
import type { ReconcileResult } from '../framework/workQueue';
import { WorkQueue } from '../framework/workQueue';
import { updatedConditions } from './conditions';
import { deleteAllContent } from './contentDeleter';

/** The finalizer this controller owns in `spec.finalizers`. */
export const FINALIZER_KUBERNETES = 'kubernetes';

export class NamespaceController implements Component {
  readonly name = 'namespace-controller';
  private readonly recorder: Recorder;
  private readonly queue: WorkQueue;
  private running = false;

  constructor(private readonly ctx: ComponentContext) {
    this.recorder = new Recorder(ctx, this.name);
    this.queue = new WorkQueue(ctx.clock, {
      reconcile: (key) => this.sync(key),
      onError: (key, error, retry) => this.recorder.syncFailed(key, error, retry, `deletion of namespace ${key}`),
    });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    const enqueue = (ns: KubeObject): void => {
      if (this.running && ns.metadata.deletionTimestamp) this.queue.add(ns.metadata.name!);
    };
    this.ctx.informers.get('namespaces').addHandlers({ onAdd: enqueue, onUpdate: (_old, ns) => enqueue(ns) });
  }

  stop(): void {
    this.running = false;
    this.queue.shutdown();
  }

  private sync(name: string): ReconcileResult {
    const api = this.ctx.api;
    const ns = api.tryGet('namespaces', undefined, name) as unknown as Namespace | undefined;
    if (!ns?.metadata?.deletionTimestamp) return;
    const finalizers = ns.spec?.finalizers ?? [];
    if (!finalizers.includes(FINALIZER_KUBERNETES)) return;
    const now = this.ctx.clock.now();
    const result = deleteAllContent(api, name, ns.metadata.deletionTimestamp, now);
    const conditions = updatedConditions(ns.status?.conditions ?? [], result, now);
    if (!jsonEqual(conditions, ns.status?.conditions ?? [])) {
      api.updateStatus({ ...(ns as unknown as KubeObject), status: { ...ns.status, conditions } });
    }
    if (result.errors.length > 0) throw new Error(result.errors.join('; '));
    if (result.estimate > 0) {
      const remaining = [...result.remaining]
        .map(([r, n]) => `${r} has ${n} resource instances`)
        .sort()
        .join(', ');
      this.recorder.logOnly(name, 'Normal', 'ContentRemaining', `waiting for content to be removed: ${remaining}`);
      return { requeueAfter: (Math.floor(result.estimate / 2) + 1) * 1000 };
    }
    api.finalizeNamespace(
      name,
      finalizers.filter((f) => f !== FINALIZER_KUBERNETES),
    );
    this.recorder.logOnly(name, 'Normal', 'NamespaceFinalized', `all content removed; finalized namespace ${name}`);
  }
}
