/**
 * The EndpointSlice controller (pkg/controller/endpointslice): for every
 * Service with a selector, `discovery.k8s.io/v1` EndpointSlices listing the
 * selected pods that have an IP and are not terminal — at most 100 per
 * slice, one set of slices per resolved port list — labelled with the
 * Service name and owned by the Service. Slices of a deleted Service or of
 * one that lost its selector are deleted.
 */
import type { Node, Service } from 'kubernetes-types/core/v1';
import type { Endpoint, EndpointPort, EndpointSlice } from 'kubernetes-types/discovery/v1';
import { isApiError } from '../../api/errors';
import type { KubeObject } from '../../api/types';
import { objectKey, splitKey } from '../../client/cache';
import type { Informer } from '../../client/informer';
import type { Component, ComponentContext } from '../../client/component';
import { Recorder } from '../../client/component';
import { WorkQueue } from '../framework/workQueue';
import { newControllerRef } from '../util/owners';
import { endpointPorts, podToEndpoint, shouldPodBeInEndpoints, ZONE_LABEL } from './podEndpoint';
import { podHandlers, selectedPods } from './serviceWatch';
import type { DesiredGroup } from './slicePlan';
import { planSlices } from './slicePlan';

export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
export const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';
export const CONTROLLER_NAME = 'endpointslice-controller.k8s.io';
const SERVICE_INDEX = 'endpointslice-service';

export class EndpointSliceController implements Component {
  readonly name = 'endpointslice-controller';
  private readonly recorder: Recorder;
  private readonly queue: WorkQueue;
  private services: Informer | undefined;
  private pods: Informer | undefined;
  private nodes: Informer | undefined;
  private slices: Informer | undefined;
  private running = false;

  constructor(private readonly ctx: ComponentContext) {
    this.recorder = new Recorder(ctx, this.name);
    this.queue = new WorkQueue(ctx.clock, {
      reconcile: (key) => this.sync(key),
      onError: (key, error, retry) => this.recorder.syncFailed(key, error, retry),
    });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    const services = (this.services = this.ctx.informers.get('services'));
    this.pods = this.ctx.informers.get('pods');
    this.nodes = this.ctx.informers.get('nodes');
    this.slices = this.ctx.informers.get('endpointslices');
    this.slices.cache.addIndex(SERVICE_INDEX, (s) =>
      s.metadata.labels?.[MANAGED_BY_LABEL] === CONTROLLER_NAME && s.metadata.labels[SERVICE_NAME_LABEL]
        ? [`${s.metadata.namespace}/${s.metadata.labels[SERVICE_NAME_LABEL]}`]
        : [],
    );
    const enqueue = (key: string): void => {
      if (this.running) this.queue.add(key);
    };
    const byKey = (o: KubeObject): void => enqueue(objectKey(o));
    services.addHandlers({ onAdd: byKey, onUpdate: (_o, n) => byKey(n), onDelete: byKey });
    this.pods.addHandlers(podHandlers(services, enqueue));
    const ownerOf = (s: KubeObject): void => {
      const svc = s.metadata.labels?.[SERVICE_NAME_LABEL];
      if (svc && s.metadata.labels?.[MANAGED_BY_LABEL] === CONTROLLER_NAME) enqueue(`${s.metadata.namespace}/${svc}`);
    };
    this.slices.addHandlers({ onUpdate: (_o, n) => ownerOf(n), onDelete: ownerOf });
    this.nodes.addHandlers({
      onUpdate: (o, n) => {
        if (o.metadata.labels?.[ZONE_LABEL] !== n.metadata.labels?.[ZONE_LABEL])
          for (const s of services.cache.list()) byKey(s);
      },
    });
  }

  stop(): void {
    this.running = false;
    this.queue.shutdown();
  }

  private sync(key: string): void {
    const existing = this.slices!.cache.byIndex(SERVICE_INDEX, key) as unknown as EndpointSlice[];
    existing.sort((a, b) => (a.metadata!.name! < b.metadata!.name! ? -1 : 1));
    const cached = this.services!.cache.get(key);
    const svc = cached as unknown as Service | undefined;
    if (!svc || !svc.spec?.selector || cached!.metadata.deletionTimestamp) {
      for (const s of existing) this.remove(s);
      return;
    }
    const plan = planSlices(existing, this.desiredGroups(svc));
    for (const s of plan.update) this.ctx.api.update(s as unknown as KubeObject);
    for (const c of plan.create) this.ctx.api.create(this.newSlice(cached!, c.ports, c.endpoints));
    for (const s of plan.delete) this.remove(s);
  }

  private desiredGroups(svc: Service): DesiredGroup[] {
    const groups = new Map<string, DesiredGroup>();
    for (const pod of selectedPods(this.pods!, svc)) {
      if (!shouldPodBeInEndpoints(pod, true)) continue;
      const ports = endpointPorts(svc, pod);
      const node = pod.spec?.nodeName
        ? (this.nodes!.cache.get(pod.spec.nodeName) as unknown as Node | undefined)
        : undefined;
      const k = JSON.stringify(ports);
      let g = groups.get(k);
      if (!g) groups.set(k, (g = { ports, endpoints: [] }));
      g.endpoints.push(podToEndpoint(pod, node, svc));
    }
    return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, g]) => g);
  }

  private newSlice(svc: KubeObject, ports: EndpointPort[], endpoints: Endpoint[]): KubeObject {
    const labels: Record<string, string> = {
      ...(svc.metadata.labels ?? {}),
      [SERVICE_NAME_LABEL]: svc.metadata.name!,
      [MANAGED_BY_LABEL]: CONTROLLER_NAME,
    };
    if ((svc.spec as Service['spec'])?.clusterIP === 'None') labels['service.kubernetes.io/headless'] = '';
    const slice: KubeObject = {
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
    const { namespace, name } = splitKey(`${slice.metadata!.namespace}/${slice.metadata!.name}`);
    try {
      this.ctx.api.delete('endpointslices', namespace, name);
    } catch (e) {
      if (!isApiError(e, 404)) throw e;
    }
  }
}
