/**
 * The kubelet's back-off entries do not outlive their use: upstream's `Backoff.GC` (called by HandlePodCleanups and
 * after each successful image pull) drops every entry not updated for 2×cap, so the keys of pods long gone (their UID
 * in the key) do not pile up over a long run.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Backoff } from '../../../sandbox/kubelet/backoff';
import { newPod, setupKubelet } from './setup';

describe('Backoff.gc', () => {
  test('drops the entries not updated for more than 10 min (2×cap), keeps the others', () => {
    const b = new Backoff();
    b.next('old', 0);
    b.next('recent', 300_000);
    b.gc(600_000);
    assert.equal(b.size, 2, 'exactly 10 min is not yet expired');
    b.gc(600_001);
    assert.equal(b.size, 1);
    assert.equal(b.get('old'), 0);
    assert.equal(b.get('recent'), 10_000);
    b.gc(900_001);
    assert.equal(b.size, 0);
  });

  test('an entry dropped behaves as the expired one it was: the next event starts the curve over', () => {
    const kept = new Backoff();
    const collected = new Backoff();
    for (const b of [kept, collected]) for (const t of [0, 1000, 2000]) b.next('k', t);
    collected.gc(700_000);
    kept.next('k', 700_000);
    collected.next('k', 700_000);
    assert.equal(collected.get('k'), kept.get('k'));
    assert.equal(collected.get('k'), 10_000);
  });
});

describe('the kubelet forgets the restart back-off of pods gone', () => {
  test("a crash-looping pod's entry is dropped at a pod cleanup more than 10 min after its last restart", () => {
    const f = setupKubelet();
    const restartBackoff = () => (f.kubelet as unknown as { host: { restartBackoff: Backoff } }).host.restartBackoff;
    f.create(newPod('crasher', {}, { 'sandbox.kube-reconcile.dev/behavior': 'crash-after=5s exit=1' }));
    f.h.advance(60_000);
    assert.ok((f.pod('crasher')?.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1, 'it crash-loops');
    assert.equal(restartBackoff().size, 1);
    f.h.api.delete('pods', 'default', 'crasher', { gracePeriodSeconds: 0 });
    f.h.advance(60_000);
    assert.equal(f.pod('crasher'), undefined);
    assert.equal(restartBackoff().size, 1, 'within 10 min of its last update the entry stays');
    f.create(newPod('later'));
    f.h.advance(11 * 60_000);
    f.h.api.delete('pods', 'default', 'later', { gracePeriodSeconds: 0 });
    f.h.advance(60_000);
    assert.equal(f.pod('later'), undefined);
    assert.equal(restartBackoff().size, 0);
  });
});
