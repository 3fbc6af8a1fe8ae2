/** The prober's plan for one container instance (pkg/kubelet/prober/worker.go `doProbe`), worked out ahead. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Probe } from 'kubernetes-types/core/v1';
import { planProbe } from '../../../sandbox/kubelet/probes';
import type { PlanInput, ProbeAnswer } from '../../../sandbox/kubelet/probes';

function plan(probe: Probe, answer: (t: number) => ProbeAnswer, extra: Partial<PlanInput> = {}) {
  return planProbe({
    kind: 'liveness',
    probe,
    schedule: { anchor: 0, periodMs: (probe.periodSeconds ?? 10) * 1000 },
    startedAt: 1500,
    from: 1500,
    extra: [],
    answer,
    nextChange: () => undefined,
    initial: true,
    horizon: 3_600_000,
    ...extra,
  });
}

const failFrom = (at: number) => (t: number) => (t >= at ? { ok: false, output: 'down' } : { ok: true, output: '' });

describe('planProbe', () => {
  test('initialDelaySeconds counts whole seconds since the start, as int32(time.Since(startedAt).Seconds())', () => {
    // Started at 1.5 s, delay 5: the tick at 6 s is 4.5 s after (4 whole seconds) — skipped; 7 s (5.5 s) is probed.
    const probed: number[] = [];
    plan({ periodSeconds: 1, initialDelaySeconds: 5 }, (t) => {
      probed.push(t);
      return { ok: true, output: '' };
    });
    assert.equal(probed[0], 7000);
  });

  test('failureThreshold consecutive failures set the result (and a liveness worker holds)', () => {
    const p = plan({ periodSeconds: 5, failureThreshold: 3 }, failFrom(31_500), {
      nextChange: (t) => (t < 31_500 ? 31_500 : undefined),
    });
    // Passing until 31.5 s (the ticks in between are skipped: the answer holds); 35, 40, 45 s fail; the third sets
    // Failure at 45 s; nothing after (the worker holds until the next container).
    assert.deepEqual(p.events, [
      { at: 35_000, failed: 'down' },
      { at: 40_000, failed: 'down' },
      { at: 45_000, failed: 'down' },
      { at: 45_000, result: false },
    ]);
  });

  test('a failure that does not reach the threshold changes nothing', () => {
    const flaky = (t: number) =>
      t === 20_000 || t === 40_000 ? { ok: false, output: 'blip' } : { ok: true, output: '' };
    const p = plan({ periodSeconds: 10, failureThreshold: 2 }, flaky, {
      nextChange: (t) => (t < 40_000 ? t + 1 : undefined),
    });
    assert.deepEqual(p.events, [
      { at: 20_000, failed: 'blip' },
      { at: 40_000, failed: 'blip' },
    ]);
  });

  test('readiness: ready after successThreshold passes; one event per failing stretch; the steady answer ends the plan', () => {
    const answer = (t: number) =>
      t < 30_000 || t >= 60_000 ? { ok: false, output: 'nope' } : { ok: true, output: '' };
    const p = plan({ periodSeconds: 10, successThreshold: 2, failureThreshold: 1 }, answer, {
      kind: 'readiness',
      initial: false,
      extra: [1500],
      nextChange: (t) => (t < 30_000 ? 30_000 : t < 60_000 ? 60_000 : undefined),
    });
    // Probed at the start (1.5 s): fails (one event for the stretch). The answer holds until 30 s; 30 and 40 s pass
    // (successThreshold 2): ready at 40 s. It fails from 60 s: not ready at once (failureThreshold 1). Then steady.
    assert.deepEqual(p.events, [
      { at: 1500, failed: 'nope' },
      { at: 40_000, result: true },
      { at: 60_000, failed: 'nope' },
      { at: 60_000, result: false },
    ]);
  });
});
