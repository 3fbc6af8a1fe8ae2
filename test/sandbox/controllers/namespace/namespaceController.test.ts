import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../sandbox/api/types';
import { formatTimestamp } from '../../../../sandbox/clock/clock';
import { GarbageCollector } from '../../../../sandbox/controllers/garbagecollector/garbageCollector';
import { NamespaceController } from '../../../../sandbox/controllers/namespace/namespaceController';
import { ReplicaSetController } from '../../../../sandbox/controllers/replicaset/replicaSetController';
import { newHarness } from '../harness';
import type { Harness } from '../harness';

function seedShop(h: Harness): void {
  h.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
  h.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'shop' }, data: { a: '1' } });
  h.api.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'running', namespace: 'shop' },
    spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'nginx:1.27' }] },
  });
  h.api.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'pending', namespace: 'shop' },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
  });
  h.api.create({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
    },
  });
  h.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'keep' } });
  h.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'keep' } });
}

function conditions(
  h: Harness,
): { type: string; status: string; reason: string; message: string; lastTransitionTime: string }[] {
  return (h.api.get('namespaces', undefined, 'shop').status as { conditions?: never[] }).conditions ?? [];
}

function okConditions(at: string, overrides: Record<string, [string, string, string]> = {}): unknown[] {
  const ok: [string, string, string, string][] = [
    ['NamespaceDeletionDiscoveryFailure', 'False', 'ResourcesDiscovered', 'All resources successfully discovered'],
    [
      'NamespaceDeletionGroupVersionParsingFailure',
      'False',
      'ParsedGroupVersions',
      'All legacy kube types successfully parsed',
    ],
    [
      'NamespaceDeletionContentFailure',
      'False',
      'ContentDeleted',
      'All content successfully deleted, may be waiting on finalization',
    ],
    ['NamespaceContentRemaining', 'False', 'ContentRemoved', 'All content successfully removed'],
    ['NamespaceFinalizersRemaining', 'False', 'ContentHasNoFinalizers', 'All content-preserving finalizers finished'],
  ];
  return ok.map(([type, status, reason, message]) => {
    const o = overrides[type];
    return o
      ? { type, status: o[0], lastTransitionTime: at, reason: o[1], message: o[2] }
      : { type, status, lastTransitionTime: at, reason, message };
  });
}

describe('namespace controller', () => {
  test('deletes the content, waits for terminating pods, then finalizes the namespace', () => {
    const h = newHarness(1);
    seedShop(h);
    new NamespaceController(h.ctx).start();
    h.record(['namespaces', 'pods', 'configmaps', 'deployments']);
    const t0 = h.clock.now();
    h.api.delete('namespaces', undefined, 'shop');
    h.advance(0);
    assert.deepEqual(h.actions(), [
      'MODIFIED namespaces shop',
      // Discovery order (pods first), then name order; the pod on a node terminates gracefully.
      'DELETED pods shop/pending',
      'MODIFIED pods shop/running',
      'DELETED configmaps shop/cfg',
      'DELETED deployments shop/web',
      'MODIFIED namespaces shop',
    ]);
    assert.deepEqual(
      conditions(h),
      okConditions(formatTimestamp(t0), {
        NamespaceContentRemaining: [
          'True',
          'SomeResourcesRemain',
          'Some resources are remaining: pods. has 1 resource instances',
        ],
      }),
    );
    // Looked at again after grace/2 + 1 = 16 s.
    assert.equal(h.clock.nextForegroundTimerAt(), t0 + 16_000);
    h.clearActions();
    h.advance(10_000);
    h.api.delete('pods', 'shop', 'running', { gracePeriodSeconds: 0 });
    h.settle();
    assert.deepEqual(h.actions(), ['DELETED pods shop/running', 'MODIFIED namespaces shop', 'DELETED namespaces shop']);
    assert.equal(h.api.tryGet('namespaces', undefined, 'shop'), undefined);
    assert.deepEqual(
      h.api.list('configmaps', { namespace: 'keep' }).items.map((o: KubeObject) => o.metadata.name),
      ['cfg'],
    );
  });

  test('content held by a finalizer keeps the namespace until the finalizer is removed', () => {
    const h = newHarness(2);
    h.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    h.api.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'held', namespace: 'shop', finalizers: ['example.com/hold'] },
    });
    new NamespaceController(h.ctx).start();
    const t0 = h.clock.now();
    h.api.delete('namespaces', undefined, 'shop');
    h.advance(0);
    assert.deepEqual(
      conditions(h),
      okConditions(formatTimestamp(t0), {
        NamespaceContentRemaining: [
          'True',
          'SomeResourcesRemain',
          'Some resources are remaining: configmaps. has 1 resource instances',
        ],
        NamespaceFinalizersRemaining: [
          'True',
          'SomeFinalizersRemain',
          'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
        ],
      }),
    );
    // 15 s estimate for finalizers: looked at again after 15/2 + 1 = 8 s, and again while it stays.
    assert.equal(h.clock.nextForegroundTimerAt(), t0 + 8_000);
    h.advance(16_000);
    assert.ok(h.api.tryGet('namespaces', undefined, 'shop'));
    const held = h.api.get('configmaps', 'shop', 'held');
    h.api.update({ ...held, metadata: { ...held.metadata, finalizers: [] } });
    h.settle();
    assert.equal(h.api.tryGet('namespaces', undefined, 'shop'), undefined);
  });

  test('a namespace that is not being deleted is left alone', () => {
    const h = newHarness(3);
    seedShop(h);
    h.record(['namespaces', 'pods', 'configmaps']);
    new NamespaceController(h.ctx).start();
    h.settle();
    assert.deepEqual(h.actions(), []);
  });
});

describe('namespace deletion with the workload controllers running', () => {
  test('a ReplicaSet and its pods go with the namespace; nothing is recreated and nothing stays pending', () => {
    const h = newHarness(4);
    h.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    h.api.create({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web', namespace: 'shop' },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
        },
      },
    });
    for (const c of [new ReplicaSetController(h.ctx), new GarbageCollector(h.ctx), new NamespaceController(h.ctx)])
      c.start();
    h.settle();
    assert.equal(h.api.list('pods', { namespace: 'shop' }).items.length, 3);
    h.api.delete('namespaces', undefined, 'shop');
    h.settle();
    assert.equal(h.api.tryGet('namespaces', undefined, 'shop'), undefined);
    assert.equal(h.api.list('pods', { namespace: 'shop' }).items.length, 0);
    assert.equal(h.clock.pendingForegroundTimers, 0);
    assert.ok(
      !h.logLines().some((l) => l.includes('FailedCreate')),
      'creates refused by the terminating namespace are not failures',
    );
  });
});
