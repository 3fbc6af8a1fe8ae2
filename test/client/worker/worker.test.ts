/**
 * The sandbox worker thread end to end, through the host: init and the first
 * list, save-to-apply outcomes and the pods that follow, fault actions, clock
 * control, snapshots, and robustness against malformed messages.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { FileApplier } from '../../../client/src/apply/fileApplier';
import { SandboxHost, SandboxRequestError } from '../../../client/src/sandbox/host';
import type { ReplyMessage, WatchChange, WorkerMessage } from '../../../client/src/sandbox/protocol';
import { configMap, deployment } from '../../sandbox/fixtures';
import { SETTINGS, WORKER, until } from './harness';

const hosts: SandboxHost[] = [];
after(() => hosts.forEach((h) => h.dispose()));

async function started(snapshot?: unknown): Promise<{ host: SandboxHost; warning?: string }> {
  const host = new SandboxHost({ workerPath: WORKER });
  hosts.push(host);
  const reply = await host.request('init', { settings: SETTINGS, snapshot });
  return { host, warning: reply.warning };
}

/** Records every change the host receives. */
function recorder(host: SandboxHost): WatchChange[] {
  const seen: WatchChange[] = [];
  host.onDidChange((cs) => seen.push(...cs));
  return seen;
}

const names = (host: SandboxHost, resource: string) =>
  host.cache.list(resource).map((o) => `${o.metadata.namespace ?? ''}/${o.metadata.name} ${o.metadata.uid}`);

describe('sandbox worker', () => {
  test('init answers with the status after one list of everything', async () => {
    const { host, warning } = await started();
    assert.equal(warning, undefined);
    assert.deepEqual(
      host.cache.list('nodes').map((n) => n.metadata.name),
      ['node-1', 'node-2'],
    );
    assert.deepEqual(host.cache.namespaces(), ['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    assert.equal(host.status?.nodes, 2);
    assert.equal(host.status?.running, true);
    assert.equal(host.status?.paused, false);
  });

  test('a saved file with an unknown field is refused as kubectl refuses it: nothing is created, the error sits on the field', async () => {
    const { host } = await started();
    const text =
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: typo\nspec:\n  containers:\n    - name: web\n      image: nginx\n      poarts:\n        - containerPort: 80\n';
    const result = await new FileApplier(host).applyText('typo.yaml', text);
    const message =
      'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].poarts"';
    assert.deepEqual(result.diagnostics, [
      { line: 8, character: 6, endCharacter: 12, message, severity: 'error', code: 'BadRequest' },
    ]);
    assert.deepEqual(result.reply.outcomes[0].fields, ['spec.containers[0].poarts']);
    await host.request('control', { type: 'step', ms: 5_000 });
    assert.deepEqual(names(host, 'pods'), []);
    const fixed = await new FileApplier(host).applyText('typo.yaml', text.replace('poarts', 'ports'));
    assert.deepEqual(fixed.diagnostics, []);
    assert.deepEqual(
      fixed.reply.outcomes.map((o) => o.message),
      ['pod/typo created'],
    );
  });

  test('applyFile answers with outcomes, then changes bring the pods; a killed pod is replaced', async () => {
    const { host } = await started();
    const seen = recorder(host);
    await host.request('control', { type: 'pause' });
    const reply = await host.request('applyFile', {
      file: 'web.yaml',
      manifests: [
        { line: 0, object: deployment('web', 2) },
        { line: 21, object: { ...deployment('bad', -1) } },
      ],
    });
    assert.deepEqual(reply.outcomes[0], {
      line: 0,
      message: 'deployment.apps/web created',
      ok: true,
      action: 'created',
    });
    assert.equal(reply.outcomes[1].ok, false);
    assert.equal(reply.outcomes[1].status?.code, 422);
    assert.deepEqual(reply.pruned, []);
    await host.request('control', { type: 'step', ms: 30_000 });
    const pods = await until(
      'two running web pods',
      () => {
        const ps = host.cache
          .list('pods', 'default')
          .filter((p) => (p.status as { phase?: string } | undefined)?.phase === 'Running');
        return ps.length === 2 && ps;
      },
      (wake) => host.onDidChange(wake),
    );
    assert.ok(seen.some((c) => c.type === 'ADDED' && c.resource === 'pods'));

    const victim = pods[0].metadata.name!;
    const before = seen.length;
    assert.deepEqual(await host.request('action', { type: 'killPod', namespace: 'default', name: victim }), {
      message: `pod "${victim}" deleted`,
    });
    await host.request('control', { type: 'step', ms: 60_000 });
    const after = () => seen.slice(before).filter((c) => c.resource === 'pods');
    await until(
      'the killed pod DELETED and a new pod ADDED',
      () =>
        after().some((c) => c.type === 'DELETED' && c.object.metadata.name === victim) &&
        after().some((c) => c.type === 'ADDED' && c.object.metadata.name !== victim),
      (wake) => host.onDidChange(wake),
    );
    assert.equal(host.cache.get('pods', 'default', victim), undefined);
    assert.equal(host.cache.list('pods', 'default').length, 2);
  });

  test('the desired state follows applies and deletions; user actions are logged; self-heal is announced', async () => {
    const { host } = await started();
    const logged: string[] = [];
    host.onDidLog((es) =>
      logged.push(...es.filter((e) => e.component === 'user').map((e) => `${e.reason} ${e.object}: ${e.message}`)),
    );
    const healed: string[] = [];
    host.onDidSelfHeal((rs) =>
      healed.push(
        ...rs.map(
          (r) =>
            `${r.kind}/${r.ref.name} from ${r.source}:${r.line} ${JSON.stringify(r.changes.map((c) => [c.segments, c.live, c.desired]))}`,
        ),
      ),
    );
    await host.request('applyFile', {
      file: 'web.yaml',
      manifests: [{ line: 8, object: deployment('web', 2) }],
      trigger: 'save',
    });
    await host.request('applyFile', {
      file: 'new.yaml',
      manifests: [{ line: 0, object: deployment('web', 1) }],
      trigger: 'save',
    });
    const web = host.desired.get('deployments', 'default', 'web');
    assert.deepEqual([web?.source, web?.line, web?.shadowed], ['new.yaml', 0, [{ source: 'web.yaml', line: 8 }]]);
    assert.deepEqual(await host.request('removeFile', { file: 'new.yaml' }), {
      pruned: [],
      reapplied: ['deployment.apps/web from web.yaml'],
    });
    assert.deepEqual(host.desired.get('deployments', 'default', 'web')?.shadowed, []);
    await host.request('action', {
      type: 'scale',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      replicas: 4,
    });
    const reverted = await host.request('revert', { resource: 'deployments', namespace: 'default', name: 'web' });
    assert.equal(reverted.message, 'deployment.apps/web configured');
    assert.deepEqual(
      reverted.changes.map((c) => [c.path, c.live, c.desired]),
      [['spec.replicas', 4, 2]],
    );
    await host.request('action', {
      type: 'scale',
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
      replicas: 5,
    });
    await host.request('control', { type: 'step', ms: 2_000 });
    await until(
      'the self-heal notification',
      () => healed.length > 0,
      (wake) => host.onDidSelfHeal(wake),
    );
    assert.deepEqual(healed, ['Deployment/web from web.yaml:8 [[["spec","replicas"],5,2]]']);
    await until(
      'the log lines',
      () => logged.length >= 4,
      (wake) => host.onDidLog(wake),
    );
    assert.deepEqual(logged, [
      'Apply web.yaml: saved: 1 created',
      'Apply new.yaml: saved: 1 configured',
      'Prune new.yaml: file deleted: 1 re-applied from another file',
      'Revert default/web: Revert Live to Manifest (deployment.apps/web configured): spec.replicas 4 → 2 from web.yaml',
    ]);
  });

  test('pause stops the clock, step moves it exactly, resume lets it run', async () => {
    const { host } = await started();
    const paused = await host.request('control', { type: 'pause' });
    assert.equal(paused.paused, true);
    const stepped = await host.request('control', { type: 'step', ms: 1500 });
    assert.equal(stepped.time, paused.time + 1500);
    const again = await host.request('control', { type: 'speed', speed: 20 });
    assert.equal(again.time, stepped.time);
    assert.equal(again.speed, 20);
    const resumed = await host.request('control', { type: 'resume' });
    assert.equal(resumed.paused, false);
    await until(
      'the clock to move after resume',
      () => host.status!.time > resumed.time,
      (wake) => host.onDidStatus(wake),
    );
  });

  test('fast-forward runs until settled', async () => {
    const { host } = await started();
    await host.request('control', { type: 'pause' });
    await host.request('applyFile', { file: 'web.yaml', manifests: [{ line: 0, object: deployment('web', 3) }] });
    const status = await host.request('control', { type: 'fastForward', limitMs: 10 * 60_000 });
    assert.equal(status.pods, 3);
    const ready = await until(
      'the deployment to report 3 available replicas',
      () =>
        (host.cache.get('deployments', 'default', 'web')?.status as { availableReplicas?: number } | undefined)
          ?.availableReplicas === 3,
      (wake) => host.onDidChange(wake),
    );
    assert.equal(ready, true);
  });

  test('a snapshot restores the same objects and the desired state', async () => {
    const { host } = await started();
    await host.request('control', { type: 'pause' });
    await host.request('applyFile', {
      file: 'app/web.yaml',
      manifests: [
        { line: 4, object: deployment('web', 2) },
        { line: 30, object: configMap('cfg', { a: '1' }) },
      ],
    });
    await host.request('control', { type: 'fastForward', limitMs: 5 * 60_000 });
    const { snapshot } = await host.request('snapshot', {});
    const { host: restored, warning } = await started(snapshot);
    assert.equal(warning, undefined);
    for (const resource of ['namespaces', 'nodes', 'deployments', 'replicasets', 'pods', 'configmaps', 'services']) {
      assert.deepEqual(names(restored, resource), names(host, resource), resource);
    }
    assert.deepEqual(await restored.request('desired', { resource: 'configmaps', namespace: 'default', name: 'cfg' }), {
      file: 'app/web.yaml',
      line: 30,
      manifest: configMap('cfg', { a: '1' }),
    });
    const pod = restored.cache.list('pods', 'default')[0];
    assert.deepEqual(
      await restored.request('desired', { resource: 'pods', namespace: 'default', name: pod.metadata.name! }),
      { file: 'app/web.yaml', line: 4, manifest: deployment('web', 2) },
    );
    assert.deepEqual(await restored.request('removeFile', { file: 'app/web.yaml' }), {
      pruned: ['deployment.apps/web', 'configmap/cfg'],
    });
  });

  test('an invalid snapshot starts a fresh sandbox and says why', async () => {
    const { host, warning } = await started({ apiVersion: 'nope' });
    assert.match(
      warning ?? '',
      /^The saved sandbox could not be restored, so a fresh one was started: invalid snapshot/,
    );
    assert.equal(host.cache.list('nodes').length, 2);
  });

  test('errors carry the API server Status', async () => {
    const { host } = await started();
    const err = await host
      .request('action', { type: 'delete', resource: 'deployments', namespace: 'default', name: 'ghost' })
      .then(
        () => assert.fail('expected a rejection'),
        (e: unknown) => e,
      );
    assert.ok(err instanceof SandboxRequestError);
    assert.equal(err.message, 'deployments.apps "ghost" not found');
    assert.equal(err.status?.code, 404);
  });
});

describe('sandbox worker protocol robustness', () => {
  test('malformed messages and unknown methods get error replies and the worker keeps running', async () => {
    const worker = new Worker(WORKER);
    const replies: ReplyMessage[] = [];
    const wakers = new Set<() => void>();
    worker.on('message', (m: WorkerMessage) => {
      if (m.kind === 'reply') replies.push(m);
      for (const w of wakers) w();
    });
    const subscribe = (wake: () => void) => (wakers.add(wake), { dispose: () => wakers.delete(wake) });
    try {
      worker.postMessage('garbage');
      worker.postMessage({ kind: 'request', id: 2, method: 'nope', params: {} });
      worker.postMessage({ kind: 'request', id: 3, method: 'snapshot', params: {} });
      worker.postMessage({ kind: 'request', id: 4, method: 'init', params: { settings: { nodes: -1 } } });
      worker.postMessage({ kind: 'request', id: 5, method: 'init', params: { settings: SETTINGS } });
      worker.postMessage({
        kind: 'request',
        id: 6,
        method: 'applyFile',
        params: { file: 'x.yaml', manifests: 'not a list' },
      });
      worker.postMessage({ kind: 'request', id: 7, method: 'action', params: { type: 'explode' } });
      await until('seven replies', () => replies.length === 7, subscribe);
      assert.deepEqual(
        replies.map((r) => [r.id, r.error?.message]),
        [
          [-1, 'malformed message: expected {kind: "request", id, method, params}'],
          [2, 'unknown method "nope"'],
          [3, 'the sandbox is not running: send init first'],
          [4, 'settings.nodes must be an integer from 0 to 100'],
          [5, undefined],
          [6, 'manifests must be a list'],
          [7, 'unknown action "explode"'],
        ],
      );
    } finally {
      await worker.terminate();
    }
  });
});
