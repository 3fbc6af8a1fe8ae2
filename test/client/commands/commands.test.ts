import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { COMMANDS } from '../../../client/src/commands/table';
import { onSettingsChanged } from '../../../client/src/commands/settingsChanged';
import { startSandbox } from '../../../client/src/commands/startup';
import { DEFAULT_SETTINGS } from '../../../client/src/model/settings';
import { SandboxRequestErrorLike, podNode, webCache } from './support';
import { FakeConnection, FakeFiles, FakeUi, contextOf } from './fakes';

function run(id: string, connection: FakeConnection, ui: FakeUi, ...args: unknown[]): Promise<void> {
  return COMMANDS[id](contextOf(connection, ui))(...args);
}

describe('object commands', () => {
  test('Kill Pod sends killPod for the pod it was invoked on and shows the reply', async () => {
    const connection = new FakeConnection();
    connection.replies.action = () => ({ message: 'pod "web-1" deleted' });
    const ui = new FakeUi();
    await run('kubeReconcile.killPod', connection, ui, podNode('web-1'));
    assert.deepEqual(connection.sent, [
      { method: 'action', params: { type: 'killPod', namespace: 'default', name: 'web-1' } },
    ]);
    assert.deepEqual(ui.shown, ['notify: pod "web-1" deleted']);
  });

  test('a failed action reports the API server message', async () => {
    const connection = new FakeConnection();
    connection.replies.action = () => {
      throw new SandboxRequestErrorLike('pods "web-1" not found');
    };
    const ui = new FakeUi();
    await run('kubeReconcile.crashContainer', connection, ui, podNode('web-1'));
    assert.deepEqual(ui.shown, ['error: Crash Container failed: pods "web-1" not found']);
  });

  test('item commands invoked without an item (or on the wrong kind) send nothing and say where to use them', async () => {
    const connection = new FakeConnection();
    const ui = new FakeUi();
    await run('kubeReconcile.killPod', connection, ui);
    await run('kubeReconcile.failNode', connection, ui, podNode('web-1'));
    await run('kubeReconcile.scale', connection, ui, {
      ref: { resource: 'services', namespace: 'default', name: 'web' },
    });
    assert.deepEqual(connection.sent, []);
    assert.deepEqual(ui.shown, [
      'error: Kill Pod: right-click a pod in the Cluster view.',
      'error: Fail Node: right-click a node in the Cluster view.',
      'error: Scale: right-click a deployment or a replicaset or a statefulset or a replicationcontroller in the Cluster view.',
    ]);
  });

  test('Scale… proposes the live replica count, validates the input and sends the number', async () => {
    const connection = new FakeConnection(webCache());
    connection.replies.action = (p) => ({
      message: `deployment.apps/web scaled to ${(p as { replicas: number }).replicas}`,
    });
    const ui = new FakeUi();
    ui.probes = ['5', '-2'];
    ui.answers = [' 5 '];
    await run('kubeReconcile.scale', connection, ui, {
      ref: { resource: 'deployments', namespace: 'default', name: 'web' },
    });
    assert.deepEqual(ui.validated, [undefined, '"-2" is not a whole number of replicas (0 or more).']);
    assert.deepEqual(connection.sent, [
      { method: 'desired', params: { resource: 'deployments', namespace: 'default', name: 'web' } },
      {
        method: 'action',
        params: { type: 'scale', resource: 'deployments', namespace: 'default', name: 'web', replicas: 5 },
      },
    ]);
    assert.deepEqual(ui.shown, ['input: Scale deployment/web (3)', 'notify: deployment.apps/web scaled to 5']);
  });

  test('Set Load… validates the CPU and sends it for the workload; Roll Back sends the kind', async () => {
    const connection = new FakeConnection(webCache());
    connection.replies.action = () => ({ message: 'load on pods default/app=web set to cpu=250m' });
    const ui = new FakeUi();
    ui.probes = ['250m', '1.5', 'lots', '-1'];
    ui.answers = [' 250m '];
    const ref = { resource: 'deployments', namespace: 'default', name: 'web' };
    await run('kubeReconcile.setLoad', connection, ui, { ref });
    assert.deepEqual(ui.validated, [
      undefined,
      undefined,
      'A CPU quantity: 250m, 1 or 1.5',
      'A CPU quantity: 250m, 1 or 1.5',
    ]);
    assert.deepEqual(connection.sent, [{ method: 'action', params: { type: 'setLoad', ...ref, cpu: '250m' } }]);
    const sts = { resource: 'statefulsets', namespace: 'default', name: 'db' };
    await run('kubeReconcile.rollBack', connection, ui, { ref: sts });
    assert.deepEqual(connection.sent.at(-1), { method: 'action', params: { type: 'rollBack', ...sts } });
  });

  test('Scale… of a declared object says self-heal will put it back, then says when it has', async () => {
    const connection = new FakeConnection(webCache());
    connection.replies.action = () => ({ message: 'deployment.apps/web scaled' });
    connection.replies.desired = () => ({
      file: '/ws/web.yaml',
      line: 8,
      manifest: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 3 } },
    });
    const ui = new FakeUi();
    ui.answers = ['5'];
    await run('kubeReconcile.scale', connection, ui, {
      ref: { resource: 'deployments', namespace: 'default', name: 'web' },
    });
    const event = (name: string, reason: string) => ({
      type: 'ADDED' as const,
      resource: 'events',
      object: {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: `${name}.1`, namespace: 'default' },
        involvedObject: { kind: 'Deployment', name, namespace: 'default' },
        reason,
        message: 'spec.replicas 5 → 3 from web.yaml',
      },
    });
    connection.fireChange([event('other', 'DriftReverted'), event('web', 'ScalingReplicaSet')]);
    connection.fireChange([event('web', 'DriftReverted')]);
    connection.fireChange([event('web', 'DriftReverted')]);
    assert.deepEqual(ui.shown, [
      'input: Scale deployment/web (3)',
      'notify: deployment.apps/web scaled — self-heal will put it back to 3 (web.yaml declares it)',
      'notify: deployment/web: self-heal undid the scale to 5 — spec.replicas 5 → 3 from web.yaml',
    ]);
  });

  test('Scale… cancelled sends nothing', async () => {
    const connection = new FakeConnection(webCache());
    const ui = new FakeUi();
    ui.answers = [undefined];
    await run('kubeReconcile.scale', connection, ui, {
      ref: { resource: 'deployments', namespace: 'default', name: 'web' },
    });
    assert.deepEqual(connection.sent, []);
  });

  test('Delete asks first and deletes only when confirmed', async () => {
    const connection = new FakeConnection();
    connection.replies.action = () => ({ message: 'deployment.apps "web" deleted' });
    const ui = new FakeUi();
    const ref = { ref: { resource: 'deployments', namespace: 'default', name: 'web' } };
    ui.answers = [false, true];
    await run('kubeReconcile.delete', connection, ui, ref);
    await run('kubeReconcile.delete', connection, ui, ref);
    assert.deepEqual(connection.sent, [
      { method: 'action', params: { type: 'delete', resource: 'deployments', namespace: 'default', name: 'web' } },
    ]);
    assert.deepEqual(ui.shown, [
      'confirm: Delete deployment/web in namespace default? [Delete]',
      'confirm: Delete deployment/web in namespace default? [Delete]',
      'notify: deployment.apps "web" deleted',
    ]);
  });

  test('node commands send their action with the node name', async () => {
    const connection = new FakeConnection();
    connection.replies.action = () => ({ message: 'ok' });
    const ui = new FakeUi();
    const nodeArg = { ref: { resource: 'nodes', name: 'node-2' } };
    for (const id of ['failNode', 'recoverNode', 'cordon', 'uncordon', 'drain'])
      await run(`kubeReconcile.${id}`, connection, ui, nodeArg);
    assert.deepEqual(
      connection.sent.map((s) => s.params),
      ['failNode', 'recoverNode', 'cordon', 'uncordon', 'drain'].map((type) => ({ type, name: 'node-2' })),
    );
  });

  test('a drain that waits shows its lines as they come (which pods wait on a budget), then how it ended', async () => {
    const connection = new FakeConnection();
    connection.replies.action = () => ({ message: 'node/node-2 cordoned\nevicting pod default/web-1', operation: 4 });
    const ui = new FakeUi();
    const nodeArg = { ref: { resource: 'nodes', name: 'node-2' } };
    await run('kubeReconcile.drain', connection, ui, nodeArg);
    const refused = `error when evicting pods/"web-2" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.`;
    connection.fireOperation({ kind: 'operation', id: 4, title: 'Drain node-2', line: refused });
    connection.fireOperation({ kind: 'operation', id: 9, title: 'Drain node-3', line: 'not this one' });
    connection.fireOperation({
      kind: 'operation',
      id: 4,
      title: 'Drain node-2',
      done: { ok: true, message: 'node/node-2 drained' },
    });
    connection.fireOperation({ kind: 'operation', id: 4, title: 'Drain node-2', line: 'after the end: ignored' });
    await run('kubeReconcile.drain', connection, ui, nodeArg);
    connection.fireOperation({
      kind: 'operation',
      id: 4,
      title: 'Drain node-2',
      done: { ok: false, message: 'drain cancelled' },
    });
    // One progress notification per drain (a multi-line status-bar message was clipped), with its latest line.
    assert.deepEqual(ui.shown, [
      'progress: Drain',
      'progress Drain: evicting pod default/web-1',
      `progress Drain: ${refused}`,
      'progress Drain: done',
      'info: node/node-2 drained',
      'progress: Drain',
      'progress Drain: evicting pod default/web-1',
      'progress Drain: done',
      'error: Drain failed: drain cancelled',
    ]);
  });

  test('Copy as YAML copies the live object; Show Events opens the events table', async () => {
    const connection = new FakeConnection(webCache());
    const ui = new FakeUi();
    const arg = { ref: { resource: 'deployments', namespace: 'default', name: 'web' } };
    await run('kubeReconcile.copyAsYaml', connection, ui, arg);
    await run('kubeReconcile.showEvents', connection, ui, arg);
    assert.equal(ui.copied.length, 1);
    assert.match(ui.copied[0], /^apiVersion: apps\/v1\nkind: Deployment\nmetadata:\n {2}name: web\n/);
    assert.deepEqual(ui.texts, [
      {
        name: 'Events deployment/web',
        text: '# kubectl get events --field-selector involvedObject.name=web -n default\nNo events found in default namespace.\n',
      },
    ]);
  });

  test('selecting an object opens its manifest at its line, without taking focus; objects from no file open nothing', async () => {
    const connection = new FakeConnection();
    // The worker names files as workspace sources (relative to their folder), never as absolute local paths.
    connection.replies.desired = (ref) => (ref.name === 'web' ? { file: 'deploy/web.yaml', line: 12 } : {});
    const ui = new FakeUi();
    await run('kubeReconcile.revealManifest', connection, ui, {
      resource: 'deployments',
      namespace: 'default',
      name: 'web',
    });
    await run('kubeReconcile.revealManifest', connection, ui, {
      resource: 'pods',
      namespace: 'default',
      name: 'web-1',
    });
    assert.deepEqual(ui.opened, [{ file: 'deploy/web.yaml', line: 12, focus: false }]);
    assert.deepEqual(ui.shown, []);
  });
});

describe('sandbox controls', () => {
  test('Step advances 10 s; Speed sends the picked speed; Reset only when confirmed', async () => {
    const connection = new FakeConnection();
    connection.replies.control = () => connection.status!;
    const ui = new FakeUi();
    ui.answers = ['20×', false, true];
    await run('kubeReconcile.step', connection, ui);
    await run('kubeReconcile.speed', connection, ui);
    await run('kubeReconcile.reset', connection, ui);
    await run('kubeReconcile.reset', connection, ui);
    assert.deepEqual(
      connection.sent.map((s) => s.params),
      [{ type: 'step', ms: 10_000 }, { type: 'speed', speed: 20 }, { type: 'reset' }],
    );
  });

  test('a confirmed reset forgets the saved sandbox state; a failed one does not', async () => {
    const connection = new FakeConnection();
    let forgotten = 0;
    const ui = new FakeUi();
    const ctx = { ...contextOf(connection, ui), forgetSavedState: async () => void forgotten++ };
    connection.replies.control = () => connection.status!;
    ui.answers = [true, true];
    await COMMANDS['kubeReconcile.reset'](ctx)();
    connection.replies.control = () => {
      throw new Error('worker gone');
    };
    await COMMANDS['kubeReconcile.reset'](ctx)();
    assert.equal(forgotten, 1);
    assert.deepEqual(ui.shown.slice(-1), ['error: Reset Sandbox failed: worker gone']);
  });

  test('Fast-forward shows progress, then how much sandbox time passed and that the cluster settled', async () => {
    const connection = new FakeConnection();
    connection.replies.control = () => ({
      ...connection.status!,
      time: 95_000,
      fastForward: { settled: true, elapsedMs: 95_000, pending: [] },
    });
    const ui = new FakeUi();
    await run('kubeReconcile.fastForward', connection, ui);
    assert.deepEqual(connection.sent, [{ method: 'control', params: { type: 'fastForward', limitMs: 600_000 } }]);
    assert.deepEqual(ui.shown, [
      'progress: Fast-forwarding the sandbox until it settles',
      'progress Fast-forwarding the sandbox until it settles: at most 10m of sandbox time',
      'progress Fast-forwarding the sandbox until it settles: done',
      'notify: Fast-forwarded 95s of sandbox time: the cluster settled',
    ]);
  });

  test('Fast-forward that stops without settling says after how long and what is still not converged', async () => {
    const connection = new FakeConnection();
    const pending = [1, 2, 3, 4, 5, 6].map((i) => `pod default/web-${i}: CrashLoopBackOff (0/1 ready)`);
    connection.replies.control = () => ({
      ...connection.status!,
      fastForward: { settled: false, elapsedMs: 600_000, pending },
    });
    const ui = new FakeUi();
    await run('kubeReconcile.fastForward', connection, ui);
    assert.equal(
      ui.shown.at(-1),
      `info: Fast-forward stopped after 10m of sandbox time without settling: ${pending.slice(0, 5).join('; ')} (and 1 more).`,
    );
  });

  test('the status bar quick pick offers Resume when paused and runs the chosen control', async () => {
    const connection = new FakeConnection();
    connection.status = { ...connection.status!, paused: true };
    connection.replies.control = () => connection.status!;
    const ui = new FakeUi();
    ui.answers = ['$(debug-continue) Resume'];
    await run('kubeReconcile.sandboxControls', connection, ui);
    assert.match(ui.shown[0], /^pick: Kube Reconcile sandbox \[\$\(debug-continue\) Resume, /);
    assert.deepEqual(connection.sent, [{ method: 'control', params: { type: 'resume' } }]);
  });
});

describe('settings changes', () => {
  test('self-heal and speed are sent at once; node count offers a reset that re-inits with the new settings and re-applies the workspace', async () => {
    const connection = new FakeConnection();
    const steps: string[] = [];
    connection.replies.setSelfHeal = (p) => p;
    connection.replies.control = () => connection.status!;
    connection.replies.init = () => {
      steps.push('init');
      return connection.status!;
    };
    const ui = new FakeUi();
    ui.answers = ['Reset Sandbox'];
    const settings = { ...DEFAULT_SETTINGS, selfHeal: false, speed: 5, nodes: 4 };
    const ctx = {
      ...contextOf(connection, ui),
      settings: () => settings,
      forgetSavedState: async () => void steps.push('forget'),
      applyWorkspace: async () => void steps.push('apply'),
    };
    await onSettingsChanged(ctx, ['selfHeal', 'sandbox.speed', 'sandbox.nodes']);
    assert.deepEqual(connection.sent, [
      { method: 'setSelfHeal', params: { selfHeal: false } },
      { method: 'control', params: { type: 'speed', speed: 5 } },
      {
        method: 'init',
        params: { settings: { nodes: 4, speed: 5, seed: 1, selfHeal: false, kubernetesVersion: '1.32' } },
      },
    ]);
    assert.deepEqual(steps, ['init', 'forget', 'apply']);
    assert.deepEqual(ui.shown, [
      "offer: The sandbox's node count and seed take effect when it is reset (now 4 nodes, seed 1). [Reset Sandbox]",
    ]);
  });

  test('declining the reset leaves the sandbox alone', async () => {
    const connection = new FakeConnection();
    const ui = new FakeUi();
    ui.answers = [undefined];
    await onSettingsChanged(contextOf(connection, ui), ['sandbox.seed']);
    assert.deepEqual(connection.sent, []);
  });
});

describe('start-up', () => {
  test('init carries the settings and the saved snapshot, and a warning about it is shown', async () => {
    const connection = new FakeConnection();
    connection.replies.init = () => ({
      ...connection.status!,
      warning: 'the saved sandbox was from another version; started a fresh one',
    });
    const ui = new FakeUi();
    assert.equal(await startSandbox(contextOf(connection, ui), async () => ({ v: 1 })), true);
    assert.deepEqual(connection.sent, [
      {
        method: 'init',
        params: {
          settings: { nodes: 3, speed: 1, seed: 1, selfHeal: true, kubernetesVersion: '1.32' },
          snapshot: { v: 1 },
        },
      },
    ]);
    assert.deepEqual(ui.shown, [
      'info: Kube Reconcile: the saved sandbox was from another version; started a fresh one',
    ]);
  });

  test('without a snapshot init has none; when init fails the user is told and apply is not wired', async () => {
    const connection = new FakeConnection();
    connection.replies.init = () => {
      throw new Error("the sandbox did not answer 'init' within 10 s");
    };
    const ui = new FakeUi();
    assert.equal(await startSandbox(contextOf(connection, ui), async () => undefined), false);
    assert.deepEqual(connection.sent, [
      {
        method: 'init',
        params: { settings: { nodes: 3, speed: 1, seed: 1, selfHeal: true, kubernetesVersion: '1.32' } },
      },
    ]);
    assert.deepEqual(ui.shown, [
      "error: Kube Reconcile: the sandbox could not start: the sandbox did not answer 'init' within 10 s",
    ]);
  });
});

describe('panels', () => {
  test('Show Desired vs Actual opens the panel for the item; Show Cluster Overview opens the overview', async () => {
    const opened: unknown[] = [];
    const ui = new FakeUi();
    const ctx = {
      ...contextOf(new FakeConnection(), ui),
      showDesiredVsActual: (ref: unknown) => void opened.push(ref),
      showClusterOverview: () => void opened.push('overview'),
    };
    await COMMANDS['kubeReconcile.showDesiredVsActual'](ctx)(podNode('web-1'));
    await COMMANDS['kubeReconcile.showClusterOverview'](ctx)();
    assert.deepEqual(opened, [{ resource: 'pods', namespace: 'default', name: 'web-1' }, 'overview']);
  });
});

describe('walkthrough', () => {
  test('Open Example opens the workspace copy when there is one, else copies the bundled example to web.yaml', async () => {
    const ui = new FakeUi();
    const files = new FakeFiles('', { 'examples/web.yaml': 'kind: Deployment\n' });
    const ctx = contextOf(new FakeConnection(), ui, files);
    await COMMANDS['kubeReconcile.openExample'](ctx)();
    assert.deepEqual([...files.files], [['web.yaml', 'kind: Deployment\n']]);
    files.files.set('examples/web.yaml', 'kind: Service\n');
    await COMMANDS['kubeReconcile.openExample'](ctx)();
    assert.deepEqual(ui.opened, [
      { file: 'web.yaml', line: 0, focus: true },
      { file: 'examples/web.yaml', line: 0, focus: true },
    ]);
  });

  test('Open Example in a multi-root workspace uses the first folder, by its name', async () => {
    const ui = new FakeUi();
    const files = new FakeFiles('app', { 'examples/web.yaml': 'kind: Deployment\n' });
    await COMMANDS['kubeReconcile.openExample'](contextOf(new FakeConnection(), ui, files))();
    assert.deepEqual([...files.files.keys()], ['app/web.yaml']);
    assert.deepEqual(ui.opened, [{ file: 'app/web.yaml', line: 0, focus: true }]);
  });

  test('Open Example without a folder asks for one', async () => {
    const ui = new FakeUi();
    await COMMANDS['kubeReconcile.openExample'](contextOf(new FakeConnection(), ui, new FakeFiles(undefined)))();
    assert.deepEqual(ui.shown, [
      'error: Open a folder first: the example manifest is copied into it, and saving it applies it to the sandbox.',
    ]);
  });
});
