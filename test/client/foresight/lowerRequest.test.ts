/**
 * The "lower the request to what fits" quick fix: computed from the plan's per-node free capacity, written in
 * upstream's quantity form, and honest — the fixed text, planned again on the same sandbox, leaves nothing Pending.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { foresightDiagnostics, formatAmount, requestThatFits } from '../../../client/src/foresight/diagnostics';
import type { ForesightFix } from '../../../client/src/foresight/diagnostics';
import { planText } from '../../../client/src/worker/foresight';
import { Cluster } from '../../../sandbox/cluster/cluster';
import { manifestObjects } from '../../../sandbox/manifests/parseManifests';
import type { PlanCapacity } from '../../../sandbox/plan/types';
import { aDeployment } from '../../builders';

const webYaml = (replicas: number, cpu: string, memory = '64Mi') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        - name: web
          image: nginx:1.27
          resources:
            requests:
              cpu: ${cpu} # what web asks
              memory: ${memory}
`;

/** A settled 3-node sandbox (4 CPUs, 16Gi a node) running `other`: one pod asking 3500m. */
function sandbox(): Cluster {
  const cluster = new Cluster({ nodes: 3, seed: 5 });
  cluster.start();
  cluster.apply(aDeployment('other', { replicas: 1, image: 'nginx', name: 'nginx', requests: { cpu: '3500m' } }));
  cluster.runUntilSettled();
  return cluster;
}

function applyFix(text: string, fix: ForesightFix): string {
  const lines = text.split('\n');
  const l = lines[fix.span.line];
  lines[fix.span.line] = l.slice(0, fix.span.character) + fix.text + l.slice(fix.span.endCharacter);
  return lines.join('\n');
}

describe('quick fix: lower the resource request to what fits', () => {
  test('3 × "3" CPUs beside a 3500m pod: 1 Pending; "2" fits on the two free nodes, and the fixed text plans clean', () => {
    const cluster = sandbox();
    try {
      const target = { api: cluster.api, seed: 5 };
      const text = webYaml(3, '"3"');
      const result = planText(target, 'web.yaml', text);
      assert.ok('report' in result);
      assert.equal(result.report.pending.length, 1);
      // the node running `other` has 500m free; the others 4 (web's own pods are not counted)
      assert.deepEqual(result.report.capacity?.[0].nodes.map((n) => n.free.cpu).sort(), ['4', '4', '500m']);
      const [pending] = foresightDiagnostics(result.report, text, result.nodeReasons);
      assert.equal(pending.code, 'pending');
      const onFull = result.report.capacity![0].nodes.find((n) => n.free.cpu === '500m')!.node;
      const free = ['node-1', 'node-2', 'node-3'].filter((n) => n !== onFull);
      assert.deepEqual(pending.fixes?.[0], {
        title: `Lower requests.cpu to 2 (fits on ${free.join(', ')})`,
        span: { line: 19, character: 19, endCharacter: 22 },
        text: '"2"',
      });
      assert.equal(pending.fixes?.[1].title, 'Lower replicas to 2 (what fits)');
      const fixed = applyFix(text, pending.fixes![0]);
      assert.match(fixed, /^ {14}cpu: "2" # what web asks$/m);
      const again = planText(target, 'web.yaml', fixed);
      assert.ok('report' in again);
      assert.deepEqual(again.report.pending, []);
      assert.deepEqual(again.report.findings, []);
    } finally {
      cluster.stop();
    }
  });

  test('a rolling update of a running Deployment to a request that does not fit: the lowered one rolls out', () => {
    const cluster = sandbox();
    try {
      const target = { api: cluster.api, seed: 5 };
      const running = webYaml(4, '500m');
      for (const m of manifestObjects(running).manifests) cluster.apply(m.object);
      cluster.runUntilSettled();
      const text = webYaml(4, '2500m');
      const result = planText(target, 'web.yaml', text);
      assert.ok('report' in result);
      // one 2500m pod a free node: 2 of 4 Pending
      assert.equal(result.report.pending.length, 2);
      const [pending] = foresightDiagnostics(result.report, text, result.nodeReasons);
      const fix = pending.fixes?.[0];
      // 2 a node on the two free nodes (the 500m left beside `other` holds none)
      assert.match(fix?.title ?? '', /^Lower requests\.cpu to 2 \(fits on node-\d, node-\d\)$/);
      const again = planText(target, 'web.yaml', applyFix(text, fix!));
      assert.ok('report' in again);
      assert.deepEqual(again.report.pending, []);
      assert.equal(again.report.rollouts[0].outcome, 'complete');
    } finally {
      cluster.stop();
    }
  });
});

describe('requestThatFits', () => {
  const capacity = (over: Partial<PlanCapacity> = {}): PlanCapacity => ({
    owner: 'Deployment default/web',
    request: { cpu: '1500m', memory: '1Gi' },
    nodes: [
      {
        node: 'node-1',
        allocatable: { cpu: '4', memory: '16Gi', pods: 110 },
        free: { cpu: '4', memory: '16Gi', pods: 110 },
      },
      {
        node: 'node-2',
        allocatable: { cpu: '4', memory: '16Gi', pods: 110 },
        free: { cpu: '1', memory: '16Gi', pods: 110 },
      },
      {
        node: 'node-3',
        allocatable: { cpu: '8', memory: '16Gi', pods: 110 },
        free: { cpu: '8', memory: '16Gi', pods: 110 },
        blocked: ['node(s) had untolerated taint {gpu: true}'],
      },
    ],
    ...over,
  });

  test('the most that fits, rounded down to two significant digits; a blocked node never counts', () => {
    // 5 pods on 4 + 1 CPUs: 1000m each fits 4 + 1; node-3 is tainted
    assert.deepEqual(requestThatFits(capacity(), 'cpu', 1500, 5), { amount: 1000, nodes: ['node-1', 'node-2'] });
    // 4 pods: 1000m on node-1 alone (4 × 1000m)
    assert.deepEqual(requestThatFits(capacity(), 'cpu', 1500, 4), { amount: 1000, nodes: ['node-1'] });
    // 7 pods: 5000m / 7 → 666m per pod would leave 6 (4000/666 = 6, 1000/666 = 1 → 7): 660m after rounding
    assert.deepEqual(requestThatFits(capacity(), 'cpu', 1500, 7), { amount: 660, nodes: ['node-1', 'node-2'] });
    // what already fits needs no fix; what cannot fit at any request gets none
    assert.equal(requestThatFits(capacity(), 'cpu', 1500, 2), undefined);
    const full = capacity({ nodes: capacity().nodes.map((n) => ({ ...n, free: { ...n.free, pods: 0 } })) });
    assert.equal(requestThatFits(full, 'cpu', 1500, 3), undefined);
  });

  test('memory in MiB, and the other container of the pod keeps its share', () => {
    const c = capacity({ request: { cpu: '100m', memory: '9Gi' } });
    // 3 pods of (1Gi other + x) on node-1 and node-2 (16Gi each): x ≤ 16Gi/2 - 1Gi = 7Gi
    assert.deepEqual(requestThatFits(c, 'memory', 8 * 1024 ** 3, 3), {
      amount: 7 * 1024 ** 3,
      nodes: ['node-1', 'node-2'],
    });
    assert.equal(formatAmount(7 * 1024 ** 3, 'memory'), '7Gi');
    assert.equal(formatAmount(1300 * 1024 ** 2, 'memory'), '1300Mi');
    assert.equal(formatAmount(500, 'cpu'), '500m');
    assert.equal(formatAmount(2000, 'cpu'), '2');
  });
});
