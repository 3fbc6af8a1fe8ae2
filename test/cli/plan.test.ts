import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { takeSnapshot } from '../../sandbox/apiserver/snapshot';
import { Cluster } from '../../sandbox/cluster/cluster';
import { withSourceAnnotation } from '../../sandbox/gitops/desiredState';
import type { KubeObject } from '../../sandbox/api/types';
import type { PlanReport } from '../../sandbox/plan/types';
import { cliFixture, lines } from './cliFixture';
import type { CliFixture } from './cliFixture';

const deployment = (replicas: number, cpu: string) =>
  lines(
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    '  name: web',
    'spec:',
    `  replicas: ${replicas}`,
    '  selector:',
    '    matchLabels: {app: web}',
    '  template:',
    '    metadata:',
    '      labels: {app: web}',
    '    spec:',
    '      containers:',
    '        - name: nginx',
    '          image: nginx:1.27',
    `          resources: {requests: {cpu: ${cpu}}}`,
  );

const WEB = deployment(2, '100m');
const SETTINGS = lines('apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: settings', 'data: {mode: fast}');
const APP = `${WEB}---\n${SETTINGS}`;

/** The state `serve --state` would save after applying APP as app/web.yaml through the GitOps sync. */
function state(): string {
  const cluster = new Cluster({ nodes: 3 });
  cluster.start();
  for (const doc of [WEB, SETTINGS]) cluster.apply(withSourceAnnotation(parseYaml(doc) as KubeObject, 'app/web.yaml'));
  cluster.runUntilSettled();
  const text = `${JSON.stringify(takeSnapshot(cluster.api))}\n`;
  cluster.stop();
  return text;
}

describe('kube-reconcile plan', () => {
  let fx: CliFixture;
  const STATE = state();
  before(async () => {
    fx = await cliFixture('kr-plan-', {
      'state.json': STATE,
      'app/web.yaml': APP,
      'big/web.yaml': deployment(7, '1500m'),
      'bad/syntax.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x\n',
      'bad/invalid.yaml': lines('apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: Not_A_Name', 'data: {a: b}'),
    });
  });
  after(() => fx.dispose());

  test('unchanged files: every object unchanged and exit 0', async () => {
    const r = await fx.run('plan', 'app/web.yaml', '--state', 'state.json');
    assert.deepEqual([r.code, r.stderr], [0, '']);
    assert.equal(
      r.stdout,
      lines(
        'deployment.apps/web unchanged (app/web.yaml:1)',
        'configmap/settings unchanged (app/web.yaml:18)',
        '',
        'Plan: 2 unchanged; settles in 0s.',
      ),
    );
  });

  test('replicas beyond capacity: the Pending pod with the scheduler’s message, exit 1; --fail-on chooses', async () => {
    const r = await fx.run('plan', 'big/web.yaml', '--for', '2m');
    assert.equal(r.code, 1);
    assert.match(
      r.stdout,
      /\nPending:\n {2}default\/web-[a-z0-9]+-[a-z0-9]+ \(Deployment default\/web\): 0\/3 nodes are available: 3 Insufficient cpu\. preemption: 0\/3 nodes are available: 3 No preemption victims found for incoming pod\.\n/,
    );
    assert.match(r.stdout, /\nPlan: 1 created; 1 pod would stay Pending\.\n$/);
    assert.equal((await fx.run('plan', 'big/web.yaml', '--for', '2m', '--fail-on=never')).code, 0);
    assert.equal((await fx.run('plan', 'big/web.yaml', '--for', '2m', '--fail-on=refused,stuck')).code, 0);
    assert.equal((await fx.run('plan', 'big/web.yaml', '--for', '2m', '--fail-on', 'pending')).code, 1);
  });

  test('-o json: the plan alone on stdout, as docs/plan.md describes it', async () => {
    const r = await fx.run('plan', 'big/web.yaml', '--for', '2m', '-o', 'json', '--fail-on=never');
    assert.deepEqual([r.code, r.stderr], [0, '']);
    const plan = JSON.parse(r.stdout) as PlanReport;
    assert.equal(plan.apiVersion, 'plan.kube-reconcile.dev/v1alpha1');
    assert.equal(plan.kind, 'Plan');
    assert.deepEqual(plan.findings, ['pending', 'unsettled']);
    assert.deepEqual(
      plan.pending.map((p) => p.message),
      [
        '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
      ],
    );
    assert.deepEqual(plan.rollouts[0].replicaSets.length, 1);
  });

  test('a removed object is pruned when a state is given', async () => {
    const removed = await cliFixture('kr-plan-prune-', { 'state.json': STATE, 'app/web.yaml': WEB });
    try {
      const r = await removed.run('plan', 'app/web.yaml', '--state', 'state.json');
      assert.deepEqual([r.code, r.stderr], [0, '']);
      assert.equal(
        r.stdout,
        lines(
          'deployment.apps/web unchanged (app/web.yaml:1)',
          'configmap/settings pruned (app/web.yaml)',
          '',
          'Plan: 1 unchanged, 1 pruned; settles in 0s.',
        ),
      );
      assert.equal(await readFile(join(removed.dir, 'state.json'), 'utf8'), STATE);
    } finally {
      await removed.dispose();
    }
  });

  test('a manifest the API server refuses: exit 2 with the message validate gives, at its line', async () => {
    const r = await fx.run('plan', 'bad/invalid.yaml');
    assert.equal(r.code, 2);
    // reported all the same, but not failing when refused is not among --fail-on
    assert.equal((await fx.run('plan', 'bad/invalid.yaml', '--fail-on=pending')).code, 0);
    const v = await fx.run('validate', 'bad/invalid.yaml');
    const message = /metadata\.name: Invalid value: "Not_A_Name": a lowercase RFC 1123 subdomain[^\n]*/.exec(
      v.stdout,
    )?.[0];
    assert.ok(message, v.stdout);
    assert.ok(
      r.stdout.startsWith(
        `configmap/Not_A_Name refused (bad/invalid.yaml:4): ConfigMap "Not_A_Name" is invalid: ${message}`,
      ),
      r.stdout,
    );
  });

  test('bad YAML: exit 2, the file:line message, nothing planned and the state file untouched', async () => {
    const r = await fx.run('plan', 'bad/syntax.yaml', 'app/web.yaml', '--state', 'state.json');
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(
      r.stderr,
      /^bad\/syntax\.yaml:4: .+\nkube-reconcile plan: nothing was planned: fix the files above first\n$/,
    );
    assert.equal(await readFile(join(fx.dir, 'state.json'), 'utf8'), STATE);
  });

  test('usage errors: exit 2', async () => {
    const bogus = await fx.run('plan', 'app/web.yaml', '--fail-on=bogus');
    assert.equal(bogus.code, 2);
    assert.match(
      bogus.stderr,
      /--fail-on: unknown finding "bogus"; choose from refused, pending, crashloop, probe, stuck, failed, endpoints, disruption, unsettled, never/,
    );
    const missing = await fx.run('plan', 'app/web.yaml', '--state', 'nope.json');
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^kube-reconcile plan: cannot read --state .*nope\.json: ENOENT/);
    const notSnapshot = await fx.run('plan', 'app/web.yaml', '--state', 'app/web.yaml');
    assert.equal(notSnapshot.code, 2);
    assert.match(notSnapshot.stderr, /invalid snapshot: not JSON/);
    assert.equal((await fx.run('plan')).code, 2);
  });
});

/**
 * The state `serve --state` saves after node-2's kubelet was stopped (Fail Node) a minute before: node-2 NotReady and
 * tainted, recorded in the snapshot's failedNodes; `recorded: false` leaves that out, as snapshots saved before it.
 */
function failedNodeState(recorded: boolean): string {
  const cluster = new Cluster({ nodes: 3 });
  cluster.start();
  for (const doc of [WEB, SETTINGS]) cluster.apply(withSourceAnnotation(parseYaml(doc) as KubeObject, 'app/web.yaml'));
  cluster.runUntilSettled();
  cluster.failNode('node-2');
  cluster.runFor(60_000);
  const failedNodes = cluster.nodeNames.filter((n) => !cluster.isKubeletRunning(n));
  assert.deepEqual(failedNodes, ['node-2']);
  const snapshot = takeSnapshot(cluster.api, recorded ? { failedNodes } : {});
  cluster.stop();
  return `${JSON.stringify(snapshot)}\n`;
}

describe('kube-reconcile plan --state with a failed node', () => {
  let fx: CliFixture;
  // Five pods of 1500m: two per node fit, so with node-2 failed the fifth stays Pending.
  const WIDE = deployment(5, '1500m').replaceAll('web', 'wide');
  before(async () => {
    const failed = failedNodeState(true);
    const older = failedNodeState(false);
    assert.equal(JSON.parse(failed).failedNodes[0], 'node-2');
    assert.equal(JSON.parse(older).failedNodes, undefined);
    fx = await cliFixture('kr-plan-failed-', {
      'failed.json': failed,
      'older.json': older,
      'bad.json': failed.replace('"failedNodes":["node-2"]', '"failedNodes":["node-9"]'),
      'wide.yaml': WIDE,
    });
  });
  after(() => fx.dispose());

  test('the node stays failed in the plan: tainted unreachable, so the fifth pod would stay Pending (exit 1)', async () => {
    const r = await fx.run('plan', 'wide.yaml', '--state', 'failed.json', '-o', 'json');
    assert.deepEqual([r.code, r.stderr], [1, '']);
    const plan = JSON.parse(r.stdout) as PlanReport;
    assert.deepEqual(plan.findings, ['pending', 'stuck', 'unsettled']);
    assert.equal(plan.pending.length, 1);
    assert.equal(
      plan.pending[0].message,
      '0/3 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, 2 Insufficient cpu. ' +
        'preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
    );
    // node-2 NotReady; web's pod there evicted, and Terminating for good: no kubelet confirms its end (as upstream).
    const text = (await fx.run('plan', 'wide.yaml', '--state', 'failed.json')).stdout;
    assert.match(text, /\n {2}node node-2: Ready=Unknown \(NodeStatusUnknown\)\n/);
    assert.match(text, /\n {2}pod default\/web-[a-z0-9]+-[a-z0-9]+: Terminating \(1\/1 ready\)\n/);
  });

  test('a snapshot saved before failed nodes were recorded still loads: its kubelets all start, nothing Pending', async () => {
    const r = await fx.run('plan', 'wide.yaml', '--state', 'older.json', '-o', 'json');
    assert.deepEqual([r.code, r.stderr], [0, '']);
    assert.deepEqual((JSON.parse(r.stdout) as PlanReport).pending, []);
  });

  test('a failed node the snapshot does not hold: refused whole with a clear message, exit 2', async () => {
    const r = await fx.run('plan', 'wide.yaml', '--state', 'bad.json');
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /^kube-reconcile plan: cannot use --state .*bad\.json: invalid snapshot: failedNodes names node-9, not a Node of the snapshot\n$/,
    );
  });
});
