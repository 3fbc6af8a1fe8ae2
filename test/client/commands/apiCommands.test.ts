/**
 * The HTTP API on the host side, with a fake connection and UI: the two
 * commands (serving, off, starting, failed), the settings sent to the worker
 * at start, on change and after a crash, the error shown once, and the
 * package.json settings.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  API_OFF,
  API_STARTING,
  DEFAULT_API_CONFIG,
  TERMINAL_NAME,
  connectApi,
  describeApi,
  readApiConfig,
  sendApiSettings,
} from '../../../client/src/commands/apiCommands';
import type { CommandContext } from '../../../client/src/commands/context';
import { exportKubeconfig } from '../../../sandbox/http/kubeconfig';
import { startSandbox } from '../../../client/src/commands/startup';
import { COMMANDS } from '../../../client/src/commands/table';
import type { ApiSettings, ApiStatus, SandboxStatus } from '../../../client/src/sandbox/protocol';
import { FakeConnection, FakeUi, contextOf } from './fakes';

const KUBECONFIG = '/storage/kube reconcile/kubeconfig.yaml';
const SERVING: ApiStatus = { state: 'serving', url: 'http://127.0.0.1:41234', kubeconfig: KUBECONFIG };
const RUNNING: SandboxStatus = { running: true, paused: false, speed: 1, time: 0, pods: 0, nodes: 3 };

/** `settings` null: the context has no API wired (as in a host that never configures it). */
function withApi(
  api: ApiStatus | undefined,
  settings: ApiSettings | null = { enabled: true, port: 0, kubeconfig: KUBECONFIG },
) {
  const connection = new FakeConnection();
  connection.status = { ...RUNNING, ...(api ? { api } : {}) };
  const ui = new FakeUi();
  const ctx: CommandContext = { ...contextOf(connection, ui), ...(settings ? { api: () => settings } : {}) };
  return { connection, ui, ctx };
}

describe('Copy Kubeconfig Path and Open Terminal with KUBECONFIG', () => {
  test('while the API serves: copy the path, or open a terminal whose KUBECONFIG is the file', async () => {
    const { ui, ctx } = withApi(SERVING);
    await COMMANDS['kubeReconcile.copyKubeconfigPath'](ctx)();
    assert.deepEqual(ui.copied, [KUBECONFIG]);
    assert.deepEqual(ui.shown, [`notify: Copied the kubeconfig path: export KUBECONFIG='${KUBECONFIG}'`]);
    await COMMANDS['kubeReconcile.openKubectlTerminal'](ctx)();
    assert.deepEqual(ui.terminals, [
      {
        name: TERMINAL_NAME,
        env: { KUBECONFIG },
        message: 'KUBECONFIG points at the Kube Reconcile sandbox (http://127.0.0.1:41234). Try: kubectl get pods -A',
      },
    ]);
  });

  test('say clearly when the API is off, starting or failed, and do nothing else', async () => {
    const cases: [ApiStatus | undefined, ApiSettings | null, string][] = [
      [{ state: 'off' }, { enabled: false, port: 0, kubeconfig: KUBECONFIG }, `info: ${API_OFF}`],
      [SERVING, { enabled: false, port: 0, kubeconfig: KUBECONFIG }, `info: ${API_OFF}`],
      [undefined, null, `info: ${API_OFF}`],
      [{ state: 'starting' }, null, `info: ${API_OFF}`],
      [{ state: 'starting' }, { enabled: true, port: 0, kubeconfig: KUBECONFIG }, `info: ${API_STARTING}`],
      [undefined, { enabled: true, port: 0, kubeconfig: KUBECONFIG }, `info: ${API_STARTING}`],
      [
        { state: 'failed', error: 'port 8080 on 127.0.0.1 is already in use' },
        { enabled: true, port: 8080, kubeconfig: KUBECONFIG },
        "error: The sandbox's Kubernetes API could not start: port 8080 on 127.0.0.1 is already in use",
      ],
    ];
    for (const [api, settings, expected] of cases) {
      for (const id of ['kubeReconcile.copyKubeconfigPath', 'kubeReconcile.openKubectlTerminal']) {
        const { ui, ctx } = withApi(api, settings);
        await COMMANDS[id](ctx)();
        assert.deepEqual(ui.shown, [expected], `${id} ${JSON.stringify(api)} ${JSON.stringify(settings)}`);
        assert.deepEqual(ui.copied, []);
        assert.deepEqual(ui.terminals, []);
      }
    }
  });
});

describe('the API settings and the worker', () => {
  test('readApiConfig falls back to the defaults for missing or out-of-range values; package.json agrees', () => {
    assert.deepEqual(
      readApiConfig(() => undefined),
      DEFAULT_API_CONFIG,
    );
    assert.deepEqual(
      readApiConfig((k) => (k === 'api.enabled' ? false : 8080)),
      { enabled: false, port: 8080 },
    );
    assert.deepEqual(
      readApiConfig((k) => (k === 'api.enabled' ? 'yes' : 70000)),
      DEFAULT_API_CONFIG,
    );
    assert.deepEqual(
      readApiConfig((k) => (k === 'api.enabled' ? true : 80.5)),
      DEFAULT_API_CONFIG,
    );
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    const props = (
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
        contributes: {
          configuration: { properties: Record<string, { default?: unknown; minimum?: number; maximum?: number }> };
        };
      }
    ).contributes.configuration.properties;
    assert.equal(props['kubeReconcile.api.enabled'].default, DEFAULT_API_CONFIG.enabled);
    assert.deepEqual(
      [
        props['kubeReconcile.api.port'].default,
        props['kubeReconcile.api.port'].minimum,
        props['kubeReconcile.api.port'].maximum,
      ],
      [DEFAULT_API_CONFIG.port, 0, 65535],
    );
  });

  test('startSandbox sends the API settings with init', async () => {
    const { connection, ctx } = withApi(undefined);
    connection.replies.init = () => RUNNING;
    assert.equal(await startSandbox(ctx, async () => undefined), true);
    assert.deepEqual(connection.sent, [
      {
        method: 'init',
        params: {
          settings: { nodes: 3, speed: 1, seed: 1, selfHeal: true, kubernetesVersion: '1.32' },
          api: { enabled: true, port: 0, kubeconfig: KUBECONFIG },
        },
      },
    ]);
  });

  test('a settings change and a worker crash send setApi; a failure is shown once; dispose removes the kubeconfig', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-reconcile-api-cmd-'));
    const file = join(dir, 'kubeconfig.yaml');
    writeFileSync(file, 'apiVersion: v1\n');
    let settings: ApiSettings = { enabled: true, port: 0, kubeconfig: file };
    const { connection, ui, ctx } = withApi(undefined);
    ctx.api = () => settings;
    connection.replies.setApi = (p) => (p.enabled ? { state: 'starting' } : { state: 'off' });
    let changed: (() => void) | undefined;
    let crashed: ((e: Error) => void) | undefined;
    const disposables = connectApi(ctx, {
      onDidChangeSettings: (l) => ((changed = l), { dispose: () => undefined }),
      onDidCrash: (l) => ((crashed = l), { dispose: () => undefined }),
    });

    settings = { enabled: false, port: 0, kubeconfig: file };
    changed!();
    crashed!(new Error('The sandbox stopped'));
    assert.equal(connection.sent.length, 1, 'after a crash, setApi waits for the host to re-init the new worker');
    await Promise.resolve();
    await Promise.resolve();
    assert.deepEqual(connection.sent, [
      { method: 'setApi', params: { enabled: false, port: 0, kubeconfig: file } },
      { method: 'setApi', params: { enabled: false, port: 0, kubeconfig: file } },
    ]);

    const failed: ApiStatus = { state: 'failed', error: 'port 8080 on 127.0.0.1 is already in use' };
    connection.fireStatus({ ...RUNNING, api: failed });
    connection.fireStatus({ ...RUNNING, api: failed });
    connection.fireStatus({ ...RUNNING, api: SERVING });
    connection.fireStatus({ ...RUNNING, api: failed });
    assert.deepEqual(ui.shown, [
      `error: The sandbox's Kubernetes API could not start: ${failed.error}`,
      `error: The sandbox's Kubernetes API could not start: ${failed.error}`,
    ]);

    for (const d of disposables) d.dispose();
    assert.equal(existsSync(file), false);
  });

  test('a setApi the worker refuses is reported', async () => {
    const { connection, ui, ctx } = withApi(undefined);
    connection.replies.setApi = () => {
      throw new Error('api.port must be an integer from 0 to 65535');
    };
    await sendApiSettings(ctx);
    assert.deepEqual(ui.shown, [
      'error: Kube Reconcile could not apply the API settings: api.port must be an integer from 0 to 65535',
    ]);
  });

  test('the status line, and the export line quoting the path for the shell', () => {
    assert.equal(
      describeApi(SERVING),
      `Kubernetes API at http://127.0.0.1:41234 (kubectl: export KUBECONFIG='${KUBECONFIG}')`,
    );
    assert.equal(describeApi({ state: 'off' }), 'Kubernetes API off (setting kubeReconcile.api.enabled)');
    assert.equal(describeApi({ state: 'failed', error: 'boom' }), 'Kubernetes API not available: boom');
    assert.equal(describeApi(undefined), undefined);
    assert.equal(
      exportKubeconfig('/home/me/.kube/kube-reconcile.yaml'),
      'export KUBECONFIG=/home/me/.kube/kube-reconcile.yaml',
    );
    assert.equal(exportKubeconfig("/tmp/it's here"), `export KUBECONFIG='/tmp/it'\\''s here'`);
  });
});
