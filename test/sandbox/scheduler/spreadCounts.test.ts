// PodTopologySpread's incremental matching-pod counts (sandbox/scheduler/spreadCounts.ts) against a fresh count, as
// upstream's countPodsMatchSelector would give it over every node's pods (podtopologyspread/common.go): pods of the
// namespace matching the selector, terminating pods skipped, nothing for an empty selector.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1';
import { SchedulerCache } from '../../../sandbox/scheduler/schedulerCache';
import { SeededRandom } from '../../../sandbox/clock/random';
import { labelSelectorFromObject, parseLabelSelector } from '../../../sandbox/api/selectors/labelSelector';
import type { Selector } from '../../../sandbox/api/selectors/labelSelector';
import { newPodInfo } from '../../../sandbox/scheduler/podInfo';
import { node, pod } from './fixtures';

const NAMESPACES = ['default', 'other'];
const APPS = ['web', 'api', 'db'];

function podAt(name: string, ns: string, labels: Record<string, string>, nodeName: string, deleting = false): Pod {
  const p = pod(name, { namespace: ns, spec: { nodeName } });
  p.metadata.labels = labels;
  p.metadata.uid = `uid-${name}`;
  if (deleting) p.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
  return p;
}

/** The matching pods per node name, counted from scratch over the cache's nodes. */
function fresh(cache: SchedulerCache, nodeNames: string[], ns: string, selector: Selector): Map<string, number> {
  const out = new Map<string, number>();
  if (selector.empty) return out;
  for (const name of nodeNames) {
    const state = cache.node(name);
    if (!state) continue;
    let n = 0;
    for (const p of state.pods) if (!p.deleting && p.namespace === ns && selector.matches(p.labels)) n++;
    if (n > 0) out.set(name, n);
  }
  return out;
}

function kept(cache: SchedulerCache, ns: string, selector: Selector): Map<string, number> {
  return new Map([...cache.spreadMatching(ns, selector)].map(([n, c]) => [n.name, c]));
}

describe('SpreadCounts', () => {
  test('kept counts equal a fresh count through random adds, moves, relabels, deletions and assumed pods', () => {
    const random = new SeededRandom('spread-counts');
    const cache = new SchedulerCache();
    const nodeNames = Array.from({ length: 8 }, (_, i) => `n${i}`);
    for (const n of nodeNames) cache.setNode(node(n));
    const selectors: Selector[] = [
      parseLabelSelector('app=web'),
      parseLabelSelector('app in (api)'),
      parseLabelSelector('app=web,tier=front'),
      parseLabelSelector('app!=db'), // no equality requirement: filed by namespace
      parseLabelSelector('tier'),
      labelSelectorFromObject({}), // empty: upstream counts nothing
    ];
    const pick = <T>(xs: readonly T[]): T => xs[random.int(xs.length)];
    const live = new Set<string>();
    let checked = 0;
    for (let step = 0; step < 3_000; step++) {
      const name = `p${random.int(60)}`;
      const ns = pick(NAMESPACES);
      const key = `${ns}/${name}`;
      const op = random.int(10);
      if (op < 6) {
        const labels: Record<string, string> = { app: pick(APPS) };
        if (random.int(2) === 0) labels.tier = pick(['front', 'back']);
        const p = podAt(name, ns, labels, pick(nodeNames), random.int(8) === 0);
        if (random.int(4) === 0 && !p.metadata!.deletionTimestamp)
          cache.assume(newPodInfo(p as never), pick(nodeNames));
        else cache.addOrUpdatePod(key, p);
        live.add(key);
      } else if (op < 9) {
        cache.removePod(key);
        live.delete(key);
      } else {
        cache.forget(key);
        if (!cache.pod(key)) live.delete(key);
      }
      // Ask for a selector now and then: it is counted from scratch the first time, then kept incrementally.
      if (step % 7 === 0) {
        const sel = pick(selectors);
        const ns2 = pick(NAMESPACES);
        assert.deepEqual(kept(cache, ns2, sel), fresh(cache, nodeNames, ns2, sel), `step ${step}: ${ns2} ${sel}`);
        checked++;
      }
    }
    for (const ns of NAMESPACES)
      for (const sel of selectors) assert.deepEqual(kept(cache, ns, sel), fresh(cache, nodeNames, ns, sel));
    assert.ok(checked > 400);
    assert.ok(live.size > 0);
  });

  test('a selector left unasked is dropped, and counted afresh when asked again', () => {
    const cache = new SchedulerCache();
    for (const n of ['a', 'b']) cache.setNode(node(n));
    const web = parseLabelSelector('app=web');
    const api = parseLabelSelector('app=api');
    cache.addOrUpdatePod('default/x', podAt('x', 'default', { app: 'web' }, 'a'));
    const first = cache.spreadMatching('default', web);
    assert.deepEqual(kept(cache, 'default', web), new Map([['a', 1]]));
    // 30,000 look-ups of another selector: `web` idles past the sweep, and its pods change meanwhile.
    for (let i = 0; i < 30_000; i++) cache.spreadMatching('default', api);
    cache.addOrUpdatePod('default/y', podAt('y', 'default', { app: 'web' }, 'b'));
    cache.removePod('default/x');
    assert.notEqual(cache.spreadMatching('default', web), first); // dropped, then counted again
    assert.deepEqual(kept(cache, 'default', web), new Map([['b', 1]]));
    assert.deepEqual(kept(cache, 'default', api), new Map());
  });

  test('a pod moving to another node, relabelled or terminating moves or drops its count', () => {
    const cache = new SchedulerCache();
    for (const n of ['a', 'b']) cache.setNode(node(n));
    const web = parseLabelSelector('app=web');
    cache.addOrUpdatePod('default/x', podAt('x', 'default', { app: 'web' }, 'a'));
    cache.addOrUpdatePod('default/y', podAt('y', 'default', { app: 'web' }, 'a'));
    assert.deepEqual(kept(cache, 'default', web), new Map([['a', 2]]));
    cache.addOrUpdatePod('default/y', podAt('y', 'default', { app: 'web' }, 'b'));
    assert.deepEqual(
      kept(cache, 'default', web),
      new Map([
        ['a', 1],
        ['b', 1],
      ]),
    );
    cache.addOrUpdatePod('default/x', podAt('x', 'default', { app: 'api' }, 'a'));
    assert.deepEqual(kept(cache, 'default', web), new Map([['b', 1]]));
    cache.addOrUpdatePod('default/y', podAt('y', 'default', { app: 'web' }, 'b', true));
    assert.deepEqual(kept(cache, 'default', web), new Map());
    assert.deepEqual(kept(cache, 'other', web), new Map());
  });
});
