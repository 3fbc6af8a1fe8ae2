import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../sandbox/api/types';
import { PodValueInterner } from '../../../sandbox/store/intern';
import { newApi, pod } from '../fixtures';

type Spec = {
  tolerations?: unknown[];
  securityContext?: object;
  containers: { resources?: object }[];
};
const specOf = (o: KubeObject): Spec => o.spec as Spec;
const conditionsOf = (o: KubeObject): object[] => (o.status as { conditions: object[] }).conditions;

const toleration = { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' };
const withSpec = (name: string, cpu: string): KubeObject => {
  const p = pod(name);
  const spec = p.spec as Spec;
  spec.tolerations = [{ ...toleration }];
  spec.securityContext = { runAsNonRoot: true };
  spec.containers[0].resources = { requests: { cpu } };
  return p;
};

describe('stored pods share the values they hold identically', () => {
  test('equal tolerations, security contexts and resources are one frozen value; different ones are not', () => {
    const { api } = newApi();
    const a = api.create(withSpec('a', '10m'));
    const b = api.create(withSpec('b', '10m'));
    const c = api.create(withSpec('c', '20m'));
    assert.equal(specOf(b).tolerations, specOf(a).tolerations);
    assert.equal(specOf(b).securityContext, specOf(a).securityContext);
    assert.equal(specOf(b).containers[0].resources, specOf(a).containers[0].resources);
    assert.notEqual(specOf(c).containers[0].resources, specOf(a).containers[0].resources);
    assert.deepEqual(specOf(c).containers[0].resources, { requests: { cpu: '20m' } });
    // With the not-ready/unreachable tolerations DefaultTolerationSeconds admission adds to every pod.
    assert.deepEqual(specOf(b).tolerations![0], toleration);
    assert.equal(specOf(b).tolerations!.length, 3);
    assert.ok(Object.isFrozen(specOf(b).tolerations![0]));
    // Reads are unchanged: what is stored is what was written.
    assert.deepEqual(api.get('pods', 'default', 'b').spec, specOf(b));
  });

  test('status conditions written alike by two pods are shared; the next different write is its own', () => {
    const { api } = newApi();
    const conditions = [{ type: 'Ready', status: 'False', lastTransitionTime: '2026-01-01T00:00:00Z' }];
    const write = (name: string, status: string) => {
      const p = api.get('pods', 'default', name);
      return api.updateStatus({ ...p, status: { phase: 'Pending', conditions: [{ ...conditions[0], status }] } });
    };
    api.create(pod('a'));
    api.create(pod('b'));
    const a = write('a', 'False');
    const b = write('b', 'False');
    assert.equal(conditionsOf(b)[0], conditionsOf(a)[0]);
    const a2 = write('a', 'True');
    assert.notEqual(conditionsOf(a2)[0], conditionsOf(b)[0]);
    assert.equal((conditionsOf(a2)[0] as { status: string }).status, 'True');
    assert.equal((conditionsOf(api.get('pods', 'default', 'b'))[0] as { status: string }).status, 'False');
  });

  test('the table is bounded: when full it starts over, and sharing goes on', () => {
    const interner = new PodValueInterner();
    const spec = (i: number) => ({ containers: [{ resources: { requests: { cpu: `${i}m` } } }] });
    for (let i = 0; i < 20_000; i++)
      interner.internPod({ apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: spec(i) }, undefined);
    assert.equal(interner.size, 20_000);
    const x: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: spec(-1) };
    interner.internPod(x, undefined);
    assert.equal(interner.size, 1);
    const y: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: spec(-1) };
    interner.internPod(y, undefined);
    assert.equal(specOf(y).containers[0].resources, specOf(x).containers[0].resources);
  });
});
