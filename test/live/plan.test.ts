/**
 * `kube-reconcile plan --kubeconfig FILE [--context NAME]`: the plan computed on a snapshot of a real cluster —
 * here the sandbox's HTTPS API with its nodes full — says which pods would stay Pending with the scheduler's
 * message, names what the snapshot could not see, and sends no write to the cluster (its request log).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { KubeObject } from '../../sandbox/api/types';
import { renderKubeconfig } from '../../sandbox/http/kubeconfig';
import type { PlanReport } from '../../sandbox/plan/types';
import { LiveConnection } from '../../live/connection';
import { loadKubeconfig } from '../../live/kubeconfig';
import { takeLiveSnapshot } from '../../live/snapshot';
import { cliFixture, lines } from '../cli/cliFixture';
import type { CliFixture } from '../cli/cliFixture';
import { serveCluster } from './served';
import type { ServedCluster } from './served';

const deployment = (name: string, replicas: number, cpu: string): string =>
  lines(
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    `  replicas: ${replicas}`,
    '  selector:',
    `    matchLabels: {app: ${name}}`,
    '  template:',
    '    metadata:',
    `      labels: {app: ${name}}`,
    '    spec:',
    '      containers:',
    '        - name: main',
    '          image: nginx:1.27',
    `          resources: {requests: {cpu: ${cpu}}}`,
  );

const PENDING =
  '0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.';

let served: ServedCluster;
let fx: CliFixture;

before(async () => {
  // Two nodes named as a real cluster names them, 4 CPUs each, already three-quarters full.
  served = await serveCluster({
    nodes: [
      { name: 'worker-a', index: 0, labels: { pool: 'general' } },
      { name: 'worker-b', index: 1, taints: [{ key: 'dedicated', value: 'batch', effect: 'PreferNoSchedule' }] },
    ],
  });
  served.cluster.apply(parseYaml(deployment('filler', 2, '3')) as KubeObject);
  served.cluster.api.create({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'policy-guard' },
    webhooks: [],
  } as KubeObject);
  served.cluster.runUntilSettled();
  fx = await cliFixture('kr-live-plan-', {
    'web.yaml': deployment('web', 2, '2'),
    'small.yaml': deployment('small', 1, '500m'),
  });
  await writeFile(
    join(fx.dir, 'kubeconfig'),
    renderKubeconfig({
      server: served.server.url,
      token: 'live-test-token-3f9c1b7a5e2d4c6b8a0f',
      certificateAuthority: served.server.certificateAuthority,
      context: 'staging',
    }),
  );
});
after(async () => {
  await served.close();
  await fx.dispose();
});

describe('a snapshot of a live cluster', () => {
  test('copies nodes with allocatable, labels and taints, and pods with their node, by GET only', async () => {
    const writes = served.writes().length;
    const conn = await LiveConnection.open(await loadKubeconfig({ file: served.kubeconfig }));
    try {
      const s = await takeLiveSnapshot(conn, { time: Date.UTC(2026, 0, 1) });
      assert.deepEqual(
        s.nodes.map((n) => [n.name, n.capacity.cpu, n.labels.pool ?? '', n.taints.map((t) => t.key)]),
        [
          ['worker-a', '4', 'general', []],
          ['worker-b', '4', '', ['dedicated']],
        ],
      );
      assert.equal(s.counts.Pod, 2);
      assert.equal(s.counts.Deployment, 1);
      const pods = s.snapshot.objects.filter((o) => o.kind === 'Pod');
      assert.deepEqual(pods.map((p) => (p.spec as { nodeName?: string }).nodeName).sort(), ['worker-a', 'worker-b']);
      assert.ok(pods.every((p) => p.metadata.ownerReferences?.[0]?.kind === 'ReplicaSet'));
      assert.ok(s.snapshot.objects.every((o) => o.metadata.managedFields === undefined));
      assert.ok(s.unseen.some((u) => /1 ValidatingWebhookConfiguration \(policy-guard\): admission webhooks/.test(u)));
      assert.deepEqual(served.writes().slice(writes), []);
    } finally {
      conn.close();
    }
  });
});

describe('kube-reconcile plan --kubeconfig', () => {
  test('nodes full: the new pods would stay Pending with the scheduler’s message; nothing is written', async () => {
    const writes = served.writes().length;
    const requests = served.requests.length;
    const r = await fx.run('plan', 'web.yaml', '--kubeconfig', 'kubeconfig', '--context', 'staging', '--for', '2m');
    assert.equal(r.stderr, '');
    assert.equal(r.code, 1);
    assert.match(
      r.stdout,
      new RegExp(
        `^Planned on a snapshot of context "staging" \\(${served.server.url.replace(/\./g, '\\.')}\\): .*2 Nodes, 2 Pods, .*2 PriorityClasses\\.\\n`,
      ),
    );
    assert.match(r.stdout, /\nNothing was written to the cluster\. The snapshot could not see:\n/);
    assert.match(
      r.stdout,
      /\n {2}- 1 ValidatingWebhookConfiguration \(policy-guard\): admission webhooks run only on the real cluster/,
    );
    assert.match(r.stdout, /\n {2}- controllers the sandbox does not model /);
    assert.ok(r.stdout.includes(`(Deployment default/web): ${PENDING}\n`), r.stdout);
    assert.match(r.stdout, /\nPlan: 1 created; 2 pods would stay Pending\.\n$/);
    assert.ok(served.requests.length > requests, 'the snapshot was read from the server');
    assert.deepEqual(served.writes().slice(writes), [], 'no write request reached the cluster');
    assert.equal(served.cluster.api.tryGet('deployments', 'default', 'web'), undefined);
  });

  test('what fits settles; -o json carries the live cluster it was computed on', async () => {
    const r = await fx.run('plan', 'small.yaml', '--kubeconfig', 'kubeconfig', '-o', 'json', '--for', '2m');
    assert.deepEqual([r.code, r.stderr], [0, '']);
    const plan = JSON.parse(r.stdout) as PlanReport & {
      live: { context: string; server: string; objects: Record<string, number>; unseen: string[]; written: boolean };
    };
    assert.deepEqual(plan.pending, []);
    assert.equal(plan.rollouts[0].outcome, 'complete');
    assert.deepEqual([plan.live.context, plan.live.server, plan.live.written], ['staging', served.server.url, false]);
    assert.equal(plan.live.objects.Node, 2);
  });

  test('an unreachable cluster or an unknown context: a clear error, exit 2; --state cannot be combined', async () => {
    const missing = await fx.run('plan', 'web.yaml', '--kubeconfig', 'kubeconfig', '--context', 'prod');
    assert.equal(missing.code, 2);
    assert.match(
      missing.stderr,
      /^kube-reconcile plan: context "prod" does not exist in .*kubeconfig \(contexts: staging\)\n$/,
    );
    await writeFile(join(fx.dir, 'down'), renderKubeconfig({ server: 'https://127.0.0.1:1', token: 'x-token-down' }));
    const down = await fx.run('plan', 'web.yaml', '--kubeconfig', 'down');
    assert.equal(down.code, 2);
    assert.match(
      down.stderr,
      /The connection to the server 127\.0\.0\.1:1 was refused - did you specify the right host or port\?/,
    );
    assert.ok(!down.stderr.includes('x-token-down'));
    const both = await fx.run('plan', 'web.yaml', '--kubeconfig', 'kubeconfig', '--state', 's.json');
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--state and --kubeconfig\/--context are two clusters to plan against: choose one/);
  });
});
