import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../sandbox/api/types';
import { cloneJson } from '../../../sandbox/util/json';
import { newApi, pod, statusOf } from '../fixtures';

type Spec = {
  containers: { image?: string; ports?: { containerPort: number }[]; env?: { name: string; value: string }[] }[];
  tolerations?: Record<string, unknown>[];
  activeDeadlineSeconds?: number;
  schedulingGates?: { name: string }[];
};
const spec = (o: KubeObject): Spec => o.spec as Spec;
const edit = (obj: KubeObject, fn: (copy: KubeObject) => void): KubeObject => {
  const copy = cloneJson(obj);
  fn(copy);
  return copy;
};
const PREFIX =
  'Pod "p" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n';

describe('pod spec updates (ValidatePodUpdate)', () => {
  test('a container image change is allowed', () => {
    const { api } = newApi();
    const p = api.create(pod('p'));
    const out = api.update(edit(p, (x) => (spec(x).containers[0].image = 'nginx:1.27')));
    assert.equal(spec(out).containers[0].image, 'nginx:1.27');
  });

  test("a container's port change is refused with upstream's message and the changed field", () => {
    const { api } = newApi();
    const p = api.create(pod('p'));
    const s = statusOf(() => api.update(edit(p, (x) => (spec(x).containers[0].ports = [{ containerPort: 8080 }]))));
    assert.equal(s.code, 422);
    assert.equal(s.reason, 'Invalid');
    assert.ok(s.message.startsWith(PREFIX), s.message);
    assert.match(s.message, /\+ \tcontainers\[0\]\.ports: \[\{"containerPort":8080,"protocol":"TCP"\}\]/);
    assert.deepEqual(
      s.details?.causes?.map((c) => [c.reason, c.field]),
      [['FieldValueForbidden', 'spec']],
    );
    assert.equal(spec(api.get('pods', 'default', 'p')).containers[0].ports, undefined, 'nothing stored changed');
  });

  test('an env change is refused; image and env together are refused too', () => {
    const { api } = newApi();
    const p = api.create(pod('p'));
    const s = statusOf(() =>
      api.update(
        edit(p, (x) => {
          spec(x).containers[0].env = [{ name: 'A', value: '1' }];
          spec(x).containers[0].image = 'other';
        }),
      ),
    );
    assert.ok(s.message.startsWith(PREFIX), s.message);
    assert.match(s.message, /containers\[0\]\.env/);
    assert.doesNotMatch(s.message, /\.image:/);
  });

  test('a toleration may be added, not removed or changed (but for its tolerationSeconds)', () => {
    const { api } = newApi();
    const t1 = { key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 };
    const p = api.create(edit(pod('p'), (x) => (spec(x).tolerations = [t1])));
    const added = api.update(
      edit(p, (x) => spec(x).tolerations!.push({ key: 'b', operator: 'Equal', value: 'v', effect: 'NoSchedule' })),
    );
    // (DefaultTolerationSeconds added the not-ready and unreachable tolerations on create.)
    assert.ok(spec(added).tolerations!.some((t) => t.key === 'b'));
    const seconds = api.update(edit(added, (x) => (spec(x).tolerations![0].tolerationSeconds = 10)));
    assert.equal(spec(seconds).tolerations![0].tolerationSeconds, 10);
    const removed = statusOf(() => api.update(edit(seconds, (x) => spec(x).tolerations!.shift())));
    assert.equal(removed.code, 422);
    assert.equal(
      removed.message,
      'Pod "p" is invalid: spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds',
    );
    const changed = statusOf(() =>
      api.update(edit(seconds, (x) => (spec(x).tolerations!.find((t) => t.key === 'b')!.value = 'w'))),
    );
    assert.equal(changed.message, removed.message);
  });

  test('labels, annotations, finalizers and owner references may change', () => {
    const { api } = newApi();
    const p = api.create(pod('p'));
    const out = api.update(
      edit(p, (x) => {
        x.metadata.labels = { app: 'x' };
        x.metadata.annotations = { note: 'y' };
        x.metadata.finalizers = ['example.com/keep'];
        x.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'u-1' }];
      }),
    );
    assert.deepEqual(out.metadata.labels, { app: 'x' });
    assert.deepEqual(out.metadata.finalizers, ['example.com/keep']);
  });

  test('a status write never meets the spec rule', () => {
    const { api } = newApi();
    const p = api.create(pod('p'));
    const out = api.updateStatus(edit(p, (x) => (x.status = { ...(x.status as object), phase: 'Running' })));
    assert.equal((out.status as { phase: string }).phase, 'Running');
  });

  test('activeDeadlineSeconds may only go down and may not be unset', () => {
    const { api } = newApi();
    const p = api.create(edit(pod('p'), (x) => (spec(x).activeDeadlineSeconds = 100)));
    const lower = api.update(edit(p, (x) => (spec(x).activeDeadlineSeconds = 50)));
    assert.equal(spec(lower).activeDeadlineSeconds, 50);
    const higher = statusOf(() => api.update(edit(lower, (x) => (spec(x).activeDeadlineSeconds = 60))));
    assert.equal(
      higher.message,
      'Pod "p" is invalid: spec.activeDeadlineSeconds: Invalid value: 60: must be less than or equal to previous value',
    );
    const unset = statusOf(() => api.update(edit(lower, (x) => delete spec(x).activeDeadlineSeconds)));
    assert.match(
      unset.message,
      /spec\.activeDeadlineSeconds: Invalid value: .*must not update from a positive integer to nil value/,
    );
  });

  test('scheduling gates may be removed, not added', () => {
    const { api } = newApi();
    const p = api.create(edit(pod('p'), (x) => (spec(x).schedulingGates = [{ name: 'a' }, { name: 'b' }])));
    const fewer = api.update(edit(p, (x) => (spec(x).schedulingGates = [{ name: 'b' }])));
    assert.deepEqual(spec(fewer).schedulingGates, [{ name: 'b' }]);
    const more = statusOf(() => api.update(edit(fewer, (x) => spec(x).schedulingGates!.push({ name: 'c' }))));
    assert.equal(
      more.message,
      'Pod "p" is invalid: spec.schedulingGates: Forbidden: only deletion is allowed, but found new scheduling gate \'c\'',
    );
  });
});
