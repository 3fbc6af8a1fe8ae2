/**
 * A short soak (test/soak/soak.ts): a few virtual minutes of chaos on 50 nodes with every invariant checked after
 * every step; `npm run soak` runs the long one. The checks themselves are shown to fail on a planted violation.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runSoak } from './soak';

describe('soak', () => {
  test('a few virtual minutes of chaos on 50 nodes keep every invariant', () => {
    const f = runSoak({ seed: 7, virtualMs: 4 * 60_000, chaosMs: 2 * 60_000, stepMs: 10_000 });
    assert.deepEqual(f.violations, []);
    assert.ok(f.cycles >= 1);
    assert.ok(f.steps >= 12, `${f.steps} steps`);
    // Every invariant was actually checked, and the chaos did something.
    for (const name of [
      'watch resourceVersion strictly increases',
      'watch from the start replays to the list',
      'no orphan outlives its owner',
      'no pod on a deleted node stays Running',
      'Deployment reaches its desired counts',
      'StatefulSet reaches its desired counts',
      'DaemonSet runs one ready pod per node',
      'stored objects stay bounded',
    ])
      assert.ok((f.checks[name] ?? 0) > 0, `never checked: ${name}`);
    assert.ok(Object.keys(f.actions).length >= 5, JSON.stringify(f.actions));
  });

  test('memory bounded: the change history is compacted within two compaction intervals at every quiet point', () => {
    const f = runSoak({ seed: 5, virtualMs: 40 * 60_000, nodes: 5, chaosMs: 5 * 60_000, stepMs: 20_000 });
    assert.deepEqual(f.violations, []);
    assert.ok((f.checks['change history compacted within two intervals'] ?? 0) > 0, JSON.stringify(f.checks));
  });

  test('the same seed gives the same run', () => {
    const a = runSoak({ seed: 3, virtualMs: 2 * 60_000, nodes: 5 });
    const b = runSoak({ seed: 3, virtualMs: 2 * 60_000, nodes: 5 });
    assert.deepEqual(a.actions, b.actions);
    assert.deepEqual(a.checks, b.checks);
    assert.equal(a.objects, b.objects);
  });

  test('a pod left running on a deleted node is reported', () => {
    let planted = false;
    const f = runSoak({
      seed: 1,
      virtualMs: 4 * 60_000,
      nodes: 5,
      afterStep: (cluster) => {
        // A Running pod bound to a node that never existed: no PodGC may leave it Running for long.
        if (planted) return;
        planted = true;
        cluster.stop(); // nothing reconciles it away: the check alone must see it
        cluster.api.create({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'ghost', namespace: 'soak' },
          spec: { nodeName: 'node-gone', containers: [{ name: 'c', image: 'nginx' }] },
        });
        const pod = cluster.api.get('pods', 'soak', 'ghost');
        cluster.api.updateStatus({ ...pod, status: { phase: 'Running' } });
      },
    });
    assert.ok(
      f.violations.some(
        (v) => v.includes('no pod on a deleted node stays Running') && v.includes('soak/ghost@node-gone'),
      ),
      f.violations.join('\n'),
    );
  });
});
