import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyManifest, LAST_APPLIED } from '../../../sandbox/operations/apply/apply';
import { canonicalJson } from '../../../sandbox/operations/apply/threeWayMerge';
import { kindType, threeWayStrategicPatch } from '../../../sandbox/operations/apply/strategicThreeWay';
import type { KubeObject } from '../../../sandbox/api/types';
import { cloneJson } from '../../../sandbox/util/json';
import { deployment, newApi } from '../fixtures';

type Obj = Record<string, unknown>;

const POD = { apiVersion: 'v1', kind: 'Pod' };
const podWith = (spec: Obj, metadata: Obj = {}): Obj => ({ ...POD, metadata: { name: 'p', ...metadata }, spec });

/**
 * Three-way cases after upstream's (staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/patch_test.go,
 * createStrategicMergePatchTestCaseData's threeWay cases), on the built-in fields that carry the same strategies
 * (containers merge by `name`, finalizers are a set, Deployment `spec.strategy` retains keys).
 */
const CASES: { name: string; original: Obj | undefined; modified: Obj; current: Obj; threeWay: Obj }[] = [
  {
    name: 'change a field of one item in a merging list; fields others added stay',
    original: podWith({ containers: [{ name: 'a', image: 'x:1' }] }),
    modified: podWith({ containers: [{ name: 'a', image: 'x:2' }] }),
    current: podWith({ containers: [{ name: 'a', image: 'x:1', resources: { limits: { cpu: '1' } } }] }),
    threeWay: { spec: { $setElementOrder: true, containers: [{ name: 'a', image: 'x:2' }] } },
  },
  {
    name: 'delete one item from a merging list',
    original: podWith({
      containers: [
        { name: 'a', image: 'x' },
        { name: 'b', image: 'y' },
      ],
    }),
    modified: podWith({ containers: [{ name: 'a', image: 'x' }] }),
    current: podWith({
      containers: [
        { name: 'a', image: 'x', tty: true },
        { name: 'b', image: 'y' },
      ],
    }),
    threeWay: { spec: { $setElementOrder: true, containers: [{ $patch: 'delete', name: 'b' }] } },
  },
  {
    name: 'add one item to a merging list: sent whole, with the order',
    original: podWith({ containers: [{ name: 'b', image: 'y' }] }),
    modified: podWith({
      containers: [
        { name: 'a', image: 'x' },
        { name: 'b', image: 'y' },
      ],
    }),
    current: podWith({ containers: [{ name: 'b', image: 'y' }] }),
    threeWay: { spec: { $setElementOrder: true, containers: [{ name: 'a', image: 'x' }] } },
  },
  {
    name: 'delete and add items in a merging list of scalars',
    original: { ...POD, metadata: { name: 'p', finalizers: ['a', 'b'] } },
    modified: { ...POD, metadata: { name: 'p', finalizers: ['a', 'c'] } },
    current: { ...POD, metadata: { name: 'p', finalizers: ['a', 'b', 'x'] } },
    threeWay: {
      metadata: {
        '$setElementOrder/finalizers': ['a', 'c'],
        finalizers: ['c'],
        '$deleteFromPrimitiveList/finalizers': ['b'],
      },
    },
  },
  {
    name: 'a list without a strategy is replaced when different',
    original: podWith({ containers: [{ name: 'a', image: 'x', args: ['1', '2'] }] }),
    modified: podWith({ containers: [{ name: 'a', image: 'x', args: ['1'] }] }),
    current: podWith({ containers: [{ name: 'a', image: 'x', args: ['1', '2'] }] }),
    threeWay: { spec: { $setElementOrder: true, containers: [{ name: 'a', args: ['1'] }] } },
  },
  {
    name: 'a field dropped from the manifest is deleted; one never applied is kept',
    original: podWith({ containers: [{ name: 'a', image: 'x' }], hostname: 'h' }),
    modified: podWith({ containers: [{ name: 'a', image: 'x' }] }),
    current: podWith({ containers: [{ name: 'a', image: 'x' }], hostname: 'h', priority: 0 }),
    threeWay: { spec: { hostname: null } },
  },
  {
    name: 'retainKeys: a map whose strategy retains keys names the members to keep',
    original: undefined,
    modified: { apiVersion: 'apps/v1', kind: 'Deployment', spec: { strategy: { type: 'Recreate' } } },
    current: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%' } } },
    },
    threeWay: { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } },
  },
  {
    name: 'nothing to do gives {} even with live additions inside list items',
    original: podWith({ containers: [{ name: 'a', image: 'x' }] }),
    modified: podWith({ containers: [{ name: 'a', image: 'x' }] }),
    current: podWith({ containers: [{ name: 'a', image: 'x', resources: {} }], nodeName: 'n1' }),
    threeWay: {},
  },
];

/** `$setElementOrder: true` in a case stands for the containers order list, written from `modified`. */
function expected(c: (typeof CASES)[number]): Obj {
  const out = cloneJson(c.threeWay) as Obj;
  const spec = out.spec as Obj | undefined;
  if (spec && '$setElementOrder' in spec) {
    delete spec.$setElementOrder;
    const containers = (c.modified.spec as { containers: { name: string }[] }).containers;
    spec['$setElementOrder/containers'] = containers.map((x) => ({ name: x.name }));
  }
  return JSON.parse(JSON.stringify(out)) as Obj;
}

describe('threeWayStrategicPatch (upstream CreateThreeWayMergePatch cases)', () => {
  for (const c of CASES) {
    test(c.name, () => {
      const patch = threeWayStrategicPatch(c.original, c.modified, c.current, kindType(c.modified));
      assert.deepEqual(patch, expected(c));
    });
  }

  test('unknown kinds diff as plain maps and replace lists', () => {
    const t = kindType({ apiVersion: 'example.com/v1', kind: 'Widget' });
    assert.equal(t, undefined);
    const patch = threeWayStrategicPatch({ spec: { l: [1, 2] } }, { spec: { l: [1] } }, { spec: { l: [1, 2] } }, t);
    assert.deepEqual(patch, { spec: { l: [1] } });
  });
});

function container(spec: unknown, name: string): Obj {
  const c = (spec as { containers: Obj[] }).containers.find((x) => x.name === name);
  assert.ok(c, `container ${name}`);
  return c;
}

describe('applyManifest sends a strategic patch for built-in kinds', () => {
  const manifest = (image: string): KubeObject =>
    ({
      ...POD,
      metadata: { name: 'web', namespace: 'default' },
      spec: { containers: [{ name: 'app', image }] },
    }) as KubeObject;

  test('resources a LimitRange defaulted survive a re-apply that changes only the image', () => {
    const { api } = newApi();
    // The pod as the API server stores it after LimitRanger defaulted its resources (the manifest never set them).
    const stored = cloneJson(manifest('nginx:1.27'));
    stored.metadata.annotations = { [LAST_APPLIED]: `${canonicalJson(manifest('nginx:1.27'))}\n` };
    container(stored.spec, 'app').resources = { limits: { cpu: '500m' }, requests: { cpu: '500m' } };
    api.create(stored);
    const out = applyManifest(api, manifest('nginx:1.28'));
    assert.equal(out.message, 'pod/web configured');
    const app = container(out.object.spec, 'app');
    assert.equal(app.image, 'nginx:1.28');
    assert.deepEqual(app.resources, { limits: { cpu: '500m' }, requests: { cpu: '500m' } });
  });

  test('a Deployment keeps env added live (kubectl set env) and takes the manifest’s changes', () => {
    const { api } = newApi();
    const d = deployment('web', 2);
    const tmpl = (o: KubeObject) => (o.spec as { template: { spec: Obj } }).template.spec;
    const name = (tmpl(d).containers as Obj[])[0].name as string;
    container(tmpl(d), name).env = [{ name: 'A', value: '1' }];
    applyManifest(api, d);
    // kubectl set env B=2: a live-only addition to the container's env.
    const live = cloneJson(api.get('deployments', 'default', 'web'));
    (container(tmpl(live), name).env as Obj[]).push({ name: 'B', value: '2' });
    api.update(live);
    // The manifest changes A and adds C.
    const next = cloneJson(d);
    container(tmpl(next), name).env = [
      { name: 'A', value: 'changed' },
      { name: 'C', value: '3' },
    ];
    const out = applyManifest(api, next);
    assert.equal(out.action, 'configured');
    assert.deepEqual(container(tmpl(out.object), name).env, [
      { name: 'A', value: 'changed' },
      { name: 'C', value: '3' },
      { name: 'B', value: '2' },
    ]);
    // Dropping A from the manifest deletes it; B, which the manifest never named, stays.
    const later = cloneJson(d);
    container(tmpl(later), name).env = [{ name: 'C', value: '3' }];
    const again = applyManifest(api, later);
    assert.deepEqual(container(tmpl(again.object), name).env, [
      { name: 'C', value: '3' },
      { name: 'B', value: '2' },
    ]);
  });

  test('a container removed from the manifest is removed; a re-apply of the same manifest is unchanged', () => {
    const { api } = newApi();
    const two = manifest('nginx') as KubeObject & { spec: { containers: Obj[] } };
    two.spec.containers.push({ name: 'side', image: 'busybox' });
    applyManifest(api, two);
    // Pods cannot lose containers (immutable spec): a Deployment's template can.
    const d = deployment('web', 1);
    const tmpl = (o: KubeObject) => (o.spec as { template: { spec: { containers: Obj[] } } }).template.spec;
    tmpl(d).containers.push({ name: 'side', image: 'busybox' });
    applyManifest(api, d);
    const one = deployment('web', 1);
    const out = applyManifest(api, one);
    assert.equal(out.action, 'configured');
    assert.deepEqual(
      tmpl(out.object).containers.map((c) => c.name),
      tmpl(one).containers.map((c) => c.name),
    );
    assert.equal(applyManifest(api, one).action, 'unchanged');
    assert.equal(applyManifest(api, two).action, 'unchanged');
  });

  test('finalizers: dropped ones are removed, ones added live are kept', () => {
    const { api } = newApi();
    const cm = (finalizers: string[]): KubeObject =>
      ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', finalizers }, data: {} }) as KubeObject;
    applyManifest(api, cm(['example.com/a', 'example.com/b']));
    const live = cloneJson(api.get('configmaps', 'default', 'c'));
    live.metadata.finalizers = [...(live.metadata.finalizers ?? []), 'example.com/live'];
    api.update(live);
    const out = applyManifest(api, cm(['example.com/a', 'example.com/c']));
    assert.deepEqual(out.object.metadata.finalizers, ['example.com/a', 'example.com/c', 'example.com/live']);
  });
});
