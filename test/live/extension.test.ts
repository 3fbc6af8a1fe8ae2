/**
 * The extension side of real clusters, without VS Code: Connect to Cluster… (a fake Ui picks a context of
 * `kube-reconcile serve`'s kubeconfig) fills the Cluster view's connection through LiveInformers, with sync status
 * against the workspace's desired state; sandbox-only commands are refused while a real context is shown; Apply to
 * Cluster… dry-runs, shows the diff, asks, and needs a protected context's name typed.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { KubeObject } from '../../sandbox/api/types';
import { renderKubeconfig } from '../../sandbox/http/kubeconfig';
import { ClusterTree } from '../../client/src/model/clusterTree';
import { SyncStatuses } from '../../client/src/model/syncStatuses';
import { LiveSession, previewText } from '../../client/src/live/liveCommands';
import {
  LIVE_READ_COMMANDS,
  SANDBOX_ONLY_COMMANDS,
  ViewedCluster,
  contextPickItems,
  refusal,
  viewedLabel,
} from '../../client/src/live/viewedCluster';
import { FakeConnection, FakeUi } from '../client/commands/fakes';
import { cacheOf } from '../client/model/fixtures';
import { SERVED_TOKEN, serveCluster, WEB } from './served';
import type { ServedCluster } from './served';

function sandboxPod(name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', resourceVersion: '7' } };
}

/** Resolves when `predicate` holds after a change reaches the view's connection. */
function until(viewed: ViewedCluster, predicate: () => boolean): Promise<void> {
  return new Promise((done) => {
    if (predicate()) return done();
    const sub = viewed.onDidChange(() => {
      if (predicate()) {
        sub.dispose();
        done();
      }
    });
  });
}

describe('which cluster the views show', () => {
  test('the picker lists the current context first, the others by name, then the Sandbox', () => {
    const ctx = (name: string) => ({ name, cluster: name, user: name, server: `https://${name}:6443` });
    const items = contextPickItems([ctx('b'), ctx('prod'), ctx('a')], 'prod', 'a');
    assert.deepEqual(
      items.map((i) => [i.label, i.context]),
      [
        ['$(cloud) prod', 'prod'],
        ['$(cloud) a', 'a'],
        ['$(cloud) b', 'b'],
        ['$(beaker) Sandbox', undefined],
      ],
    );
    assert.equal(items[0]!.description, 'current context · https://prod:6443');
    assert.equal(items[1]!.description, 'shown · https://a:6443');
  });

  test('the status-bar item names the context shown, and nothing while the sandbox is shown', () => {
    assert.equal(viewedLabel(undefined), undefined);
    assert.equal(viewedLabel('staging', { state: 'synced' })?.text, '$(cloud) staging');
    const down = viewedLabel('staging', { state: 'reconnecting', message: 'The connection …', retryInMs: 1600 });
    assert.equal(down?.text, '$(cloud) staging $(warning)');
    assert.match(down!.tooltip, /reconnecting in 1.6 s: The connection …/);
  });

  test('sandbox-only actions are refused while a real context is shown, and run on the sandbox', () => {
    for (const id of ['kubeReconcile.killPod', 'kubeReconcile.failNode', 'kubeReconcile.drain', 'kubeReconcile.scale'])
      assert.ok(SANDBOX_ONLY_COMMANDS.includes(id), id);
    assert.match(
      refusal('kubeReconcile.failNode', 'staging')!,
      /acts on the sandbox.*context "staging".*nothing was done/,
    );
    assert.match(refusal('kubeReconcile.showClusterOverview', 'staging')!, /not available on a real cluster yet/);
    // served on the context shown (liveInspect.ts), not refused
    for (const id of LIVE_READ_COMMANDS) assert.equal(refusal(id, 'staging'), undefined, id);
    assert.equal(refusal('kubeReconcile.groupByNode', 'staging'), undefined);
    assert.equal(refusal('kubeReconcile.failNode', undefined), undefined);
  });

  test('the view mirrors the sandbox, empties for a context, ignores a stale context, and refills from the sandbox', () => {
    const sandbox = new FakeConnection(cacheOf([{ resource: 'pods', object: sandboxPod('sb-1') }]));
    const viewed = new ViewedCluster(sandbox, () => 1_000);
    assert.deepEqual(
      viewed.cache.list('pods').map((p) => p.metadata.name),
      ['sb-1'],
    );
    sandbox.fireChange([{ type: 'ADDED', resource: 'pods', object: sandboxPod('sb-2') }]);
    assert.equal(viewed.cache.list('pods').length, 2);

    viewed.showContext('staging');
    assert.equal(viewed.cache.list('pods').length, 0);
    sandbox.fireChange([{ type: 'ADDED', resource: 'pods', object: sandboxPod('sb-3') }]);
    assert.equal(viewed.cache.list('pods').length, 0, 'sandbox changes do not reach a real context');
    viewed.feedFrom('other', {
      kind: 'changes',
      changes: [{ type: 'ADDED', resource: 'pods', object: sandboxPod('x') }],
    });
    assert.equal(viewed.cache.list('pods').length, 0, 'a context no longer shown is ignored');
    viewed.feedFrom('staging', {
      kind: 'list',
      resourceVersion: '5',
      objects: [{ resource: 'pods', object: sandboxPod('live-1') }],
    });
    assert.deepEqual(
      viewed.cache.list('pods').map((p) => p.metadata.name),
      ['live-1'],
    );
    assert.deepEqual(
      [viewed.status?.time, viewed.status?.pods],
      [1_000, 1],
      'a real cluster ages rows by the wall clock',
    );

    sandbox.cache.apply({
      kind: 'changes',
      changes: [{ type: 'ADDED', resource: 'pods', object: sandboxPod('sb-3') }],
    });
    viewed.showSandbox();
    assert.deepEqual(
      viewed.cache.list('pods').map((p) => p.metadata.name),
      ['sb-1', 'sb-3'],
    );
    assert.equal(viewed.status, sandbox.status);
  });
});

describe('Connect to Cluster… and Apply to Cluster… against kube-reconcile serve', () => {
  let served: ServedCluster;
  let prodConfig: string;
  before(async () => {
    served = await serveCluster();
    served.cluster.apply(parseYaml(WEB) as KubeObject);
    served.cluster.runUntilSettled();
    prodConfig = join(served.dir, 'prod-config');
    await writeFile(
      prodConfig,
      renderKubeconfig({
        server: served.server.url,
        token: SERVED_TOKEN,
        certificateAuthority: served.server.certificateAuthority,
        context: 'prod-eu',
      }),
    );
  });
  after(() => served.close());

  test('the picked context fills the Cluster tree read-only; kubectl scale shows as OutOfSync; no write is sent', async () => {
    const sandbox = new FakeConnection(cacheOf([{ resource: 'pods', object: sandboxPod('sb-1') }]));
    sandbox.desired.replace([
      {
        resource: 'deployments',
        namespace: 'default',
        name: 'web',
        source: 'app/web.yaml',
        line: 0,
        manifest: parseYaml(WEB) as KubeObject,
        shadowed: [],
      },
    ]);
    const viewed = new ViewedCluster(sandbox, () => served.cluster.clock.now());
    const ui = new FakeUi();
    const session = new LiveSession({
      ui,
      viewed,
      kubeconfig: () => ({ file: served.kubeconfig }),
      protectedContexts: () => 'prod|production',
      batchMs: 0,
    });
    const writesBefore = served.writes().length;
    ui.answers = ['$(cloud) kube-reconcile'];
    await session.connect();
    try {
      assert.equal(
        ui.shown[0],
        'pick: Show which cluster in the Kube Reconcile views? (read-only) [$(cloud) kube-reconcile, $(beaker) Sandbox]',
      );
      assert.equal(viewed.context, 'kube-reconcile');
      assert.equal(viewed.feed?.state, 'synced');
      assert.equal(viewed.cache.list('pods', 'default').length, 2);
      assert.equal(viewed.cache.get('pods', 'default', 'sb-1'), undefined);
      const sync = new SyncStatuses(viewed.desired);
      const tree = new ClusterTree(viewed.cache, () => viewed.status?.time ?? 0, {
        syncOf: (resource, o) => sync.of(resource, o),
      });
      assert.deepEqual(
        tree.roots().map((r) => r.label),
        ['Nodes', 'Namespaces'],
      );
      assert.equal(sync.of('deployments', viewed.cache.get('deployments', 'default', 'web')!)?.status, 'Synced');

      // kubectl scale deployment web --replicas=5, by another client
      served.cluster.scale('deployments', 'default', 'web', 5);
      await until(
        viewed,
        () => (viewed.cache.get('deployments', 'default', 'web')?.spec as { replicas?: number }).replicas === 5,
      );
      const status = sync.of('deployments', viewed.cache.get('deployments', 'default', 'web')!);
      assert.equal(status?.message, 'OutOfSync: spec.replicas differs from app/web.yaml:1');
      assert.deepEqual(served.writes().slice(writesBefore), [], 'showing a context sends no write');

      session.showSandbox();
      assert.equal(viewed.context, undefined);
      assert.deepEqual(
        viewed.cache.list('pods').map((p) => p.metadata.name),
        ['sb-1'],
      );
    } finally {
      session.stop();
    }
  });

  test('an unreachable context is said in kubectl’s words and the sandbox stays shown', async () => {
    const down = join(served.dir, 'down-config');
    await writeFile(down, renderKubeconfig({ server: 'https://127.0.0.1:1', token: SERVED_TOKEN, context: 'down' }));
    const viewed = new ViewedCluster(new FakeConnection(), () => 0);
    const ui = new FakeUi();
    const session = new LiveSession({
      ui,
      viewed,
      kubeconfig: () => ({ file: down }),
      protectedContexts: () => '',
    });
    ui.answers = ['$(cloud) down'];
    await session.connect();
    assert.equal(viewed.context, undefined);
    assert.ok(
      ui.shown.some((l) =>
        /^error: Kube Reconcile cannot show context "down": The connection to the server 127\.0\.0\.1:1 was refused/.test(
          l,
        ),
      ),
      ui.shown.join('\n'),
    );
    assert.ok(!ui.shown.join('\n').includes(SERVED_TOKEN), 'no credential is shown');
  });

  test('Apply to Cluster… dry-runs, shows the diff, and applies server-side only once confirmed', async () => {
    const viewed = new ViewedCluster(new FakeConnection(), () => 0);
    const ui = new FakeUi();
    const session = new LiveSession({
      ui,
      viewed,
      kubeconfig: () => ({ file: served.kubeconfig }),
      protectedContexts: () => 'prod|production',
      batchMs: 0,
    });
    const api = (replicas: number) => WEB.replaceAll('web', 'api').replace('replicas: 2', `replicas: ${replicas}`);
    assert.equal(await session.apply(api(1), 'app/api.yaml'), undefined);
    assert.match(ui.shown.at(-1)!, /needs a real cluster: run "Kube Reconcile: Connect to Cluster…" first/);

    ui.answers = ['$(cloud) kube-reconcile'];
    await session.connect();
    try {
      const writesBefore = served.writes().length;
      ui.answers = [false];
      assert.equal(await session.apply(api(1), 'app/api.yaml'), undefined);
      assert.equal(ui.shown.at(-1), 'confirm: Apply app/api.yaml to context "kube-reconcile"? [Apply (server-side)]');
      assert.match(ui.texts.at(-1)!.text, /deployment\.apps\/api \(default\): created/);
      assert.ok(
        served
          .writes()
          .slice(writesBefore)
          .every((l) => l.includes('dryRun=All')),
        'declined: only dry runs',
      );
      assert.throws(() => served.cluster.api.get('deployments', 'default', 'api'));

      ui.answers = [true];
      assert.deepEqual(await session.apply(api(1), 'app/api.yaml'), ['deployment.apps/api serverside-applied']);
      ui.answers = [true];
      assert.deepEqual(await session.apply(api(3), 'app/api.yaml'), ['deployment.apps/api serverside-applied']);
      assert.match(ui.texts.at(-1)!.text, /deployment\.apps\/api \(default\): configured/);
      assert.match(ui.texts.at(-1)!.text, /-\s+replicas: 1\n\+\s+replicas: 3/);
      assert.equal((served.cluster.api.get('deployments', 'default', 'api').spec as { replicas: number }).replicas, 3);
      assert.ok(
        served
          .writes()
          .slice(writesBefore)
          .filter((l) => !l.includes('dryRun=All'))
          .every((l) => l.includes('fieldManager=kube-reconcile')),
      );
    } finally {
      session.stop();
    }
  });

  test('a protected context applies only with its name typed back', async () => {
    const viewed = new ViewedCluster(new FakeConnection(), () => 0);
    const ui = new FakeUi();
    const session = new LiveSession({
      ui,
      viewed,
      kubeconfig: () => ({ file: prodConfig }),
      protectedContexts: () => 'prod|production',
      batchMs: 0,
    });
    ui.answers = ['$(cloud) prod-eu'];
    await session.connect();
    try {
      const yaml = WEB.replaceAll('web', 'billing');
      const writesBefore = served.writes().length;
      ui.probes = ['prod', 'prod-eu'];
      ui.answers = ['prod'];
      assert.equal(await session.apply(yaml, 'app/billing.yaml'), undefined);
      assert.equal(ui.shown.at(-1), 'input: Apply to protected context "prod-eu" ()');
      assert.deepEqual(ui.validated, ['Type "prod-eu" exactly to apply', undefined]);
      assert.ok(
        served
          .writes()
          .slice(writesBefore)
          .every((l) => l.includes('dryRun=All')),
        'not typed: only dry runs',
      );

      ui.answers = ['prod-eu'];
      assert.deepEqual(await session.apply(yaml, 'app/billing.yaml'), ['deployment.apps/billing serverside-applied']);
      assert.equal(served.cluster.api.get('deployments', 'default', 'billing').metadata.name, 'billing');
    } finally {
      session.stop();
    }
  });

  test('the dry-run document names each object and what the server said', () => {
    const text = previewText('c', [
      { ref: 'deployment.apps/web', namespace: 'default', action: 'unchanged', diff: '', merged: {} as KubeObject },
    ]);
    assert.equal(
      text,
      '# Server-side dry run on context "c" (nothing was stored):\n#   deployment.apps/web (default): unchanged\n',
    );
  });
});
