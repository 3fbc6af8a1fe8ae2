/**
 * The CRD finalizer of the apiextensions server: when a CustomResourceDefinition is deleted, the API server marks
 * it terminating with the `customresourcecleanup.apiextensions.k8s.io` finalizer (sandbox/apiserver); this
 * controller then deletes every custom resource of it, waits for them to be gone (their own finalizers may hold
 * them), reports progress in the `Terminating` condition, and removes the finalizer, which lets the CRD go and
 * its resources stop being served.
 *
 * upstream: apiextensions-apiserver pkg/controller/finalizer/crd_finalizer.go (`sync`, `deleteInstances`).
 */
import type { KubeObject } from '../../api/types';
import type { Component, ComponentContext } from '../../client/component';
import { Recorder } from '../../client/component';
import type { CrdCondition, CustomResourceDefinition } from '../../apiextensions/types';
import { CRD_CLEANUP_FINALIZER } from '../../apiextensions/types';
import { formatTimestamp } from '../../clock/clock';
import type { ReconcileResult } from '../framework/workQueue';
import { WorkQueue } from '../framework/workQueue';

/** How often a CRD whose custom resources are still going is looked at again. */
const RECHECK_MS = 5_000;

export class CrdCleanupController implements Component {
  readonly name = 'crd-finalizer';
  private readonly recorder: Recorder;
  private readonly queue: WorkQueue;
  private running = false;

  constructor(private readonly ctx: ComponentContext) {
    this.recorder = new Recorder(ctx, this.name);
    this.queue = new WorkQueue(ctx.clock, {
      reconcile: (key) => this.sync(key),
      onError: (key, error, retry) => this.recorder.syncFailed(key, error, retry, `cleanup of ${key}`),
    });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    const enqueue = (crd: KubeObject): void => {
      if (
        this.running &&
        crd.metadata.deletionTimestamp &&
        (crd.metadata.finalizers ?? []).includes(CRD_CLEANUP_FINALIZER)
      )
        this.queue.add(crd.metadata.name!);
    };
    this.ctx.informers
      .get('customresourcedefinitions')
      .addHandlers({ onAdd: enqueue, onUpdate: (_old, crd) => enqueue(crd) });
  }

  stop(): void {
    this.running = false;
    this.queue.shutdown();
  }

  private setTerminating(
    crd: CustomResourceDefinition,
    status: 'True' | 'False',
    reason: string,
    message: string,
  ): CustomResourceDefinition {
    const conditions: CrdCondition[] = (crd.status?.conditions ?? []).filter((c) => c.type !== 'Terminating');
    const old = crd.status?.conditions?.find((c) => c.type === 'Terminating');
    if (old?.status === status && old.reason === reason && old.message === message) return crd;
    const now = formatTimestamp(this.ctx.clock.now());
    conditions.push({
      type: 'Terminating',
      status,
      lastTransitionTime: old?.status === status ? (old.lastTransitionTime ?? now) : now,
      reason,
      message,
    });
    return this.ctx.api.updateStatus({ ...crd, status: { ...crd.status, conditions } }) as CustomResourceDefinition;
  }

  private sync(name: string): ReconcileResult {
    const api = this.ctx.api;
    let crd = api.tryGet('customresourcedefinitions', undefined, name) as CustomResourceDefinition | undefined;
    if (!crd?.metadata.deletionTimestamp || !(crd.metadata.finalizers ?? []).includes(CRD_CLEANUP_FINALIZER)) return;
    const resource = api.resources.customOf(name)[0];
    if (resource !== undefined) {
      // Once it has said it is waiting for instances, saying "in progress" again would only flip the condition.
      const current = crd.status?.conditions?.find((c) => c.type === 'Terminating');
      if (current?.reason !== 'InstanceDeletionCheck')
        crd = this.setTerminating(crd, 'True', 'InstanceDeletionInProgress', 'CustomResource deletion is in progress');
      const items = api.list(resource).items;
      for (const item of items) {
        if (item.metadata.deletionTimestamp !== undefined) continue;
        api.delete(resource, item.metadata.namespace, item.metadata.name!);
      }
      const remaining = api.list(resource).items.length;
      if (remaining > 0) {
        crd = this.setTerminating(
          crd,
          'True',
          'InstanceDeletionCheck',
          `could not confirm zero CustomResources remaining: timed out waiting for the condition`,
        );
        this.recorder.logOnly(
          name,
          'Normal',
          'InstancesRemaining',
          `waiting for ${remaining} ${resource.plural} to be deleted`,
        );
        return { requeueAfter: RECHECK_MS };
      }
    }
    crd = this.setTerminating(crd, 'False', 'InstanceDeletionCompleted', 'removed all instances');
    api.update({
      ...crd,
      metadata: {
        ...crd.metadata,
        finalizers: (crd.metadata.finalizers ?? []).filter((f) => f !== CRD_CLEANUP_FINALIZER),
      },
    });
    this.recorder.logOnly(
      name,
      'Normal',
      'InstancesDeleted',
      `removed every ${resource?.plural ?? 'custom resource'}; finalized ${name}`,
    );
  }
}
