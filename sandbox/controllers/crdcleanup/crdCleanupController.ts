/**
 * The CRD finalizer of the apiextensions server: when a CustomResourceDefinition is deleted, the API server marks
 * it terminating with the `customresourcecleanup.apiextensions.k8s.io` finalizer (sandbox/apiserver); this
 * controller then deletes every custom resource of it, waits for them to be gone (their own finalizers may hold
 * them), reports progress in the `Terminating` condition, and removes the finalizer, which lets the CRD go and
 * its resources stop being served.
 *
 * upstream: apiextensions-apiserver pkg/controller/finalizer/crd_finalizer.go (`sync`, `deleteInstances`).
 */
import type { ComponentContext } from '../../client/component';
import type { CrdCondition, CustomResourceDefinition } from '../../apiextensions/types';
import { CRD_CLEANUP_FINALIZER } from '../../apiextensions/types';
import { formatTimestamp } from '../../clock/clock';
import type { FailureSubject, ReconcileResult, Watches } from '../framework/controller';
import { Controller } from '../framework/controller';
import { enqueueObject } from '../framework/handlers';

/** How often a CRD whose custom resources are still going is looked at again. */
const RECHECK_MS = 5_000;

export class CrdCleanupController extends Controller {
  constructor(ctx: ComponentContext) {
    super(ctx, { name: 'crd-finalizer' });
  }

  /** CRDs being deleted that still hold the cleanup finalizer. */
  protected watch(w: Watches): void {
    w.watch(
      'customresourcedefinitions',
      enqueueObject({
        events: ['add', 'update'],
        when: (crd) =>
          crd.metadata.deletionTimestamp !== undefined &&
          (crd.metadata.finalizers ?? []).includes(CRD_CLEANUP_FINALIZER),
      }),
    );
  }

  protected override describeFailure(key: string): FailureSubject {
    return { object: key, what: `cleanup of ${key}` };
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

  protected reconcile(name: string): ReconcileResult {
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
