import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerStatus, Pod, PodStatus } from 'kubernetes-types/core/v1';
import { BEHAVIOR_ANNOTATION } from '../../../sandbox/kubelet/behaviors';
import { newPod, setupKubelet } from './setup';
import { timeline } from './timeline';

const T0 = '2026-01-01T00:00:00Z';
const ts = (s: number) =>
  `2026-01-01T00:${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}Z`;
const NGINX_ID = (s: PodStatus | undefined) => s?.containerStatuses?.[0]?.imageID ?? '';

function condition(
  type: string,
  status: string,
  since: string,
  reason?: string,
  message?: string,
): Record<string, unknown> {
  return {
    type,
    status,
    lastProbeTime: null,
    lastTransitionTime: since,
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
  };
}

describe('plain nginx: ContainerCreating → Running and Ready', () => {
  test('the whole status at each step', () => {
    const f = setupKubelet();
    const steps = timeline(f, 'web');
    f.create(newPod('web'));
    f.h.advance(0);
    const waiting: ContainerStatus = {
      name: 'app',
      state: { waiting: { reason: 'ContainerCreating' } },
      lastState: {},
      ready: false,
      restartCount: 0,
      image: 'nginx:1.27',
      imageID: '',
      started: false,
    };
    const notReady = (since: string) => [
      condition('Ready', 'False', since, 'ContainersNotReady', 'containers with unready status: [app]'),
      condition('ContainersReady', 'False', since, 'ContainersNotReady', 'containers with unready status: [app]'),
    ];
    const base = { hostIP: '10.0.0.3', hostIPs: [{ ip: '10.0.0.3' }], startTime: T0, qosClass: 'BestEffort' };
    assert.deepEqual(f.pod('web')!.status, {
      phase: 'Pending',
      conditions: [
        condition('PodReadyToStartContainers', 'False', T0),
        condition('Initialized', 'True', T0),
        ...notReady(T0),
        condition('PodScheduled', 'True', T0),
      ],
      ...base,
      containerStatuses: [waiting],
    });
    f.h.advance(500);
    const ips = { podIP: '10.244.1.2', podIPs: [{ ip: '10.244.1.2' }] };
    assert.deepEqual(f.pod('web')!.status, {
      phase: 'Pending',
      conditions: [
        condition('PodReadyToStartContainers', 'True', T0),
        condition('Initialized', 'True', T0),
        ...notReady(T0),
        condition('PodScheduled', 'True', T0),
      ],
      ...base,
      ...ips,
      containerStatuses: [waiting],
    });
    f.h.advance(1000);
    const status = f.pod('web')!.status!;
    const id = status.containerStatuses?.[0]?.containerID ?? '';
    assert.match(id, /^containerd:\/\/[0-9a-f]{64}$/);
    assert.match(NGINX_ID(status), /^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    assert.deepEqual(status, {
      phase: 'Running',
      conditions: [
        condition('PodReadyToStartContainers', 'True', T0),
        condition('Initialized', 'True', T0),
        condition('Ready', 'True', ts(1)),
        condition('ContainersReady', 'True', ts(1)),
        condition('PodScheduled', 'True', T0),
      ],
      ...base,
      ...ips,
      containerStatuses: [
        {
          name: 'app',
          state: { running: { startedAt: ts(1) } },
          lastState: {},
          ready: true,
          restartCount: 0,
          image: 'docker.io/library/nginx:1.27',
          imageID: NGINX_ID(status),
          containerID: id,
          started: true,
        },
      ],
    });
    assert.deepEqual(f.events('web'), [
      'Normal Pulling: Pulling image "nginx:1.27"',
      `Normal Pulled: Successfully pulled image "nginx:1.27" in 1s (1s including waiting). Image size: ${/Image size: (\d+)/.exec(f.events('web')[1])?.[1]} bytes.`,
      'Normal Created: Created container: app',
      'Normal Started: Started container app',
    ]);
    assert.deepEqual(
      steps.map((s) => [s.at, s.phase, s.containers, s.ready]),
      [
        [0, 'Pending', 'ContainerCreating', 'False'],
        [500, 'Pending', 'ContainerCreating', 'False'],
        [1500, 'Running', 'running', 'True'],
      ],
    );
    f.h.settle();
    assert.equal(f.h.clock.pendingForegroundTimers, 0, 'a running pod leaves no pending work');
  });

  test('a second pod with the same image on the node finds it present', () => {
    const f = setupKubelet();
    f.create(newPod('a'));
    f.h.advance(5000);
    f.create(newPod('b'));
    f.h.advance(5000);
    assert.deepEqual(f.events('b'), [
      'Normal Pulled: Container image "nginx:1.27" already present on machine',
      'Normal Created: Created container: app',
      'Normal Started: Started container app',
    ]);
    assert.equal(f.pod('b')!.status!.podIP, '10.244.1.3');
  });
});

describe('readiness', () => {
  test('with a readiness probe, ready at the first passing period after initialDelaySeconds', () => {
    const f = setupKubelet({}, 1, 60_000);
    const steps = timeline(f, 'web');
    f.create(
      newPod('web', {
        containers: [
          {
            name: 'app',
            image: 'nginx:1.27',
            readinessProbe: { httpGet: { port: 80 }, initialDelaySeconds: 5, periodSeconds: 10 },
          },
        ],
      }),
    );
    f.h.settle();
    // The probe worker starts with the pod (0 s) and ticks every 10 s: 0, 10, 20 s. The container starts at 1.5 s
    // (sandbox 0.5 s + pull 1 s); the probe at its start is skipped (initialDelaySeconds 5), the tick at 10 s is the
    // first at or after 6.5 s: nginx answers GET / with 200, ready.
    assert.deepEqual(
      steps.map((s) => [s.at, s.containers, s.ready]),
      [
        [0, 'ContainerCreating', 'False'],
        [500, 'ContainerCreating', 'False'],
        [1500, 'running', 'False'],
        [10_000, 'running', 'True'],
      ],
    );
  });

  test('ready-after holds readiness back even without a probe', () => {
    const f = setupKubelet();
    const steps = timeline(f, 'web');
    f.create(newPod('web', {}, { [BEHAVIOR_ANNOTATION]: 'ready-after=20s' }));
    f.h.settle();
    assert.deepEqual(
      steps.slice(-2).map((s) => [s.at, s.ready]),
      [
        [1500, 'False'],
        [21_500, 'True'],
      ],
    );
  });

  test('never-ready with a probe: one Unhealthy event, Ready stays False, nothing left pending', () => {
    const f = setupKubelet();
    f.create(
      newPod(
        'web',
        {
          containers: [
            { name: 'app', image: 'nginx:1.27', readinessProbe: { httpGet: { port: 80 }, periodSeconds: 10 } },
          ],
        },
        { [BEHAVIOR_ANNOTATION]: 'never-ready' },
      ),
    );
    f.h.settle();
    f.h.advance(120_000);
    const pod = f.pod('web')!;
    assert.equal(pod.status!.phase, 'Running');
    assert.deepEqual(
      pod.status!.conditions!.find((c) => c.type === 'Ready'),
      condition('Ready', 'False', T0, 'ContainersNotReady', 'containers with unready status: [app]'),
    );
    assert.deepEqual(f.events('web').slice(-1), [
      'Warning Unhealthy: Readiness probe failed: HTTP probe failed with statuscode: 503',
    ]);
  });

  test('liveness-fail-after: failureThreshold failures, Killing, restart', () => {
    const f = setupKubelet({}, 1, 60_000);
    f.create(
      newPod(
        'web',
        {
          containers: [
            {
              name: 'app',
              image: 'nginx:1.27',
              livenessProbe: { tcpSocket: { port: 80 }, periodSeconds: 5, failureThreshold: 2 },
            },
          ],
        },
        { [BEHAVIOR_ANNOTATION]: 'liveness-fail-after=60s' },
      ),
    );
    f.h.advance(75_000);
    // Ticks every 5 s from the pod's admission (0 s); started at 1.5 s, failing from 61.5 s: the ticks at 65 and 70 s
    // fail (failureThreshold 2), the kubelet kills it at 70 s; nginx stops on its stop signal in 300 ms, exit 0
    // (Completed), and is restarted 1 s later.
    const cs = f.pod('web')!.status!.containerStatuses![0];
    const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + 60_000 + ms).toISOString().replace('.000Z', 'Z');
    assert.deepEqual(
      [
        cs.restartCount,
        cs.lastState?.terminated?.exitCode,
        cs.lastState?.terminated?.reason,
        cs.lastState?.terminated?.finishedAt,
        cs.state?.running?.startedAt,
      ],
      [1, 0, 'Completed', at(70_000), at(71_000)],
    );
    assert.deepEqual(f.events('web').slice(4, 6), [
      'Warning Unhealthy: Liveness probe failed: dial tcp 10.244.1.2:80: connect: connection refused (x2)',
      'Normal Killing: Container app failed liveness probe, will be restarted',
    ]);
  });
});

describe('restarts', () => {
  test('crash-after: back-off 0, 10, 20, 40, 80, 160, 300, 300 s with CrashLoopBackOff between', () => {
    const f = setupKubelet();
    const steps = timeline(f, 'web');
    f.create(newPod('web', {}, { [BEHAVIOR_ANNOTATION]: 'crash-after=5s exit=2' }));
    f.h.advance(1_000_000);
    const exits = steps.filter((s) => s.containers.startsWith('terminated')).map((s) => s.at);
    const starts = steps
      .filter((s, i) => s.containers === 'running' && steps[i - 1]?.containers !== 'running')
      .map((s) => s.at);
    assert.deepEqual(
      starts.slice(1).map((t, i) => t - exits[i]),
      [1000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000],
    );
    const loops = steps.filter((s) => s.containers === 'CrashLoopBackOff');
    assert.equal(loops.length, 8);
    assert.ok(loops.every((s) => s.phase === 'Running' && s.ready === 'False'));
    assert.deepEqual(
      steps.map((s) => s.restarts).filter((n, i, a) => n !== a[i - 1]),
      [0, 1, 2, 3, 4, 5, 6, 7, 8],
    );
  });

  test('the CrashLoopBackOff container status, whole', () => {
    const f = setupKubelet();
    const p = f.create(newPod('web', {}, { [BEHAVIOR_ANNOTATION]: 'crash-after=5s exit=2' }));
    f.h.advance(14_000); // exits at 6.5 s (restart at 7.5 s) and 12.5 s; back-off seen at 13.5 s
    const cs = f.pod('web')!.status!.containerStatuses![0];
    assert.deepEqual(cs, {
      name: 'app',
      state: {
        waiting: {
          reason: 'CrashLoopBackOff',
          message: `back-off 10s restarting failed container=app pod=web_default(${p.metadata!.uid})`,
        },
      },
      lastState: {
        terminated: { exitCode: 2, reason: 'Error', startedAt: ts(7), finishedAt: ts(12), containerID: cs.containerID },
      },
      ready: false,
      restartCount: 1,
      image: 'docker.io/library/nginx:1.27',
      imageID: cs.imageID,
      containerID: cs.containerID,
      started: false,
    });
    assert.deepEqual(f.events('web').slice(-1), [
      `Warning BackOff: Back-off restarting failed container app in pod web_default(${p.metadata!.uid})`,
    ]);
  });

  test('oom-after: OOMKilled with exit 137 in lastState', () => {
    const f = setupKubelet();
    f.create(newPod('web', {}, { [BEHAVIOR_ANNOTATION]: 'oom-after=20s' }));
    f.h.advance(23_000);
    const last = f.pod('web')!.status!.containerStatuses![0].lastState!.terminated!;
    assert.deepEqual([last.exitCode, last.reason, last.startedAt, last.finishedAt], [137, 'OOMKilled', ts(1), ts(21)]);
  });

  test('crashContainer: exit 137 Error, restarted', () => {
    const f = setupKubelet();
    f.create(newPod('web'));
    f.h.advance(5000);
    assert.equal(f.kubelet.crashContainer('default', 'web', 'nope'), false);
    assert.equal(f.kubelet.crashContainer('default', 'web'), true);
    assert.equal(f.pod('web')!.status!.containerStatuses![0].state!.terminated!.exitCode, 137);
    f.h.advance(1000);
    const cs = f.pod('web')!.status!.containerStatuses![0];
    assert.deepEqual(
      [cs.restartCount, cs.lastState!.terminated!.reason, !!cs.state!.running, cs.ready],
      [1, 'Error', true, true],
    );
  });
});

describe('completion', () => {
  test('exit 0 under Never: Succeeded, Ready False PodCompleted, sandbox gone', () => {
    const f = setupKubelet();
    f.create(newPod('job', { restartPolicy: 'Never' }, { [BEHAVIOR_ANNOTATION]: 'exit-after=5s' }));
    f.h.settle();
    const status = f.pod('job')!.status!;
    assert.equal(status.phase, 'Succeeded');
    assert.deepEqual(status.conditions, [
      condition('PodReadyToStartContainers', 'False', ts(6)),
      condition('Initialized', 'True', T0, 'PodCompleted'),
      condition('Ready', 'False', ts(6), 'PodCompleted'),
      condition('ContainersReady', 'False', ts(6), 'PodCompleted'),
      condition('PodScheduled', 'True', T0),
    ]);
    assert.deepEqual(status.containerStatuses![0].state, {
      terminated: {
        exitCode: 0,
        reason: 'Completed',
        startedAt: ts(1),
        finishedAt: ts(6),
        containerID: status.containerStatuses![0].containerID,
      },
    });
    assert.equal(f.h.clock.pendingForegroundTimers, 0);
  });

  test('busybox `false` under Never: Failed; under OnFailure: restarted', () => {
    const f = setupKubelet();
    const container = { name: 'app', image: 'busybox:1.36', command: ['false'] };
    f.create(newPod('never', { restartPolicy: 'Never', containers: [container] }));
    f.create(newPod('onfailure', { restartPolicy: 'OnFailure', containers: [container] }));
    f.h.advance(30_000);
    assert.deepEqual(
      [f.pod('never')!.status!.phase, f.pod('never')!.status!.containerStatuses![0].state!.terminated!.exitCode],
      ['Failed', 1],
    );
    const onFailure = f.pod('onfailure')!.status!;
    assert.equal(onFailure.phase, 'Running');
    assert.ok(onFailure.containerStatuses![0].restartCount! >= 2);
  });

  test('sh -c "sleep 5" under OnFailure completes: Succeeded', () => {
    const f = setupKubelet();
    f.create(
      newPod('job', {
        restartPolicy: 'OnFailure',
        containers: [{ name: 'app', image: 'busybox', command: ['sh', '-c', 'sleep 5'] }],
      }),
    );
    f.h.settle();
    assert.equal(f.pod('job')!.status!.phase, 'Succeeded');
  });

  test('init containers run in order before the app', () => {
    const f = setupKubelet();
    const steps = timeline(f, 'web');
    f.create(newPod('web', { initContainers: [{ name: 'wait', image: 'busybox', command: ['sleep', '3'] }] }));
    f.h.advance(1000);
    const pending = f.pod('web')!.status!;
    assert.deepEqual(
      pending.conditions!.find((c) => c.type === 'Initialized'),
      condition('Initialized', 'False', T0, 'ContainersNotInitialized', 'containers with incomplete status: [wait]'),
    );
    assert.equal(pending.containerStatuses![0].state!.waiting!.reason, 'PodInitializing');
    f.h.settle();
    // busybox pulled 0.5–1.5 s, runs 3 s; nginx pulled 4.5–5.5 s.
    assert.deepEqual(
      steps.map((s) => [s.at, s.phase, s.containers]),
      [
        [0, 'Pending', 'PodInitializing'],
        [500, 'Pending', 'PodInitializing'],
        [1500, 'Pending', 'PodInitializing'],
        [4500, 'Pending', 'PodInitializing'],
        [5500, 'Running', 'running'],
      ],
    );
    const init = f.pod('web')!.status!.initContainerStatuses![0];
    assert.deepEqual([init.ready, init.state!.terminated!.reason], [true, 'Completed']);
  });
});

describe('images', () => {
  test('a missing image: ErrImagePull, then ImagePullBackOff, retried on the back-off curve', () => {
    const f = setupKubelet();
    const steps = timeline(f, 'web');
    f.create(newPod('web', { containers: [{ name: 'app', image: 'nginx:missing' }] }));
    f.h.advance(40_000);
    // fails at 1.5 s, retried 10 s later (11.5 s), fails at 12.5 s, retried 20 s later (32.5 s).
    assert.deepEqual(
      steps.map((s) => [s.at, s.containers]),
      [
        [0, 'ContainerCreating'],
        [500, 'ContainerCreating'],
        [1500, 'ErrImagePull'],
        [2500, 'ImagePullBackOff'],
        [12_500, 'ErrImagePull'],
        [13_500, 'ImagePullBackOff'],
        [33_500, 'ErrImagePull'],
        [34_500, 'ImagePullBackOff'],
      ],
    );
    const err =
      'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:missing": failed to resolve reference "docker.io/library/nginx:missing": docker.io/library/nginx:missing: not found';
    assert.deepEqual(f.pod('web')!.status!.containerStatuses![0].state, {
      waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "nginx:missing": ErrImagePull: ${err}` },
    });
    assert.deepEqual(f.events('web'), [
      'Normal Pulling: Pulling image "nginx:missing" (x3)',
      `Warning Failed: Failed to pull image "nginx:missing": ${err} (x3)`,
      'Warning Failed: Error: ErrImagePull (x3)',
      'Normal BackOff: Back-off pulling image "nginx:missing" (x3)',
      'Warning Failed: Error: ImagePullBackOff (x3)',
    ]);
  });

  test('an invalid reference: InvalidImageName, no retry', () => {
    const f = setupKubelet();
    f.create(newPod('web', { containers: [{ name: 'app', image: 'Nginx' }] }));
    f.h.settle();
    assert.deepEqual(f.pod('web')!.status!.containerStatuses![0].state, {
      waiting: {
        reason: 'InvalidImageName',
        message: `Failed to apply default image tag "Nginx": couldn't parse image name "Nginx": invalid reference format: repository name (library/Nginx) must be lowercase`,
      },
    });
    assert.equal(f.h.clock.pendingForegroundTimers, 0);
  });

  test('a bad behaviour is a Warning event, and the rest still applies', () => {
    const f = setupKubelet();
    f.create(newPod('web', {}, { [BEHAVIOR_ANNOTATION]: 'image-missing crash-after=soon' }));
    f.h.advance(3000);
    assert.equal(
      f.events('web')[0],
      `Warning InvalidBehavior: ${BEHAVIOR_ANNOTATION}: invalid duration "soon" for crash-after (use e.g. 30s, 2m, 1m30s, 500ms)`,
    );
    assert.equal(f.pod('web')!.status!.containerStatuses![0].state!.waiting!.reason, 'ImagePullBackOff');
  });
});

describe('termination', () => {
  const runAndDelete = (annotations?: Record<string, string>) => {
    const f = setupKubelet();
    const steps = timeline(f, 'web');
    f.create(newPod('web', { terminationGracePeriodSeconds: 20 }, annotations));
    f.h.advance(10_000);
    f.h.api.delete('pods', 'default', 'web');
    f.h.settle();
    return { f, steps: steps.filter((s) => s.at >= 10_000) };
  };

  test('SIGTERM: the container stops within a second, the pod is Succeeded, then deleted', () => {
    const { f, steps } = runAndDelete();
    // The API's deletionTimestamp; nginx (SIGQUIT, its stop signal) stops 300 ms later, and stays ready meanwhile.
    assert.deepEqual(
      steps.map((s) => [s.at, s.phase, s.containers, s.ready]),
      [
        [10_000, 'Running', 'running', 'True'],
        [10_300, 'Succeeded', 'terminated:Completed:0', 'False'],
        [10_300, 'DELETED', 'terminated:Completed:0', 'False'],
      ],
    );
    assert.equal(f.events('web').at(-1), 'Normal Killing: Stopping container app');
    assert.deepEqual(f.kubelet.podKeys(), []);
  });

  test('ignore-sigterm: killed at the end of the grace period (exit 137), then deleted', () => {
    const { steps } = runAndDelete({ [BEHAVIOR_ANNOTATION]: 'ignore-sigterm' });
    assert.deepEqual(
      steps.map((s) => [s.at, s.phase, s.containers, s.ready]),
      [
        [10_000, 'Running', 'running', 'True'],
        [30_000, 'Failed', 'terminated:Error:137', 'False'],
        [30_000, 'DELETED', 'terminated:Error:137', 'False'],
      ],
    );
  });

  test('a terminal pod is deleted at once', () => {
    const f = setupKubelet();
    f.create(newPod('job', { restartPolicy: 'Never' }, { [BEHAVIOR_ANNOTATION]: 'exit-after=1s' }));
    f.h.settle();
    f.h.api.delete('pods', 'default', 'job');
    assert.equal(f.pod('job'), undefined);
  });
});

describe('admission', () => {
  test('a pod bound past the node capacity is rejected OutOfcpu', () => {
    const f = setupKubelet();
    const req = (cpu: string) => ({
      containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu } } }],
    });
    f.create(newPod('big', req('3')));
    f.create(newPod('more', req('2')));
    f.h.advance(0);
    assert.deepEqual(f.pod('more')!.status, {
      phase: 'Failed',
      reason: 'OutOfcpu',
      message: "Pod was rejected: Node didn't have enough resource: cpu, requested: 2000, used: 3000, capacity: 4000",
      startTime: T0,
      qosClass: 'Burstable',
    });
    assert.deepEqual(f.events('more'), [
      "Warning OutOfcpu: Node didn't have enough resource: cpu, requested: 2000, used: 3000, capacity: 4000",
    ]);
    assert.equal(f.pod('big')!.status!.phase, 'Pending');
  });

  test("a sidecar's requests count with the containers' (an init container's with the sidecars before it)", () => {
    const f = setupKubelet();
    const cpu = (name: string, n: string, sidecar = false) => ({
      name,
      image: 'nginx:1.27',
      resources: { requests: { cpu: n } },
      ...(sidecar ? { restartPolicy: 'Always' as const } : {}),
    });
    // 2 + 1.5 (sidecar) = 3.5 CPUs; its init container needs 1.5 + 1 = 2.5, less.
    f.create(
      newPod('big', {
        initContainers: [cpu('proxy', '1500m', true), cpu('setup', '1')],
        containers: [cpu('app', '2')],
      }),
    );
    f.create(newPod('more', { containers: [cpu('app', '1')] }));
    f.h.advance(0);
    assert.equal(
      f.pod('more')!.status!.message,
      "Pod was rejected: Node didn't have enough resource: cpu, requested: 1000, used: 3500, capacity: 4000",
    );
  });

  test("the admitted pods' requests, kept by their workers, count after their status writes and stop at their end", () => {
    const f = setupKubelet();
    const req = (cpu: string, memory: string) => ({
      containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu, memory } } }],
    });
    f.create(newPod('web', req('1500m', '3Gi')));
    f.create(newPod('job', { ...req('2', '1Gi'), restartPolicy: 'Never' }, { [BEHAVIOR_ANNOTATION]: 'exit-after=5s' }));
    f.h.advance(2000);
    assert.equal(f.pod('web')!.status!.phase, 'Running');
    f.create(newPod('late', req('1', '1Gi')));
    f.h.advance(0);
    assert.equal(
      f.pod('late')!.status!.message,
      "Pod was rejected: Node didn't have enough resource: cpu, requested: 1000, used: 3500, capacity: 4000",
    );
    f.h.advance(10_000);
    assert.equal(f.pod('job')!.status!.phase, 'Succeeded');
    f.create(newPod('after', req('2', '1Gi')));
    f.create(newPod('last', req('600m', '1Gi')));
    f.h.advance(0);
    assert.equal(f.pod('after')!.status!.phase, 'Pending');
    assert.equal(
      f.pod('last')!.status!.message,
      "Pod was rejected: Node didn't have enough resource: cpu, requested: 600, used: 3500, capacity: 4000",
    );
  });

  test('OutOfpods at the pod capacity', () => {
    const f = setupKubelet({ capacity: { pods: 1 } });
    f.create(newPod('a'));
    f.create(newPod('b'));
    f.h.advance(0);
    assert.deepEqual(
      [f.pod('b')!.status!.reason, f.pod('b')!.status!.message],
      ['OutOfpods', "Pod was rejected: Node didn't have enough resource: pods, requested: 1, used: 1, capacity: 1"],
    );
  });
});

describe('node failure and recovery', () => {
  test('a stopped kubelet writes nothing; on recovery pending work runs and deleted pods are finished', () => {
    const f = setupKubelet();
    f.create(newPod('web'));
    f.create(newPod('crashy', {}, { [BEHAVIOR_ANNOTATION]: 'crash-after=5s' }));
    f.h.advance(3000);
    f.kubelet.stop();
    f.h.record(['pods', 'nodes', 'leases', 'events']);
    f.h.api.delete('pods', 'default', 'web');
    f.create(newPod('late'));
    f.h.advance(600_000);
    assert.deepEqual(f.h.actions(), ['MODIFIED pods default/web', 'ADDED pods default/late']);
    assert.equal(f.pod('web')!.status!.phase, 'Running', 'Terminating until the node returns');
    f.h.clearActions();
    f.kubelet.start();
    f.h.advance(2000);
    assert.equal(f.pod('web'), undefined);
    assert.equal(f.pod('late')!.status!.phase, 'Running');
    const crashy = f.pod('crashy')!.status!.containerStatuses![0];
    assert.equal(crashy.restartCount, 1, 'the crash due during the outage happened at recovery');
    assert.ok(f.h.actions().includes('MODIFIED leases kube-node-lease/node-1'));
  });
});

describe('determinism', () => {
  test('the same seed gives the same history', () => {
    const run = () => {
      const f = setupKubelet({ delays: undefined }, 7);
      f.create(newPod('a', {}, { [BEHAVIOR_ANNOTATION]: 'crash-after=3s' }));
      f.create(newPod('b'));
      f.h.advance(120_000);
      return JSON.stringify([f.pod('a')!.status, f.pod('b')!.status, f.h.logLines()]);
    };
    assert.equal(run(), run());
  });
});

export type { Pod };
