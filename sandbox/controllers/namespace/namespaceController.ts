/**
 * The namespace controller (pkg/controller/namespace/): when a Namespace is
 * being deleted, deletes all of its content, reports progress in its
 * conditions, looks again while content remains (pods terminating
 * gracefully, objects held by finalizers), and finally removes the
 * `kubernetes` finalizer through `/finalize`, which lets the Namespace go.
 */
import type { ComponentContext } from '../../client/component';
import { jsonEqual } from '../../util/json';
import { Controller, type FailureSubject, type ReconcileResult, type Watches } from '../framework/controller';
import { enqueueObject } from '../framework/handlers';
import { updatedConditions } from './conditions';
import { deleteAllContent } from './contentDeleter';

/** The finalizer this controller owns in `spec.finalizers`. */
export const FINALIZER_KUBERNETES = 'kubernetes';

export class NamespaceController extends Controller {
  constructor(ctx: ComponentContext) {
    super(ctx, { name: 'namespace-controller' });
  }

  /** Namespaces being deleted (upstream's handlers enqueue only those). */
  protected watch(w: Watches): void {
    w.watch('namespaces', enqueueObject({ events: ['add', 'update'], when: (ns) => !!ns.metadata.deletionTimestamp }));
  }

  protected override describeFailure(name: string): FailureSubject {
    return { object: name, what: `deletion of namespace ${name}` };
  }

  protected reconcile(name: string): ReconcileResult {
    const api = this.ctx.api;
    const ns = api.tryGet('namespaces', undefined, name);
    if (!ns?.metadata?.deletionTimestamp) return;
    const finalizers = ns.spec?.finalizers ?? [];
    if (!finalizers.includes(FINALIZER_KUBERNETES)) return;
    const now = this.ctx.clock.now();
    const result = deleteAllContent(api, name, ns.metadata.deletionTimestamp, now);
    const conditions = updatedConditions(ns.status?.conditions ?? [], result, now);
    if (!jsonEqual(conditions, ns.status?.conditions ?? [])) {
      api.updateStatus({ ...ns, status: { ...ns.status, conditions } });
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
