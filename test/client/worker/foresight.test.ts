import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { manifestsForApply } from '../../../client/src/apply/manifestsForApply';
import { foresightDiagnostics } from '../../../client/src/foresight/diagnostics';
import { saveImpactLenses } from '../../../client/src/foresight/lenses';
import type { ForesightResult } from '../../../client/src/sandbox/protocol';
import { Foresight } from '../../../client/src/worker/foresight';
import { inProcessDispatcher } from './inProcess';

const WEB = readFileSync(fileURLToPath(new URL('../../../examples/web.yaml', import.meta.url)), 'utf8');
const withReplicas = (n: number) => WEB.replace(/^ {2}replicas: \d+$/m, `  replicas: ${n}`);

describe('Foresight (worker): the newest request per document wins', () => {
  /** A defer that runs its tasks only when the test says, as the worker's event loop would after reading messages. */
  function manual() {
    const tasks: (() => void)[] = [];
    return { defer: (t: () => void) => void tasks.push(t), flush: () => tasks.splice(0).forEach((t) => t()) };
  }
  const report = (n: number): ForesightResult => ({ yamlErrors: n });

  test('a request superseded before its turn answers superseded and never runs its plan', async () => {
    const loop = manual();
    const f = new Foresight(loop.defer);
    const ran: number[] = [];
    const first = f.request('file:///a.yaml', () => (ran.push(1), report(1)));
    const second = f.request('file:///a.yaml', () => (ran.push(2), report(2)));
    const other = f.request('file:///b.yaml', () => (ran.push(3), report(3)));
    assert.equal(f.pending, 2, 'one pending per document');
    loop.flush();
    assert.deepEqual(await first, { superseded: true });
    assert.deepEqual(await second, { yamlErrors: 2 });
    assert.deepEqual(await other, { yamlErrors: 3 });
    assert.deepEqual(ran, [2, 3], 'the superseded plan never forked');
    assert.equal(f.pending, 0);
  });

  test('a plan that throws rejects its request only, and the next request for the document runs', async () => {
    const loop = manual();
    const f = new Foresight(loop.defer);
    const bad = f.request('file:///a.yaml', () => {
      throw new Error('the sandbox is not running: send init first');
    });
    loop.flush();
    await assert.rejects(bad, /the sandbox is not running/);
    const good = f.request('file:///a.yaml', () => report(0));
    loop.flush();
    assert.deepEqual(await good, { yamlErrors: 0 });
  });
});

describe('the dispatcher plans unsaved text on a fork of the running sandbox', () => {
  test('two requests in a row for one uri: only the second delivers a plan; the sandbox is not changed', async () => {
    const { d, reply } = inProcessDispatcher();
    try {
      d.handle({
        kind: 'request',
        id: 1,
        method: 'init',
        params: { settings: { nodes: 3, speed: 1, seed: 7, selfHeal: true } },
      });
      const manifests = manifestsForApply(WEB).manifests;
      d.handle({
        kind: 'request',
        id: 2,
        method: 'applyFile',
        params: { file: 'web.yaml', manifests, trigger: 'save' },
      });
      d.handle({ kind: 'request', id: 3, method: 'control', params: { type: 'fastForward', limitMs: 600_000 } });
      assert.equal((await reply(3)).error, undefined);
      const uri = 'file:///w/web.yaml';
      d.handle({ kind: 'request', id: 4, method: 'plan', params: { uri, source: 'web.yaml', text: withReplicas(5) } });
      d.handle({
        kind: 'request',
        id: 5,
        method: 'plan',
        params: { uri, source: 'web.yaml', text: withReplicas(150) },
      });
      const [first, second] = [await reply(4), await reply(5)];
      assert.deepEqual(first.result, { superseded: true });
      const result = second.result as ForesightResult;
      assert.ok('report' in result, JSON.stringify(second));
      assert.deepEqual(
        saveImpactLenses(result.report).map((l) => l.title),
        ['Save: scale 3 → 150 · 30 pods would stay Pending'],
      );
      assert.match(result.text, /^Plan: 1 configured, 1 unchanged; 30 pods would stay Pending\.$/m);
      // The scheduler's per-node reasons for the first Pending pod, from the fork.
      const firstPod = result.report.pending[0].pod;
      assert.deepEqual(result.nodeReasons, {
        [firstPod]: ['node-1: Insufficient cpu', 'node-2: Insufficient cpu', 'node-3: Insufficient cpu'],
      });
      // The worker sends the diagnostics, from its own parse of the text: the same as found from the text anew.
      assert.deepEqual(result.diagnostics, foresightDiagnostics(result.report, withReplicas(150), result.nodeReasons));
      const [pending] = result.diagnostics;
      assert.deepEqual(pending.related.slice(0, 3), result.nodeReasons[firstPod]);
      assert.equal(pending.related.at(-1), '… and 25 more Pending pods');
      assert.equal(
        pending.message,
        '30 of 150 replicas would stay Pending: 0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes ' +
          'are available: 3 No preemption victims found for incoming pod.',
      );
      // Insufficient cpu: on the container's resources.requests (line 37 of examples/web.yaml, 0-based 36).
      assert.equal(withReplicas(150).split('\n')[pending.line].trim(), 'requests:');
      // 150 pods of 100m do not fit in 3 × 4 CPUs; 150 of 80m do (12000m / 150), or 120 of 100m.
      assert.deepEqual(
        pending.fixes?.map((f) => f.title),
        ['Lower requests.cpu to 80m (fits on node-1, node-2, node-3)', 'Lower replicas to 120 (what fits)'],
      );
      // The running sandbox still runs 3 replicas: the plan ran on a fork.
      d.handle({ kind: 'request', id: 6, method: 'snapshot', params: {} });
      const saved = (await reply(6)).result as {
        snapshot: { cluster: { objects: { kind: string; spec?: { replicas?: number } }[] } };
      };
      const dep = saved.snapshot.cluster.objects.find((o) => o.kind === 'Deployment');
      assert.equal(dep?.spec?.replicas, 3);
      // The saved text plans as no change; YAML errors are not planned.
      d.handle({ kind: 'request', id: 7, method: 'plan', params: { uri, source: 'web.yaml', text: WEB } });
      const same = (await reply(7)).result as ForesightResult;
      assert.ok('report' in same);
      assert.deepEqual(
        saveImpactLenses(same.report).map((l) => [l.line, l.title]),
        [[8, 'Save: no change']],
      );
      d.handle({ kind: 'request', id: 8, method: 'plan', params: { uri, source: 'web.yaml', text: 'a: [' } });
      assert.deepEqual((await reply(8)).result, { yamlErrors: 1 });
    } finally {
      d.dispose();
    }
  });
});

describe('the fork is the cluster the tree shows', () => {
  test('a node failed in the sandbox stays failed in the plan: 100 replicas leave 20 Pending on the 2 nodes left', async () => {
    const { d, result: call } = inProcessDispatcher();
    try {
      await call('init', { settings: { nodes: 3, speed: 1, seed: 7, selfHeal: true } });
      await call('applyFile', { file: 'web.yaml', manifests: manifestsForApply(WEB).manifests, trigger: 'save' });
      await call('control', { type: 'fastForward', limitMs: 600_000 });
      await call('action', { type: 'failNode', name: 'node-1' });
      // Past the grace period (NotReady, tainted) and the 300 s toleration (its pods replaced on the others).
      await call('control', { type: 'step', ms: 400_000 });
      const plan = (await call('plan', {
        uri: 'file:///w/web.yaml',
        source: 'web.yaml',
        text: withReplicas(100),
      })) as ForesightResult;
      assert.ok('report' in plan, JSON.stringify(plan));
      // 40 replicas fit a node (the 150-replica plan above leaves 30 Pending on 3 nodes): 2 nodes hold 80.
      assert.equal(plan.report.pending.length, 20);
      assert.match(plan.text, /20 pods would stay Pending/);
    } finally {
      d.dispose();
    }
  });
});
