import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { WEB_DEPLOYMENT, cliFixture } from './cliFixture';
import type { CliFixture } from './cliFixture';

// WEB_DEPLOYMENT's image is on line 15.
const FILES = { 'web.yaml': WEB_DEPLOYMENT, 'web2.yaml': WEB_DEPLOYMENT.replace('nginx:1.27', 'nginx:1.28') };

describe('kube-reconcile simulate --explain', () => {
  let fx: CliFixture;
  before(async () => (fx = await cliFixture('kr-explain-', FILES)));
  after(() => fx.dispose());

  const timelineOf = (stdout: string) => stdout.slice(stdout.indexOf('Timeline of ')).trim().split('\n').slice(1);

  test('a rolling update: the Deployment’s steps, then a new pod’s chain from the apply’s file:line to Ready', async () => {
    const d = await fx.run('simulate', 'web.yaml', '--at', '30s:apply=web2.yaml', '--explain', 'deployment/web');
    assert.equal(d.code, 0, d.stderr);
    const dl = timelineOf(d.stdout);
    assert.match(dl[0], /^ 0\.000s {2}apply {18}deployment\/web created \(resourceVersion \d+\) — web\.yaml:1$/);
    assert.match(dl[1], /deployment-controller {2}ScalingReplicaSet: Scaled up replica set web-\w+ from 0 to 2 \(new/);
    assert.match(dl[2], /^30\.000s {2}apply .* configured .* — web2\.yaml:15 image nginx:1\.27 → nginx:1\.28$/);
    const newRs = /Scaled up replica set (web-\w+) from 0 to 1 \(new template\)/.exec(dl[3])?.[1];
    assert.ok(newRs, dl[3]);
    assert.ok(dl.slice(4).every((l) => l.includes('deployment-controller  ScalingReplicaSet: Scaled ')));
    assert.match(dl[dl.length - 1], /Scaled down replica set web-\w+ from 1 to 0 \(old template/);

    const rs = await fx.run('simulate', 'web.yaml', '--at', '30s:apply=web2.yaml', '--explain', `rs/${newRs}`);
    const pod = /Created pod: (\S+)/.exec(rs.stdout)?.[1];
    assert.ok(pod, rs.stdout);
    const p = await fx.run('simulate', 'web.yaml', '--at', '30s:apply=web2.yaml', '--explain', `pod/${pod}`);
    assert.equal(p.code, 0, p.stderr);
    const pl = timelineOf(p.stdout);
    const components = pl.map((l) => l.trim().split(/\s+/)[1]);
    assert.deepEqual(components, [
      'apply',
      'deployment-controller',
      'replicaset-controller',
      'default-scheduler',
      'kubelet',
      'kubelet',
      'kubelet',
      'kubelet',
      'kubelet',
      'kubelet',
    ]);
    assert.match(pl[0], /web2\.yaml:15 image nginx:1\.27 → nginx:1\.28$/);
    assert.match(pl[2], new RegExp(`SuccessfulCreate: Created pod: ${pod}$`));
    // The scheduler's decision with every node's result.
    assert.match(
      pl[3],
      /Scheduled: Successfully assigned default\/\S+ to (node-\d) \(node-1: [^;]+; node-2: [^;]+; node-3: [^)]+\)$/,
    );
    assert.match(pl[3], /, chosen/);
    assert.match(pl[7], /Started: Started container nginx$/);
    assert.match(pl[8], new RegExp(`pod/${pod} phase Pending → Running \\(on node-\\d\\)$`));
    assert.match(pl[9], new RegExp(`pod/${pod} Ready$`));
    const seconds = pl.map((l) => Number(l.trim().split('s ')[0]));
    assert.deepEqual(
      [...seconds].sort((a, b) => a - b),
      seconds,
    );
  });

  test('an unknown object or kind: kubectl’s error and exit 1; a malformed target is a usage error', async () => {
    const missing = await fx.run('simulate', 'web.yaml', '--explain', 'deployment/nope');
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^Error from server \(NotFound\): deployments\.apps "nope" not found$/m);
    const kind = await fx.run('simulate', 'web.yaml', '--explain', 'widgets/x');
    assert.equal(kind.code, 1);
    assert.match(kind.stderr, /^error: the server doesn't have a resource type "widgets"$/m);
    const usage = await fx.run('simulate', 'web.yaml', '--explain', 'web');
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--explain needs KIND\/NAME/);
    assert.equal((await fx.run('simulate', 'web.yaml', '--explain', 'deployment/web', '-o', 'json')).code, 2);
  });
});
