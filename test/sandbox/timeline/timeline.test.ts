import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from '../../../sandbox/cluster/cluster';
import type { KubeObject } from '../../../sandbox/api/types';
import { Timeline } from '../../../sandbox/timeline/timeline';
import type { NewTimelineEntry, TimelineEntry } from '../../../sandbox/timeline/timeline';
import { changedFields, recordApply, recordSelfHeal } from '../../../sandbox/timeline/apply';
import { describeEntry } from '../../../sandbox/timeline/format';

const pod = (name: string) => ({ kind: 'Pod', namespace: 'default', name });

function decision(name: string, time = 0): NewTimelineEntry {
  return { time, type: 'decision', component: 'kubelet', subject: pod(name), what: 'Started', message: name };
}

describe('Timeline: bounded memory', () => {
  test('N writes past the cap keep only the cap, the newest, in order', () => {
    const t = new Timeline(5);
    for (let i = 0; i < 12; i++) t.record(decision(`p${i}`, i));
    assert.equal(t.size, 5);
    assert.equal(t.recorded, 12);
    assert.deepEqual(
      t.entries().map((e) => e.id),
      [8, 9, 10, 11, 12],
    );
    assert.deepEqual(
      t.entries().map((e) => e.subject.name),
      ['p7', 'p8', 'p9', 'p10', 'p11'],
    );
    assert.equal(t.get(7), undefined);
    assert.equal(t.get(8)?.subject.name, 'p7');
  });

  test('a chain whose cause was dropped says it is truncated', () => {
    const t = new Timeline(3);
    t.record({ ...decision('a'), type: 'apply', component: 'apply', what: 'created' });
    for (let i = 0; i < 4; i++) t.record(decision('a'));
    const { entries, truncated } = t.explain(pod('a'));
    assert.equal(truncated, true);
    assert.deepEqual(
      entries.map((e) => e.id),
      [3, 4, 5],
    );
  });

  test('the per-object index forgets objects whose entries all went (it stays within twice the cap)', () => {
    const t = new Timeline(10);
    for (let i = 0; i < 1000; i++) t.record(decision(`p${i}`));
    // Every object's last step older than the ring was forgotten: a new entry about p0 has no cause.
    const id = t.record(decision('p0'));
    assert.equal(t.get(id)?.cause, undefined);
    const recent = t.record(decision('p999'));
    assert.equal(t.get(recent)?.cause, 1000);
  });
});

describe('Timeline: causes', () => {
  test('an apply is a root; a decision on a target is caused by its subject and becomes the target’s last step', () => {
    const t = new Timeline();
    const d = { kind: 'Deployment', namespace: 'default', name: 'web' };
    const rs = { kind: 'ReplicaSet', namespace: 'default', name: 'web-1' };
    const apply = t.record({ time: 0, type: 'apply', component: 'apply', subject: d, what: 'created', message: '' });
    const scale = t.record({ ...decision('x'), component: 'dc', subject: d, target: rs });
    const create = t.record({ ...decision('x'), component: 'rsc', subject: rs, target: pod('web-1-a') });
    const write = t.record({ ...decision('x'), type: 'write', component: 'api-server', subject: pod('web-1-a') });
    const bound = t.record({ ...decision('x'), component: 'scheduler', subject: pod('web-1-a') });
    // A second decision on the Deployment is caused by the apply, not by the scale (which went to the ReplicaSet).
    const second = t.record({ ...decision('x'), component: 'dc', subject: d, target: rs });
    const cause = (id: number) => t.get(id)?.cause;
    assert.equal(cause(apply), undefined);
    assert.equal(cause(scale), apply);
    assert.equal(cause(create), scale);
    assert.equal(cause(write), create);
    assert.equal(cause(bound), create); // a plain write is an effect, not a step
    assert.equal(cause(second), apply);
    assert.deepEqual(
      t.explain(pod('web-1-a')).entries.map((e) => e.id),
      [apply, scale, create, bound],
    );
  });

  test('origin: the apply at the root of a step’s causes; none for a chain that starts elsewhere or was dropped', () => {
    const t = new Timeline(4);
    const d = { kind: 'Deployment', namespace: 'default', name: 'web' };
    const rs = { kind: 'ReplicaSet', namespace: 'default', name: 'web-1' };
    const apply = t.record({ ...decision('x'), type: 'apply', component: 'apply', subject: d, source: 'web.yaml:9' });
    const scale = t.record({ ...decision('x'), component: 'dc', subject: d, target: rs });
    const create = t.record({ ...decision('x'), component: 'rsc', subject: rs, target: pod('web-1-a') });
    const lone = t.record(decision('by-hand'));
    assert.equal(t.origin(create)?.id, apply);
    assert.equal(t.origin(scale)?.source, 'web.yaml:9');
    assert.equal(t.origin(apply)?.id, apply, 'an apply is its own origin');
    assert.equal(t.origin(lone), undefined, 'a pod created by hand goes back to no apply');
    // Two more entries push the apply out of the ring of 4: the chain no longer reaches it.
    t.record(decision('y'));
    t.record(decision('z'));
    assert.equal(t.get(apply), undefined);
    assert.equal(t.origin(create), undefined);
  });

  test('an apply names the changed fields at their path', () => {
    const before = { kind: 'Deployment', metadata: { name: 'w' }, spec: { replicas: 2, t: { c: [{ image: 'a' }] } } };
    const after = { kind: 'Deployment', metadata: { name: 'w' }, spec: { replicas: 3, t: { c: [{ image: 'b' }] } } };
    assert.deepEqual(changedFields(before as unknown as KubeObject, after as unknown as KubeObject), [
      { path: 'spec.replicas', segments: ['spec', 'replicas'], before: 2, after: 3 },
      { path: 'spec.t.c[0].image', segments: ['spec', 't', 'c', 0, 'image'], before: 'a', after: 'b' },
    ]);
  });

  test('a dotted label key is one key: named whole, and its own line asked for by its keys', () => {
    const labels = (v: string) => ({ 'app.kubernetes.io/name': v, tier: 'web' });
    const before: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'w', labels: labels('a') },
      spec: {},
    };
    const after: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'w', labels: labels('b') },
      spec: {},
    };
    assert.deepEqual(changedFields(before, after), [
      {
        path: 'metadata.labels.app.kubernetes.io/name',
        segments: ['metadata', 'labels', 'app.kubernetes.io/name'],
        before: 'a',
        after: 'b',
      },
    ]);
    const t = new Timeline(10);
    const asked: unknown[] = [];
    const lineOf = (field: string | readonly (string | number)[]) => {
      asked.push(field);
      return Array.isArray(field) && field[2] === 'app.kubernetes.io/name' ? 7 : 5;
    };
    const id = recordApply(t, 0, 'configured', before, after, { file: 'web.yaml', line: 1, lineOf });
    assert.deepEqual(asked, [['metadata', 'labels', 'app.kubernetes.io/name']]);
    assert.equal(t.get(id)?.source, 'web.yaml:7');
    assert.equal(t.get(id)?.why, 'app.kubernetes.io/name a → b');
  });
});

function deployment(image: string): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'nginx', image, resources: { requests: { cpu: '100m' } } }] },
      },
    },
  } as KubeObject;
}

describe('Timeline of a rolling update, on a Cluster', () => {
  test('each new pod’s chain goes back to the apply that changed the image, every step caused by the one before', () => {
    const cluster = new Cluster({ nodes: 3, seed: 1, timeline: true });
    cluster.start();
    // Asked by the field's keys (test/sandbox/manifests has the real lookup).
    const lineOf = (field: string | readonly (string | number)[]) =>
      Array.isArray(field) && field.at(-1) === 'image' ? 17 : 1;
    cluster.apply(deployment('nginx:1.25'), { source: { file: 'web.yaml', line: 1, lineOf } });
    cluster.runUntilSettled(60_000);
    cluster.apply(deployment('nginx:1.27'), { source: { file: 'web.yaml', line: 1, lineOf } });
    cluster.runUntilSettled(60_000);
    const timeline = cluster.timeline!;
    const pods = cluster.api.list('pods', { namespace: 'default' }).items;
    assert.equal(pods.length, 2);
    for (const p of pods) {
      const { entries, truncated } = timeline.explain({ kind: 'Pod', namespace: 'default', name: p.metadata.name! });
      assert.equal(truncated, false);
      const rs = p.metadata.ownerReferences![0].name;
      const steps = entries.map((e) => `${e.component} ${e.what}`);
      assert.deepEqual(steps.slice(0, 4), [
        'apply configured',
        'deployment-controller ScalingReplicaSet',
        'replicaset-controller SuccessfulCreate',
        'default-scheduler Scheduled',
      ]);
      assert.deepEqual(steps.slice(4), [
        'kubelet Pulling',
        'kubelet Pulled',
        'kubelet Created',
        'kubelet Started',
        'kubelet Phase',
        'kubelet Ready',
      ]);
      const [apply, scale, create, bound] = entries;
      assert.equal(apply.source, 'web.yaml:17');
      assert.equal(apply.why, 'image nginx:1.25 → nginx:1.27');
      assert.equal(scale.target?.name, rs);
      assert.match(scale.why ?? '', /new template/);
      assert.equal(create.message, `Created pod: ${p.metadata.name}`);
      assert.equal(bound.message, `Successfully assigned default/${p.metadata.name} to ${p.spec!.nodeName}`);
      // Causes: every step but the apply is caused by the step before it.
      entries.slice(1).forEach((e: TimelineEntry, i) => assert.equal(e.cause, entries[i].id, steps[i + 1]));
      // Times never go back.
      entries.slice(1).forEach((e, i) => assert.ok(e.time >= entries[i].time));
    }
    cluster.stop();
  });

  test('off by default: no timeline, nothing recorded', () => {
    const cluster = new Cluster({ nodes: 1 });
    assert.equal(cluster.timeline, undefined);
  });
});

describe('Timeline: a GitOps self-heal revert is an apply', () => {
  const web = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', resourceVersion: '90' },
  } as KubeObject;
  const lineOf = (field: string | readonly (string | number)[]) =>
    (Array.isArray(field) ? field.join('.') : field) === 'spec.replicas' ? 16 : 12;

  test('a root that names the fields put back and links to the first one’s line; what follows goes back to it', () => {
    const t = new Timeline();
    const first = recordApply(t, 0, 'created', undefined, web, { file: 'web.yaml', line: 9 });
    const scaled = t.record({ ...decision('x'), subject: { kind: 'Deployment', namespace: 'default', name: 'web' } });
    const id = recordSelfHeal(
      t,
      5,
      web,
      [{ path: 'spec.replicas', segments: ['spec', 'replicas'], live: 5, desired: 3 }],
      false,
      { file: 'web.yaml', line: 9, lineOf },
    );
    const e = t.get(id)!;
    assert.deepEqual(
      [e.type, e.component, e.what, e.message, e.source, e.cause, e.resourceVersion],
      [
        'apply',
        'apply',
        'self-heal',
        'self-heal: reverted spec.replicas 5 → 3 from web.yaml:16',
        'web.yaml:16',
        undefined,
        '90',
      ],
    );
    assert.equal(t.get(scaled)?.cause, first);
    const next = t.record({ ...decision('y'), subject: { kind: 'Deployment', namespace: 'default', name: 'web' } });
    assert.equal(t.origin(next)?.id, id);
    assert.equal(describeEntry(e), 'self-heal: reverted spec.replicas 5 → 3 from web.yaml:16 (resourceVersion 90)');
  });

  test('many fields: three named and how many more; recreated; no field lines: the document’s line', () => {
    const t = new Timeline();
    const fields = ['a', 'b', 'c', 'd', 'e'].map((k, i) => ({ path: `spec.${k}`, live: i, desired: i + 1 }));
    const many = t.get(recordSelfHeal(t, 0, web, fields, false, { file: 'web.yaml', line: 9, lineOf }))!;
    assert.equal(many.message, 'self-heal: reverted spec.a 0 → 1, spec.b 1 → 2, spec.c 2 → 3, 2 more from web.yaml:12');
    const again = t.get(recordSelfHeal(t, 0, web, [], true, { file: 'web.yaml', line: 9, lineOf }))!;
    assert.deepEqual([again.message, again.source], ['self-heal: recreated from web.yaml:9', 'web.yaml:9']);
    const plain = t.get(recordSelfHeal(t, 0, web, fields.slice(0, 1), false, { file: 'web.yaml', line: 9 }))!;
    assert.deepEqual([plain.message, plain.source], ['self-heal: reverted spec.a 0 → 1 from web.yaml:9', 'web.yaml:9']);
  });

  test('Revert Live to Manifest is the same root, said as the user’s act', () => {
    const t = new Timeline();
    const fields = [{ path: 'spec.replicas', segments: ['spec', 'replicas'], live: 6, desired: 3 }];
    const e = t.get(recordSelfHeal(t, 0, web, fields, false, { file: 'web.yaml', line: 9, lineOf }, 'revert'))!;
    assert.deepEqual(
      [e.type, e.what, e.message, e.source, e.cause],
      [
        'apply',
        'revert',
        'Revert Live to Manifest: reverted spec.replicas 6 → 3 from web.yaml:16',
        'web.yaml:16',
        undefined,
      ],
    );
    assert.equal(
      describeEntry(e),
      'Revert Live to Manifest: reverted spec.replicas 6 → 3 from web.yaml:16 (resourceVersion 90)',
    );
  });
});
