import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isApiError } from '../../../sandbox/api/errors';
import type { KubeObject } from '../../../sandbox/api/types';
import { applyPatch } from '../../../sandbox/api/patch/index';
import { applyStrategicMergePatch } from '../../../sandbox/api/patch/strategic';
import { patchFailureDetail } from '../../../sandbox/api/patch/patchErrors';
import { cloneJson, deepFreeze } from '../../../sandbox/util/json';
import { deployment, newApi, statusOf } from '../fixtures';

type Json = Record<string, unknown>;

/** Applies a patch given as JSON text, the way the HTTP layer hands it over. */
const smp = (target: unknown, patch: string): Json =>
  applyStrategicMergePatch(target, JSON.parse(patch) as Json) as Json;

/** The value at a dotted path (`spec.template.spec.containers.0.image`; numbers index lists). */
function at(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const step of path === '' ? [] : path.split('.'))
    cur = cur === null || typeof cur !== 'object' ? undefined : (cur as Json)[step];
  return cur;
}

/**
 * A deep copy of `obj` with each dotted path set to its value (`undefined` deletes): the result a patch should give.
 */
function edited<T>(obj: T, edits: Record<string, unknown>): T {
  const copy = cloneJson(obj);
  for (const [path, value] of Object.entries(edits)) {
    const steps = path.split('.');
    const parent = at(copy, steps.slice(0, -1).join('.')) as Json;
    const last = steps[steps.length - 1];
    if (value === undefined) Reflect.deleteProperty(parent, last);
    else parent[last] = value;
  }
  return copy;
}

const ports = (svc: unknown): unknown[] => (at(svc, 'spec.ports') as Json[]).map((p) => p.port);
const names = (list: unknown): unknown[] => (list as Json[]).map((e) => e.name);

function web(): Json {
  return deepFreeze({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      namespace: 'default',
      labels: { app: 'web' },
      finalizers: ['example.com/a', 'example.com/b'],
    },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'web',
              image: 'nginx:1.25',
              command: ['nginx', '-g', 'daemon off;'],
              ports: [{ containerPort: 80, protocol: 'TCP' }],
              env: [
                { name: 'A', value: '1' },
                { name: 'X', value: 'x' },
              ],
              terminationMessagePath: '/dev/termination-log',
            },
            { name: 'sidecar', image: 'busybox:1.36', args: ['sleep', 'infinity'] },
          ],
          tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule' }],
          volumes: [{ name: 'conf', configMap: { name: 'web-conf' } }],
        },
      },
    },
  });
}

function rejects(fn: () => unknown, code: number, message: RegExp | string): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(isApiError(e, code), `expected ${code}, got ${String(e)}`);
    // A 422 is upstream's bare "the server rejected our request…": the reason rides on the error's cause.
    if (code === 422) assert.deepEqual(e.status.details, {});
    const text = code === 422 ? (patchFailureDetail(e) ?? '') : e.status.message;
    if (typeof message === 'string') assert.equal(text, message);
    else assert.match(text, message);
    return true;
  });
}

describe('strategic merge patch: what kubectl sends', () => {
  test('kubectl set image changes one container and keeps the others and every other field', () => {
    const out = smp(web(), '{"spec":{"template":{"spec":{"containers":[{"image":"nginx:1.27","name":"web"}]}}}}');
    assert.deepEqual(out, edited(web(), { 'spec.template.spec.containers.0.image': 'nginx:1.27' }));
  });

  test('kubectl cordon and uncordon', () => {
    const node = deepFreeze({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n1' },
      spec: { podCIDR: '10.244.1.0/24', taints: [{ key: 't', effect: 'NoSchedule' }] },
    });
    const cordoned = smp(node, '{"spec":{"unschedulable":true}}');
    assert.deepEqual(cordoned, edited(node, { 'spec.unschedulable': true }));
    assert.deepEqual(smp(deepFreeze(cordoned), '{"spec":{"unschedulable":null}}'), node);
  });

  test('kubectl label / annotate: set and remove keys in free-form maps', () => {
    const out = smp(web(), '{"metadata":{"labels":{"tier":"fe","app":null},"annotations":{"note":"hi"}}}');
    assert.deepEqual(out, edited(web(), { 'metadata.labels': { tier: 'fe' }, 'metadata.annotations': { note: 'hi' } }));
  });

  test('client-side apply: $setElementOrder orders the lists, a removed env var is deleted, server-set fields stay', () => {
    // Last applied: env [A, X]; new manifest: env [A, B] — kubectl's three-way patch.
    const patch = JSON.stringify({
      metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"kind":"Deployment"}\n' } },
      spec: {
        template: {
          spec: {
            '$setElementOrder/containers': [{ name: 'web' }, { name: 'sidecar' }],
            containers: [
              {
                '$setElementOrder/env': [{ name: 'A' }, { name: 'B' }],
                env: [
                  { name: 'B', value: '2' },
                  { $patch: 'delete', name: 'X' },
                ],
                name: 'web',
              },
            ],
          },
        },
      },
    });
    assert.deepEqual(
      smp(web(), patch),
      edited(web(), {
        'metadata.annotations': { 'kubectl.kubernetes.io/last-applied-configuration': '{"kind":"Deployment"}\n' },
        'spec.template.spec.containers.0.env': [
          { name: 'A', value: '1' },
          { name: 'B', value: '2' },
        ],
      }),
    );
  });

  test('$setElementOrder alone reorders a merging list', () => {
    const out = smp(
      web(),
      '{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"sidecar"},{"name":"web"}]}}}}',
    );
    assert.deepEqual(names(at(out, 'spec.template.spec.containers')), ['sidecar', 'web']);
    assert.equal(at(out, 'spec.template.spec.containers.1.image'), 'nginx:1.25');
  });

  test('$retainKeys on the Deployment strategy: switching to Recreate drops rollingUpdate', () => {
    const out = smp(web(), '{"spec":{"strategy":{"$retainKeys":["type"],"rollingUpdate":null,"type":"Recreate"}}}');
    assert.deepEqual(out, edited(web(), { 'spec.strategy': { type: 'Recreate' } }));
    // Without the directive the live rollingUpdate stays, as upstream (validation then rejects it).
    const plain = smp(web(), '{"spec":{"strategy":{"type":"Recreate"}}}');
    assert.deepEqual(at(plain, 'spec.strategy'), {
      type: 'Recreate',
      rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' },
    });
  });

  test('$retainKeys on a volume (merge,retainKeys): switching its source drops the old one', () => {
    const out = smp(
      web(),
      '{"spec":{"template":{"spec":{"volumes":[{"$retainKeys":["emptyDir","name"],"emptyDir":{},"name":"conf"}]}}}}',
    );
    assert.deepEqual(at(out, 'spec.template.spec.volumes'), [{ name: 'conf', emptyDir: {} }]);
  });

  test('$deleteFromPrimitiveList removes finalizers; additions to a set merge', () => {
    const removed = smp(web(), '{"metadata":{"$deleteFromPrimitiveList/finalizers":["example.com/a"]}}');
    assert.deepEqual(at(removed, 'metadata.finalizers'), ['example.com/b']);
    const union = smp(web(), '{"metadata":{"finalizers":["example.com/b","example.com/c"]}}');
    assert.deepEqual(at(union, 'metadata.finalizers'), ['example.com/a', 'example.com/b', 'example.com/c']);
    const both = smp(
      web(),
      '{"metadata":{"$setElementOrder/finalizers":["example.com/b","example.com/c"],"$deleteFromPrimitiveList/finalizers":["example.com/a"],"finalizers":["example.com/c"]}}',
    );
    assert.deepEqual(at(both, 'metadata.finalizers'), ['example.com/b', 'example.com/c']);
  });

  test('null deletes a member at any depth; nulls under a new member are dropped', () => {
    const out = smp(
      web(),
      '{"spec":{"replicas":null,"template":{"spec":{"containers":[{"name":"web","terminationMessagePath":null}]}},"paused":{"a":null,"b":1},"minReadySeconds":null}}',
    );
    assert.deepEqual(
      out,
      edited(web(), {
        'spec.replicas': undefined,
        'spec.template.spec.containers.0.terminationMessagePath': undefined,
        'spec.paused': { b: 1 },
      }),
    );
  });

  test('pod status conditions merge by type', () => {
    const pod = deepFreeze({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      status: {
        phase: 'Running',
        conditions: [
          { type: 'PodScheduled', status: 'True' },
          { type: 'Ready', status: 'False', reason: 'ContainersNotReady' },
        ],
      },
    });
    const out = smp(pod, '{"status":{"conditions":[{"type":"Ready","status":"True","reason":null}]}}');
    assert.deepEqual(at(out, 'status.conditions'), [
      { type: 'PodScheduled', status: 'True' },
      { type: 'Ready', status: 'True' },
    ]);
  });

  test('service ports merge by port; a port new to the list goes before the live ones the patch does not name, as upstream', () => {
    const svc = deepFreeze({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's' },
      spec: { ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }] },
    });
    const changed = smp(svc, '{"spec":{"ports":[{"port":80,"targetPort":9090}]}}');
    assert.deepEqual(at(changed, 'spec.ports'), [{ name: 'http', port: 80, targetPort: 9090, protocol: 'TCP' }]);
    const added = smp(svc, '{"spec":{"ports":[{"name":"https","port":443,"protocol":"TCP"}]}}');
    assert.deepEqual(ports(added), [443, 80]);
    const named = smp(svc, '{"spec":{"ports":[{"port":80},{"name":"https","port":443}]}}');
    assert.deepEqual(ports(named), [80, 443]);
  });

  test('the patch order wins for the elements it names; the others keep their live places', () => {
    const pod = deepFreeze({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'a' }, { name: 'b', image: 'b' }, { name: 'c' }] },
    });
    const out = smp(pod, '{"spec":{"containers":[{"name":"c","image":"c"},{"name":"a","image":"a"}]}}');
    assert.deepEqual(at(out, 'spec.containers'), [
      { name: 'b', image: 'b' },
      { name: 'c', image: 'c' },
      { name: 'a', image: 'a' },
    ]);
  });

  test('lists without a merge strategy are replaced whole', () => {
    const out = smp(
      web(),
      '{"spec":{"template":{"spec":{"tolerations":[{"key":"other","operator":"Exists"}],"containers":[{"name":"web","command":["httpd"]}]}}}}',
    );
    assert.deepEqual(
      out,
      edited(web(), {
        'spec.template.spec.tolerations': [{ key: 'other', operator: 'Exists' }],
        'spec.template.spec.containers.0.command': ['httpd'],
      }),
    );
  });

  test('a new container is added with its lists as given (directives and nulls removed)', () => {
    const out = smp(
      web(),
      '{"spec":{"template":{"spec":{"containers":[{"name":"web"},{"name":"log","image":"fluentd","env":[{"name":"L","value":"1"},{"name":"Z","$patch":"delete"}],"args":null}]}}}}',
    );
    assert.deepEqual(names(at(out, 'spec.template.spec.containers')), ['web', 'log', 'sidecar']);
    assert.deepEqual(at(out, 'spec.template.spec.containers.1'), {
      name: 'log',
      image: 'fluentd',
      env: [{ name: 'L', value: '1' }],
    });
  });

  test('$patch: replace and $patch: delete on maps and list elements', () => {
    const labels = smp(web(), '{"spec":{"template":{"metadata":{"labels":{"$patch":"replace","app":"web2"}}}}}');
    assert.deepEqual(at(labels, 'spec.template.metadata.labels'), { app: 'web2' });
    const emptied = smp(web(), '{"spec":{"selector":{"$patch":"delete"}}}');
    assert.deepEqual(at(emptied, 'spec.selector'), {});
    const dropped = smp(web(), '{"spec":{"template":{"spec":{"containers":[{"name":"sidecar","$patch":"delete"}]}}}}');
    assert.deepEqual(names(at(dropped, 'spec.template.spec.containers')), ['web']);
    const replaced = smp(
      web(),
      '{"spec":{"template":{"spec":{"containers":[{"$patch":"replace"},{"name":"only","image":"x"}]}}}}',
    );
    assert.deepEqual(at(replaced, 'spec.template.spec.containers'), [{ name: 'only', image: 'x' }]);
  });

  test('free-form maps and unknown fields merge like a JSON merge patch', () => {
    const cm = deepFreeze({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1', b: '2' } });
    assert.deepEqual(smp(cm, '{"data":{"a":null,"c":"3"},"extra":{"x":[1,2]}}'), {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c' },
      data: { b: '2', c: '3' },
      extra: { x: [1, 2] },
    });
    const unknownKind = deepFreeze({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      spec: { items: [{ name: 'a' }], m: { k: 1 } },
    });
    assert.deepEqual(smp(unknownKind, '{"spec":{"items":[{"name":"b"}],"m":{"j":2}}}'), {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      spec: { items: [{ name: 'b' }], m: { k: 1, j: 2 } },
    });
  });

  test('never mutates its inputs and shares nothing with them', () => {
    const target = web();
    const patch = deepFreeze(
      JSON.parse(
        '{"spec":{"template":{"spec":{"containers":[{"name":"new","image":"n","env":[{"name":"E"}]}]}}}}',
      ) as Json,
    );
    const out = applyStrategicMergePatch(target, patch);
    (at(out, 'spec.template.spec.containers.0.env') as Json[]).push({ name: 'F' });
    (at(out, 'spec.template.spec.containers.1.env.0') as Json).value = 'changed';
    assert.deepEqual(target, web());
    assert.deepEqual(
      patch,
      JSON.parse('{"spec":{"template":{"spec":{"containers":[{"name":"new","image":"n","env":[{"name":"E"}]}]}}}}'),
    );
  });

  test('applyPatch routes the strategic type here', () => {
    const out = applyPatch('strategic', web(), {
      spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } } },
    });
    assert.deepEqual(names(at(out, 'spec.template.spec.containers')), ['web', 'sidecar']);
  });
});

describe('strategic merge patch: bad patches', () => {
  const cases: [string, string, number, RegExp | string][] = [
    [
      'a list element without its merge key',
      '{"spec":{"template":{"spec":{"containers":[{"image":"x"}]}}}}',
      400,
      'map: map[image:x] does not contain declared merge key: name',
    ],
    [
      'a delete directive without the merge key',
      '{"spec":{"template":{"spec":{"containers":[{"$patch":"delete"}]}}}}',
      400,
      'map: map[$patch:delete] does not contain declared merge key: name',
    ],
    [
      '$patch: merge on a map',
      '{"spec":{"$patch":"merge"}}',
      400,
      'unknown patch type: merge in map: map[$patch:merge]',
    ],
    [
      'an unknown $patch on a map',
      '{"spec":{"strategy":{"$patch":"drop","type":"Recreate"}}}',
      400,
      'unknown patch type: drop in map: map[$patch:drop type:Recreate]',
    ],
    [
      '$patch: merge on a list element',
      '{"spec":{"template":{"spec":{"containers":[{"name":"web","$patch":"merge"}]}}}}',
      400,
      'merging lists cannot yet be specified in the patch',
    ],
    [
      '$retainKeys that is not a list',
      '{"spec":{"strategy":{"$retainKeys":"type","type":"Recreate"}}}',
      400,
      'invalid patch format of retainKeys',
    ],
    [
      '$retainKeys that leaves out a member the patch sets',
      '{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate","rollingUpdate":{"maxSurge":1}}}}',
      422,
      "patch content doesn't match retainKeys list",
    ],
    [
      '$deleteFromPrimitiveList that is not a list',
      '{"metadata":{"$deleteFromPrimitiveList/finalizers":"example.com/a"}}',
      400,
      'invalid patch format of primitive list',
    ],
    [
      '$deleteFromPrimitiveList without a field',
      '{"metadata":{"$deleteFromPrimitiveList":["example.com/a"]}}',
      400,
      'invalid patch format of primitive list',
    ],
    [
      '$setElementOrder that is not a list',
      '{"spec":{"template":{"spec":{"$setElementOrder/containers":{"name":"web"}}}}}',
      400,
      'invalid patch format of setElementOrder list',
    ],
    [
      '$setElementOrder that contradicts the patch order',
      '{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"web"},{"name":"sidecar"}],"containers":[{"name":"sidecar"},{"name":"web"}]}}}}',
      400,
      /^The order in patch list:\n.*\n doesn't match \$setElementOrder list:/,
    ],
    [
      'a list of lists in a merging list',
      '{"metadata":{"finalizers":[["a"]]}}',
      422,
      'lists of lists are not supported',
    ],
    [
      'mixed element types in a merging list',
      '{"spec":{"template":{"spec":{"containers":["web"]}}}}',
      400,
      /^list element types are not identical/,
    ],
  ];
  for (const [name, patch, code, message] of cases) {
    test(`${name} → ${code}`, () => rejects(() => smp(web(), patch), code, message));
  }

  test('a patch nested deeper than the JSON limits → 400', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 200; i++) deep = { a: deep };
    rejects(() => applyStrategicMergePatch(web(), deep as Json), 400, /maximum depth/);
  });
});

describe('strategic merge patch through ApiServer.patch', () => {
  test('kubectl set image on a Deployment: admission runs, generation bumps, the rest stays', () => {
    const { api } = newApi();
    const created = api.create(deployment('web'));
    const out = api.patch('deployments', 'default', 'web', 'strategic', {
      spec: { template: { spec: { containers: [{ image: 'nginx:1.28', name: 'app' }] } } },
    });
    const before = at(created, 'spec.template.spec.containers.0') as Json;
    const after = at(out, 'spec.template.spec.containers.0') as Json;
    assert.equal(after.image, 'nginx:1.28');
    assert.deepEqual({ ...after, image: before.image }, before, 'defaulted container fields are kept');
    assert.equal(out.metadata.generation, (created.metadata.generation ?? 0) + 1);
    assert.notEqual(out.metadata.resourceVersion, created.metadata.resourceVersion);
  });

  test('Recreate without $retainKeys is rejected by validation (the defaulted rollingUpdate stays); with it, it is stored', () => {
    const { api } = newApi();
    api.create(deployment('web'));
    const s = statusOf(() =>
      api.patch('deployments', 'default', 'web', 'strategic', { spec: { strategy: { type: 'Recreate' } } }),
    );
    assert.equal(s.code, 422);
    assert.ok(
      s.details?.causes?.some((c) => c.field === 'spec.strategy.rollingUpdate'),
      JSON.stringify(s),
    );
    const out: KubeObject = api.patch('deployments', 'default', 'web', 'strategic', {
      spec: { strategy: { $retainKeys: ['type'], type: 'Recreate', rollingUpdate: null } },
    });
    assert.deepEqual(at(out, 'spec.strategy'), { type: 'Recreate' });
  });

  test('a bad strategic patch changes nothing', () => {
    const { api } = newApi();
    const created = api.create(deployment('web'));
    assert.equal(
      statusOf(() =>
        api.patch('deployments', 'default', 'web', 'strategic', {
          spec: { template: { spec: { containers: [{ image: 'x' }] } } },
        }),
      ).code,
      400,
    );
    assert.equal(api.get('deployments', 'default', 'web').metadata.resourceVersion, created.metadata.resourceVersion);
  });
});

describe('strategic merge patch: PodDisruptionBudget selector (patchStrategy:"replace")', () => {
  const pdb = deepFreeze({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'web' },
    spec: { minAvailable: 1, selector: { matchLabels: { app: 'web', tier: 'front' } } },
  });

  test('the selector is replaced whole, as upstream does, not merged', () => {
    const patched = smp(pdb, '{"spec":{"selector":{"matchLabels":{"app":"api"}}}}');
    assert.deepEqual(at(patched, 'spec.selector'), { matchLabels: { app: 'api' } });
    assert.equal(at(patched, 'spec.minAvailable'), 1);
  });

  test('a map without that strategy still merges (a Deployment selector)', () => {
    const d = deepFreeze({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { selector: { matchLabels: { app: 'web', tier: 'front' } } },
    });
    const patched = smp(d, '{"spec":{"selector":{"matchLabels":{"app":"api"}}}}');
    assert.deepEqual(at(patched, 'spec.selector'), { matchLabels: { app: 'api', tier: 'front' } });
  });
});
