/**
 * The worker's HTTP API lifecycle (ApiServing) with a fake server and file
 * system: start, move to a new cluster on the same port, change port or
 * kubeconfig path, stop; failures as statuses. Then the dispatcher's checks
 * of `setApi` and `init`'s `api`, and the real worker thread serving kubectl's
 * API through a crash and restart.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster } from '../../../sandbox/cluster/cluster';
import type { KubeHttpServer, KubeHttpServerOptions } from '../../../sandbox/http/server';
import { ApiServing } from '../../../client/src/worker/apiServing';
import { SandboxHost } from '../../../client/src/sandbox/host';
import type { ApiStatus, SandboxStatus } from '../../../client/src/sandbox/protocol';
import { call } from '../../cli/apiCall';
import { CRASHING_WORKER, SETTINGS, until } from './harness';
import { inProcessDispatcher } from './inProcess';

/** Servers that "listen" on the port asked for (0: the next free one), refusing ports in `busy`. */
class FakeNet {
  readonly events: string[] = [];
  readonly busy = new Set<number>();
  readonly files = new Map<string, string>();
  private next = 40000;

  start = async (o: KubeHttpServerOptions): Promise<KubeHttpServer> => {
    const asked = o.port ?? 0;
    if (this.busy.has(asked)) {
      this.events.push(`refused ${asked}`);
      throw Object.assign(new Error(`listen EADDRINUSE: address already in use 127.0.0.1:${asked}`), {
        code: 'EADDRINUSE',
      });
    }
    const port = asked === 0 ? this.next++ : asked;
    this.busy.add(port);
    this.events.push(`listen ${port} ${clusterName(o.cluster)}`);
    return {
      url: `https://127.0.0.1:${port}`,
      port,
      certificateAuthority: `CERT ${port}`,
      close: async () => {
        this.busy.delete(port);
        this.events.push(`close ${port}`);
      },
    };
  };

  write = async (path: string, text: string): Promise<void> => {
    this.files.set(path, text);
    this.events.push(`write ${path}`);
  };

  remove = async (path: string): Promise<void> => {
    this.files.delete(path);
    this.events.push(`remove ${path}`);
  };
}

const clusters = new WeakMap<Cluster, string>();
const clusterName = (c: Cluster): string => clusters.get(c) ?? '?';
function named(name: string): Cluster {
  const c = new Cluster({ nodes: 0 });
  clusters.set(c, name);
  return c;
}

function serving(net: FakeNet) {
  const statuses: ApiStatus[] = [];
  const api = new ApiServing((s) => statuses.push(s), {
    start: net.start,
    writeKubeconfig: net.write,
    removeKubeconfig: net.remove,
    token: 'secret-token',
  });
  return { api, statuses };
}

describe('ApiServing', () => {
  test('serves the cluster, writes the kubeconfig, and follows a new session on the same port', async () => {
    const net = new FakeNet();
    const { api, statuses } = serving(net);
    assert.equal(api.status, undefined, 'nothing before the host configures it');
    await api.attach(named('a'));
    assert.deepEqual(net.events, [], 'not configured: not served');

    const status = await api.configure({ enabled: true, port: 0, kubeconfig: '/s/kubeconfig.yaml' });
    assert.deepEqual(status, { state: 'serving', url: 'https://127.0.0.1:40000', kubeconfig: '/s/kubeconfig.yaml' });
    assert.deepEqual(statuses, [{ state: 'starting' }, status]);
    const text = net.files.get('/s/kubeconfig.yaml')!;
    assert.ok(text.includes('server: "https://127.0.0.1:40000"') && text.includes('token: "secret-token"'), text);
    assert.ok(
      text.includes(`certificate-authority-data: "${Buffer.from('CERT 40000').toString('base64')}"`),
      'the server is trusted through its own certificate',
    );

    await api.attach(named('b'));
    assert.deepEqual(net.events, [
      'listen 40000 a',
      'write /s/kubeconfig.yaml',
      'close 40000',
      'listen 40000 b',
      'write /s/kubeconfig.yaml',
    ]);
    assert.deepEqual(api.status, {
      state: 'serving',
      url: 'https://127.0.0.1:40000',
      kubeconfig: '/s/kubeconfig.yaml',
    });
  });

  test('port 0 takes any free port when the previous one was taken meanwhile; a fixed port in use fails with the setting to change', async () => {
    const net = new FakeNet();
    const { api } = serving(net);
    await api.attach(named('a'));
    await api.configure({ enabled: true, port: 0, kubeconfig: '/k' });
    await api.configure({ enabled: false, port: 0, kubeconfig: '/k' });
    net.busy.add(40000);
    assert.deepEqual(await api.configure({ enabled: true, port: 0, kubeconfig: '/k' }), {
      state: 'serving',
      url: 'https://127.0.0.1:40001',
      kubeconfig: '/k',
    });

    const failed = await api.configure({ enabled: true, port: 40000, kubeconfig: '/k' });
    assert.deepEqual(failed, {
      state: 'failed',
      error:
        'port 40000 on 127.0.0.1 is already in use: set kubeReconcile.api.port to another port, or to 0 for any free port',
    });
    assert.equal(net.files.has('/k'), false, 'no kubeconfig naming a server that is not there');
    assert.deepEqual(net.events, [
      'listen 40000 a',
      'write /k',
      'close 40000',
      'remove /k',
      'refused 40000',
      'listen 40001 a',
      'write /k',
      'close 40001',
      'refused 40000',
      'remove /k',
    ]);
  });

  test('turning it off closes the server and removes the kubeconfig; a new path moves the file', async () => {
    const net = new FakeNet();
    const { api } = serving(net);
    await api.attach(named('a'));
    await api.configure({ enabled: true, port: 0, kubeconfig: '/one' });
    await api.configure({ enabled: true, port: 0, kubeconfig: '/two' });
    assert.deepEqual([...net.files.keys()], ['/two']);
    assert.deepEqual(
      net.events,
      ['listen 40000 a', 'write /one', 'remove /one', 'write /two'],
      'the server keeps running',
    );
    assert.deepEqual(await api.configure({ enabled: false, port: 0, kubeconfig: '/two' }), { state: 'off' });
    assert.deepEqual([...net.files.keys()], []);
    assert.deepEqual(net.events.slice(-2), ['close 40000', 'remove /two']);
    await api.dispose();
    assert.equal(api.status, undefined);
  });

  test('settings sent in a burst end in the last one', async () => {
    const net = new FakeNet();
    const { api } = serving(net);
    await api.attach(named('a'));
    const results = await Promise.all([
      api.configure({ enabled: true, port: 5000, kubeconfig: '/k' }),
      api.configure({ enabled: true, port: 6000, kubeconfig: '/k' }),
      api.configure({ enabled: true, port: 7000, kubeconfig: '/k' }),
    ]);
    assert.equal(results[2].state === 'serving' && results[2].url, 'https://127.0.0.1:7000');
    assert.deepEqual(net.events, ['listen 7000 a', 'write /k']);
  });

  test('a kubeconfig that cannot be written is a failure, and the server is closed', async () => {
    const net = new FakeNet();
    const statuses: ApiStatus[] = [];
    const api = new ApiServing((s) => statuses.push(s), {
      start: net.start,
      writeKubeconfig: () => Promise.reject(new Error('EACCES: permission denied')),
      removeKubeconfig: net.remove,
      token: 't',
    });
    await api.attach(named('a'));
    assert.deepEqual(await api.configure({ enabled: true, port: 0, kubeconfig: '/ro/k' }), {
      state: 'failed',
      error: 'cannot write the kubeconfig /ro/k: EACCES: permission denied',
    });
    assert.deepEqual(net.events, ['listen 40000 a', 'close 40000']);
  });
});

describe('the dispatcher and the API', () => {
  /** A dispatcher whose posted messages can be awaited. */
  function dispatcher(net: FakeNet) {
    return inProcessDispatcher({
      now: () => Date.UTC(2026, 0, 1),
      api: { start: net.start, writeKubeconfig: net.write, removeKubeconfig: net.remove, token: 't' },
    });
  }

  test('setApi and init check the API settings and refuse bad ones without side effects', async () => {
    const net = new FakeNet();
    const { d, posted, reply } = dispatcher(net);
    try {
      const bad: [unknown, string][] = [
        [{ enabled: 'yes', port: 0, kubeconfig: '/k' }, 'api.enabled must be true or false'],
        [{ enabled: true, port: 70000, kubeconfig: '/k' }, 'api.port must be an integer from 0 to 65535'],
        [{ enabled: true, port: 1.5, kubeconfig: '/k' }, 'api.port must be an integer from 0 to 65535'],
        [{ enabled: true, port: 0, kubeconfig: 'relative/k' }, 'api.kubeconfig must be an absolute path'],
        [{ enabled: true, port: 0 }, 'api.kubeconfig must be a non-empty string'],
        ['on', 'api must be an object'],
      ];
      let id = 1;
      for (const [params, message] of bad) {
        d.handle({ kind: 'request', id, method: 'setApi', params });
        assert.deepEqual((await reply(id)).error, { message }, JSON.stringify(params));
        id++;
      }
      d.handle({
        kind: 'request',
        id,
        method: 'init',
        params: { settings: SETTINGS, api: { enabled: true, port: -1, kubeconfig: '/k' } },
      });
      assert.deepEqual(
        posted.find((m) => m.kind === 'reply' && m.id === id),
        { kind: 'reply', id, error: { message: 'api.port must be an integer from 0 to 65535' } },
      );
      assert.equal(
        posted.some((m) => m.kind === 'notification'),
        false,
        'no sandbox was started',
      );
      assert.deepEqual(net.events, []);
    } finally {
      d.dispose();
    }
  });

  test('init with the API answers "starting", then a status says where it serves; without it, statuses carry no api', async () => {
    const net = new FakeNet();
    const { d, posted, reply, onPost } = dispatcher(net);
    try {
      d.handle({ kind: 'request', id: 1, method: 'init', params: { settings: SETTINGS } });
      assert.equal(((await reply(1)).result as SandboxStatus).api, undefined);
      d.handle({
        kind: 'request',
        id: 2,
        method: 'init',
        params: { settings: SETTINGS, api: { enabled: true, port: 0, kubeconfig: '/k' } },
      });
      assert.deepEqual(((await reply(2)).result as SandboxStatus).api, { state: 'starting' });
      /** The first status posted from `from` on whose API serves. */
      const servingSince = (from: number) => () =>
        posted
          .slice(from)
          .map((m) =>
            m.kind === 'notification' && m.notification.kind === 'status' ? m.notification.status.api : undefined,
          )
          .find((a) => a?.state === 'serving');
      const served = await until('a status with the API serving', servingSince(0), onPost);
      assert.deepEqual(served, { state: 'serving', url: 'https://127.0.0.1:40000', kubeconfig: '/k' });
      const beforeReset = posted.length;
      d.handle({ kind: 'request', id: 3, method: 'control', params: { type: 'reset' } });
      assert.deepEqual(
        ((await reply(3)).result as SandboxStatus).api,
        { state: 'starting' },
        'a reset moves the API to the new cluster',
      );
      assert.deepEqual(
        await until('the API serving the new cluster', servingSince(beforeReset), onPost),
        served,
        'on the same port',
      );
      d.handle({ kind: 'request', id: 4, method: 'setApi', params: { enabled: false, port: 0, kubeconfig: '/k' } });
      assert.deepEqual((await reply(4)).result, { state: 'off' });
      assert.deepEqual(net.events, [
        'listen 40000 ?',
        'write /k',
        'close 40000',
        'listen 40000 ?',
        'write /k',
        'close 40000',
        'remove /k',
      ]);
    } finally {
      d.dispose();
    }
  });
});

describe('the sandbox worker serving the API', () => {
  const dirs: string[] = [];
  const hosts: SandboxHost[] = [];
  after(async () => {
    hosts.forEach((h) => h.dispose());
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  test('serves the API with a private kubeconfig, and again after the worker crashed and restarted', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kube-reconcile-api-'));
    dirs.push(dir);
    const kubeconfig = join(dir, 'storage', 'kubeconfig.yaml');
    const host = new SandboxHost({ workerPath: CRASHING_WORKER });
    hosts.push(host);
    const servingApi = () => (host.status?.api?.state === 'serving' ? host.status.api : undefined);
    const first = await host
      .request('init', { settings: SETTINGS, api: { enabled: true, port: 0, kubeconfig } })
      .then(() => until('the API to serve', servingApi, (wake) => host.onDidStatus(wake)));
    assert.equal((await stat(kubeconfig)).mode & 0o777, 0o600);
    const text = await readFile(kubeconfig, 'utf8');
    const token = /token: "([^"]+)"/.exec(text)![1];
    assert.ok(text.includes(`server: "${first.url}"`));
    assert.match(text, /certificate-authority-data: "[A-Za-z0-9+/=]+"/);
    assert.equal((await call(`${first.url}/version`, { token })).status, 200);
    assert.equal((await call(`${first.url}/version`)).status, 401);

    let restarted = false;
    host.onDidStatus((st) => (restarted ||= st.api?.state !== 'serving'));
    await assert.rejects(host.request('explain', { namespace: 'default', name: '__crash__' }));
    const again = await until(
      'the restarted worker to serve the API',
      () => restarted && servingApi(),
      (wake) => host.onDidStatus(wake),
    );
    const newText = await readFile(kubeconfig, 'utf8');
    const newToken = /token: "([^"]+)"/.exec(newText)![1];
    assert.notEqual(newToken, token, 'the new worker has a token of its own');
    assert.ok(newText.includes(`server: "${again.url}"`));
    assert.equal((await call(`${again.url}/api/v1/namespaces`, { token: newToken })).status, 200);
  });
});
