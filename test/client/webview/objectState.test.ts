/** The Desired vs Actual state built from a mirrored cache of a real sandbox cluster, and the edit parser. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from '../../../sandbox/cluster/cluster';
import { RESOURCES } from '../../../sandbox/api/registry';
import type { KubeObject } from '../../../sandbox/api/types';
import { MirrorCache } from '../../../client/src/sandbox/mirror';
import { objectState } from '../../../client/src/webview/objectState';
import { overviewState } from '../../../client/src/webview/overviewState';
import { parseLiveEdit } from '../../../client/src/webview/editLive';
import { syncStatusOf } from '../../../client/src/health/syncStatus';

const manifest: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } },
  },
};

function mirror(c: Cluster): MirrorCache {
  const cache = new MirrorCache();
  const objects = RESOURCES.flatMap((r) =>
    c.api.list(r.plural).items.map((object) => ({ resource: r.plural, object })),
  );
  cache.apply({ kind: 'list', resourceVersion: '1', objects });
  return cache;
}

describe('objectState', () => {
  test('a hand-scaled Deployment: drift on replicas, Healthy after the scale-up, the scaling events, the manifest line', () => {
    const c = new Cluster({ seed: 2 });
    c.start();
    c.apply(manifest);
    c.runUntilSettled();
    c.scale('deployments', 'default', 'web', 4);
    c.runUntilSettled();
    const ref = { resource: 'deployments', namespace: 'default', name: 'web' };
    const state = objectState({
      ref,
      cache: mirror(c),
      desired: { file: '/ws/web.yaml', line: 3, manifest },
      fileLabel: (f) => f.replace('/ws/', ''),
      now: c.clock.now(),
    });
    assert.equal(state.title, 'deployment/web');
    assert.deepEqual(state.health, { status: 'Healthy', message: '' });
    assert.deepEqual(state.manifest && { label: state.manifest.label, line: state.manifest.line }, {
      label: 'web.yaml',
      line: 4,
    });
    assert.deepEqual(
      state.diff.filter((e) => e.kind === 'drift' || e.kind === 'missing'),
      [{ path: 'spec.replicas', desired: 2, live: 4, kind: 'drift' }],
    );
    assert.deepEqual(
      state.events.map((e) => [e.type, e.reason, e.object]),
      [
        ['Normal', 'ScalingReplicaSet', 'deployment/web'],
        ['Normal', 'ScalingReplicaSet', 'deployment/web'],
      ],
    );
    assert.match(state.events[1].message, /^Scaled up replica set web-[a-z0-9]+ from 2 to 4$/);
    assert.equal(state.scheduling, undefined);
    assert.equal(state.sync, undefined, 'no sync status given: none shown');
    const live = c.api.get('deployments', 'default', 'web');
    const withSync = objectState({
      ref,
      cache: mirror(c),
      desired: { file: 'web.yaml', line: 3, manifest },
      fileLabel: (f) => f,
      sync: syncStatusOf({ manifest, source: 'web.yaml', line: 3 }, live),
      now: c.clock.now(),
    });
    assert.deepEqual(withSync.sync, {
      status: 'OutOfSync',
      message: 'OutOfSync: spec.replicas differs from web.yaml:4',
    });
  });

  test('a declared object that is gone is Missing, with no live YAML', () => {
    const c = new Cluster({ seed: 2 });
    const state = objectState({
      ref: { resource: 'deployments', namespace: 'default', name: 'web' },
      cache: mirror(c),
      desired: { file: '/ws/web.yaml', line: 0, manifest },
      fileLabel: (f) => f,
      now: 0,
    });
    assert.deepEqual(state.health, { status: 'Missing', message: 'The object does not exist in the cluster' });
    assert.equal(state.liveYaml, undefined);
  });

  test('a pod is compared with the pod template its ReplicaSet made it from, not with the Deployment manifest', () => {
    const c = new Cluster({ seed: 2 });
    c.start();
    c.apply(manifest);
    c.runUntilSettled();
    const cache = mirror(c);
    const pod = cache.list('pods')[0];
    const rs = cache.list('replicasets')[0];
    const state = objectState({
      ref: { resource: 'pods', namespace: 'default', name: pod.metadata.name! },
      cache,
      // What the worker answers for a pod: the nearest tracked owner's manifest, the Deployment.
      desired: { file: '/ws/web.yaml', line: 3, manifest },
      fileLabel: (f) => f.replace('/ws/', ''),
      now: c.clock.now(),
    });
    assert.deepEqual(state.comparedWith, {
      kind: 'template',
      owner: `replicaset/${rs.metadata.name}`,
      managedBy: ['deployment/web'],
    });
    assert.deepEqual(
      state.diff.filter((e) => e.kind === 'drift' || e.kind === 'missing'),
      [],
      'a pod just made from its template matches it',
    );
    assert.ok(state.diff.some((e) => e.path === 'spec.containers[0].image' && e.kind === 'same'));
    assert.match(state.manifest!.yaml, /^apiVersion: v1\nkind: Pod\n/);
    assert.equal(state.manifest!.label, 'web.yaml');
    // Change the live pod's image by hand: that is drift against the template.
    const edited = structuredClone(pod) as KubeObject & { spec: { containers: { image: string }[] } };
    edited.spec.containers[0].image = 'nginx:1.28';
    cache.apply({ kind: 'changes', changes: [{ type: 'MODIFIED', resource: 'pods', object: edited }] });
    const after = objectState({
      ref: { resource: 'pods', namespace: 'default', name: pod.metadata.name! },
      cache,
      desired: { file: '/ws/web.yaml', line: 3, manifest },
      fileLabel: (f) => f,
      now: c.clock.now(),
    });
    assert.deepEqual(
      after.diff.filter((e) => e.kind === 'drift'),
      [{ path: 'spec.containers[0].image', desired: 'nginx:1.27', live: 'nginx:1.28', kind: 'drift' }],
    );
  });

  test("a Pending pod's why: its requests against each node's allocatable and what is already requested there", () => {
    const big = structuredClone(manifest) as KubeObject & {
      spec: { template: { spec: { containers: Record<string, unknown>[] } } };
    };
    big.spec.template.spec.containers[0].resources = { requests: { cpu: '64', memory: '64Mi' } };
    const c = new Cluster({ seed: 2, nodes: 2 });
    c.start();
    c.apply(big);
    c.apply({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'small', namespace: 'default' },
      spec: {
        nodeName: 'node-1',
        containers: [{ name: 'a', image: 'busybox', resources: { requests: { cpu: '500m' } } }],
      },
    });
    c.runFor(5_000);
    const cache = mirror(c);
    const pod = cache.list('pods').find((p) => p.metadata.name!.startsWith('web-'))!;
    const state = objectState({
      ref: { resource: 'pods', namespace: 'default', name: pod.metadata.name! },
      cache,
      desired: {},
      fileLabel: (f) => f,
      now: c.clock.now(),
    });
    assert.deepEqual(state.why, {
      lead: 'This pod requests 64 CPU and 64Mi memory; no schedulable node has that much free.',
      rows: [
        {
          node: 'node-1',
          cpu: '4 allocatable − 500m requested = 3.5 free',
          memory: '16Gi allocatable − 0 requested = 16Gi free',
          verdict: 'too little cpu',
          fits: false,
        },
        {
          node: 'node-2',
          cpu: '4 allocatable − 0 requested = 4 free',
          memory: '16Gi allocatable − 0 requested = 16Gi free',
          verdict: 'too little cpu',
          fits: false,
        },
      ],
    });
  });

  test('a node says why it has no desired state instead of "desired from not from a saved manifest"', () => {
    const c = new Cluster({ seed: 2 });
    c.start();
    const state = objectState({
      ref: { resource: 'nodes', name: 'node-1' },
      cache: mirror(c),
      desired: {},
      fileLabel: (f) => f,
      now: c.clock.now(),
    });
    assert.deepEqual(state.comparedWith, {
      kind: 'none',
      why: "not declared in a saved manifest: nodes are the cluster's own (their kubelets register them)",
    });
    assert.deepEqual(state.diff, []);
  });

  test('the overview lists declared objects, not the ReplicaSets and Pods made for them', () => {
    const c = new Cluster({ seed: 2 });
    c.start();
    c.apply(manifest);
    c.runUntilSettled();
    const o = overviewState(mirror(c));
    assert.deepEqual(
      o.rows.map((r) => [r.kind, r.ref.name, r.health?.status]),
      [
        ['Deployment', 'web', 'Healthy'],
        ['Service', 'kubernetes', 'Healthy'],
      ],
    );
    assert.deepEqual(o.health, { status: 'Healthy', message: '' });
  });
});

describe('parseLiveEdit', () => {
  const ref = { resource: 'deployments', namespace: 'default', name: 'web' };
  test('accepts the same object with changed fields', () => {
    const r = parseLiveEdit(
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: default\nspec:\n  replicas: 7\n',
      ref,
      'Deployment',
    );
    assert.deepEqual(r, {
      ok: true,
      object: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace: 'default' },
        spec: { replicas: 7 },
      },
    });
  });
  test('refuses broken YAML, several documents, another kind and another name', () => {
    assert.deepEqual(parseLiveEdit('a: [', ref, 'Deployment').ok, false);
    assert.deepEqual(parseLiveEdit('a: 1\n---\nb: 2\n', ref, 'Deployment'), {
      ok: false,
      message: 'The edit must be exactly one YAML document.',
    });
    assert.deepEqual(
      parseLiveEdit('apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: default}\n', ref, 'Deployment'),
      { ok: false, message: 'The edit must stay a Deployment.' },
    );
    assert.deepEqual(
      parseLiveEdit(
        'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: other, namespace: default}\n',
        ref,
        'Deployment',
      ),
      { ok: false, message: 'The edit must keep the name default/web.' },
    );
  });
});
