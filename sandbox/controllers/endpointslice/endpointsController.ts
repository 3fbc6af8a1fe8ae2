/**
 * The legacy Endpoints controller (pkg/controller/endpoint): keeps a
 * `v1 Endpoints` object named like each Service with a selector, for tools
 * and users that still read `kubectl get endpoints`. Endpoints of a deleted
 * Service are deleted; a Service without a selector is left to its user.
 */
import type { Endpoints, Service } from 'kubernetes-types/core/v1';
import { isApiError } from '../../api/errors';
import type { KubeObject } from '../../api/types';
import { objectKey, splitKey } from '../../client/cache';
import type { Informer } from '../../client/informer';
import type { Component, ComponentContext } from '../../client/component';
import { Recorder } from '../../client/component';
import { jsonEqual } from '../../util/json';
import { WorkQueue } from '../framework/workQueue';
import { podHandlers, selectedPods } from './serviceWatch';
import { endpointSubsets } from './subsets';

/** Tells the EndpointSlice mirroring controller to leave controller-managed Endpoints alone. */
export const SKIP_MIRROR_LABEL = 'endpointslice.kubernetes.io/skip-mirror';

export class EndpointsController implements Component {
  readonly name = 'endpoint-controller';
  private readonly recorder: Recorder;
  private readonly queue: WorkQueue;
  private services: Informer | undefined;
  private pods: Informer | undefined;
  private endpoints: Informer | undefined;
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
    this.endpoints = this.ctx.informers.get('endpoints');
    const enqueue = (key: string): void => {
      if (this.running) this.queue.add(key);
    };
    const byKey = (o: KubeObject): void => enqueue(objectKey(o));
    services.addHandlers({ onAdd: byKey, onUpdate: (_o, n) => byKey(n), onDelete: byKey });
    this.pods.addHandlers(podHandlers(services, enqueue));
    this.endpoints.addHandlers({ onDelete: byKey });
  }

  stop(): void {
    this.running = false;
    this.queue.shutdown();
  }

  private sync(key: string): void {
    const { namespace, name } = splitKey(key);
    const svc = this.services!.cache.get(key) as unknown as Service | undefined;
    const current = this.endpoints!.cache.get(key) as unknown as Endpoints | undefined;
    if (!svc) {
      if (current) this.deleteEndpoints(namespace, name);
      return;
    }
    if (!svc.spec?.selector) return;
    const subsets = endpointSubsets(svc, selectedPods(this.pods!, svc));
    const labels: Record<string, string> = { ...(svc.metadata?.labels ?? {}), [SKIP_MIRROR_LABEL]: 'true' };
    if (svc.spec.clusterIP === 'None') labels['service.kubernetes.io/headless'] = '';
    if (current && jsonEqual(current.subsets ?? [], subsets) && jsonEqual(current.metadata?.labels ?? {}, labels))
      return;
    const body: KubeObject = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { ...((current?.metadata as KubeObject['metadata'] | undefined) ?? { name, namespace }), labels },
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
