/**
 * What containers print, read through the kubelet on a virtual clock with
 * fixed delays: sandbox 500 ms + pull 1 s, so a first container starts at
 * 1.5 s; the kubelet notices an exit 1 s later; stops take 300 ms.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod } from 'kubernetes-types/core/v1';
import { isApiError } from '../../../../sandbox/api/errors';
import { BEHAVIOR_ANNOTATION } from '../../../../sandbox/kubelet/behaviors';
import type { PodLogOptions } from '../../../../sandbox/kubelet/kubelet';
import { LOGS_ANNOTATION } from '../../../../sandbox/kubelet/logs/customLogs';
import { newPod, setupKubelet } from '../setup';
import type { KubeletFixture } from '../setup';

/** The log text, or `ERR <message>` for the kubelet's refusal. */
function logs(f: KubeletFixture, pod: string, options: PodLogOptions & { container?: string } = {}): string {
  try {
    return f.kubelet.containerLogs(f.pod(pod)!, options.container ?? 'app', options);
  } catch (e) {
    if (isApiError(e, 400)) return `ERR ${e.message}`;
    throw e;
  }
}

function start(
  f: KubeletFixture,
  name: string,
  container: Partial<Container>,
  annotations?: Record<string, string>,
  spec: Partial<NonNullable<Pod['spec']>> = {},
): void {
  f.create(newPod(name, { containers: [{ name: 'app', image: 'busybox', ...container }], ...spec }, annotations));
  f.h.advance(0);
}

/** `kubectl logs --timestamps` time prefix for a moment `ms` after the fixture's start. */
const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');

describe('lines appear as containers start', () => {
  test('an echoed line, once the container has started', () => {
    const f = setupKubelet();
    start(f, 'hello', { command: ['sh', '-c', 'echo hello; sleep 3600'] });
    assert.equal(logs(f, 'hello'), 'ERR container "app" in pod "hello" is waiting to start: ContainerCreating');
    f.h.advance(1499);
    assert.equal(logs(f, 'hello'), 'ERR container "app" in pod "hello" is waiting to start: ContainerCreating');
    f.h.advance(1);
    assert.equal(logs(f, 'hello', { timestamps: true }), `${at(1500)} hello\n`);
  });

  test("a script prints as it goes; the env and the kubelet's $(VAR) expansion apply", () => {
    const f = setupKubelet();
    const env = [
      { name: 'WHO', value: 'world' },
      { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
    ];
    start(f, 'greet', {
      env,
      command: ['sh', '-c', 'echo "hello $WHO from $POD ($HOSTNAME)"; sleep 5; echo "$(WHO) again"; sleep 3600'],
    });
    f.h.advance(10_000);
    assert.equal(
      logs(f, 'greet', { timestamps: true }),
      `${at(1500)} hello world from greet (greet)\n${at(6500)} world again\n`,
    );
  });

  test('init containers first; a regular container waits PodInitializing meanwhile', () => {
    const f = setupKubelet();
    f.create(
      newPod('init', {
        initContainers: [
          { name: 'setup', image: 'busybox', command: ['sh', '-c', 'echo migrating; sleep 2; echo done'] },
        ],
        containers: [{ name: 'app', image: 'busybox', command: ['sh', '-c', 'echo serving; sleep 3600'] }],
      }),
    );
    f.h.advance(1500);
    assert.equal(logs(f, 'init', { container: 'setup' }), 'migrating\n');
    assert.equal(logs(f, 'init'), 'ERR container "app" in pod "init" is waiting to start: PodInitializing');
    f.h.advance(10_000);
    assert.equal(logs(f, 'init', { container: 'setup' }), 'migrating\ndone\n');
    assert.equal(logs(f, 'init'), 'serving\n');
  });

  test('nginx starts in its own words and logs each readiness probe', () => {
    // The kubelet has run a minute: the probe worker starts when the pod is admitted (1:00) and ticks every 5 s.
    const f = setupKubelet({}, 1, 60_000);
    start(f, 'web', {
      image: 'nginx:1.27',
      readinessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 5 },
    });
    f.h.advance(11_500);
    // Started at 1:01.5: probed at once (the status manager's trigger), then at the ticks 1:05 and 1:10.
    assert.equal(
      logs(f, 'web'),
      [
        '/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration',
        '/docker-entrypoint.sh: Configuration complete; ready for start up',
        '2026/01/01 00:01:01 [notice] 1#1: nginx/1.27.0',
        '2026/01/01 00:01:01 [notice] 1#1: start worker processes',
        ...['01', '05', '10'].map(
          (s) => `10.244.1.1 - - [01/Jan/2026:00:01:${s} +0000] "GET / HTTP/1.1" 200 615 "-" "kube-probe/1.32" "-"`,
        ),
        '',
      ].join('\n'),
    );
  });

  test('nginx answers a path it does not serve with 404: the probe fails, as on a real node', () => {
    const f = setupKubelet({}, 1, 60_000);
    start(f, 'web', {
      image: 'nginx:1.27',
      readinessProbe: { httpGet: { path: '/ready', port: 80 }, periodSeconds: 5 },
    });
    f.h.advance(11_500);
    assert.match(logs(f, 'web'), /"GET \/ready HTTP\/1.1" 404 153 "-" "kube-probe\/1.32" "-"\n$/);
    assert.equal(f.pod('web')!.status!.containerStatuses![0].ready, false);
    assert.deepEqual(
      f.events('web').filter((e) => e.includes('Unhealthy')),
      ['Warning Unhealthy: Readiness probe failed: HTTP probe failed with statuscode: 404'],
    );
  });

  test('an image it does not know: one line naming the image and its behaviour, and the port it listens on', () => {
    const f = setupKubelet();
    start(
      f,
      'api',
      { image: 'example.com/team/api:2.1', ports: [{ containerPort: 8080 }] },
      { [BEHAVIOR_ANNOTATION]: 'crash-after=1m never-ready' },
    );
    f.h.advance(1500);
    assert.equal(
      logs(f, 'api'),
      'time=2026-01-01T00:00:01.500Z level=INFO msg=starting image=example.com/team/api:2.1 container=app sandbox_behavior="exits with code 1 after 1m0s; never ready"\n' +
        'time=2026-01-01T00:00:01.500Z level=INFO msg=listening addr=:8080\n',
    );
  });
});

describe('crashes, restarts and --previous', () => {
  test('crash-after: the fatal line ends the instance; the restarted one starts a new log; --previous reads the old one', () => {
    const f = setupKubelet();
    start(f, 'redis', { image: 'redis:7.4.1' }, { [BEHAVIOR_ANNOTATION]: 'crash-after=10s exit=2' });
    f.h.advance(1500);
    assert.equal(
      logs(f, 'redis', { previous: true }),
      'ERR previous terminated container "app" in pod "redis" not found',
    );
    f.h.advance(10_000);
    const first = [
      '1:C 01 Jan 2026 00:00:01.500 * oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo',
      '1:C 01 Jan 2026 00:00:01.500 * Redis version=7.4.1, bits=64, commit=00000000, modified=0, pid=1, just started',
      '1:M 01 Jan 2026 00:00:01.500 * Running mode=standalone, port=6379.',
      '1:M 01 Jan 2026 00:00:01.500 * Ready to accept connections tcp',
      '1:M 01 Jan 2026 00:00:11.500 # fatal error, exiting with code 2 [crash-after=10s exit=2]',
      '',
    ].join('\n');
    // Terminated, not yet restarted: the current log is the dead instance's.
    assert.equal(logs(f, 'redis'), first);
    f.h.advance(1000);
    assert.equal(f.pod('redis')!.status!.containerStatuses![0].restartCount, 1);
    assert.equal(logs(f, 'redis', { previous: true }), first);
    assert.match(logs(f, 'redis'), /^1:C 01 Jan 2026 00:00:12\.500 \* oO0OoO0OoO0Oo Redis is starting/);
    assert.doesNotMatch(logs(f, 'redis'), /fatal/);
  });

  test("in CrashLoopBackOff, the log is the last crashed instance's; only one previous instance is kept", () => {
    const f = setupKubelet();
    start(f, 'boom', { command: ['sh', '-c', 'echo "run at $(date +%T)"; exit 3'] });
    f.h.advance(20_000);
    const state = f.pod('boom')!.status!.containerStatuses![0];
    assert.equal(state.state?.waiting?.reason, 'CrashLoopBackOff');
    assert.equal(state.restartCount, 2);
    // Runs at 1.5 s, 2.6 s (immediate restart) and 13.7 s (after 10 s of back-off).
    assert.equal(logs(f, 'boom'), 'run at 00:00:13\n');
    assert.equal(logs(f, 'boom', { previous: true }), 'run at 00:00:13\n');
    assert.equal(f.kubelet.containerLogs(f.pod('boom')!, 'app', { tailLines: 5 }), 'run at 00:00:13\n');
  });

  test('the crash action and OOM kills say what happened', () => {
    const f = setupKubelet();
    start(
      f,
      'mem',
      { command: ['sleep', '3600'], resources: { limits: { memory: '64Mi' } } },
      { [BEHAVIOR_ANNOTATION]: 'oom-after=5s' },
    );
    f.h.advance(6500);
    assert.equal(
      logs(f, 'mem'),
      '[sandbox] out of memory: killed by the kernel OOM killer (exit code 137, reason OOMKilled, memory limit 64Mi) [oom-after=5s]\n',
    );
    start(f, 'victim', { image: 'postgres:17', env: [{ name: 'POSTGRES_PASSWORD', value: 'example' }] });
    f.h.advance(2000);
    assert.equal(f.kubelet.crashContainer('default', 'victim'), true);
    assert.match(
      logs(f, 'victim'),
      /\n2026-01-01 00:00:08\.500 UTC \[1\] FATAL: {2}killed by the sandbox crash action \(exit code 137\)\n$/,
    );
  });

  test('a failing liveness probe: the app answers 500, then gets SIGTERM; the restart reads it as previous', () => {
    const f = setupKubelet({}, 1, 60_000);
    const livenessProbe = { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 10, failureThreshold: 2 };
    start(f, 'live', { image: 'example.com/api', livenessProbe }, { [BEHAVIOR_ANNOTATION]: 'liveness-fail-after=20s' });
    // Admitted at 1:00 (ticks 1:00, 1:10…), started 1:01.5, failing from 1:21.5: the ticks at 1:30 and 1:40 fail, the
    // kubelet kills it at 1:40; the image (unknown to the sandbox) stops on SIGTERM 300 ms later; restarted by 1:43.
    f.h.advance(45_000);
    const previous = logs(f, 'live', { previous: true }).split('\n');
    assert.deepEqual(previous.slice(1), [
      'time=2026-01-01T00:01:30.000Z level=WARN msg="GET /healthz 500" remote=10.244.1.1 user_agent=kube-probe/1.32',
      'time=2026-01-01T00:01:40.000Z level=WARN msg="GET /healthz 500" remote=10.244.1.1 user_agent=kube-probe/1.32',
      'time=2026-01-01T00:01:40.000Z level=INFO msg="received SIGTERM, shutting down"',
      'time=2026-01-01T00:01:40.300Z level=INFO msg=stopped',
      '',
    ]);
    assert.equal(f.events('live').filter((e) => e.includes('Killing')).length, 1);
  });

  test('a readiness probe that never passes: 503 on every period', () => {
    const f = setupKubelet({}, 1, 60_000);
    start(
      f,
      'nr',
      { image: 'httpd:2.4', readinessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 10 } },
      { [BEHAVIOR_ANNOTATION]: 'never-ready' },
    );
    f.h.advance(25_000);
    const probes = logs(f, 'nr')
      .split('\n')
      .filter((l) => l.includes('kube-probe') || l.includes('GET'));
    // Probed when it starts (1:01.5), then at the worker's ticks 1:10 and 1:20.
    assert.deepEqual(probes, [
      '10.244.1.1 - - [01/Jan/2026:00:01:01 +0000] "GET / HTTP/1.1" 503 197',
      '10.244.1.1 - - [01/Jan/2026:00:01:10 +0000] "GET / HTTP/1.1" 503 197',
      '10.244.1.1 - - [01/Jan/2026:00:01:20 +0000] "GET / HTTP/1.1" 503 197',
    ]);
  });
});

describe('termination', () => {
  test('SIGTERM on deletion (nginx stops on SIGQUIT), the exit line, then the stream ends and the logs go with the pod', () => {
    const f = setupKubelet();
    start(f, 'web', { image: 'nginx:1.27' });
    f.h.advance(5000);
    const got: string[] = [];
    const pod = f.pod('web')!;
    f.kubelet.followContainerLogs(
      pod,
      'app',
      { tailLines: 0, timestamps: true },
      (t) => got.push(t),
      () => got.push('<end>'),
    );
    f.h.api.delete('pods', 'default', 'web');
    f.h.advance(5000);
    assert.deepEqual(got, [
      `${at(5000)} 2026/01/01 00:00:05 [notice] 1#1: signal 3 (SIGQUIT) received, shutting down\n`,
      `${at(5300)} 2026/01/01 00:00:05 [notice] 1#1: exit\n`,
      '<end>',
    ]);
    assert.equal(f.pod('web'), undefined);
    assert.equal(logs({ ...f, pod: () => pod }, 'web'), '');
  });

  test('ignore-sigterm: said once, then SIGKILL at the end of the grace period prints nothing', () => {
    const f = setupKubelet();
    start(
      f,
      'stubborn',
      { command: ['sh', '-c', 'while true; do echo tick; sleep 1; done'] },
      { [BEHAVIOR_ANNOTATION]: 'ignore-sigterm' },
      { terminationGracePeriodSeconds: 3 },
    );
    f.h.advance(2000);
    const got: string[] = [];
    f.kubelet.followContainerLogs(
      f.pod('stubborn')!,
      'app',
      { tailLines: 0 },
      (t) => got.push(t),
      () => got.push('<end>'),
    );
    f.h.api.delete('pods', 'default', 'stubborn');
    f.h.advance(5000);
    assert.deepEqual(got, [
      '[sandbox] SIGTERM ignored (ignore-sigterm): the kubelet kills the container when the grace period ends\n',
      'tick\n',
      'tick\n',
      'tick\n',
      '<end>',
    ]);
  });

  test('a stopped kubelet ends every follow', () => {
    const f = setupKubelet();
    start(f, 'loop', { command: ['sh', '-c', 'while true; do echo tick; sleep 1; done'] });
    f.h.advance(2000);
    const got: string[] = [];
    f.kubelet.followContainerLogs(
      f.pod('loop')!,
      'app',
      {},
      (t) => got.push(t),
      () => got.push('<end>'),
    );
    f.kubelet.stop();
    f.h.advance(3000);
    assert.deepEqual(got, ['tick\n', '<end>']);
  });
});

describe('image pull failures', () => {
  test('ErrImagePull, then ImagePullBackOff', () => {
    const f = setupKubelet();
    start(f, 'bad', { image: 'nginx:missing' });
    f.h.advance(1500);
    assert.equal(logs(f, 'bad'), 'ERR container "app" in pod "bad" is waiting to start: image can\'t be pulled');
    f.h.advance(1000);
    assert.equal(
      logs(f, 'bad'),
      'ERR container "app" in pod "bad" is waiting to start: trying and failing to pull image',
    );
  });
});

describe('custom lines: the logs annotation', () => {
  test('at start, later, and periodically; the container annotation replaces the pod-wide one', () => {
    const f = setupKubelet();
    f.create(
      newPod(
        'custom',
        {
          containers: [
            { name: 'app', image: 'example.com/app' },
            { name: 'side', image: 'example.com/side' },
          ],
        },
        {
          [LOGS_ANNOTATION]: 'connected to db\n@5s cache warm\n@every 4s heartbeat\n@@home',
          [`${LOGS_ANNOTATION}.side`]: 'side only',
        },
      ),
    );
    f.h.advance(10_000);
    assert.deepEqual(logs(f, 'custom').split('\n').slice(1), [
      'connected to db',
      '@home',
      'heartbeat',
      'cache warm',
      'heartbeat',
      '',
    ]);
    assert.deepEqual(logs(f, 'custom', { container: 'side' }).split('\n').slice(1), ['side only', '']);
  });

  test('a bad time is an InvalidBehavior event; the good lines still print', () => {
    const f = setupKubelet();
    start(f, 'oops', { command: ['sleep', '60'] }, { [LOGS_ANNOTATION]: 'fine\n@soon nope\n@every 0s never' });
    f.h.advance(1500);
    assert.equal(logs(f, 'oops'), 'fine\n');
    assert.deepEqual(
      f.events('oops').filter((e) => e.includes('InvalidBehavior')),
      [
        `Warning InvalidBehavior: ${LOGS_ANNOTATION}: invalid time "soon" in "@soon nope" (use e.g. @30s, @every 1m, or @@ for a line starting with @); ${LOGS_ANNOTATION}: invalid period "0s" in "@every 0s never" (use e.g. @every 30s)`,
      ],
    );
  });
});
