/**
 * live/: loading the user's kubeconfig as kubectl does, and the connection to a context — against the sandbox's
 * HTTPS API as the stand-in real cluster. The server's request log proves that a read-only connection sends no
 * write, and every error message and log line is checked for the credentials.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { KubeconfigError, kubeconfigFiles, loadKubeconfig, pickContext } from '../../live/kubeconfig';
import { LiveConnection, LiveError } from '../../live/connection';
import type { WatchEvent } from '../../live/connection';
import { renderKubeconfig } from '../../sandbox/http/kubeconfig';
import { SERVED_TOKEN, serveCluster } from './served';
import type { ServedCluster } from './served';

let served: ServedCluster;
before(async () => {
  served = await serveCluster();
});
after(() => served.close());

async function rejection(p: Promise<unknown>): Promise<LiveError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof LiveError, `expected a LiveError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected the request to fail');
}

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((done) => s.listen(0, '127.0.0.1', done));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((done) => s.close(() => done()));
  return port;
}

describe('kubeconfig loading', () => {
  test('KUBECONFIG files merge with the first to set a name winning; missing files are skipped; nothing is written', async () => {
    const second = join(served.dir, 'second.yaml');
    const secondText = renderKubeconfig({
      server: 'https://other.example:6443',
      token: 'other-token',
      context: 'other',
    })
      .replace('current-context: "other"', 'current-context: "other"')
      // the same context name as the first file, pointing elsewhere: the first file's wins
      .concat('');
    await writeFile(second, secondText);
    const before = await stat(served.kubeconfig);
    const firstText = await readFile(served.kubeconfig, 'utf8');
    const env = { KUBECONFIG: [served.kubeconfig, join(served.dir, 'missing.yaml'), second].join(':') };
    const loaded = await loadKubeconfig({ env });
    assert.deepEqual(loaded.files, [served.kubeconfig, second]);
    assert.deepEqual(
      loaded.contexts.map((c) => [c.name, c.server]),
      [
        ['kube-reconcile', served.server.url],
        ['other', 'https://other.example:6443'],
      ],
    );
    assert.equal(loaded.currentContext, 'kube-reconcile', 'the first file that sets current-context wins');
    assert.equal(await readFile(served.kubeconfig, 'utf8'), firstText);
    assert.equal((await stat(served.kubeconfig)).mtimeMs, before.mtimeMs);
  });

  test('without KUBECONFIG the file is ~/.kube/config; an explicit file is used alone', () => {
    assert.deepEqual(kubeconfigFiles({ env: {}, home: '/home/u' }).files, ['/home/u/.kube/config']);
    assert.deepEqual(kubeconfigFiles({ env: { KUBECONFIG: '/a:/b' }, file: 'x.yaml', cwd: '/w' }).files, ['/w/x.yaml']);
  });

  test('a missing explicit file, no kubeconfig at all and an unknown context are clear errors', async () => {
    await assert.rejects(loadKubeconfig({ file: join(served.dir, 'nope.yaml') }), (e: Error) => {
      assert.ok(e instanceof KubeconfigError);
      assert.match(e.message, /cannot read the kubeconfig .*nope\.yaml: ENOENT/);
      return true;
    });
    await assert.rejects(loadKubeconfig({ env: {}, home: served.dir + '/nohome' }), /no kubeconfig found/);
    const loaded = await loadKubeconfig({ file: served.kubeconfig });
    assert.throws(() => pickContext(loaded, 'prod'), /context "prod" does not exist .*\(contexts: kube-reconcile\)/);
  });

  test('a kubeconfig that is not YAML is refused without quoting its text (it may hold a token)', async () => {
    const bad = join(served.dir, 'bad.yaml');
    await writeFile(bad, `users:\n- name: u\n  user:\n    token: "secret-abc-123\n  : [\n`);
    await assert.rejects(loadKubeconfig({ file: bad }), (e: Error) => {
      assert.match(e.message, /is not valid YAML/);
      assert.doesNotMatch(e.message, /secret-abc-123/);
      return true;
    });
  });
});

describe('a connection to a context', () => {
  test('reads the cluster (lists in pages) over TLS with the kubeconfig credentials', async () => {
    const conn = await LiveConnection.open(await loadKubeconfig({ file: served.kubeconfig }));
    try {
      const nodes = await conn.list('/api/v1/nodes');
      assert.deepEqual(nodes.items.map((n) => n.metadata.name).sort(), ['node-1', 'node-2']);
      assert.match(nodes.resourceVersion, /^\d+$/);
    } finally {
      conn.close();
    }
  });

  test('read-only by default: no write of any method reaches the server, and nothing changes', async () => {
    const log: string[] = [];
    const conn = await LiveConnection.open(await loadKubeconfig({ file: served.kubeconfig }), {
      log: (l) => log.push(l),
    });
    const writesBefore = served.writes().length;
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ro', namespace: 'default' } };
    try {
      assert.equal(conn.writable, false);
      for (const [method, path] of [
        ['POST', '/api/v1/namespaces/default/configmaps'],
        ['PUT', '/api/v1/namespaces/default/configmaps/ro'],
        ['PATCH', '/api/v1/namespaces/default/configmaps/ro'],
        ['DELETE', '/api/v1/nodes/node-1'],
        ['post', '/api/v1/namespaces/default/configmaps'],
      ]) {
        const e = await rejection(conn.request(method, path, { body: cm, query: { dryRun: 'All' } }));
        assert.equal(e.kind, 'read-only');
        assert.match(e.message, /is read-only \(nothing was sent\)/);
      }
      assert.deepEqual(served.writes().slice(writesBefore), [], 'the server saw no write request');
      assert.deepEqual(log, [], 'nothing was sent');
      assert.equal(served.cluster.api.tryGet('configmaps', 'default', 'ro'), undefined);
      assert.ok(served.cluster.api.tryGet('nodes', undefined, 'node-1'));
    } finally {
      conn.close();
    }
  });

  test('opened for writes, the same request reaches the server (the request log counts it)', async () => {
    const conn = await LiveConnection.open(await loadKubeconfig({ file: served.kubeconfig }), { writes: true });
    const writesBefore = served.writes().length;
    try {
      await conn.request('POST', '/api/v1/namespaces/default/configmaps', {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'rw' } },
      });
      assert.equal(served.writes().length - writesBefore, 1);
      assert.match(served.writes().at(-1)!, /^POST \/api\/v1\/namespaces\/default\/configmaps 201/);
      assert.ok(served.cluster.api.tryGet('configmaps', 'default', 'rw'));
    } finally {
      conn.close();
    }
  });

  test('refused credentials: kubectl\'s "You must be logged in" — without the token in the message or the log', async () => {
    const expired = join(served.dir, 'expired.yaml');
    const token = 'expired-token-9d8c7b6a5f4e3d2c1b0a';
    await writeFile(
      expired,
      renderKubeconfig({ server: served.server.url, token, certificateAuthority: served.server.certificateAuthority }),
    );
    const log: string[] = [];
    const conn = await LiveConnection.open(await loadKubeconfig({ file: expired }), { log: (l) => log.push(l) });
    try {
      const e = await rejection(conn.list('/api/v1/pods'));
      assert.equal(e.kind, 'unauthorized');
      assert.equal(e.status, 401);
      assert.match(e.message, /^You must be logged in to the server \(Unauthorized\): the credentials of user/);
      assert.match(e.message, /they may have expired/);
      for (const text of [e.message, ...log, JSON.stringify(e.body ?? '')]) {
        assert.ok(!text.includes(token), `token leaked: ${text}`);
        assert.ok(!text.includes(SERVED_TOKEN));
      }
      assert.equal(log.length, 1);
      assert.match(log[0], /^GET \/api\/v1\/pods\?limit=500 401 /);
    } finally {
      conn.close();
    }
  });

  test('an unreachable server: kubectl\'s "connection was refused"', async () => {
    const port = await closedPort();
    const file = join(served.dir, 'down.yaml');
    await writeFile(file, renderKubeconfig({ server: `https://127.0.0.1:${port}`, token: 'down-token-abcdef' }));
    const conn = await LiveConnection.open(await loadKubeconfig({ file }));
    try {
      const e = await rejection(conn.request('GET', '/version'));
      assert.equal(e.kind, 'unreachable');
      assert.equal(
        e.message,
        `The connection to the server 127.0.0.1:${port} was refused - did you specify the right host or port? (context "kube-reconcile")`,
      );
    } finally {
      conn.close();
    }
  });

  test('an exec plugin: its token is used and never shown; its failure is named, its output redacted', async () => {
    const plugin = join(served.dir, 'plugin.js');
    await writeFile(
      plugin,
      [
        'const mode = process.argv[2];',
        `const token = ${JSON.stringify(SERVED_TOKEN)};`,
        "if (mode === 'fail') { process.stderr.write('error: token ' + token + ' expired, run login\\n'); process.exit(1); }",
        "process.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token } }));",
      ].join('\n'),
    );
    const kubeconfig = (mode: string): string =>
      renderKubeconfig({
        server: served.server.url,
        token: 'unused',
        certificateAuthority: served.server.certificateAuthority,
      }).replace(
        '    token: "unused"',
        [
          '    exec:',
          '      apiVersion: client.authentication.k8s.io/v1',
          `      command: ${JSON.stringify(process.execPath)}`,
          `      args: [${JSON.stringify(plugin)}, ${JSON.stringify(mode)}]`,
          '      interactiveMode: Never',
        ].join('\n'),
      );
    const good = join(served.dir, 'exec-good.yaml');
    const bad = join(served.dir, 'exec-bad.yaml');
    await writeFile(good, kubeconfig('ok'));
    await writeFile(bad, kubeconfig('fail'));
    const log: string[] = [];
    const ok = await LiveConnection.open(await loadKubeconfig({ file: good }), { log: (l) => log.push(l) });
    const failing = await LiveConnection.open(await loadKubeconfig({ file: bad }), { log: (l) => log.push(l) });
    try {
      const ns = await ok.list('/api/v1/namespaces');
      assert.ok(ns.items.some((n) => n.metadata.name === 'default'));
      const e = await rejection(failing.list('/api/v1/namespaces'));
      assert.equal(e.kind, 'credentials');
      assert.match(e.message, /^getting credentials: exec plugin ".*node.*" of user "kube-reconcile" failed: /);
      assert.match(e.message, /expired, run login/);
      for (const text of [e.message, ...log]) assert.ok(!text.includes(SERVED_TOKEN), `token leaked: ${text}`);
      assert.ok(e.message.includes('[redacted]'), 'the plugin printed the token it had: redacted');
    } finally {
      ok.close();
      failing.close();
    }
  });

  test("a watch delivers the events of the collection from the list's resourceVersion", async () => {
    const conn = await LiveConnection.open(await loadKubeconfig({ file: served.kubeconfig }));
    try {
      const list = await conn.list('/api/v1/namespaces/default/configmaps');
      // created after the list: a watch from the list's resourceVersion replays it
      served.cluster.api.create({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'watched', namespace: 'default' },
      });
      const events: WatchEvent[] = [];
      const seen = new Promise<void>((done) => {
        const w = conn.watch(
          '/api/v1/namespaces/default/configmaps',
          list.resourceVersion,
          (e) => {
            events.push(e);
            if (e.type === 'ADDED' && e.object.metadata.name === 'watched') {
              w.stop();
              done();
            }
          },
          (err) => assert.fail(`watch ended: ${String(err)}`),
        );
      });
      await seen;
      assert.ok(events.some((e) => e.type === 'ADDED' && e.object.metadata.name === 'watched'));
    } finally {
      conn.close();
    }
  });

  test('twelve open watches (more than the request pool’s 8 sockets) leave requests answered, and each watch runs', async () => {
    const conn = await LiveConnection.open(await loadKubeconfig({ file: served.kubeconfig }));
    const watches: { stop(): void }[] = [];
    try {
      const namespaces = Array.from({ length: 12 }, (_, i) => `pool-${i}`);
      for (const ns of namespaces)
        served.cluster.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      const list = await conn.list('/api/v1/configmaps');
      const seen = new Set<string>();
      const allSeen = new Promise<void>((done) => {
        for (const ns of namespaces)
          watches.push(
            conn.watch(
              `/api/v1/namespaces/${ns}/configmaps`,
              list.resourceVersion,
              (e) => {
                if (e.type === 'ADDED' && e.object.metadata.name === 'late') seen.add(ns);
                if (seen.size === namespaces.length) done();
              },
              (err) => assert.fail(`watch ended: ${String(err)}`),
            ),
          );
      });
      // with every watch open, a plain request is still answered (it once queued behind them forever)
      const nodes = await conn.list('/api/v1/nodes');
      assert.equal(nodes.items.length, 2);
      for (const ns of namespaces)
        served.cluster.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'late', namespace: ns } });
      await allSeen;
      assert.equal(seen.size, 12, 'the 9th to 12th watches were sent too');
    } finally {
      for (const w of watches) w.stop();
      conn.close();
    }
  });
});
