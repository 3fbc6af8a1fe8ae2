/**
 * Stored pods share the sub-objects they carry alike (sandbox/apiserver/sharedSubObjects.ts): what the API answers is
 * unchanged, a write to one pod never changes another, and the YAML writers print a shared object in full.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { EventSource } from 'kubernetes-types/core/v1';
import type { KubeObject } from '../../../sandbox/api/types';
import { EventSources, shareFrom, sharesSubObjects, writtenAs } from '../../../sandbox/apiserver/sharedSubObjects';
import { deepFreeze } from '../../../sandbox/util/json';
import { recordKeyOrder } from '../../../sandbox/util/keyOrder';
import { Cluster } from '../../../sandbox/cluster/cluster';
import { newApi, pod } from '../fixtures';
import { aDeployment, anEvent } from '../../builders';
import { serve } from '../http/helpers';

type PodSpec = {
  containers: { resources?: unknown; ports?: unknown; env?: unknown; volumeMounts?: unknown[] }[];
  tolerations?: unknown[];
  securityContext?: unknown;
  volumes?: { name: string; projected?: unknown }[];
};
const spec = (o: KubeObject): PodSpec => o.spec as PodSpec;

/** A Deployment (test/builders.ts) whose one container also carries `extra`. */
function withTemplate(name: string, replicas: number, extra: Record<string, unknown>): KubeObject {
  const d = aDeployment(name, { replicas });
  const podSpec = d.spec!.template.spec!;
  podSpec.containers = [{ ...podSpec.containers[0], ...extra }];
  return d;
}

const CONTAINER = {
  resources: { requests: { cpu: '10m', memory: '16Mi' } },
  ports: [{ containerPort: 80, protocol: 'TCP' }],
  env: [{ name: 'MODE', value: 'web' }],
};

function settled(...objects: KubeObject[]): Cluster {
  const c = new Cluster({ seed: 4, nodes: 2 });
  c.start();
  for (const o of objects) c.apply(o);
  c.runUntilSettled();
  return c;
}

const podsOf = (c: Cluster, app: string): KubeObject[] =>
  c.api.list('pods').items.filter((p) => p.metadata.labels?.app === app);

describe('writtenAs', () => {
  test('same JSON and YAML text: key order, the sign of zero and repeated keys count', () => {
    assert.ok(writtenAs({ a: 1, b: [{ c: 'x' }] }, { a: 1, b: [{ c: 'x' }] }));
    assert.ok(!writtenAs({ a: 1, b: 2 }, { b: 2, a: 1 }));
    assert.ok(!writtenAs({ n: -0 }, { n: 0 }));
    assert.ok(!writtenAs([1, 2], [1, 2, 3]));
    assert.ok(!writtenAs({}, []));
    const repeated = { a: 2 };
    recordKeyOrder(repeated, ['a', 'a']);
    assert.ok(!writtenAs(repeated, { a: 2 }));
    assert.ok(!writtenAs({ a: 2 }, repeated));
  });
});

describe('shareFrom', () => {
  test('takes the frozen parts written alike, in place, and the whole when all of it is', () => {
    const frozen = deepFreeze({ same: { x: [1, { y: 2 }] }, other: { z: 1 }, list: [{ k: 'a' }, { k: 'b' }] });
    const value = { same: { x: [1, { y: 2 }] }, other: { z: 2 }, list: [{ k: 'a' }, { k: 'c' }] };
    assert.equal(shareFrom(value, frozen), value);
    assert.equal(value.same, frozen.same);
    assert.notEqual(value.other, frozen.other);
    assert.equal(value.list[0], frozen.list[0]);
    assert.deepEqual(value.list[1], { k: 'c' });
    const whole = deepFreeze({ a: { b: 1 } });
    assert.equal(shareFrom({ a: { b: 1 } }, whole), whole);
  });

  test('never takes from an object that is not frozen, nor puts into a frozen one', () => {
    const open = { a: { b: 1 } };
    const value = { a: { b: 1 } };
    assert.equal(shareFrom(value, open), value);
    assert.notEqual(value.a, open.a);
    const frozenValue = Object.freeze({ a: { b: 1 }, c: 1 });
    const other = deepFreeze({ a: { b: 1 }, c: 2 });
    assert.equal(shareFrom(frozenValue, other), frozenValue);
    assert.notEqual(frozenValue.a, other.a);
  });

  test('keeps a part written in another key order as written', () => {
    const frozen = deepFreeze({ r: { limits: { cpu: '1' }, requests: { cpu: '1' } } });
    const value = { r: { requests: { cpu: '1' }, limits: { cpu: '1' } } };
    shareFrom(value, frozen);
    assert.notEqual(value.r, frozen.r);
    assert.deepEqual(Object.keys(value.r), ['requests', 'limits']);
    assert.equal(value.r.requests, frozen.r.requests); // its parts still are
  });
});

describe('stored pods share what they carry alike', () => {
  test("a ReplicaSet's pods share labels, owner reference, containers' parts and the admission defaults", () => {
    const c = settled(withTemplate('web', 3, CONTAINER), withTemplate('api', 1, CONTAINER));
    const [a, b, d] = podsOf(c, 'web');
    const [other] = podsOf(c, 'api');
    assert.ok(a && b && d && other);
    for (const p of [b, d]) {
      assert.equal(p.metadata.labels, a.metadata.labels);
      assert.equal(p.metadata.ownerReferences, a.metadata.ownerReferences);
      for (const part of ['resources', 'ports', 'env'] as const)
        assert.equal(spec(p).containers[0][part], spec(a).containers[0][part]);
    }
    // Another Deployment's pod: the same defaults and resources, its own labels and owner.
    assert.equal(spec(other).tolerations, spec(a).tolerations);
    assert.equal(spec(other).securityContext, spec(a).securityContext);
    assert.equal(spec(other).volumes![0].projected, spec(a).volumes![0].projected);
    assert.equal(spec(other).containers[0].resources, spec(a).containers[0].resources);
    assert.notEqual(other.metadata.labels, a.metadata.labels);
    // Each pod keeps its own token volume name, in its own mount and volume.
    assert.notEqual(spec(a).volumes![0].name, spec(b).volumes![0].name);
    assert.notEqual(spec(a).containers[0].volumeMounts, spec(b).containers[0].volumeMounts);
    assert.ok(Object.isFrozen(spec(a).tolerations) && Object.isFrozen(spec(a).tolerations![0]));
    assert.deepEqual(spec(a).tolerations, [
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
    c.stop();
  });

  test("workloads share with the one of their kind created before: two Deployments' ReplicaSets, one template spec", () => {
    const c = settled(withTemplate('web', 1, CONTAINER), withTemplate('api', 1, CONTAINER));
    const [web, api] = ['web', 'api'].map(
      (app) => c.api.list('deployments').items.find((d) => d.metadata.name === app)!,
    );
    const templateSpec = (o: KubeObject) => (o.spec as { template: { spec: unknown } }).template.spec;
    assert.equal(templateSpec(api), templateSpec(web));
    const sets = c.api.list('replicasets').items;
    assert.equal(sets.length, 2);
    assert.equal(templateSpec(sets[1]), templateSpec(sets[0]));
    assert.notEqual(sets[1].metadata.labels, sets[0].metadata.labels); // their own hash and app
    assert.ok(sharesSubObjects('apps', 'ReplicaSet') && sharesSubObjects('', 'Pod'));
    assert.ok(!sharesSubObjects('', 'Event') && !sharesSubObjects('events.k8s.io', 'Event'));
    assert.ok(
      !sharesSubObjects('apiextensions.k8s.io', 'CustomResourceDefinition') && !sharesSubObjects('', 'ConfigMap'),
    );
    c.stop();
  });

  test('a pod written unlike the canonical object keeps its own, as written', () => {
    const { api } = newApi();
    const mine = [
      { operator: 'Exists', key: 'node.kubernetes.io/not-ready', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ];
    const first = api.create(pod('first'));
    const p = api.create(pod('p', { spec: { containers: [{ name: 'c', image: 'nginx' }], tolerations: mine } }));
    assert.notEqual(spec(p).tolerations, spec(first).tolerations);
    assert.deepEqual(Object.keys(spec(p).tolerations![0] as object), [
      'operator',
      'key',
      'effect',
      'tolerationSeconds',
    ]);
    assert.equal(spec(p).tolerations![1], spec(first).tolerations![1]); // the one written alike is shared
  });

  test('patching and updating one pod leaves the pods sharing with it as they were', () => {
    const c = settled(withTemplate('web', 2, CONTAINER));
    const [a, b] = podsOf(c, 'web');
    assert.equal(a.metadata.labels, b.metadata.labels);
    const before = JSON.stringify(b);
    const ns = 'default';
    c.api.patch('pods', ns, a.metadata.name!, 'merge', { metadata: { labels: { app: 'web', extra: 'x' } } });
    c.api.patch('pods', ns, a.metadata.name!, 'json', [
      { op: 'add', path: '/spec/tolerations/-', value: { key: 'k', operator: 'Exists', effect: 'NoSchedule' } },
      { op: 'replace', path: '/spec/containers/0/image', value: 'nginx:1.28' },
    ]);
    c.api.patch('pods', ns, a.metadata.name!, 'strategic', { spec: { activeDeadlineSeconds: 600 } });
    const patched = c.api.get('pods', ns, a.metadata.name!);
    assert.equal(patched.metadata.labels?.extra, 'x');
    assert.equal(spec(patched).tolerations!.length, 3);
    assert.equal((patched.spec as { activeDeadlineSeconds?: number }).activeDeadlineSeconds, 600);
    assert.equal(JSON.stringify(c.api.get('pods', ns, b.metadata.name!)), before);
    assert.equal(c.api.get('pods', ns, b.metadata.name!), b);
    assert.equal(spec(b).tolerations!.length, 2);
    c.stop();
  });

  test("the HTTP API's YAML of pods sharing objects writes each in full", async () => {
    const s = await serve({ start: true });
    try {
      s.cluster.apply(withTemplate('web', 2, CONTAINER));
      s.cluster.runUntilSettled();
      const reply = await s.request('GET', '/api/v1/namespaces/default/pods', { accept: 'application/yaml' });
      assert.equal(reply.status, 200);
      assert.doesNotMatch(reply.text, /[&*]a\d/);
      assert.equal(reply.text.match(/tolerationSeconds: 300/g)?.length, 4);
      assert.equal(reply.text.match(/cpu: 10m/g)?.length, 2);
    } finally {
      await s.close();
    }
  });
});

describe("Events share their recorder's `source`", () => {
  test('Events written with the same source share one frozen object; others keep their own; the JSON is as written', () => {
    const { api } = newApi();
    const event = (name: string, source: EventSource): KubeObject => api.create(anEvent(name, source));
    const a = event('a', { component: 'kubelet', host: 'node-1' });
    const b = event('b', { component: 'kubelet', host: 'node-1' });
    const c = event('c', { component: 'kubelet', host: 'node-2' });
    const d = event('d', { host: 'node-1', component: 'kubelet' });
    const e = event('e', { component: 'kubelet' });
    const f = event('f', { component: 'kubelet' });
    const stored = (o: KubeObject) => api.get('events', 'default', o.metadata.name!).source as object;
    assert.equal(stored(a), stored(b));
    assert.ok(Object.isFrozen(stored(a)));
    assert.notEqual(stored(c), stored(a));
    assert.notEqual(stored(d), stored(a), 'another key order is kept as written');
    assert.equal(JSON.stringify(stored(d)), '{"host":"node-1","component":"kubelet"}');
    assert.equal(stored(e), stored(f));
    assert.deepEqual(stored(b), { component: 'kubelet', host: 'node-1' });
    // An update carrying the stored source keeps the shared one; changing one Event's source leaves the others.
    const current = api.get('events', 'default', 'b');
    api.update({ ...current, count: 2 } as KubeObject);
    assert.equal(stored(b), stored(a));
    api.update({ ...api.get('events', 'default', 'b'), source: { component: 'other' } } as KubeObject);
    assert.deepEqual(stored(b), { component: 'other' });
    assert.deepEqual(stored(a), { component: 'kubelet', host: 'node-1' });
  });

  test('a source written without a host and one with a host are kept apart, whatever their text holds', () => {
    const sources = new EventSources();
    const event = (source: Record<string, string>) => ({ metadata: {}, source }) as unknown as KubeObject;
    const alone = event({ component: 'kubelet\u0000node-1' });
    const withHost = event({ component: 'kubelet', host: 'node-1' });
    const empty = event({ component: 'kubelet', host: '' });
    const bare = event({ component: 'kubelet' });
    for (const e of [alone, withHost, empty, bare]) sources.share(e);
    assert.equal(sources.size, 4);
    const again = [
      event({ component: 'kubelet\u0000node-1' }),
      event({ component: 'kubelet', host: 'node-1' }),
      event({ component: 'kubelet', host: '' }),
      event({ component: 'kubelet' }),
    ];
    for (const e of again) sources.share(e);
    assert.equal(sources.size, 4);
    [alone, withHost, empty, bare].forEach((first, i) => {
      assert.equal(again[i].source, first.source, JSON.stringify(first.source));
      assert.ok(Object.isFrozen(first.source));
    });
    assert.deepEqual(
      again.map((e) => JSON.stringify(e.source)),
      [
        '{"component":"kubelet\\u0000node-1"}',
        '{"component":"kubelet","host":"node-1"}',
        '{"component":"kubelet","host":""}',
        '{"component":"kubelet"}',
      ],
    );
  });

  test("a cluster's kubelets' Events share one source a node", () => {
    const c = settled(withTemplate('web', 4, CONTAINER));
    const bySource = new Map<string, Set<unknown>>();
    for (const e of c.api.list('events').items) {
      const source = (e as KubeObject).source as { component: string; host?: string };
      const key = JSON.stringify(source);
      if (!bySource.has(key)) bySource.set(key, new Set());
      bySource.get(key)!.add(source);
    }
    assert.ok(bySource.size >= 2);
    for (const [key, objects] of bySource) assert.equal(objects.size, 1, key);
    c.stop();
  });
});
