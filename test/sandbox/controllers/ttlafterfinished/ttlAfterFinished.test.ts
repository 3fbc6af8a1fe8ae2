/**
 * The TTL-after-finished controller (upstream: pkg/controller/ttlafterfinished/ttlafterfinished_controller.go,
 * `processJob` / `processTTL`), run with the Job controller that finishes the Jobs.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTimestamp } from '../../../../sandbox/clock/clock';
import { JobController } from '../../../../sandbox/controllers/job/jobController';
import { TtlAfterFinishedController } from '../../../../sandbox/controllers/ttlafterfinished/ttlAfterFinishedController';
import { newHarness } from '../harness';
import type { Harness } from '../harness';
import { jobManifest, podNames, setPodPhase } from '../job/fixtures';

const T0 = Date.UTC(2026, 0, 1);
const at = (s: number): string => formatTimestamp(T0 + s * 1000);

function start(): Harness {
  const h = newHarness(1);
  new JobController(h.ctx).start();
  new TtlAfterFinishedController(h.ctx).start();
  return h;
}

/** Runs the Job's only pod to `phase` at the current time and lets the Job controller finish the Job. */
function finishOnlyPod(h: Harness, name: string, phase: 'Succeeded' | 'Failed'): void {
  h.advance(0);
  setPodPhase(h.api, podNames(h.api, name)[0], phase, h.clock.now());
  h.advance(1000);
}

describe('TTL-after-finished controller', () => {
  test('deletes a completed Job ttlSecondsAfterFinished after its Complete condition, with Foreground propagation', () => {
    const h = start();
    h.api.create(jobManifest('once', { ttlSecondsAfterFinished: 60 }));
    finishOnlyPod(h, 'once', 'Succeeded');
    // The pod succeeded at 0 s; the Job controller's status batch (1 s) writes Complete at 1 s; 1 + 60 = 61 s.
    assert.equal(h.api.get('jobs', 'default', 'once').status?.completionTime, at(1));
    h.advance(59_999);
    assert.equal(h.api.get('jobs', 'default', 'once').metadata.deletionTimestamp, undefined);
    h.advance(1);
    const job = h.api.get('jobs', 'default', 'once');
    // Foreground propagation: the garbage collector (not running here) removes the Job after its pods.
    assert.deepEqual([job.metadata.deletionTimestamp, job.metadata.finalizers], [at(61), ['foregroundDeletion']]);
    assert.ok(h.logLines().some((l) => l.includes('ttl-after-finished-controller') && l.includes('default/once')));
  });

  test('a failed Job is cleaned up too, counted from its Failed condition', () => {
    const h = start();
    h.api.create(jobManifest('bad', { ttlSecondsAfterFinished: 5, backoffLimit: 0 }));
    finishOnlyPod(h, 'bad', 'Failed');
    const failed = (h.api.get('jobs', 'default', 'bad').status?.conditions ?? []).find((c) => c.type === 'Failed');
    assert.equal(failed?.status, 'True');
    const finishedAt = Date.parse(failed!.lastTransitionTime!);
    h.advance(finishedAt + 5000 - h.clock.now() - 1);
    assert.equal(h.api.get('jobs', 'default', 'bad').metadata.deletionTimestamp, undefined);
    h.advance(1);
    assert.equal(h.api.get('jobs', 'default', 'bad').metadata.deletionTimestamp, formatTimestamp(finishedAt + 5000));
  });

  test('a TTL raised after the Job finished is honoured (the fresh read before deleting)', () => {
    const h = start();
    h.api.create(jobManifest('longer', { ttlSecondsAfterFinished: 10 }));
    finishOnlyPod(h, 'longer', 'Succeeded');
    const job = h.api.get('jobs', 'default', 'longer');
    h.api.update({ ...job, spec: { ...job.spec!, ttlSecondsAfterFinished: 100 } });
    h.advance(20_000);
    assert.equal(h.api.get('jobs', 'default', 'longer').metadata.deletionTimestamp, undefined);
    // Complete at 1 s + 100 s = 101 s.
    h.advance(101_000 - (h.clock.now() - T0));
    assert.equal(h.api.get('jobs', 'default', 'longer').metadata.deletionTimestamp, at(101));
  });

  test('Jobs without ttlSecondsAfterFinished, or not finished, are left alone', () => {
    const h = start();
    h.api.create(jobManifest('keep'));
    h.api.create(jobManifest('running', { ttlSecondsAfterFinished: 0 }));
    finishOnlyPod(h, 'keep', 'Succeeded');
    h.advance(3_600_000);
    assert.equal(h.api.get('jobs', 'default', 'keep').metadata.deletionTimestamp, undefined);
    assert.equal(h.api.get('jobs', 'default', 'running').metadata.deletionTimestamp, undefined);
  });
});
