/**
 * The pod predicates the ReplicaSet controller asks of each pod version (`isPodActive`, `readyCondition`,
 * `controllerRefOf`), computed from the pod itself on every call: nothing is remembered per pod (issue 16: a memo keyed
 * by each stored version cost more heap than its reads saved), so two versions never share an answer.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1';
import { controllerRefOf } from '../../../sandbox/controllers/util/owners';
import { isPodActive, isPodReady, readyCondition } from '../../../sandbox/controllers/util/pods';

function pod(status: Pod['status'], deleting = false): Pod {
  return Object.freeze({
    metadata: {
      name: 'p',
      namespace: 'default',
      ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
      ownerReferences: [
        { apiVersion: 'v1', kind: 'Other', name: 'o', uid: 'u0' },
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u1', controller: true },
      ],
    },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
    status,
  });
}

describe('controller pod predicates', () => {
  test('readyCondition is the Ready condition only while it is True, the same object as in the pod', () => {
    const ready = { type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:01Z' };
    const running = pod({ phase: 'Running', conditions: [{ type: 'PodScheduled', status: 'True' }, ready] });
    assert.equal(readyCondition(running), running.status!.conditions![1]);
    assert.equal(isPodReady(running), true);
    assert.equal(
      readyCondition(pod({ phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] })),
      undefined,
    );
    assert.equal(readyCondition(pod({ phase: 'Pending' })), undefined);
    assert.equal(readyCondition(pod(undefined)), undefined);
  });

  test('isPodActive: not terminal, not being deleted', () => {
    assert.equal(isPodActive(pod({ phase: 'Running' })), true);
    assert.equal(isPodActive(pod({ phase: 'Pending' })), true);
    assert.equal(isPodActive(pod({ phase: 'Succeeded' })), false);
    assert.equal(isPodActive(pod({ phase: 'Failed' })), false);
    assert.equal(isPodActive(pod({ phase: 'Running' }, true)), false);
  });

  test('controllerRefOf is the reference marked controller', () => {
    assert.equal(controllerRefOf(pod({ phase: 'Running' }))?.uid, 'u1');
    assert.equal(controllerRefOf({ metadata: { ownerReferences: [] } }), undefined);
    assert.equal(controllerRefOf({}), undefined);
  });

  test('each answer comes from the version asked about: a Ready pod turning unready or terminal is seen at once', () => {
    const ready = { type: 'Ready', status: 'True' };
    const v1 = pod({ phase: 'Running', conditions: [ready] });
    const v2 = pod({ phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] });
    const v3 = pod({ phase: 'Succeeded', conditions: [ready] });
    for (let round = 0; round < 3; round++) {
      assert.equal(readyCondition(v1), v1.status!.conditions![0]);
      assert.equal(readyCondition(v2), undefined);
      assert.equal(isPodActive(v1), true);
      assert.equal(isPodActive(v3), false);
    }
  });
});
