// Pod priority in the API server, written from upstream's behaviour:
// plugin/pkg/admission/priority/admission.go (admitPod, validatePriorityClass),
// pkg/registry/scheduling/rest/storage_scheduling.go (the bootstrap classes),
// pkg/apis/scheduling/validation/validation.go (ValidatePriorityClass).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PodSpec } from 'kubernetes-types/core/v1';
import { newApi, statusOf } from '../fixtures';
import type { KubeObject } from '../../../sandbox/api/types';
import { formatTable, tableFor } from '../../../sandbox/printers/index';

function priorityClass(name: string, value: number, extra: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, ...extra };
}

function pod(name: string, spec: Partial<PodSpec> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...spec },
  };
}

const specOf = (o: KubeObject) => o.spec as PodSpec;

describe('PriorityClass and the Priority admission plugin', () => {
  test('the two system classes exist from the start, with upstream values, and cannot be deleted', () => {
    const { api } = newApi();
    const classes = api.list('priorityclasses').items.map((c) => [c.metadata.name, c.value, c.preemptionPolicy]);
    assert.deepEqual(classes, [
      ['system-cluster-critical', 2000000000, 'PreemptLowerPriority'],
      ['system-node-critical', 2000001000, 'PreemptLowerPriority'],
    ]);
    const s = statusOf(() => api.delete('priorityclasses', '', 'system-node-critical'));
    assert.equal(s.code, 403);
    assert.equal(
      s.message,
      'priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted',
    );
  });

  test('an unknown priorityClassName is refused with upstream Forbidden message; nothing is stored', () => {
    const { api } = newApi();
    const s = statusOf(() => api.create(pod('x', { priorityClassName: 'foo' })));
    assert.equal(s.code, 403);
    assert.equal(s.reason, 'Forbidden');
    assert.equal(s.message, 'pods "x" is forbidden: no PriorityClass with name foo was found');
    assert.equal(api.tryGet('pods', 'default', 'x'), undefined);
  });

  test('a pod gets priority and preemptionPolicy from its class; without a class, 0 or the global default', () => {
    const { api } = newApi();
    api.create(priorityClass('high', 1000, { preemptionPolicy: 'Never' }));
    const high = api.create(pod('a', { priorityClassName: 'high' }));
    assert.deepEqual([specOf(high).priority, specOf(high).preemptionPolicy], [1000, 'Never']);
    const plain = api.create(pod('b'));
    assert.deepEqual([specOf(plain).priority, specOf(plain).preemptionPolicy], [0, 'PreemptLowerPriority']);
    api.create(priorityClass('low', 10, { globalDefault: true }));
    const dflt = api.create(pod('c'));
    assert.deepEqual([specOf(dflt).priorityClassName, specOf(dflt).priority], ['low', 10]);
    const critical = api.create(pod('d', { priorityClassName: 'system-node-critical' }));
    assert.equal(specOf(critical).priority, 2000001000);
  });

  test('a priority the pod states that differs from its class is refused', () => {
    const { api } = newApi();
    api.create(priorityClass('high', 1000));
    const s = statusOf(() => api.create(pod('x', { priorityClassName: 'high', priority: 5 })));
    assert.equal(
      s.message,
      'pods "x" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name',
    );
  });

  test('only one global default; value is immutable; system- names and values above 1e9 are reserved', () => {
    const { api } = newApi();
    api.create(priorityClass('a', 1, { globalDefault: true }));
    const second = statusOf(() => api.create(priorityClass('b', 2, { globalDefault: true })));
    assert.equal(
      second.message,
      'priorityclasses.scheduling.k8s.io "b" is forbidden: PriorityClass a is already marked as default. Only one default can exist',
    );
    const changed = statusOf(() => api.update({ ...api.get('priorityclasses', '', 'a'), value: 3 }));
    assert.equal(changed.code, 422);
    assert.match(changed.message, /value: Forbidden: may not be changed in an update\./);
    const tooHigh = statusOf(() => api.create(priorityClass('huge', 2_000_000_000)));
    assert.match(tooHigh.message, /value: Forbidden: maximum allowed value of a user defined priority is 1000000000/);
    const reserved = statusOf(() => api.create(priorityClass('system-mine', 5)));
    assert.match(
      reserved.message,
      /metadata\.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only\. error: system-mine is not a known system priority class/,
    );
  });

  test('kubectl get priorityclass columns: NAME VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY', () => {
    const { api } = newApi();
    api.create(priorityClass('high', 1000, { globalDefault: true }));
    const out = formatTable(tableFor('pc', api.list('priorityclasses').items, Date.parse('2026-01-01T00:05:00Z')));
    assert.equal(
      out,
      [
        'NAME                      VALUE        GLOBAL-DEFAULT   AGE   PREEMPTIONPOLICY',
        'high                      1000         true             5m    PreemptLowerPriority',
        'system-cluster-critical   2000000000   false            5m    PreemptLowerPriority',
        'system-node-critical      2000001000   false            5m    PreemptLowerPriority',
        '',
      ].join('\n'),
    );
  });
});
