/**
 * The service account controller (upstream: pkg/controller/serviceaccount/serviceaccounts_controller.go,
 * `syncNamespace`): every active namespace has a ServiceAccount named `default`, created when the namespace appears
 * and again if it is deleted.
 */
import { isApiError } from '../../api/errors';
import type { ObjectsByResource } from '../../api/resourceObjects';
import type { ComponentContext } from '../../client/component';
import type { Informer } from '../../client/informer';
import { Controller, type ReconcileResult, type Watches } from '../framework/controller';
import { enqueueMapped } from '../framework/handlers';

export const DEFAULT_SERVICE_ACCOUNT = 'default';

export class ServiceAccountsController extends Controller {
  private namespaces!: Informer<ObjectsByResource['namespaces']>;
  private accounts!: Informer<ObjectsByResource['serviceaccounts']>;

  constructor(ctx: ComponentContext) {
    super(ctx, { name: 'serviceaccount-controller' });
  }

  /** Namespaces on add and update; a deleted `default` (`namespaceAdded`, `serviceAccountDeleted`). */
  protected watch(w: Watches): void {
    this.namespaces = w.watch(
      'namespaces',
      enqueueMapped((ns) => ns.metadata.name, { events: ['add', 'update'] }),
    );
    this.accounts = w.watch(
      'serviceaccounts',
      enqueueMapped((sa) => (sa.metadata.name === DEFAULT_SERVICE_ACCOUNT ? sa.metadata.namespace : undefined), {
        events: ['delete'],
      }),
    );
  }

  protected reconcile(name: string): ReconcileResult {
    const ns = this.namespaces.cache.get(name);
    if (!ns || ns.metadata.deletionTimestamp || ns.status?.phase !== 'Active') return;
    if (this.accounts.cache.get(`${name}/${DEFAULT_SERVICE_ACCOUNT}`)) return;
    try {
      this.ctx.api.create({
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: DEFAULT_SERVICE_ACCOUNT, namespace: name },
      });
    } catch (e) {
      // Already there (the cache lags), or the namespace began terminating meanwhile.
      if (isApiError(e, 409) || isApiError(e, 403) || isApiError(e, 404)) return;
      throw e;
    }
  }
}
