/**
 * The EndpointSlice controller (pkg/controller/endpointslice): for every
 * Service with a selector, `discovery.k8s.io/v1` EndpointSlices listing the
 * selected pods that have an IP and are not terminal — at most 100 per
 * slice, one set of slices per resolved port list — labelled with the
 * Service name and owned by the Service. Slices of a deleted Service or of
 * one that lost its selector are deleted.
 */
import type { Service } from 'kubernetes-types/core/v1';
import type { Endpoint, EndpointPort, EndpointSlice } from 'kubernetes-types/discovery/v1';
import { isApiError } from '../../api/errors';
import type { ObjectsByResource } from '../../api/resourceObjects';
import type { Typed } from '../../api/types';
import { objectKey } from '../../client/cache';
import type { ComponentContext } from '../../client/component';
import type { Informer } from '../../client/informer';
import { Controller, type Watches } from '../framework/controller';
import { enqueueMapped, enqueueObject } from '../framework/handlers';
import { newControllerRef } from '../util/owners';
import { endpointPorts, podToEndpoint, shouldPodBeInEndpoints, ZONE_LABEL } from './podEndpoint';
import { selectedPods, servicesSelecting } from './serviceWatch';
import type { DesiredGroup } from './slicePlan';
import { planSlices } from './slicePlan';

export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
export const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';
export const CONTROLLER_NAME = 'endpointslice-controller.k8s.io';
const SERVICE_INDEX = 'endpointslice-service';

/** The key of the Service a slice this controller manages belongs to. */
function owningService(s: ObjectsByResource['endpointslices']): string | undefined {
  const labels = s.metadata.labels;
  const svc = labels?.[SERVICE_NAME_LABEL];
  return svc && labels[MANAGED_BY_LABEL] === CONTROLLER_NAME ? `${s.metadata.namespace}/${svc}` : undefined;
}

export class EndpointSliceController extends Controller {
  private services!: Informer<ObjectsByResource['services']>;
  private pods!: Informer<ObjectsByResource['pods']>;
  private nodes!: Informer<ObjectsByResource['nodes']>;
  private slices!: Informer<ObjectsByResource['endpointslices']>;

  constructor(ctx: ComponentContext) {
    super(ctx, { name: 'endpointslice-controller' });
  }

  /**
   * Services by key; pods wake the Services selecting them; a changed or deleted slice wakes its Service; a node
   * whose zone changes wakes every Service (the zone is part of each endpoint).
   */
  protected watch(w: Watches): void {
    const services = (this.services = w.informer('services'));
    this.pods = w.informer('pods');
    this.nodes = w.informer('nodes');
    this.slices = w.informer('endpointslices');
    w.index(this.slices, SERVICE_INDEX, (s) => {
      const key = owningService(s);
      return key === undefined ? [] : [key];
    });
    w.watch(services, enqueueObject());
    w.watch(this.pods, servicesSelecting(services));
    w.watch(this.slices, enqueueMapped(owningService, { events: ['update', 'delete'] }));
    w.watch(this.nodes, {
      onUpdate: (o, n, enqueue) => {
        if (o.metadata.labels?.[ZONE_LABEL] !== n.metadata.labels?.[ZONE_LABEL])
          for (const s of services.cache.list()) enqueue(objectKey(s));
      },
    });
  }

  protected reconcile(key: string): void {
    const existing = this.slices.cache.byIndex(SERVICE_INDEX, key);
    existing.sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));
    const svc = this.services.cache.get(key);
    if (!svc || !svc.spec?.selector || svc.metadata.deletionTimestamp) {
      for (const s of existing) this.remove(s);
      return;
    }
    const plan = planSlices(existing, this.desiredGroups(svc));
    for (const s of plan.update) this.ctx.api.update(s);
    for (const c of plan.create) this.ctx.api.create(this.newSlice(svc, c.ports, c.endpoints));
    for (const s of plan.delete) this.remove(s);
  }

  private desiredGroups(svc: Service): DesiredGroup[] {
    const groups = new Map<string, DesiredGroup>();
    for (const pod of selectedPods(this.pods, svc)) {
      if (!shouldPodBeInEndpoints(pod, true)) continue;
      const ports = endpointPorts(svc, pod);
      const node = pod.spec?.nodeName ? this.nodes.cache.get(pod.spec.nodeName) : undefined;
      const k = JSON.stringify(ports);
      let g = groups.get(k);
      if (!g) groups.set(k, (g = { ports, endpoints: [] }));
      g.endpoints.push(podToEndpoint(pod, node, svc));
    }
    return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, g]) => g);
  }

  private newSlice(
    svc: ObjectsByResource['services'],
    ports: EndpointPort[],
    endpoints: Endpoint[],
  ): Typed<EndpointSlice> {
    const labels: Record<string, string> = {
      ...(svc.metadata.labels ?? {}),
      [SERVICE_NAME_LABEL]: svc.metadata.name!,
      [MANAGED_BY_LABEL]: CONTROLLER_NAME,
    };
    if (svc.spec?.clusterIP === 'None') labels['service.kubernetes.io/headless'] = '';
    const slice: Typed<EndpointSlice> = {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        generateName: `${svc.metadata.name}-`,
        namespace: svc.metadata.namespace,
        labels,
        ownerReferences: [newControllerRef(svc)],
      },
      addressType: 'IPv4',
      endpoints,
    };
    if (ports.length > 0) slice.ports = ports;
    return slice;
  }

  private remove(slice: EndpointSlice): void {
    try {
      this.ctx.api.delete('endpointslices', slice.metadata!.namespace, slice.metadata!.name!);
    } catch (e) {
      if (!isApiError(e, 404)) throw e;
    }
  }
}
