/** The Desired vs Actual state built from a mirrored cache of a real sandbox cluster, and the edit parser. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from '../../../sandbox/cluster/cluster';
import { RESOURCES } from '../../../sandbox/api/resources';
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
