import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyDefaults, applyDefaultTolerations, podQosClass } from '../../../sandbox/admission/defaults';
import { resourceFor } from '../../../sandbox/api/resources';
import type { KubeObject } from '../../../sandbox/api/types';

function defaulted(obj: KubeObject): KubeObject {
  const copy = structuredClone(obj);
  const r = resourceFor(copy.apiVersion, copy.kind);
  assert.ok(r, `${copy.kind} is served`);
  applyDefaults(copy, r);
  return copy;
}

const templateSpecDefaults = {
  restartPolicy: 'Always',
  dnsPolicy: 'ClusterFirst',
  terminationGracePeriodSeconds: 30,
  securityContext: {},
  schedulerName: 'default-scheduler',
};
const containerDefaults = {
  terminationMessagePath: '/dev/termination-log',
  terminationMessagePolicy: 'File',
  resources: {},
};

describe('applyDefaults', () => {
  test('Pod: spec, containers, probes, volumes, requests from limits, tolerations', () => {
    const pod: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        containers: [
          {
            name: 'app',
            image: 'nginx:1.27',
            ports: [{ containerPort: 80 }],
            resources: { limits: { cpu: '0.5', memory: '128Mi' }, requests: { cpu: '100m' } },
            readinessProbe: { httpGet: { port: 80 } },
          },
        ],
        initContainers: [{ name: 'init', image: 'busybox' }],
        volumes: [{ name: 'cfg', configMap: { name: 'c' } }, { name: 'scratch' }],
      },
    };
    assert.deepEqual(defaulted(pod), {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        ...templateSpecDefaults,
        enableServiceLinks: true,
        containers: [
          {
            name: 'app',
            image: 'nginx:1.27',
            imagePullPolicy: 'IfNotPresent',
            ...containerDefaults,
            ports: [{ containerPort: 80, protocol: 'TCP' }],
            resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
            readinessProbe: {
              httpGet: { port: 80, path: '/', scheme: 'HTTP' },
              timeoutSeconds: 1,
              periodSeconds: 10,
              successThreshold: 1,
              failureThreshold: 3,
            },
          },
        ],
        initContainers: [{ name: 'init', image: 'busybox', imagePullPolicy: 'Always', ...containerDefaults }],
        volumes: [
          { name: 'cfg', configMap: { name: 'c', defaultMode: 420 } },
          { name: 'scratch', emptyDir: {} },
        ],
        tolerations: [
          { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
          { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        ],
      },
    });
  });

  test('Deployment: replicas, strategy, limits, template (no enableServiceLinks, no requests from limits)', () => {
    const d: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'app', image: 'nginx@sha256:abc', resources: { limits: { cpu: 1 } } }] },
        },
      },
    };
    assert.deepEqual(defaulted(d), {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        replicas: 1,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            ...templateSpecDefaults,
            containers: [
              {
                name: 'app',
                image: 'nginx@sha256:abc',
                imagePullPolicy: 'IfNotPresent',
                ...containerDefaults,
                resources: { limits: { cpu: '1' } },
              },
            ],
          },
        },
      },
    });
  });

  test('Deployment with Recreate gets no rollingUpdate', () => {
    const d = defaulted({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'x' },
      spec: { strategy: { type: 'Recreate' } },
    });
    assert.deepEqual(d.spec, {
      replicas: 1,
      strategy: { type: 'Recreate' },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    });
  });

  test('StatefulSet, DaemonSet, ReplicaSet specs', () => {
    const sts = defaulted({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db' },
      spec: { volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }] },
    });
    assert.deepEqual(sts.spec, {
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      replicas: 1,
      revisionHistoryLimit: 10,
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: { accessModes: ['ReadWriteOnce'], volumeMode: 'Filesystem' },
          status: { phase: 'Pending' },
        },
      ],
    });
    const ds = defaulted({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' }, spec: {} });
    assert.deepEqual(ds.spec, {
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      revisionHistoryLimit: 10,
    });
    const rs = defaulted({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'r' }, spec: {} });
    assert.deepEqual(rs.spec, { replicas: 1 });
  });

  test('Job and CronJob', () => {
    const job = defaulted({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'pi' },
      spec: {
        template: {
          metadata: { labels: { app: 'pi' } },
          spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl:5.34' }] },
        },
      },
    });
    assert.deepEqual(job, {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'pi', labels: { app: 'pi' } },
      spec: {
        completions: 1,
        parallelism: 1,
        backoffLimit: 6,
        completionMode: 'NonIndexed',
        suspend: false,
        podReplacementPolicy: 'TerminatingOrFailed',
        template: {
          metadata: { labels: { app: 'pi' } },
          spec: {
            ...templateSpecDefaults,
            restartPolicy: 'Never',
            containers: [{ name: 'pi', image: 'perl:5.34', imagePullPolicy: 'IfNotPresent', ...containerDefaults }],
          },
        },
      },
    });
    const parallel = defaulted({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'p' },
      spec: { parallelism: 3 },
    });
    assert.deepEqual(
      [parallel.spec as Record<string, unknown>].map((s) => [s.completions, s.parallelism]),
      [[undefined, 3]],
    );
    const cj = defaulted({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'c' },
      spec: { schedule: '@hourly' },
    });
    assert.deepEqual(cj.spec, {
      schedule: '@hourly',
      concurrencyPolicy: 'Allow',
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
    });
  });

  test('Service: ClusterIP and NodePort', () => {
    const svc = defaulted({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web' },
      spec: { selector: { app: 'web' }, ports: [{ port: 80 }, { port: 443, targetPort: 'https', name: 'https' }] },
    });
    assert.deepEqual(svc.spec, {
      selector: { app: 'web' },
      ports: [
        { port: 80, protocol: 'TCP', targetPort: 80 },
        { port: 443, targetPort: 'https', name: 'https', protocol: 'TCP' },
      ],
      sessionAffinity: 'None',
      type: 'ClusterIP',
      internalTrafficPolicy: 'Cluster',
      ipFamilyPolicy: 'SingleStack',
      ipFamilies: ['IPv4'],
    });
    const np = defaulted({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'np' },
      spec: { type: 'NodePort', ports: [{ port: 80, protocol: 'UDP' }] },
    });
    assert.deepEqual(np.spec, {
      type: 'NodePort',
      ports: [{ port: 80, protocol: 'UDP', targetPort: 80 }],
      sessionAffinity: 'None',
      externalTrafficPolicy: 'Cluster',
      internalTrafficPolicy: 'Cluster',
      ipFamilyPolicy: 'SingleStack',
      ipFamilies: ['IPv4'],
    });
  });

  test('Namespace, Node, Secret, PVC, HPA, NetworkPolicy', () => {
    assert.deepEqual(defaulted({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } }), {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'team', labels: { 'kubernetes.io/metadata.name': 'team' } },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
    const node = defaulted({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n1' },
      status: { capacity: { cpu: '4', pods: '110' } },
    });
    assert.deepEqual(node.status, { capacity: { cpu: '4', pods: '110' }, allocatable: { cpu: '4', pods: '110' } });
    assert.equal(defaulted({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } }).type, 'Opaque');
    const pvc = defaulted({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'p' }, spec: {} });
    assert.deepEqual(pvc.spec, { volumeMode: 'Filesystem' });
    const hpa = defaulted({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'h' },
      spec: { maxReplicas: 5, behavior: {} },
    });
    assert.deepEqual(hpa.spec, {
      maxReplicas: 5,
      minReplicas: 1,
      metrics: [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
      ],
      behavior: {
        scaleUp: {
          stabilizationWindowSeconds: 0,
          selectPolicy: 'Max',
          policies: [
            { type: 'Pods', value: 4, periodSeconds: 15 },
            { type: 'Percent', value: 100, periodSeconds: 15 },
          ],
        },
        scaleDown: { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
      },
    });
    const np = defaulted({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'n' },
      spec: { podSelector: {}, egress: [{ ports: [{ port: 53 }] }] },
    });
    assert.deepEqual(np.spec, {
      podSelector: {},
      egress: [{ ports: [{ port: 53, protocol: 'TCP' }] }],
      policyTypes: ['Ingress', 'Egress'],
    });
  });
});

describe('applyDefaultTolerations', () => {
  test('keeps existing matching tolerations and adds only what is missing', () => {
    const pod: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists' }] },
    };
    applyDefaultTolerations(pod);
    assert.deepEqual((pod.spec as { tolerations: unknown }).tolerations, [
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists' },
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
  });

  test('a wildcard toleration covers both', () => {
    const pod: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { tolerations: [{ operator: 'Exists' }] },
    };
    applyDefaultTolerations(pod);
    assert.deepEqual((pod.spec as { tolerations: unknown }).tolerations, [{ operator: 'Exists' }]);
  });
});

describe('podQosClass', () => {
  const pod = (...resources: unknown[]): KubeObject =>
    defaulted({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: resources.map((r, i) => ({ name: `c${i}`, image: 'x', resources: r })) },
    });
  const table: [string, KubeObject, string][] = [
    ['no resources', pod({}), 'BestEffort'],
    ['limits only (requests default to them)', pod({ limits: { cpu: '1', memory: '1Gi' } }), 'Guaranteed'],
    [
      'equal requests and limits in another format',
      pod({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1000m', memory: '1024Mi' } }),
      'Guaranteed',
    ],
    ['requests below limits', pod({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m' } }), 'Burstable'],
    ['cpu limit only', pod({ limits: { cpu: '1' } }), 'Burstable'],
    ['one guaranteed and one best-effort container', pod({ limits: { cpu: '1', memory: '1Gi' } }, {}), 'Burstable'],
    ['zero requests count as none', pod({ requests: { cpu: '0' } }), 'BestEffort'],
  ];
  for (const [name, p, want] of table) test(name, () => assert.equal(podQosClass(p), want));
});
