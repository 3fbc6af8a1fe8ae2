/**
 * The legacy Endpoints controller (pkg/controller/endpoint): keeps a
 * `v1 Endpoints` object named like each Service with a selector, for tools
 * and users that still read `kubectl get endpoints`. Endpoints of a deleted
 * Service are deleted; a Service without a selector is left to its user.
 */
import type { Endpoints } from 'kubernetes-types/core/v1';
import { isApiError } from '../../api/errors';
import type { ObjectsByResource } from '../../api/resourceObjects';
import type { Typed } from '../../api/types';
import { splitKey } from '../../client/cache';
import type { ComponentContext } from '../../client/component';
import type { Informer } from '../../client/informer';
import { jsonEqual } from '../../util/json';
import { Controller, type Watches } from '../framework/controller';
import { enqueueObject } from '../framework/handlers';
import { selectedPods, servicesSelecting } from './serviceWatch';
import { endpointSubsets } from './subsets';

/** Tells the EndpointSlice mirroring controller to leave controller-managed Endpoints alone. */
export const SKIP_MIRROR_LABEL = 'endpointslice.kubernetes.io/skip-mirror';

export class EndpointsController extends Controller {
  private services!: Informer<ObjectsByResource['services']>;
  private pods!: Informer<ObjectsByResource['pods']>;
  private endpoints!: Informer<ObjectsByResource['endpoints']>;

  constructor(ctx: ComponentContext) {
    super(ctx, { name: 'endpoint-controller' });
  }

  /** Services by key; pods wake the Services selecting them; a deleted Endpoints wakes its Service. */
  protected watch(w: Watches): void {
    this.services = w.informer('services');
    this.pods = w.informer('pods');
    this.endpoints = w.informer('endpoints');
    w.watch(this.services, enqueueObject());
    w.watch(this.pods, servicesSelecting(this.services));
    w.watch(this.endpoints, enqueueObject({ events: ['delete'] }));
  }

  protected reconcile(key: string): void {
    const { namespace, name } = splitKey(key);
    const svc = this.services.cache.get(key);
    const current = this.endpoints.cache.get(key);
    if (!svc) {
      if (current) this.deleteEndpoints(namespace, name);
      return;
    }
    if (!svc.spec?.selector) return;
    const subsets = endpointSubsets(svc, selectedPods(this.pods, svc));
    const labels: Record<string, string> = { ...(svc.metadata.labels ?? {}), [SKIP_MIRROR_LABEL]: 'true' };
    if (svc.spec.clusterIP === 'None') labels['service.kubernetes.io/headless'] = '';
    if (current && jsonEqual(current.subsets ?? [], subsets) && jsonEqual(current.metadata.labels ?? {}, labels))
      return;
    const body: Typed<Endpoints> = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { ...(current?.metadata ?? { name, namespace }), labels },
    };
    if (subsets.length > 0) body.subsets = subsets;
    if (current) this.ctx.api.update(body);
    else this.ctx.api.create(body);
  }

  private deleteEndpoints(namespace: string, name: string): void {
    try {
      this.ctx.api.delete('endpoints', namespace, name);
    } catch (e) {
      if (!isApiError(e, 404)) throw e;
    }
  }
}
