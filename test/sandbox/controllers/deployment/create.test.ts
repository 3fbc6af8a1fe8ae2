import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReplicaSet } from 'kubernetes-types/apps/v1';
import { computeHash } from '../../../../sandbox/controllers/deployment/hash';
import { deploymentManifest, newDeploymentHarness, reportReplicaSets } from './fixtures';

test('a new Deployment gets its ReplicaSet: hash name and labels, controller ref, annotations, full size at once', () => {
  const h = newDeploymentHarness();
  h.record(['replicasets']);
  h.api.create(
    deploymentManifest('web', {
      replicas: 3,
      annotations: { team: 'blue', 'kubectl.kubernetes.io/last-applied-configuration': '{}' },
      extra: { minReadySeconds: 5 },
    }),
  );
  h.advance(0);
  const d = h.deployment();
  const hash = computeHash(d.spec!.template);
  assert.deepEqual(h.actions(), [`ADDED replicasets default/web-${hash}`]);
  const [rs] = h.replicaSets();
  const labels = { app: 'web', 'pod-template-hash': hash };
  const want: ReplicaSet = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `web-${hash}`,
      namespace: 'default',
      labels,
      annotations: {
        team: 'blue',
        'deployment.kubernetes.io/revision': '1',
        'deployment.kubernetes.io/desired-replicas': '3',
        'deployment.kubernetes.io/max-replicas': '4',
      },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: 'web',
          uid: d.metadata!.uid!,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      replicas: 3,
      minReadySeconds: 5,
      selector: { matchLabels: labels },
      template: { ...d.spec!.template, metadata: { labels } },
    },
  };
  const { uid: _u, resourceVersion: _r, creationTimestamp: _c, generation: _g, ...meta } = rs.metadata!;
  assert.deepEqual({ apiVersion: rs.apiVersion, kind: rs.kind, metadata: meta, spec: rs.spec }, want);
  assert.equal(d.metadata!.annotations!['deployment.kubernetes.io/revision'], '1');
  assert.deepEqual(h.logLines(), [
    `00:00:00.000 deployment-controller Normal ScalingReplicaSet default/web: Scaled up replica set web-${hash} from 0 to 3`,
  ]);
  const events = h.api
    .list('events', { namespace: 'default' })
    .items.map((e) => `${e.reason as string}: ${e.message as string}`);
  assert.deepEqual(events, [`ScalingReplicaSet: Scaled up replica set web-${hash} from 0 to 3`]);
});

test('status and conditions follow the ReplicaSets: created, then available and complete', () => {
  const h = newDeploymentHarness();
  h.api.create(deploymentManifest('web', { replicas: 3 }));
  h.advance(0);
  const name = h.replicaSets()[0].metadata!.name!;
  const t0 = '2026-01-01T00:00:00Z';
  let d = h.deployment();
  assert.deepEqual(d.status, {
    observedGeneration: d.metadata!.generation,
    unavailableReplicas: 3,
    conditions: [
      {
        type: 'Progressing',
        status: 'True',
        lastUpdateTime: t0,
        lastTransitionTime: t0,
        reason: 'NewReplicaSetCreated',
        message: `Created new replica set "${name}"`,
      },
      {
        type: 'Available',
        status: 'False',
        lastUpdateTime: t0,
        lastTransitionTime: t0,
        reason: 'MinimumReplicasUnavailable',
        message: 'Deployment does not have minimum availability.',
      },
    ],
  });
  h.advance(7000);
  reportReplicaSets(h);
  h.advance(0);
  const t7 = '2026-01-01T00:00:07Z';
  d = h.deployment();
  assert.deepEqual(d.status, {
    observedGeneration: d.metadata!.generation,
    replicas: 3,
    updatedReplicas: 3,
    readyReplicas: 3,
    availableReplicas: 3,
    conditions: [
      {
        type: 'Available',
        status: 'True',
        lastUpdateTime: t7,
        lastTransitionTime: t7,
        reason: 'MinimumReplicasAvailable',
        message: 'Deployment has minimum availability.',
      },
      {
        type: 'Progressing',
        status: 'True',
        lastUpdateTime: t7,
        lastTransitionTime: t0,
        reason: 'NewReplicaSetAvailable',
        message: `ReplicaSet "${name}" has successfully progressed.`,
      },
    ],
  });
  assert.equal(h.clock.pendingForegroundTimers, 0, 'a complete rollout is not requeued');
});

test('a ReplicaSet scaled by hand is scaled back by the Deployment', () => {
  const h = newDeploymentHarness();
  h.api.create(deploymentManifest('web', { replicas: 3 }));
  h.advance(0);
  reportReplicaSets(h);
  h.settle();
  const rs = h.replicaSets()[0];
  h.api.update({ ...rs, spec: { ...rs.spec!, replicas: 5 } });
  h.settle();
  assert.deepEqual(
    h.replicaSets().map((r) => r.spec!.replicas),
    [3],
  );
  assert.match(h.logLines().at(-1)!, /Scaled down replica set web-\w+ from 5 to 3$/);
});

test('orphan ReplicaSets matching the selector are adopted; owned ones that stop matching are released', () => {
  const h = newDeploymentHarness();
  const template = {
    metadata: { labels: { app: 'web', v: 'x' } },
    spec: { containers: [{ name: 'app', image: 'busybox' }] },
  };
  h.api.create({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'stray', namespace: 'default', labels: { app: 'web', v: 'x' } },
    spec: { replicas: 0, selector: { matchLabels: { app: 'web', v: 'x' } }, template },
  });
  h.api.create(deploymentManifest('web', { replicas: 2 }));
  h.settle();
  const d = h.deployment();
  const stray = () => h.replicaSets().find((r) => r.metadata!.name === 'stray')!;
  assert.deepEqual(stray().metadata!.ownerReferences, [
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: 'web',
      uid: d.metadata!.uid!,
      controller: true,
      blockOwnerDeletion: true,
    },
  ]);
  const s = stray();
  h.api.update({ ...s, metadata: { ...s.metadata, labels: { app: 'other', v: 'x' } } });
  h.settle();
  assert.equal(stray().metadata!.ownerReferences, undefined);
});

test('a sync writes status with the cached, frozen spec (shared, not copied) and never changes it', () => {
  const h = newDeploymentHarness();
  const sent: unknown[] = [];
  const updateStatus = h.api.updateStatus.bind(h.api);
  h.api.updateStatus = ((obj, options) => {
    if (obj.kind === 'Deployment') sent.push(obj.spec);
    return updateStatus(obj, options);
  }) as typeof h.api.updateStatus;
  h.api.create(deploymentManifest('web', { replicas: 2 }));
  h.advance(0);
  assert.ok(sent.length > 0, 'the sync wrote status');
  for (const spec of sent) assert.ok(Object.isFrozen(spec), 'the spec sent is the frozen cached one');
  assert.equal(h.deployment().metadata!.annotations?.['deployment.kubernetes.io/revision'], '1');
  assert.equal(h.deployment().metadata!.generation, 1, 'the spec is unchanged');
});

test('a claim is reused while the ReplicaSets are unchanged; an orphan or a label change afterwards is still claimed', () => {
  const h = newDeploymentHarness();
  h.api.create(deploymentManifest('web', { replicas: 2 }));
  h.settle();
  const d = h.deployment();
  const stray = () => h.replicaSets().find((r) => r.metadata!.name === 'stray');
  // A change to the Deployment alone (its ReplicaSets as they were): the sync runs without reading the index again.
  const cache = (h.controller as unknown as { caches: { replicaSets: { byIndex: (...a: unknown[]) => unknown } } })
    .caches.replicaSets;
  const byIndex = cache.byIndex.bind(cache);
  let indexReads = 0;
  cache.byIndex = (...a: unknown[]) => {
    indexReads++;
    return byIndex(...a);
  };
  const reconcile = (h.controller as unknown as { reconcile: (key: string) => void }).reconcile.bind(h.controller);
  let syncs = 0;
  (h.controller as unknown as { reconcile: (key: string) => void }).reconcile = (key) => {
    syncs++;
    reconcile(key);
  };
  h.api.patch('deployments', 'default', 'web', 'merge', { metadata: { labels: { touched: 'yes' } } });
  h.settle();
  assert.ok(syncs > 0, 'the Deployment was synced');
  assert.equal(indexReads, 0, 'its claim was reused');
  // An orphan appearing after that claim changes the namespace's orphans: adopted.
  h.api.create({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'stray', namespace: 'default', labels: { app: 'web' } },
    spec: {
      replicas: 0,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'busybox' }] } },
    },
  });
  h.settle();
  assert.equal(stray()!.metadata!.ownerReferences?.[0]?.uid, d.metadata!.uid, 'adopted');
  assert.ok(indexReads > 0, 'the index was read again');
  // An owned ReplicaSet that stops matching: released.
  const s = stray()!;
  h.api.update({ ...s, metadata: { ...s.metadata, labels: { app: 'other' } } });
  h.settle();
  assert.equal(stray()!.metadata!.ownerReferences, undefined, 'released');
});
