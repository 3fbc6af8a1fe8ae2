/**
 * Desired vs actual on a real sandbox cluster: a Deployment applied from a
 * bare manifest shows its defaults as defaults (no drift), and scaling it by
 * hand shows drift on spec.replicas and nowhere else.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from '../../../sandbox/cluster/cluster';
import type { KubeObject } from '../../../sandbox/api/types';
import { differences, diffObjects, type DiffEntry } from '../../../client/src/health/diff';
import { flatten, formatPath } from '../../../client/src/health/flatten';

const manifest: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } },
  },
};

function settled(): Cluster {
  const c = new Cluster({ seed: 7 });
  c.start();
  c.apply(manifest);
  c.runUntilSettled();
  return c;
}

const byKind = (entries: DiffEntry[], kind: DiffEntry['kind']) =>
  entries.filter((e) => e.kind === kind).map((e) => e.path);

describe('diffObjects', () => {
  test('a freshly applied Deployment has no drift: undeclared fields are the server defaults', () => {
    const c = settled();
    const entries = diffObjects(manifest, c.api.get('deployments', 'default', 'web'));
    assert.deepEqual(differences(entries), []);
    assert.deepEqual(byKind(entries, 'same'), [
      'apiVersion',
      'kind',
      'metadata.name',
      'spec.replicas',
      'spec.selector.matchLabels.app',
      'spec.template.metadata.labels.app',
      'spec.template.spec.containers[0].name',
      'spec.template.spec.containers[0].image',
    ]);
    assert.deepEqual(
      entries.filter((e) => e.kind === 'defaulted').map(({ path, desired }) => [path, desired]),
      [
        ['metadata.namespace', 'default'],
        ['spec.template.spec.containers[0].imagePullPolicy', 'IfNotPresent'],
        ['spec.template.spec.containers[0].terminationMessagePath', '/dev/termination-log'],
        ['spec.template.spec.containers[0].terminationMessagePolicy', 'File'],
        ['spec.template.spec.containers[0].resources', {}],
        ['spec.template.spec.restartPolicy', 'Always'],
        ['spec.template.spec.dnsPolicy', 'ClusterFirst'],
        ['spec.template.spec.terminationGracePeriodSeconds', 30],
        ['spec.template.spec.securityContext', {}],
        ['spec.template.spec.schedulerName', 'default-scheduler'],
        ['spec.strategy.type', 'RollingUpdate'],
        ['spec.strategy.rollingUpdate.maxUnavailable', '25%'],
        ['spec.strategy.rollingUpdate.maxSurge', '25%'],
        ['spec.revisionHistoryLimit', 10],
        ['spec.progressDeadlineSeconds', 600],
      ],
    );
    const server = byKind(entries, 'extra-by-server');
    for (const p of [
      'metadata.uid',
      'metadata.resourceVersion',
      'metadata.generation',
      'metadata.creationTimestamp',
      'status.replicas',
    ])
      assert.ok(server.includes(p), p);
    assert.ok(server.includes('metadata.annotations["deployment.kubernetes.io/revision"]'));
    assert.ok(server.includes('metadata.annotations["kubectl.kubernetes.io/last-applied-configuration"]'));
  });

  test('a Deployment scaled by hand drifts on spec.replicas only', () => {
    const c = settled();
    c.scale('deployments', 'default', 'web', 5);
    c.runUntilSettled();
    const entries = diffObjects(manifest, c.api.get('deployments', 'default', 'web'));
    assert.deepEqual(differences(entries), [{ path: 'spec.replicas', desired: 3, live: 5, kind: 'drift' }]);
  });

  test('an undeclared field changed away from its default is drift', () => {
    const c = settled();
    const live = structuredClone(c.api.get('deployments', 'default', 'web')) as KubeObject & {
      spec: { revisionHistoryLimit: number };
    };
    live.spec.revisionHistoryLimit = 5;
    assert.deepEqual(differences(diffObjects(manifest, live)), [
      { path: 'spec.revisionHistoryLimit', desired: 10, live: 5, kind: 'drift' },
    ]);
  });

  test("a declared field absent from the live object is missing; a live-only one is the server's", () => {
    const live: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', namespace: 'default' },
      data: { b: '2' },
    };
    const desired: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } };
    assert.deepEqual(diffObjects(desired, live), [
      { path: 'apiVersion', desired: 'v1', live: 'v1', kind: 'same' },
      { path: 'kind', desired: 'ConfigMap', live: 'ConfigMap', kind: 'same' },
      { path: 'metadata.name', desired: 'c', live: 'c', kind: 'same' },
      { path: 'metadata.namespace', desired: 'default', live: 'default', kind: 'defaulted' },
      { path: 'data.a', desired: '1', kind: 'missing' },
      { path: 'data.b', live: '2', kind: 'extra-by-server' },
    ]);
  });

  test('an element added by hand to a declared list is drift', () => {
    const c = settled();
    const live = structuredClone(c.api.get('deployments', 'default', 'web')) as KubeObject & {
      spec: { template: { spec: { containers: unknown[] } } };
    };
    live.spec.template.spec.containers.push({ name: 'sidecar', image: 'busybox' });
    assert.deepEqual(
      differences(diffObjects(manifest, live)).map((e) => [e.path, e.kind]),
      [
        ['spec.template.spec.containers[1].name', 'drift'],
        ['spec.template.spec.containers[1].image', 'drift'],
      ],
    );
  });
});

describe('flatten', () => {
  test('paths use dots, brackets for dotted keys, indexes, and keep empty objects as leaves', () => {
    assert.deepEqual(
      flatten({ a: { 'x.io/y': 'v', b: [1, {}] }, c: [] }).map((l) => [l.path, l.value]),
      [
        ['a["x.io/y"]', 'v'],
        ['a.b[0]', 1],
        ['a.b[1]', {}],
        ['c', []],
      ],
    );
    assert.equal(formatPath(['spec', 'containers', 0, 'image']), 'spec.containers[0].image');
  });
});
