/**
 * `kube-reconcile serve`, in-process on real sockets: the kubeconfig it
 * writes, the API answering with and without the token, --state saved and
 * restored, and the ways it refuses to start. Each run is stopped through an
 * AbortSignal; the tests wait for the listening callback, never for time.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { MAIN_HELP } from '../../cli/main';
import { MAX_SPEED, SERVE_HELP, runServe } from '../../cli/serve';
import type { ServeListening } from '../../cli/serve';
import { exportKubeconfig, renderKubeconfig } from '../../sandbox/http/kubeconfig';
import { call } from './apiCall';
import type { ApiAnswer } from './apiCall';
import { WEB_DEPLOYMENT, cliFixture, lines } from './cliFixture';
import type { CliFixture } from './cliFixture';

const WEB = WEB_DEPLOYMENT;

const FILES: Record<string, string> = {
  'app/web.yaml': WEB,
  'app/config.yaml': lines('apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: fine'),
  'bad/typo.yaml': lines(
    'apiVersion: v1',
    'kind: Pod',
    'metadata:',
    '  name: typo',
    'spec:',
    '  containers:',
    '    - name: web',
    '      image: nginx',
    '      poarts:',
    '        - containerPort: 80',
  ),
  'bad/rejected.yaml': lines(
    'apiVersion: v1',
    'kind: Service',
    'metadata:',
    '  name: Not_Valid',
    'spec:',
    '  ports: [{port: 80}]',
  ),
};

interface Served {
  listening: ServeListening;
  stdout: () => string;
  stderr: () => string;
  /** Stops the server; resolves with the exit code. */
  stop(): Promise<number>;
}

let fixture: CliFixture;
let home: string;

before(async () => {
  fixture = await cliFixture('kube-reconcile-serve-', FILES);
  home = await mkdtemp(join(tmpdir(), 'kube-reconcile-home-'));
});
after(async () => {
  await fixture.dispose();
  await rm(home, { recursive: true, force: true });
});

/** Runs `serve` with `args` until stopped; rejects if it exits before listening. */
function serve(...args: string[]): Promise<Served> {
  let out = '';
  let err = '';
  const io = {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    cwd: fixture.dir,
  };
  const controller = new AbortController();
  return new Promise((resolve, reject) => {
    const done = runServe(args, io, {
      stop: controller.signal,
      home,
      onListening: (listening) =>
        resolve({
          listening,
          stdout: () => out,
          stderr: () => err,
          stop: () => {
            controller.abort();
            return done;
          },
        }),
    });
    done.then(
      (code) => reject(new Error(`serve exited with ${code} before listening: ${err}`)),
      (e: unknown) => reject(e instanceof Error ? e : new Error(String(e))),
    );
  });
}

/** Runs `serve` expecting it to fail at start. */
async function serveFails(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    cwd: fixture.dir,
  };
  const code = await runServe(args, io, {
    stop: AbortSignal.abort(),
    home,
    onListening: () => assert.fail('serve should not have started'),
  });
  return { code, stdout, stderr };
}

const get = (s: Served, path: string, token?: string): Promise<ApiAnswer> =>
  call(`${s.listening.url}${path}`, { token });

describe('kube-reconcile serve', () => {
  test('applies the files, writes a private kubeconfig, and serves the API to the token only', async () => {
    const s = await serve('app', '--port', '0');
    try {
      const file = join(home, '.kube', 'kube-reconcile.yaml');
      assert.equal(s.listening.kubeconfig, file);
      assert.equal((await stat(file)).mode & 0o777, 0o600);
      assert.equal((await stat(join(home, '.kube'))).mode & 0o777, 0o700);
      const kubeconfig = await readFile(file, 'utf8');
      assert.match(kubeconfig, /^current-context: "kube-reconcile"$/m);
      assert.ok(kubeconfig.includes(`server: "${s.listening.url}"`), kubeconfig);
      assert.ok(kubeconfig.includes(`token: "${s.listening.token}"`), kubeconfig);
      assert.match(s.listening.url, /^https:\/\/127\.0\.0\.1:\d+$/);
      const ca = Buffer.from(/certificate-authority-data: "([^"]+)"/.exec(kubeconfig)![1], 'base64').toString('utf8');
      assert.match(ca, /^-----BEGIN CERTIFICATE-----\n/);
      const verified = await call(`${s.listening.url}/version`, { token: s.listening.token, ca });
      assert.equal(verified.status, 200, 'the server verifies against the certificate in the kubeconfig');

      assert.ok(s.stdout().includes('configmap/fine created\n'), s.stdout());
      assert.ok(s.stdout().includes('deployment.apps/web created\n'), s.stdout());
      assert.equal(s.stderr(), '');
      assert.ok(s.stdout().includes(`Serving the Kubernetes API of the sandbox at ${s.listening.url}`), s.stdout());
      assert.ok(s.stdout().includes(`export KUBECONFIG=${file}\n  kubectl get pods -A`), s.stdout());

      const ok = await get(s, '/version', s.listening.token);
      assert.equal(ok.status, 200);
      assert.equal(typeof (JSON.parse(ok.body) as { gitVersion?: unknown }).gitVersion, 'string');
      assert.equal((await get(s, '/version')).status, 401);
      assert.equal((await get(s, '/version', `${s.listening.token}x`)).status, 401);
      const deployments = await get(s, '/apis/apps/v1/namespaces/default/deployments/web', s.listening.token);
      assert.equal(deployments.status, 200);
    } finally {
      assert.equal(await s.stop(), 0);
    }
    assert.ok(s.stdout().endsWith('Stopping…\n'), s.stdout());
    assert.equal(
      await call(`${s.listening.url}/version`).then(
        () => 'answered',
        () => 'refused',
      ),
      'refused',
    );
  });

  test('a manifest the API server refuses stops serve from starting, with file:line of the field; exit 1', async () => {
    const r = await serveFails('app', 'bad', '--port', '0');
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      lines(
        "bad/rejected.yaml:4: Service \"Not_Valid\" is invalid: metadata.name: Invalid value: \"Not_Valid\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
        'bad/typo.yaml:9: Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].poarts"',
        'kube-reconcile serve: 2 manifests were not applied (see above); fix them and start again',
      ),
    );
    assert.ok(r.stdout.includes('deployment.apps/web created\n'), r.stdout);
    assert.ok(!r.stdout.includes('Serving'), r.stdout);
  });

  test('--state saves on exit (atomically, 0600) and restores what was created over HTTP', async () => {
    const state = join(fixture.dir, 'state', 'cluster.json');
    const kubeconfig = join(fixture.dir, 'kc.yaml');
    const first = await serve('--state', state, '--kubeconfig', kubeconfig, '--nodes', '1');
    try {
      assert.ok(first.stdout().includes(`State: a fresh cluster, saved on exit to ${state}`), first.stdout());
      const created = await call(`${first.listening.url}/api/v1/namespaces/default/configmaps`, {
        method: 'POST',
        token: first.listening.token,
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept' }, data: { answer: '42' } },
      });
      assert.equal(created.status, 201, created.body);
    } finally {
      assert.equal(await first.stop(), 0);
    }
    assert.match(first.stdout(), /Saved \d+ objects to /);
    assert.equal((await stat(state)).mode & 0o777, 0o600);
    const saved = JSON.parse(await readFile(state, 'utf8')) as {
      kind: string;
      objects: { kind: string; metadata: { name: string } }[];
    };
    assert.equal(saved.kind, 'Snapshot');
    assert.ok(saved.objects.some((o) => o.kind === 'ConfigMap' && o.metadata.name === 'kept'));

    const second = await serve('--state', state, '--kubeconfig', kubeconfig, '--nodes', '1');
    try {
      assert.ok(second.stdout().includes(`State: restored from ${state}`), second.stdout());
      assert.notEqual(second.listening.token, first.listening.token, 'each run has a new token');
      const back = await get(second, '/api/v1/namespaces/default/configmaps/kept', second.listening.token);
      assert.equal(back.status, 200);
      assert.deepEqual((JSON.parse(back.body) as { data: unknown }).data, { answer: '42' });
    } finally {
      assert.equal(await second.stop(), 0);
    }
  });

  test('a --state file that is not a snapshot is refused clearly and left as it was', async () => {
    for (const [name, text] of [
      ['garbage.json', 'this is { not json'],
      ['other.json', JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [] })],
    ]) {
      const file = join(fixture.dir, name);
      await writeFile(file, text);
      const r = await serveFails('--state', file, '--kubeconfig', join(fixture.dir, 'never.yaml'));
      assert.equal(r.code, 1);
      assert.ok(r.stderr.startsWith(`kube-reconcile serve: cannot restore --state ${file}: `), r.stderr);
      assert.ok(r.stderr.includes('The file was left unchanged.'), r.stderr);
      assert.equal(await readFile(file, 'utf8'), text);
    }
    assert.equal(
      await stat(join(fixture.dir, 'never.yaml')).then(
        () => 'written',
        () => 'absent',
      ),
      'absent',
    );
  });

  test('a port in use stops it with a clear message and exit code 1', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const r = await serveFails('--port', String(port), '--kubeconfig', join(fixture.dir, 'in-use.yaml'));
      assert.equal(r.code, 1);
      assert.equal(
        r.stderr,
        `kube-reconcile serve: port ${port} on 127.0.0.1 is already in use; choose another with --port, or --port 0 for a free one\n`,
      );
      assert.equal(
        await stat(join(fixture.dir, 'in-use.yaml')).then(
          () => 'written',
          () => 'absent',
        ),
        'absent',
      );
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  test('--help, the main help, and usage mistakes', async () => {
    const help = await fixture.run('serve', '--help');
    assert.equal(help.code, 0);
    assert.equal(help.stdout, SERVE_HELP);
    for (const option of [
      '--port P',
      '--kubeconfig FILE',
      '--state FILE',
      '--nodes N',
      '--seed S',
      '--speed X',
      `at most ${MAX_SPEED}`,
      'export KUBECONFIG=~/.kube/kube-reconcile.yaml',
    ]) {
      assert.ok(SERVE_HELP.includes(option), option);
    }
    assert.ok(MAIN_HELP.includes('serve [files or folders...]'));
    assert.ok(!MAIN_HELP.includes('Not available yet'));

    const fast = await fixture.run('serve', '--speed', String(MAX_SPEED * 2));
    assert.equal(fast.code, 2);
    assert.match(
      fast.stderr,
      new RegExp(`--speed needs a number above 0 and at most ${MAX_SPEED}, got "${MAX_SPEED * 2}"`),
    );
    const port = await fixture.run('serve', '--port', '70000');
    assert.equal(port.code, 2);
    assert.match(port.stderr, /--port needs a whole number from 0 to 65535/);
    const theirs = await fixture.run('serve', '--kubeconfig', join(homedir(), '.kube', 'config'));
    assert.equal(theirs.code, 2);
    assert.match(theirs.stderr, /--kubeconfig must not be ~\/\.kube\/config/);
  });
});

describe('renderKubeconfig', () => {
  test('one cluster, user and context, all named kube-reconcile, selected as current', () => {
    assert.deepEqual(parse(renderKubeconfig({ server: 'http://127.0.0.1:8080', token: 'abc_-123' })), {
      apiVersion: 'v1',
      kind: 'Config',
      preferences: {},
      clusters: [{ name: 'kube-reconcile', cluster: { server: 'http://127.0.0.1:8080' } }],
      users: [{ name: 'kube-reconcile', user: { token: 'abc_-123' } }],
      contexts: [{ name: 'kube-reconcile', context: { cluster: 'kube-reconcile', user: 'kube-reconcile' } }],
      'current-context': 'kube-reconcile',
    });
  });

  test('a context name and namespace of any text survive as given', () => {
    const text = renderKubeconfig({
      server: 'http://127.0.0.1:1',
      token: 't',
      context: 'my: "ctx" #1',
      namespace: 'team-a',
    });
    const config = parse(text) as {
      contexts: { name: string; context: { namespace?: string; cluster: string } }[];
      'current-context': string;
    };
    assert.deepEqual(config.contexts, [
      { name: 'my: "ctx" #1', context: { cluster: 'my: "ctx" #1', user: 'my: "ctx" #1', namespace: 'team-a' } },
    ]);
    assert.equal(config['current-context'], 'my: "ctx" #1');
  });

  test('an https server is trusted through its certificate when given, else without verification', () => {
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    const withCa = parse(
      renderKubeconfig({ server: 'https://127.0.0.1:1', token: 't', certificateAuthority: pem }),
    ) as { clusters: { cluster: Record<string, unknown> }[] };
    assert.deepEqual(withCa.clusters[0].cluster, {
      server: 'https://127.0.0.1:1',
      'certificate-authority-data': Buffer.from(pem).toString('base64'),
    });
    const without = parse(renderKubeconfig({ server: 'https://127.0.0.1:1', token: 't' })) as {
      clusters: { cluster: Record<string, unknown> }[];
    };
    assert.deepEqual(without.clusters[0].cluster, { server: 'https://127.0.0.1:1', 'insecure-skip-tls-verify': true });
  });

  test('the export line quotes a path the shell would split', () => {
    assert.equal(
      exportKubeconfig('/home/me/.kube/kube-reconcile.yaml'),
      'export KUBECONFIG=/home/me/.kube/kube-reconcile.yaml',
    );
    assert.equal(
      exportKubeconfig('/Users/me/Library/Application Support/k.yaml'),
      "export KUBECONFIG='/Users/me/Library/Application Support/k.yaml'",
    );
  });
});
