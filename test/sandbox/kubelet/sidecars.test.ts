/**
 * Sidecar containers (init containers with `restartPolicy: Always`, KEP-753,
 * on by default in 1.29–1.32) as kuberuntime's computeInitContainerActions
 * runs them, on a kubelet with fixed delays: sandbox 0.5 s, a pull 1 s, a
 * command that returns at once 100 ms, a stop 300 ms, an exit noticed 1 s
 * later. Every expected time is worked out in a comment from those numbers.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container } from 'kubernetes-types/core/v1';
import { BEHAVIOR_ANNOTATION } from '../../../sandbox/kubelet/behaviors';
import { newPod, setupKubelet } from './setup';
import { kubectlWatch, timeline } from './timeline';

const busybox = (name: string, script: string, extra: Partial<Container> = {}): Container => ({
  name,
  image: 'busybox:1.36',
  command: ['sh', '-c', script],
  ...extra,
});
const sidecar = (c: Container): Container => ({ ...c, restartPolicy: 'Always' });

describe('start order', () => {
  test('init containers in order; a sidecar lets the next one start once it has started; the app last', () => {
    const f = setupKubelet();
    const steps = timeline(f, 'web');
    f.create(
      newPod('web', {
        initContainers: [
          busybox('migrate', 'echo migrating; sleep 3'),
          sidecar(busybox('logshipper', 'tail -F /var/log/app.log')),
          busybox('setup', 'sleep 2'),
        ],
        containers: [{ name: 'app', image: 'nginx:1.27' }],
      }),
    );
    f.h.advance(20_000);
    // 0.5 s sandbox; migrate: busybox pulled by 1.5 s, runs 3 s → exits 4.5 s. logshipper (busybox present) starts at
    // 4.5 s and, with no startup probe, is started at once: setup starts at 4.5 s too, sleeps 2 s → 6.5 s. The app
    // (nginx pulled in 1 s) starts at 7.5 s. READY counts the started sidecar from 4.5 s.
    assert.deepEqual(kubectlWatch(steps), [
      [0, '0/2 Init:0/3 0'],
      [4500, '1/2 Init:2/3 0'],
      [6500, '1/2 PodInitializing 0'],
      [7500, '2/2 Running 0'],
    ]);
    assert.deepEqual(
      steps.filter((s) => s.at === 7500).map((s) => [s.phase, s.inits, s.containers, s.ready]),
      [['Running', 'terminated:Completed:0,running,terminated:Completed:0', 'running', 'True']],
    );
    const conditions = f.pod('web')!.status!.conditions!.map((c) => `${c.type}=${c.status}`);
    assert.deepEqual(conditions, [
      'PodReadyToStartContainers=True',
      'Initialized=True',
      'Ready=True',
      'ContainersReady=True',
      'PodScheduled=True',
    ]);
    assert.deepEqual(
      f.events('web').filter((e) => e.includes('Started')),
      [
        'Normal Started: Started container migrate',
        'Normal Started: Started container logshipper',
        'Normal Started: Started container setup',
        'Normal Started: Started container app',
      ],
    );
  });

  test('a sidecar with a startup probe holds the next container until the probe passes', () => {
    const f = setupKubelet({}, 1, 60_000);
    const steps = timeline(f, 'web');
    f.create(
      newPod('web', {
        initContainers: [
          sidecar({
            name: 'proxy',
            image: 'nginx:1.27',
            startupProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 5 },
          }),
        ],
        containers: [busybox('app', 'sleep 3600')],
      }),
    );
    f.h.advance(20_000);
    // The startup probe's worker starts with the pod (0 s) and ticks every 5 s. nginx starts at 1.5 s; the tick at 5 s
    // is the first after it: 200, started — only then does the app start (busybox pulled in 1 s: 6 s).
    assert.deepEqual(kubectlWatch(steps), [
      [0, '0/2 Init:0/1 0'],
      [5000, '1/2 PodInitializing 0'],
      [6000, '2/2 Running 0'],
    ]);
    const proxy = f.pod('web')!.status!.initContainerStatuses![0];
    assert.deepEqual([proxy.started, proxy.ready], [true, true]);
  });
});

describe('restarts', () => {
  test('a sidecar restarts on exit, with back-off, even under restartPolicy Never; the app keeps running', () => {
    const f = setupKubelet();
    const steps = timeline(f, 'web');
    f.create(
      newPod('web', {
        restartPolicy: 'Never',
        initContainers: [sidecar(busybox('agent', 'sleep 10; exit 1'))],
        containers: [{ name: 'app', image: 'nginx:1.27' }],
      }),
    );
    f.h.advance(60_000);
    // agent starts at 1.5 s, the app at 2.5 s. agent exits 1 at 11.5 s (Error), is restarted 1 s later (12.5 s: the
    // first restart has no back-off), exits again at 22.5 s, and waits in CrashLoopBackOff until 32.5 s (10 s from the
    // exit), exits at 42.5 s, waits 20 s… The pod stays Running: the app is unaffected. kubectl's STATUS shows the
    // sidecar's state ("Init:Error", "Init:CrashLoopBackOff"), as printPod does for an init container that is not
    // started, even though the pod is initialized; READY counts the app.
    const agent = steps.map((s) => [s.at, s.inits, s.kubectl]);
    assert.deepEqual(agent.slice(0, 9), [
      [0, 'PodInitializing', '0/2 Init:0/1 0'],
      [500, 'PodInitializing', '0/2 Init:0/1 0'],
      [1500, 'running', '1/2 PodInitializing 0'],
      [2500, 'running', '2/2 Running 0'],
      [11_500, 'terminated:Error:1', '1/2 Init:Error 0'],
      [12_500, 'running', '2/2 Running 1'],
      [22_500, 'terminated:Error:1', '1/2 Init:Error 1'],
      [23_500, 'CrashLoopBackOff', '1/2 Init:CrashLoopBackOff 1'],
      [32_500, 'running', '2/2 Running 2'],
    ]);
    assert.ok(steps.every((s) => s.phase !== 'Failed' && s.phase !== 'Succeeded'));
    assert.equal(f.pod('web')!.status!.containerStatuses![0].restartCount, 0);
  });

  test('a sidecar\'s failing liveness probe restarts it ("Init container … failed liveness probe")', () => {
    const f = setupKubelet({}, 1, 60_000);
    f.create(
      newPod(
        'web',
        {
          initContainers: [
            sidecar({
              name: 'proxy',
              image: 'nginx:1.27',
              livenessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 10, failureThreshold: 1 },
            }),
          ],
          containers: [busybox('app', 'sleep 3600')],
        },
        { [`${BEHAVIOR_ANNOTATION}.proxy`]: 'liveness-fail-after=15s' },
      ),
    );
    f.h.advance(35_000);
    // proxy starts at 1.5 s; its liveness fails from 16.5 s: the tick at 20 s fails (failureThreshold 1), the kubelet
    // kills it; nginx stops 300 ms later (exit 0) and is restarted 1 s after that (21.3 s: its next failure would be at
    // the tick at 40 s).
    assert.deepEqual(
      f.events('web').filter((e) => e.includes('Killing') || e.includes('Unhealthy')),
      [
        'Warning Unhealthy: Liveness probe failed: HTTP probe failed with statuscode: 500',
        'Normal Killing: Init container proxy failed liveness probe',
      ],
    );
    const proxy = f.pod('web')!.status!.initContainerStatuses![0];
    assert.deepEqual([proxy.restartCount, proxy.lastState?.terminated?.exitCode, !!proxy.state?.running], [1, 0, true]);
  });

  test("a sidecar's readiness counts in READY and in the pod's Ready condition", () => {
    const f = setupKubelet({}, 1, 60_000);
    f.create(
      newPod(
        'web',
        {
          initContainers: [
            sidecar({ name: 'proxy', image: 'nginx:1.27', readinessProbe: { httpGet: { path: '/', port: 80 } } }),
          ],
          containers: [busybox('app', 'sleep 3600')],
        },
        { [`${BEHAVIOR_ANNOTATION}.proxy`]: 'never-ready' },
      ),
    );
    f.h.advance(30_000);
    const pod = f.pod('web')!;
    const ready = pod.status!.conditions!.find((c) => c.type === 'Ready')!;
    assert.deepEqual(
      [ready.status, ready.reason, ready.message],
      ['False', 'ContainersNotReady', 'containers with unready status: [proxy]'],
    );
    assert.equal(pod.status!.initContainerStatuses![0].started, true, 'started (it runs), not ready');
  });
});

describe('termination', () => {
  test('deletion stops the containers first, then the sidecars last-first, within the grace period', () => {
    const f = setupKubelet();
    const steps = timeline(f, 'web');
    f.create(
      newPod('web', {
        terminationGracePeriodSeconds: 30,
        initContainers: [
          sidecar(busybox('shipper', 'tail -F /var/log/app.log')),
          sidecar({ name: 'proxy', image: 'nginx:1.27' }),
        ],
        containers: [{ name: 'app', image: 'httpd:2.4' }],
      }),
    );
    f.h.advance(10_000);
    f.h.api.delete('pods', 'default', 'web');
    f.h.settle();
    // At 10 s: Killing for all three at once (the kubelet records it before each waits its turn). httpd stops on its
    // stop signal in 300 ms; then proxy (the last sidecar) gets SIGTERM and stops 300 ms later (10.6 s); then shipper:
    // `tail` as PID 1 ignores SIGTERM, so SIGKILL comes when its grace runs out — 30 s less the whole seconds already
    // waited (0): at 40.6 s. The pod is then Succeeded — its container exited 0; a sidecar's 137 does not count — and
    // deleted.
    assert.deepEqual(
      steps.filter((s) => s.at >= 10_000).map((s) => [s.at, s.phase, s.inits, s.containers]),
      [
        [10_000, 'Running', 'running,running', 'running'],
        [10_300, 'Running', 'running,running', 'terminated:Completed:0'],
        [10_600, 'Running', 'running,terminated:Completed:0', 'terminated:Completed:0'],
        [40_600, 'Succeeded', 'terminated:Error:137,terminated:Completed:0', 'terminated:Completed:0'],
        [40_600, 'DELETED', 'terminated:Error:137,terminated:Completed:0', 'terminated:Completed:0'],
      ],
    );
    assert.deepEqual(
      f.events('web').filter((e) => e.includes('Killing')),
      [
        'Normal Killing: Stopping container app',
        'Normal Killing: Stopping container proxy',
        'Normal Killing: Stopping container shipper',
      ],
    );
  });

  test('a sidecar waiting past the grace period still gets the 2 s minimum', () => {
    const f = setupKubelet();
    const steps = timeline(f, 'web');
    f.create(
      newPod('web', {
        terminationGracePeriodSeconds: 5,
        initContainers: [sidecar(busybox('shipper', 'tail -F /var/log/app.log'))],
        containers: [busybox('app', 'while true; do sleep 1; done')],
      }),
    );
    f.h.advance(10_000);
    f.h.api.delete('pods', 'default', 'web');
    f.h.settle();
    // Both ignore SIGTERM (sh and tail as PID 1). The app is killed at 15 s (grace 5 s); shipper's turn comes then,
    // with 5 − 5 = 0 s left: killContainer's 2 s minimum → killed at 17 s.
    assert.deepEqual(
      steps.filter((s) => s.at > 10_000).map((s) => [s.at, s.phase, s.inits, s.containers]),
      [
        [15_000, 'Running', 'running', 'terminated:Error:137'],
        [17_000, 'Failed', 'terminated:Error:137', 'terminated:Error:137'],
        [17_000, 'DELETED', 'terminated:Error:137', 'terminated:Error:137'],
      ],
    );
  });
});

describe('a pod that runs to completion', () => {
  test('the sidecar does not keep it from completing: it is stopped once the main container is done', () => {
    const f = setupKubelet();
    const steps = timeline(f, 'job');
    f.create(
      newPod('job', {
        restartPolicy: 'Never',
        initContainers: [
          sidecar(
            busybox('logshipper', 'tail -F /opt/logs.txt', { volumeMounts: [{ name: 'data', mountPath: '/opt' }] }),
          ),
        ],
        containers: [
          busybox('main', 'echo "logging" > /opt/logs.txt; sleep 2', {
            volumeMounts: [{ name: 'data', mountPath: '/opt' }],
          }),
        ],
        volumes: [{ name: 'data', emptyDir: {} }],
      }),
    );
    f.h.advance(60_000);
    // logshipper starts at 1.5 s, main at 1.5 s too (busybox already present) and exits 0 at 3.5 s. Nothing will
    // restart: the kubelet stops the sidecar (grace 30 s); tail ignores SIGTERM, SIGKILL at 33.5 s. Meanwhile the pod
    // is Running (the sidecar runs); then Succeeded — the sidecar's 137 does not count.
    assert.deepEqual(
      steps.map((s) => [s.at, s.phase, s.kubectl]),
      [
        [0, 'Pending', '0/2 Init:0/1 0'],
        [500, 'Pending', '0/2 Init:0/1 0'],
        [1500, 'Running', '2/2 Running 0'],
        [3500, 'Running', '1/2 Completed 0'],
        [33_500, 'Succeeded', '0/2 Completed 0'],
      ],
    );
    assert.deepEqual(
      f.events('job').filter((e) => e.includes('Killing')),
      ['Normal Killing: Stopping container logshipper'],
    );
    assert.equal(
      f.kubelet.containerLogs(f.pod('job')!, 'logshipper', {}),
      "tail: can't open '/opt/logs.txt': No such file or directory\nlogging\n",
      'the sidecar followed the file the main container wrote on the shared emptyDir',
    );
    assert.equal(f.h.clock.pendingForegroundTimers, 0);
  });

  test('an init container failing under Never fails the pod and stops the sidecars started before it', () => {
    const f = setupKubelet();
    const steps = timeline(f, 'job');
    f.create(
      newPod('job', {
        restartPolicy: 'Never',
        initContainers: [sidecar({ name: 'proxy', image: 'nginx:1.27' }), busybox('check', 'exit 3')],
        containers: [busybox('main', 'sleep 5')],
      }),
    );
    f.h.settle();
    // proxy starts at 1.5 s; check (busybox pulled 1 s) starts at 2.5 s and exits 3 at 2.6 s: Init:Error, phase
    // Failed at once; proxy is stopped (nginx: 300 ms).
    assert.deepEqual(
      steps.map((s) => [s.at, s.phase, s.kubectl]),
      [
        [0, 'Pending', '0/2 Init:0/2 0'],
        [500, 'Pending', '0/2 Init:0/2 0'],
        [1500, 'Pending', '1/2 Init:1/2 0'],
        [2500, 'Pending', '1/2 Init:1/2 0'],
        [2600, 'Failed', '1/2 Init:Error 0'],
        [2900, 'Failed', '0/2 Init:Error 0'],
      ],
    );
  });
});
