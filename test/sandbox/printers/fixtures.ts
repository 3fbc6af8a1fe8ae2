/** Objects for the printer tests, built by hand as the API server would store them. */
import type { KubeObject } from '../../../sandbox/api/types';

export const NOW = Date.UTC(2026, 0, 1, 1, 0, 0);
export const ago = (seconds: number): string => new Date(NOW - seconds * 1000).toISOString().replace('.000Z', 'Z');

export function obj(
  apiVersion: string,
  kind: string,
  name: string,
  body: Record<string, unknown> = {},
  meta: Record<string, unknown> = {},
): KubeObject {
  return { apiVersion, kind, metadata: { name, namespace: 'default', creationTimestamp: ago(300), ...meta }, ...body };
}

export function clusterObj(
  apiVersion: string,
  kind: string,
  name: string,
  body: Record<string, unknown> = {},
  meta: Record<string, unknown> = {},
): KubeObject {
  return { apiVersion, kind, metadata: { name, creationTimestamp: ago(3 * 86400 + 4 * 3600), ...meta }, ...body };
}

const template = {
  metadata: { labels: { app: 'web' } },
  spec: {
    containers: [
      { name: 'web', image: 'nginx:1.27' },
      { name: 'log', image: 'busybox' },
    ],
  },
};

export const pods: KubeObject[] = [
  obj('v1', 'Pod', 'web-1', {
    spec: { nodeName: 'node-1', containers: [{ name: 'web', image: 'nginx' }] },
    status: {
      phase: 'Running',
      podIP: '10.244.1.5',
      podIPs: [{ ip: '10.244.1.5' }],
      conditions: [{ type: 'Ready', status: 'True' }],
      containerStatuses: [
        {
          name: 'web',
          image: 'nginx',
          imageID: '',
          ready: true,
          restartCount: 0,
          started: true,
          state: { running: { startedAt: ago(290) } },
        },
      ],
    },
  }),
  obj('v1', 'Pod', 'web-2', {
    spec: {
      nodeName: 'node-2',
      containers: [{ name: 'web', image: 'nginx' }],
      readinessGates: [{ conditionType: 'example.com/lb' }],
    },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'False' }],
      containerStatuses: [
        {
          name: 'web',
          image: 'nginx',
          imageID: '',
          ready: false,
          restartCount: 3,
          state: { waiting: { reason: 'CrashLoopBackOff' } },
          lastState: { terminated: { exitCode: 1, finishedAt: ago(120) } },
        },
      ],
    },
  }),
];

export const deployment = obj('apps/v1', 'Deployment', 'web', {
  spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template },
  status: { replicas: 3, readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
});

export const replicaSet = obj('apps/v1', 'ReplicaSet', 'web-5d9c7b8f6c', {
  spec: { replicas: 3, selector: { matchLabels: { app: 'web', 'pod-template-hash': '5d9c7b8f6c' } }, template },
  status: { replicas: 3, readyReplicas: 2 },
});
