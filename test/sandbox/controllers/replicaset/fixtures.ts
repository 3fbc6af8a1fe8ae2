/** Manifests and helpers for the ReplicaSet controller tests. */
import type { KubeObject, OwnerReference } from '../../../../sandbox/api/types';
import type { ApiServer } from '../../../../sandbox/apiserver/apiServer';
import { formatTimestamp } from '../../../../sandbox/clock/clock';

export function replicaSet(
  name: string,
  replicas: number,
  extra: { minReadySeconds?: number; namespace?: string; labels?: Record<string, string> } = {},
): KubeObject {
  const labels = extra.labels ?? { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: extra.namespace ?? 'default' },
    spec: {
      replicas,
      ...(extra.minReadySeconds ? { minReadySeconds: extra.minReadySeconds } : {}),
      selector: { matchLabels: labels },
      template: {
        metadata: { labels, annotations: { team: 'blue' } },
        spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
      },
    },
  };
}

export function ownerRef(owner: KubeObject): OwnerReference {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name!,
    uid: owner.metadata.uid!,
    controller: true,
    blockOwnerDeletion: true,
  };
}

export function podBody(
  name: string,
  labels: Record<string, string>,
  extra: { owner?: KubeObject; nodeName?: string; namespace?: string } = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: extra.namespace ?? 'default',
      labels,
      ...(extra.owner ? { ownerReferences: [ownerRef(extra.owner)] } : {}),
    },
    spec: {
      containers: [{ name: 'app', image: 'nginx:1.27' }],
      ...(extra.nodeName ? { nodeName: extra.nodeName } : {}),
    },
  };
}

/** Sets a pod's phase and Ready condition (as a kubelet would), Ready since `readySince` ms. */
export function setPodStatus(
  api: ApiServer,
  namespace: string,
  name: string,
  phase: string,
  readySince?: number,
  restarts = 0,
): KubeObject {
  const pod = api.get('pods', namespace, name);
  const conditions =
    readySince === undefined
      ? [{ type: 'Ready', status: 'False' }]
      : [{ type: 'Ready', status: 'True', lastTransitionTime: formatTimestamp(readySince) }];
  const status = {
    ...(pod.status as object),
    phase,
    conditions,
    containerStatuses: [
      {
        name: 'app',
        image: 'nginx:1.27',
        imageID: '',
        ready: readySince !== undefined,
        restartCount: restarts,
        started: true,
        state: {},
        lastState: {},
      },
    ],
  };
  return api.updateStatus({ ...pod, status });
}

/** `ADDED pods default/web-x2k9l` → `ADDED pods default/web-*` for generated names. */
export function normalize(line: string, prefix: string): string {
  return line.replace(new RegExp(`${prefix}-[bcdfghjklmnpqrstvwxz2456789]{5}$`), `${prefix}-*`);
}

export function eventsFor(api: ApiServer, name: string): string[] {
  return api
    .list('events', {})
    .items.filter((e) => (e.involvedObject as { name?: string }).name === name)
    .map(
      (e) =>
        `${e.type as string} ${e.reason as string} ${(e.message as string).replace(new RegExp(`${name}-[bcdfghjklmnpqrstvwxz2456789]{5}`, 'g'), `${name}-*`)}`,
    );
}
