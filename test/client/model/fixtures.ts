/** Objects for the tree tests, as the sandbox would list them, and a MirrorCache filled with them. */
import type { ContainerStatus, Node, Pod } from 'kubernetes-types/core/v1';
import type { KubeObject, OwnerReference, Typed, TypedObjectMeta } from '../../../sandbox/api/types';
import { MirrorCache } from '../../../client/src/sandbox/mirror';
import { aDeployment, aNamespace, aNode, aPod, aReplicaSet, controllerRef } from '../../builders';

/** 2025-01-01T00:10:00Z: ten minutes after the cluster started. */
export const NOW = Date.UTC(2025, 0, 1, 0, 10, 0);
export const CREATED = '2025-01-01T00:05:00Z';

export function meta(name: string, uid: string, namespace?: string, owner?: OwnerReference): TypedObjectMeta {
  return {
    name,
    uid,
    ...(namespace ? { namespace } : {}),
    creationTimestamp: CREATED,
    resourceVersion: '1',
    ...(owner ? { ownerReferences: [owner] } : {}),
  };
}

export function controller(kind: string, name: string, uid: string, apiVersion = 'apps/v1'): OwnerReference {
  return controllerRef(kind, name, uid, apiVersion);
}

export function node(name: string, ready: boolean, unschedulable = false): Typed<Node> {
  return aNode(name, { metadata: meta(name, `uid-${name}`), noHostnameLabel: true, ready, unschedulable });
}

export function namespace(name: string): KubeObject {
  return aNamespace(name, { metadata: meta(name, `uid-ns-${name}`), active: true });
}

type PodState = 'running' | 'unready' | 'pending' | 'crashing' | 'completed';

function containerStatus(state: PodState): ContainerStatus {
  return { image: 'nginx:1.27', imageID: '', ...containerState(state) };
}

function containerState(state: PodState): Omit<ContainerStatus, 'image' | 'imageID'> {
  switch (state) {
    case 'running':
      return { name: 'app', ready: true, restartCount: 0, state: { running: { startedAt: CREATED } } };
    case 'unready':
      return { name: 'app', ready: false, restartCount: 0, state: { running: { startedAt: CREATED } } };
    case 'crashing':
      return {
        name: 'app',
        ready: false,
        restartCount: 4,
        state: { waiting: { reason: 'CrashLoopBackOff' } },
        lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: '2025-01-01T00:09:00Z' } },
      };
    case 'completed':
      return {
        name: 'app',
        ready: false,
        restartCount: 0,
        state: { terminated: { exitCode: 0, reason: 'Completed' } },
      };
    default:
      return { name: 'app', ready: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } };
  }
}

const PHASE: Record<PodState, string> = {
  running: 'Running',
  unready: 'Running',
  pending: 'Pending',
  crashing: 'Running',
  completed: 'Succeeded',
};

export function pod(
  name: string,
  state: PodState,
  nodeName: string | undefined,
  owner?: OwnerReference,
  ns = 'default',
): Typed<Pod> {
  const scheduled = nodeName !== undefined;
  return aPod(name, {
    metadata: meta(name, `uid-${name}`, ns, owner),
    nodeName,
    status: { phase: PHASE[state], ...(scheduled ? { containerStatuses: [containerStatus(state)] } : {}) },
  });
}

export function deployment(name: string, replicas: number, ready: number): KubeObject {
  return aDeployment(name, {
    metadata: meta(name, `uid-${name}`, 'default'),
    replicas,
    templateLabels: false,
    status: { replicas, readyReplicas: ready, updatedReplicas: replicas, availableReplicas: ready },
  });
}

export function replicaSet(
  name: string,
  owner: OwnerReference | undefined,
  replicas: number,
  ready: number,
): KubeObject {
  return aReplicaSet(name, {
    metadata: meta(name, `uid-${name}`, 'default', owner),
    replicas,
    selector: { app: 'web' },
    templateLabels: false,
    status: { replicas, readyReplicas: ready },
  });
}

export function cacheOf(objects: readonly { resource: string; object: KubeObject }[]): MirrorCache {
  const cache = new MirrorCache();
  cache.apply({ kind: 'list', resourceVersion: '1', objects: [...objects] });
  return cache;
}

/**
 * The web lesson's cluster: three nodes (one NotReady, one cordoned), the
 * `web` Deployment → ReplicaSet → three pods (running, pending, crashing), a
 * bare pod, a Service, a CronJob → Job → completed pod, and an empty namespace.
 */
export function webCluster(): MirrorCache {
  const dep = deployment('web', 3, 1);
  const rsOwner = controller('Deployment', 'web', 'uid-web');
  const podOwner = controller('ReplicaSet', 'web-7d9f', 'uid-web-7d9f');
  return cacheOf([
    { resource: 'nodes', object: node('node-1', true) },
    { resource: 'nodes', object: node('node-2', false) },
    { resource: 'nodes', object: node('node-3', true, true) },
    { resource: 'namespaces', object: namespace('default') },
    { resource: 'namespaces', object: namespace('empty') },
    { resource: 'deployments', object: dep },
    { resource: 'replicasets', object: replicaSet('web-7d9f', rsOwner, 3, 1) },
    { resource: 'replicasets', object: replicaSet('web-old', rsOwner, 0, 0) },
    { resource: 'pods', object: pod('web-7d9f-a', 'running', 'node-1', podOwner) },
    { resource: 'pods', object: pod('web-7d9f-b', 'pending', undefined, podOwner) },
    { resource: 'pods', object: pod('web-7d9f-c', 'crashing', 'node-1', podOwner) },
    { resource: 'pods', object: pod('debug', 'unready', 'node-3') },
    {
      resource: 'services',
      object: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: meta('web', 'uid-svc-web', 'default'),
        spec: { type: 'ClusterIP', clusterIP: '10.96.0.10', ports: [{ port: 80, protocol: 'TCP' }] },
      },
    },
    {
      resource: 'cronjobs',
      object: {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        metadata: meta('tick', 'uid-tick', 'default'),
        spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: { containers: [] } } } } },
        status: { active: [] },
      },
    },
    {
      resource: 'jobs',
      object: {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: meta('tick-1', 'uid-tick-1', 'default', controller('CronJob', 'tick', 'uid-tick', 'batch/v1')),
        spec: { completions: 1 },
        status: { succeeded: 1, conditions: [{ type: 'Complete', status: 'True' }] },
      },
    },
    {
      resource: 'pods',
      object: pod('tick-1-x', 'completed', 'node-1', controller('Job', 'tick-1', 'uid-tick-1', 'batch/v1')),
    },
  ]);
}
