import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { forbidden } from '../../../../sandbox/api/errors';
import { resourceByName } from '../../../../sandbox/api/resources';
import type { Written } from '../../../../sandbox/api/resourceObjects';
import type { KubeObject } from '../../../../sandbox/api/types';
import { formatTimestamp } from '../../../../sandbox/clock/clock';
import { ReplicaSetController } from '../../../../sandbox/controllers/replicaset/replicaSetController';
import { newHarness } from '../harness';
import type { Harness } from '../harness';
import { eventsFor, normalize, podBody, replicaSet, setPodStatus } from './fixtures';

function start(h: Harness, options = {}): ReplicaSetController {
  const c = new ReplicaSetController(h.ctx, options);
  c.start();
  return c;
}

function podsOf(h: Harness, ns = 'default'): KubeObject[] {
  return h.api.list('pods', { namespace: ns }).items;
}

function status(h: Harness, name: string, ns = 'default'): unknown {
  return h.api.get('replicasets', ns, name).status;
}

/** Makes pod creates fail with a quota error after `okCount` successes; returns a counter of attempts. */
function failPodCreatesAfter(h: Harness, okCount: number): { attempts: number; restore(): void } {
  const original = h.api.create.bind(h.api);
  const state = { attempts: 0, restore: () => void (h.api.create = original) };
  h.api.create = <T extends KubeObject>(obj: T, opts?: object): Written<T> => {
    if (obj.kind === 'Pod') {
      state.attempts++;
      if (state.attempts > okCount)
        throw forbidden(
          resourceByName('pods')!,
          '',
          'exceeded quota: compute, requested: pods=1, used: pods=2, limited: pods=2',
        );
    }
    return original(obj, opts);
  };
  return state;
}

describe('ReplicaSet controller: creating', () => {
  test('creates the missing pods from the template, then writes status once', () => {
    const h = newHarness(1);
    const rs = h.api.create(replicaSet('web', 3));
    h.record(['pods', 'replicasets']);
    start(h);
    h.settle();
    // As upstream, the first status is computed from the pods claimed before the creates (0);
    // the pod events wake a second sync that reports them.
    assert.deepEqual(
      h.actions().map((l) => normalize(l, 'web')),
      [
        'ADDED pods default/web-*',
        'ADDED pods default/web-*',
        'ADDED pods default/web-*',
        'MODIFIED replicasets default/web',
        'MODIFIED replicasets default/web',
      ],
    );
    const pods = podsOf(h);
    assert.equal(pods.length, 3);
    for (const p of pods) {
      assert.match(p.metadata.name!, /^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      assert.equal(p.metadata.generateName, 'web-');
      assert.deepEqual(p.metadata.labels, { app: 'web' });
      assert.deepEqual(p.metadata.annotations, { team: 'blue' });
      assert.deepEqual(p.metadata.ownerReferences, [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: 'web',
          uid: rs.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
    }
    assert.deepEqual(status(h, 'web'), { replicas: 3, fullyLabeledReplicas: 3, observedGeneration: 1 });
    assert.deepEqual(eventsFor(h.api, 'web'), [
      'Normal SuccessfulCreate Created pod: web-*',
      'Normal SuccessfulCreate Created pod: web-*',
      'Normal SuccessfulCreate Created pod: web-*',
    ]);
  });

  test('creates in slow-start batches: a failing batch stops the rest, and the failure is reported', () => {
    const h = newHarness(2);
    h.api.create(replicaSet('web', 10));
    const stub = failPodCreatesAfter(h, 2);
    const c = start(h);
    h.advance(0);
    const message = 'pods is forbidden: exceeded quota: compute, requested: pods=1, used: pods=2, limited: pods=2';
    const lines = h.logLines().map((l) => normalize(l.replace(/Created pod: web-\w{5}/, 'Created pod: web-*'), 'web'));
    // The first sync: a batch of 1 succeeds; the batch of 2 has one failure; the batches of 4 and 3 are skipped.
    assert.deepEqual(lines.slice(0, lines.findIndex((l) => l.includes('SyncError')) + 1), [
      '00:00:00.000 replicaset-controller Normal TooFewReplicas default/web: Too few replicas: need 10, creating 10',
      '00:00:00.000 replicaset-controller Normal SuccessfulCreate default/web: Created pod: web-*',
      '00:00:00.000 replicaset-controller Normal SuccessfulCreate default/web: Created pod: web-*',
      `00:00:00.000 replicaset-controller Warning FailedCreate default/web: Error creating: ${message}`,
      '00:00:00.000 replicaset-controller Normal SlowStartFailure default/web: Slow-start failure. Skipping creation of 8 pods, decrementing expectations',
      '00:00:00.000 replicaset-controller Normal UpdatingStatus default/web: replicas 0->0 (need 10), fullyLabeledReplicas 0->0, readyReplicas 0->0, availableReplicas 0->0, sequence No: 0->1',
      `00:00:00.000 replicaset-controller Warning SyncError default/web: sync "default/web" failed: ${message} (retry in 5ms)`,
    ]);
    assert.equal(podsOf(h).length, 2);
    assert.equal(c.expectations.satisfied('default/web'), true);
    assert.deepEqual(eventsFor(h.api, 'web'), [
      'Normal SuccessfulCreate Created pod: web-*',
      'Normal SuccessfulCreate Created pod: web-*',
      `Warning FailedCreate Error creating: ${message}`,
    ]);
    assert.deepEqual(status(h, 'web'), {
      replicas: 2,
      fullyLabeledReplicas: 2,
      observedGeneration: 1,
      conditions: [
        {
          type: 'ReplicaFailure',
          status: 'True',
          lastTransitionTime: formatTimestamp(h.clock.now()),
          reason: 'FailedCreate',
          message,
        },
      ],
    });
    // Every retry still fails, at its first batch of 1: no more pods.
    const attempts = stub.attempts;
    h.advance(5);
    assert.equal(stub.attempts, attempts + 1);
    assert.equal(podsOf(h).length, 2);
    stub.restore();
    h.settle();
    assert.equal(podsOf(h).length, 10);
    assert.deepEqual(status(h, 'web'), { replicas: 10, fullyLabeledReplicas: 10, observedGeneration: 1 });
  });

  test('at most burstReplicas creates per sync', () => {
    const h = newHarness(3);
    h.api.create(replicaSet('web', 7));
    h.record(['pods']);
    start(h, { burstReplicas: 4 });
    h.advance(0);
    assert.equal(h.actions().length, 7, 'a second sync (woken by the pod events) creates the other 3');
    assert.equal(podsOf(h).length, 7);
  });

  test('a create refused because the namespace is terminating is not a failure (no event, no condition)', () => {
    const h = newHarness(4);
    h.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    h.api.create(replicaSet('web', 2, { namespace: 'shop' }));
    h.api.delete('namespaces', undefined, 'shop');
    h.record(['pods', 'replicasets']);
    start(h);
    h.settle();
    assert.equal(podsOf(h, 'shop').length, 0);
    assert.deepEqual(eventsFor(h.api, 'web'), []);
    assert.deepEqual(status(h, 'web', 'shop'), { replicas: 0, observedGeneration: 1 });
  });

  test('a ReplicaSet being deleted does not manage replicas, but still reports status', () => {
    const h = newHarness(5);
    h.api.create({
      ...replicaSet('web', 2),
      metadata: { name: 'web', namespace: 'default', finalizers: ['example.com/hold'] },
    });
    h.api.delete('replicasets', 'default', 'web');
    start(h);
    h.settle();
    assert.equal(podsOf(h).length, 0);
    assert.deepEqual(status(h, 'web'), { replicas: 0, observedGeneration: 2 });
  });
});

describe('ReplicaSet controller: expectations', () => {
  test('does not create again while its creations are unobserved (stale pod cache)', () => {
    const h = newHarness(6);
    const c = start(h);
    const podInformer = h.ctx.informers.get('pods');
    podInformer.stop();
    h.api.create(replicaSet('web', 2));
    h.advance(0);
    assert.equal(podsOf(h).length, 2);
    assert.equal(podInformer.cache.size, 0, 'the cache has not seen the new pods');
    assert.equal(c.expectations.satisfied('default/web'), false);
    // Another sync with the stale cache (woken by a spec change) must not create more pods.
    const rs = h.api.get('replicasets', 'default', 'web');
    h.api.update({ ...rs, metadata: { ...rs.metadata, labels: { touched: 'yes' } } });
    h.advance(0);
    assert.equal(podsOf(h).length, 2);
    // Once the informer catches up, the expectations are met and nothing more is created.
    podInformer.start();
    h.settle();
    assert.equal(c.expectations.satisfied('default/web'), true);
    assert.equal(podsOf(h).length, 2);
    assert.deepEqual(status(h, 'web'), { replicas: 2, fullyLabeledReplicas: 2, observedGeneration: 1 });
  });

  test('a pod that gets a deletionTimestamp counts as deleted and is replaced at once', () => {
    const h = newHarness(7);
    h.api.create(replicaSet('web', 1));
    start(h);
    h.settle();
    const [first] = podsOf(h);
    // Bound to a node, so the delete is graceful and the pod lingers with a deletionTimestamp.
    h.api.bind('default', first.metadata.name!, 'node-1');
    h.api.delete('pods', 'default', first.metadata.name!);
    h.settle();
    const pods = podsOf(h);
    assert.equal(pods.length, 2);
    assert.deepEqual(pods.filter((p) => !p.metadata.deletionTimestamp).length, 1);
    assert.deepEqual(status(h, 'web'), { replicas: 1, fullyLabeledReplicas: 1, observedGeneration: 1 });
  });
});

describe('ReplicaSet controller: scale down', () => {
  test('deletes pods in the upstream order: unassigned, then Pending, then not ready, then newest ready', () => {
    const h = newHarness(8);
    const rs = h.api.create(replicaSet('web', 5));
    const labels = { app: 'web' };
    const t0 = h.clock.now();
    h.api.create(podBody('running-old', labels, { owner: rs, nodeName: 'n1' }));
    h.api.create(podBody('unassigned', labels, { owner: rs }));
    h.api.create(podBody('pending', labels, { owner: rs, nodeName: 'n1' }));
    h.api.create(podBody('not-ready', labels, { owner: rs, nodeName: 'n2' }));
    h.api.create(podBody('running-new', labels, { owner: rs, nodeName: 'n3' }));
    setPodStatus(h.api, 'default', 'running-old', 'Running', t0 - 3_600_000);
    setPodStatus(h.api, 'default', 'not-ready', 'Running');
    setPodStatus(h.api, 'default', 'running-new', 'Running', t0 - 1000);
    start(h);
    h.settle();
    h.record(['pods']);
    const cur = h.api.get('replicasets', 'default', 'web');
    for (const [replicas, expected] of [
      [3, ['DELETED pods default/unassigned', 'MODIFIED pods default/pending']],
      [2, ['MODIFIED pods default/not-ready']],
      [1, ['MODIFIED pods default/running-new']],
    ] as const) {
      h.clearActions();
      const latest = h.api.get('replicasets', 'default', 'web');
      h.api.update({ ...latest, spec: { ...(latest.spec as object), replicas } });
      h.settle();
      assert.deepEqual(h.actions(), expected, `scaling to ${replicas}`);
    }
    assert.ok(cur);
    assert.deepEqual(
      podsOf(h)
        .filter((p) => !p.metadata.deletionTimestamp)
        .map((p) => p.metadata.name),
      ['running-old'],
    );
    assert.deepEqual(eventsFor(h.api, 'web'), [
      'Normal SuccessfulDelete Deleted pod: unassigned',
      'Normal SuccessfulDelete Deleted pod: pending',
      'Normal SuccessfulDelete Deleted pod: not-ready',
      'Normal SuccessfulDelete Deleted pod: running-new',
    ]);
  });
});

describe('ReplicaSet controller: adoption and release', () => {
  test('adopts a matching orphan instead of creating, and ignores pods another controller owns', () => {
    const h = newHarness(9);
    const other = h.api.create(replicaSet('other', 1, { labels: { app: 'web', track: 'canary' } }));
    h.api.create(podBody('orphan', { app: 'web' }));
    h.api.create(podBody('owned-by-other', { app: 'web', track: 'canary' }, { owner: other }));
    h.api.create(podBody('unrelated', { app: 'db' }));
    const rs = h.api.create(replicaSet('web', 2));
    h.record(['pods']);
    start(h);
    h.settle();
    const orphan = h.api.get('pods', 'default', 'orphan');
    assert.deepEqual(
      orphan.metadata.ownerReferences?.map((r) => r.uid),
      [rs.metadata.uid],
    );
    assert.deepEqual(h.api.get('pods', 'default', 'unrelated').metadata.ownerReferences, undefined);
    const webPods = podsOf(h).filter((p) => p.metadata.ownerReferences?.[0]?.uid === rs.metadata.uid);
    assert.equal(webPods.length, 2, 'adopted one, created one');
    const created = webPods.find((p) => p.metadata.name !== 'orphan')!;
    assert.deepEqual(h.actions(), ['MODIFIED pods default/orphan', `ADDED pods default/${created.metadata.name}`]);
    assert.deepEqual(
      h.api.get('pods', 'default', 'owned-by-other').metadata.ownerReferences?.map((r) => r.uid),
      [other.metadata.uid],
    );
  });

  test('releases an owned pod whose labels stop matching, and replaces it', () => {
    const h = newHarness(10);
    const rs = h.api.create(replicaSet('web', 1));
    start(h);
    h.settle();
    const [pod] = podsOf(h);
    h.record(['pods']);
    h.api.update({ ...pod, metadata: { ...pod.metadata, labels: { app: 'debug' } } });
    h.settle();
    const released = h.api.get('pods', 'default', pod.metadata.name!);
    assert.equal(released.metadata.ownerReferences, undefined);
    const owned = podsOf(h).filter((p) => p.metadata.ownerReferences?.[0]?.uid === rs.metadata.uid);
    assert.equal(owned.length, 1);
    assert.notEqual(owned[0].metadata.name, pod.metadata.name);
    assert.deepEqual(h.actions(), [
      `MODIFIED pods default/${pod.metadata.name}`,
      `MODIFIED pods default/${pod.metadata.name}`,
      `ADDED pods default/${owned[0].metadata.name}`,
    ]);
  });
});

describe('ReplicaSet controller: status', () => {
  test('counts a Ready pod as available only after minReadySeconds, requeued exactly then', () => {
    const h = newHarness(11);
    h.api.create(replicaSet('web', 1, { minReadySeconds: 10 }));
    start(h);
    h.settle();
    const [pod] = podsOf(h);
    const readyAt = h.clock.now();
    setPodStatus(h.api, 'default', pod.metadata.name!, 'Running', readyAt);
    h.advance(0);
    assert.deepEqual(status(h, 'web'), {
      replicas: 1,
      fullyLabeledReplicas: 1,
      readyReplicas: 1,
      observedGeneration: 1,
    });
    assert.equal(h.clock.nextForegroundTimerAt(), readyAt + 10_000);
    h.advance(9_999);
    assert.equal((status(h, 'web') as { availableReplicas?: number }).availableReplicas, undefined);
    h.advance(1);
    assert.deepEqual(status(h, 'web'), {
      replicas: 1,
      fullyLabeledReplicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
      observedGeneration: 1,
    });
    assert.equal(h.clock.pendingForegroundTimers, 0);
  });

  test('fullyLabeledReplicas counts only pods carrying every template label', () => {
    const h = newHarness(12);
    const rs = h.api.create({
      ...replicaSet('web', 2),
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web', tier: 'front' } },
          spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
        },
      },
    });
    h.api.create(podBody('partial', { app: 'web' }, { owner: rs }));
    start(h);
    h.settle();
    assert.deepEqual(status(h, 'web'), { replicas: 2, fullyLabeledReplicas: 1, observedGeneration: 1 });
  });
});
