import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newHarness } from '../controllers/harness';
import { bindPod } from '../../../sandbox/scheduler/bind';
import { Scheduler } from '../../../sandbox/scheduler/scheduler';
import { ApiError } from '../../../sandbox/api/errors';
import { node, pod } from './fixtures';

function conflict(name: string, why: string) {
  return (e: unknown) => {
    assert.ok(e instanceof ApiError);
    assert.deepEqual(e.status, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      reason: 'Conflict',
      code: 409,
      message: `Operation cannot be fulfilled on pods/binding "${name}": ${why}`,
      details: { name, group: '', kind: 'pods/binding' },
    });
    return true;
  };
}

describe('bindPod (the pods/binding subresource)', () => {
  test('sets spec.nodeName and PodScheduled=True, replacing a False condition with a new transition time', () => {
    const h = newHarness();
    const created = h.api.create(pod('p'));
    h.api.updateStatus({
      ...created,
      status: {
        ...(created.status as object),
        conditions: [
          {
            type: 'PodScheduled',
            status: 'False',
            reason: 'Unschedulable',
            message: 'm',
            lastProbeTime: null,
            lastTransitionTime: '2026-01-01T00:00:00Z',
          },
        ],
      },
    });
    h.advance(5000);
    const bound = bindPod(h.api, created, 'n1');
    assert.equal((bound.spec as { nodeName?: string }).nodeName, 'n1');
    assert.deepEqual((bound.status as { conditions: unknown[] }).conditions, [
      { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:05Z' },
    ]);
    assert.deepEqual(h.api.get('pods', 'default', 'p'), bound);
  });

  test('409 when the pod is already assigned', () => {
    const h = newHarness();
    const created = h.api.create(pod('p'));
    bindPod(h.api, created, 'n1');
    assert.throws(() => bindPod(h.api, created, 'n2'), conflict('p', 'pod p is already assigned to node "n1"'));
  });

  test('409 when the pod is being deleted', () => {
    const h = newHarness();
    h.api.create({ ...pod('p'), metadata: { name: 'p', namespace: 'default', finalizers: ['example.com/hold'] } });
    const deleting = h.api.delete('pods', 'default', 'p');
    assert.ok(deleting.metadata.deletionTimestamp);
    assert.throws(
      () => bindPod(h.api, deleting, 'n1'),
      conflict('p', 'pod p is being deleted, cannot be assigned to a host'),
    );
  });

  test('409 when the pod was replaced by another of the same name', () => {
    const h = newHarness();
    const first = h.api.create(pod('p'));
    h.api.delete('pods', 'default', 'p');
    const second = h.api.create(pod('p'));
    assert.throws(
      () => bindPod(h.api, first, 'n1'),
      conflict(
        'p',
        `Precondition failed: UID in precondition: ${first.metadata.uid}, UID in object meta: ${second.metadata.uid}`,
      ),
    );
  });

  test('404 when the pod is gone', () => {
    const h = newHarness();
    assert.throws(
      () => bindPod(h.api, pod('p'), 'n1'),
      (e: unknown) => e instanceof ApiError && e.code === 404,
    );
  });

  test('the scheduler leaves alone a pod someone else bound first', () => {
    const h = newHarness();
    h.api.create(node('n1'));
    h.api.create(node('n2'));
    new Scheduler(h.ctx).start();
    const created = h.api.create(pod('p'));
    bindPod(h.api, created, 'n2');
    h.record(['pods', 'events']);
    h.settle();
    assert.deepEqual(h.actions(), []);
    assert.equal((h.api.get('pods', 'default', 'p').spec as { nodeName?: string }).nodeName, 'n2');
  });
});
