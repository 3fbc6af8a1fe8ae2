/**
 * Programs finish — or run until stopped — as they would on a real node
 * (docs/behaviors.md, "The image and the command"). A kubelet with fixed
 * delays: sandbox 0.5 s, pull 1 s (so a first container starts at 1.5 s), a
 * command that returns at once 100 ms, an interpreter's start 500 ms, a
 * program the sandbox does not know, run as batch work, 5 s.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod } from 'kubernetes-types/core/v1';
import type { KubeObject } from '../../../sandbox/api/types';
import { piDigits } from '../../../sandbox/kubelet/container/pi';
import { newPod, setupKubelet } from './setup';
import { timeline } from './timeline';

type RestartPolicy = NonNullable<Pod['spec']>['restartPolicy'];

/**
 * Runs one container for an hour: its first instance's end — [exit code, reason, ms it ran, from the status changes]
 * — or 'running', its log, and its restarts.
 */
function runOne(c: Partial<Container>, restartPolicy: RestartPolicy = 'Never') {
  const f = setupKubelet();
  const steps = timeline(f, 'p');
  f.create(newPod('p', { restartPolicy, containers: [{ name: 'app', image: 'busybox:1.36', ...c }] }));
  f.h.advance(3_600_000);
  const cs = f.pod('p')!.status!.containerStatuses![0];
  const started = steps.find((s) => s.containers === 'running')?.at;
  const ended = steps.find((s) => s.containers.startsWith('terminated'));
  const t = cs.state?.terminated ?? cs.lastState?.terminated;
  const log = f.kubelet.containerLogs(f.pod('p')!, 'app', cs.state?.running ? {} : { previous: !cs.state?.terminated });
  return {
    end:
      ended === undefined || started === undefined
        ? ('running' as const)
        : ([t!.exitCode, t!.reason!, ended.at - started] as [number, string, number]),
    log,
    restarts: cs.restartCount ?? 0,
  };
}

describe('one-shot programs exit after a documented time', () => {
  const cases: [string, Partial<Container>, [number, string, number], string][] = [
    ['echo', { command: ['echo', 'hello'] }, [0, 'Completed', 100], 'hello\n'],
    ['sh -c echo', { command: ['sh', '-c', 'echo hi'] }, [0, 'Completed', 100], 'hi\n'],
    ['date', { command: ['date', '+%H:%M:%S'] }, [0, 'Completed', 100], '00:00:01\n'],
    ['rev with no input', { command: ['rev'] }, [0, 'Completed', 100], ''],
    ['cat of a file the kubelet writes', { command: ['cat', '/etc/hostname'] }, [0, 'Completed', 100], 'p\n'],
    [
      'cat of a missing file: exit 1, busybox words',
      { command: ['cat', '/missing'] },
      [1, 'Error', 100],
      "cat: can't open '/missing': No such file or directory\n",
    ],
    ['exit N', { command: ['sh', '-c', 'echo bye; exit 7'] }, [7, 'Error', 100], 'bye\n'],
    ['sleeps add up', { command: ['sh', '-c', 'sleep 2; echo done; sleep 1.5'] }, [0, 'Completed', 3500], 'done\n'],
    [
      'perl -Mbignum=bpi: π to 2000 digits, 500 ms to start + 2000²/1000 ms of work',
      { image: 'perl:5.40', command: ['perl', '-Mbignum=bpi', '-wle', 'print bpi(2000)'] },
      [0, 'Completed', 4500],
      `${piDigits(2000)}\n`,
    ],
    [
      'python -c: its prints (at the end: stdout is a pipe, buffered), its sleeps',
      { image: 'python:3.12', command: ['python', '-c', 'import time; print("hello"); time.sleep(2); print("bye")'] },
      [0, 'Completed', 2500],
      'hello\nbye\n',
    ],
    [
      'node -e',
      { image: 'node:22', command: ['node', '-e', 'console.log("hi from node")'] },
      [0, 'Completed', 500],
      'hi from node\n',
    ],
    [
      'ruby -e with exit',
      { image: 'ruby:3.3', command: ['ruby', '-e', 'puts "hi"; exit 3'] },
      [3, 'Error', 500],
      'hi\n',
    ],
    [
      'a script from a ConfigMap-like file is read the same way',
      { command: ['sh', '-c', 'echo \'print("from file")\' > /tmp/job.py; python3 /tmp/job.py'], image: 'python:3.12' },
      [0, 'Completed', 500],
      'from file\n',
    ],
  ];
  for (const [name, c, end, log] of cases) {
    test(name, () => {
      const r = runOne(c);
      assert.deepEqual([r.end, r.log], [end, log]);
    });
  }

  test('a program the sandbox does not know is batch work in a pod that does not restart: 5 s, exit 0', () => {
    const r = runOne({ image: 'example.com/etl:1.0' });
    assert.deepEqual(r.end, [0, 'Completed', 5000]);
    assert.equal(
      r.log,
      'time=2026-01-01T00:00:01.500Z level=INFO msg=starting image=example.com/etl:1.0 container=app sandbox_behavior="runs as batch work: exits 0 after 5s"\n' +
        'time=2026-01-01T00:00:06.500Z level=INFO msg="finished, exiting with code 0"\n',
    );
  });
});

describe('what runs until stopped', () => {
  const forever: [string, Partial<Container>][] = [
    ['sleep infinity', { command: ['sleep', 'infinity'] }],
    ['tail -f', { command: ['tail', '-f', '/dev/null'] }],
    ['an endless loop', { command: ['sh', '-c', 'while true; do sleep 5; done'] }],
    ['nginx', { image: 'nginx:1.27' }],
    ['redis', { image: 'redis:7.4' }],
    ['a program the sandbox does not know, in a pod that restarts', { image: 'example.com/api:1.0' }],
  ];
  for (const [name, c] of forever) {
    test(name, () => assert.equal(runOne(c, 'Always').end, 'running'));
  }

  test('a shell image with no command exits at once (no terminal): CrashLoopBackOff under a Deployment', () => {
    const r = runOne({}, 'Always');
    assert.ok(r.restarts >= 5);
    const py = runOne({ image: 'python:3.12' }, 'Always');
    assert.ok(py.restarts >= 5, 'the python image runs its REPL, which reads an empty stdin and exits');
  });
});

describe('images that check their configuration', () => {
  test("postgres without POSTGRES_PASSWORD exits 1 with its entrypoint's message; with it, it serves", () => {
    const r = runOne({ image: 'postgres:17' });
    assert.deepEqual(r.end, [1, 'Error', 100]);
    assert.match(
      r.log,
      /^Error: Database is uninitialized and superuser password is not specified\.\n {7}You must specify POSTGRES_PASSWORD/,
    );
    const ok = runOne({ image: 'postgres:17', env: [{ name: 'POSTGRES_PASSWORD', value: 'x' }] }, 'Always');
    assert.equal(ok.end, 'running');
    assert.match(ok.log, /database system is ready to accept connections/);
  });

  test("mysql without a root password option exits 1 with its entrypoint's message", () => {
    const r = runOne({ image: 'mysql:8.0' });
    assert.deepEqual(r.end, [1, 'Error', 100]);
    assert.deepEqual(r.log.split('\n').slice(3), [
      '2026-01-01 00:00:01+00:00 [ERROR] [Entrypoint]: Database is uninitialized and password option is not specified',
      '    You need to specify one of the following as an environment variable:',
      '    - MYSQL_ROOT_PASSWORD',
      '    - MYSQL_ALLOW_EMPTY_PASSWORD',
      '    - MYSQL_RANDOM_ROOT_PASSWORD',
      '',
    ]);
  });
});

describe('exec probes run in the container', () => {
  test('pg_isready, redis-cli ping and curl to the container itself answer as the servers would', () => {
    const f = setupKubelet({}, 1, 60_000);
    f.create(
      newPod('p', {
        containers: [
          { name: 'app', image: 'nginx:1.27' },
          { name: 'db', image: 'redis:7.4' },
        ],
      }),
    );
    f.h.advance(10_000);
    const exec = (c: string, argv: string[]) => f.kubelet.exec(f.pod('p')!, c, argv);
    assert.deepEqual(exec('db', ['redis-cli', 'ping']), { stdout: 'PONG\n', stderr: '', exitCode: 0 });
    assert.deepEqual(exec('app', ['curl', '-f', 'http://localhost/']), { stdout: '', stderr: '', exitCode: 0 });
    assert.deepEqual(exec('app', ['curl', '-f', 'http://localhost/healthz']), {
      stdout: '',
      stderr: 'curl: (22) The requested URL returned error: 404\n',
      exitCode: 22,
    });
  });
});

describe('static web servers (one object each, issue 16) answer as before', () => {
  test('nginx and httpd: their index pages, files written into the document root, and 404 for the rest', () => {
    const f = setupKubelet({}, 1, 60_000);
    f.create(newPod('web', { containers: [{ name: 'web', image: 'nginx:1.27' }] }));
    f.create(newPod('apache', { containers: [{ name: 'apache', image: 'httpd:2.4' }] }));
    f.h.advance(10_000);
    const exec = (c: string, argv: string[]) => f.kubelet.exec(f.pod(c)!, c, argv);
    const curl = (c: string, port: number, path: string) =>
      exec(c, ['curl', '-f', '-s', `http://localhost:${port}${path}`]).exitCode;
    assert.deepEqual(
      ['/', '/index.html', '/50x.html', '/?q=1', '/missing.html', '/sub/'].map((p) => curl('web', 80, p)),
      [0, 0, 0, 0, 22, 22],
    );
    assert.deepEqual(
      ['/', '/index.html', '/50x.html'].map((p) => curl('apache', 80, p)),
      [0, 0, 22],
    );
    assert.equal(
      exec('web', ['sh', '-c', 'mkdir -p /usr/share/nginx/html/sub && echo hi > /usr/share/nginx/html/sub/index.html'])
        .exitCode,
      0,
    );
    assert.deepEqual(
      ['/sub/', '/sub/index.html', '/sub/x'].map((p) => curl('web', 80, p)),
      [0, 0, 22],
    );
  });
});

describe('the cluster DNS', () => {
  test('a name resolves once its Service exists; a script waiting on it goes on then', () => {
    const f = setupKubelet();
    const steps = timeline(f, 'p');
    f.create(
      newPod('p', {
        restartPolicy: 'Never',
        containers: [
          {
            name: 'app',
            image: 'busybox:1.36',
            command: [
              'sh',
              '-c',
              'until wget -q -O- http://db:5432; do sleep 5; done; getent hosts db; host example.com',
            ],
          },
        ],
      }),
    );
    f.h.advance(12_000);
    assert.equal(
      f.kubelet.containerLogs(f.pod('p')!, 'app', {}),
      "wget: bad address 'db'\nwget: bad address 'db'\nwget: bad address 'db'\n",
      'tried at 1.5, 6.6 and 11.7 s (each try takes 100 ms, then a 5 s sleep)',
    );
    f.h.api.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'db', namespace: 'default' },
      spec: { selector: { app: 'db' }, ports: [{ port: 5432 }] },
    } as unknown as KubeObject);
    const ip = (f.h.api.get('services', 'default', 'db') as unknown as { spec: { clusterIP: string } }).spec.clusterIP;
    f.h.advance(10_000);
    // Created at 12 s: the try at 16.8 s resolves (100 ms); the lookups are instant; it exits 0 at 16.9 s.
    const log = f.kubelet.containerLogs(f.pod('p')!, 'app', {}).split('\n');
    assert.deepEqual(log.slice(3), [
      `${ip.padEnd(15)} db.default.svc.cluster.local`,
      /^example\.com has address 203\.0\.113\.\d+$/.exec(log[4])?.[0],
      '',
    ]);
    assert.deepEqual(steps.at(-1)!.containers, 'terminated:Completed:0');
    assert.equal(steps.at(-1)!.at, 16_900);
  });
});
