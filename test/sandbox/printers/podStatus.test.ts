import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerStatus, Pod, PodCondition } from 'kubernetes-types/core/v1';
import { podReadyText, podRestartsText, podStatusText, podSummary } from '../../../sandbox/printers/podStatus';

const NOW = Date.UTC(2026, 0, 1, 1, 0, 0);
const ago = (s: number) => new Date(NOW - s * 1000).toISOString().replace('.000Z', 'Z');

const running = (name: string, ready = true, restartCount = 0): ContainerStatus => ({
  name,
  image: 'x',
  imageID: '',
  ready,
  restartCount,
  started: true,
  state: { running: { startedAt: ago(60) } },
});
const waiting = (name: string, reason: string, restartCount = 0): ContainerStatus => ({
  name,
  image: 'x',
  imageID: '',
  ready: false,
  restartCount,
  state: { waiting: { reason } },
});
const terminated = (name: string, exitCode: number, reason?: string, signal?: number): ContainerStatus => ({
  name,
  image: 'x',
  imageID: '',
  ready: false,
  restartCount: 0,
  state: { terminated: { exitCode, ...(reason ? { reason } : {}), ...(signal ? { signal } : {}) } },
});
const readyCond: PodCondition = { type: 'Ready', status: 'True' };

interface Shape {
  containers?: string[];
  init?: { name: string; sidecar?: boolean }[];
  phase?: string;
  reason?: string;
  statuses?: ContainerStatus[];
  initStatuses?: ContainerStatus[];
  conditions?: PodCondition[];
  deleting?: boolean;
}

function pod(s: Shape): Pod {
  return {
    metadata: { name: 'p', namespace: 'default', ...(s.deleting ? { deletionTimestamp: ago(0) } : {}) },
    spec: {
      containers: (s.containers ?? ['app']).map((name) => ({ name, image: 'x' })),
      ...(s.init
        ? {
            initContainers: s.init.map((c) => ({
              name: c.name,
              image: 'x',
              ...(c.sidecar ? { restartPolicy: 'Always' } : {}),
            })),
          }
        : {}),
    },
    status: {
      ...(s.phase ? { phase: s.phase } : {}),
      ...(s.reason ? { reason: s.reason } : {}),
      ...(s.conditions ? { conditions: s.conditions } : {}),
      ...(s.statuses ? { containerStatuses: s.statuses } : {}),
      ...(s.initStatuses ? { initContainerStatuses: s.initStatuses } : {}),
    },
  };
}

describe('podStatusText / podReadyText: every branch of printPod', () => {
  const cases: [string, Shape, string, string][] = [
    ['pending, no statuses yet', { phase: 'Pending' }, 'Pending', '0/1'],
    [
      'waiting reason wins',
      { phase: 'Pending', statuses: [waiting('app', 'ContainerCreating')] },
      'ContainerCreating',
      '0/1',
    ],
    ['running and ready', { phase: 'Running', statuses: [running('app')], conditions: [readyCond] }, 'Running', '1/1'],
    ['running, not ready', { phase: 'Running', statuses: [running('app', false)] }, 'Running', '0/1'],
    ['crash loop', { phase: 'Running', statuses: [waiting('app', 'CrashLoopBackOff', 3)] }, 'CrashLoopBackOff', '0/1'],
    ['terminated with a reason', { phase: 'Failed', statuses: [terminated('app', 1, 'Error')] }, 'Error', '0/1'],
    [
      'terminated without a reason: exit code',
      { phase: 'Failed', statuses: [terminated('app', 2)] },
      'ExitCode:2',
      '0/1',
    ],
    [
      'terminated without a reason: signal',
      { phase: 'Failed', statuses: [terminated('app', 137, undefined, 9)] },
      'Signal:9',
      '0/1',
    ],
    ['completed', { phase: 'Succeeded', statuses: [terminated('app', 0, 'Completed')] }, 'Completed', '0/1'],
    [
      'the first container wins',
      {
        phase: 'Running',
        containers: ['a', 'b'],
        statuses: [waiting('a', 'ImagePullBackOff'), waiting('b', 'CrashLoopBackOff')],
      },
      'ImagePullBackOff',
      '0/2',
    ],
    [
      'completed but another still running and Ready',
      {
        phase: 'Running',
        containers: ['a', 'b'],
        statuses: [terminated('a', 0, 'Completed'), running('b')],
        conditions: [readyCond],
      },
      'Running',
      '1/2',
    ],
    [
      'completed but another still running, pod not Ready',
      { phase: 'Running', containers: ['a', 'b'], statuses: [terminated('a', 0, 'Completed'), running('b')] },
      'NotReady',
      '1/2',
    ],
    [
      'status.reason (evicted)',
      { phase: 'Failed', reason: 'Evicted', statuses: [terminated('app', 137, 'OOMKilled')] },
      'OOMKilled',
      '0/1',
    ],
    ['status.reason without container statuses', { phase: 'Failed', reason: 'OutOfcpu' }, 'OutOfcpu', '0/1'],
    [
      'scheduling gated',
      { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] },
      'SchedulingGated',
      '0/1',
    ],
    [
      'init container running',
      {
        phase: 'Pending',
        init: [{ name: 'i1' }, { name: 'i2' }],
        initStatuses: [running('i1', false)],
        statuses: [waiting('app', 'PodInitializing')],
      },
      'Init:0/2',
      '0/1',
    ],
    [
      'init containers: first done',
      {
        phase: 'Pending',
        init: [{ name: 'i1' }, { name: 'i2' }],
        initStatuses: [terminated('i1', 0, 'Completed'), running('i2', false)],
      },
      'Init:1/2',
      '0/1',
    ],
    [
      'init container waiting with a reason',
      { phase: 'Pending', init: [{ name: 'i1' }], initStatuses: [waiting('i1', 'CrashLoopBackOff')] },
      'Init:CrashLoopBackOff',
      '0/1',
    ],
    [
      'init container waiting PodInitializing',
      { phase: 'Pending', init: [{ name: 'i1' }], initStatuses: [waiting('i1', 'PodInitializing')] },
      'Init:0/1',
      '0/1',
    ],
    [
      'init container failed with a reason',
      { phase: 'Pending', init: [{ name: 'i1' }], initStatuses: [terminated('i1', 1, 'Error')] },
      'Init:Error',
      '0/1',
    ],
    [
      'init container failed: exit code',
      { phase: 'Pending', init: [{ name: 'i1' }], initStatuses: [terminated('i1', 3)] },
      'Init:ExitCode:3',
      '0/1',
    ],
    [
      'init container failed: signal',
      { phase: 'Pending', init: [{ name: 'i1' }], initStatuses: [terminated('i1', 143, undefined, 15)] },
      'Init:Signal:15',
      '0/1',
    ],
    [
      'started sidecar counts in READY',
      {
        phase: 'Running',
        init: [{ name: 'log', sidecar: true }],
        initStatuses: [running('log')],
        statuses: [running('app')],
        conditions: [readyCond],
      },
      'Running',
      '2/2',
    ],
    [
      'sidecar not started yet: initializing',
      { phase: 'Pending', init: [{ name: 'log', sidecar: true }], initStatuses: [waiting('log', 'ContainerCreating')] },
      'Init:ContainerCreating',
      '0/2',
    ],
    [
      'init container restarting after Initialized=True: READY counts containers, STATUS keeps the init reason (as upstream)',
      {
        phase: 'Running',
        init: [{ name: 'i1' }],
        initStatuses: [waiting('i1', 'CrashLoopBackOff')],
        statuses: [running('app')],
        conditions: [{ type: 'Initialized', status: 'True' }, readyCond],
      },
      'Init:CrashLoopBackOff',
      '1/1',
    ],
    [
      'terminating',
      { phase: 'Running', statuses: [running('app')], conditions: [readyCond], deleting: true },
      'Terminating',
      '1/1',
    ],
    [
      'a container that cannot be created (missing Secret or ConfigMap)',
      { phase: 'Pending', statuses: [waiting('app', 'CreateContainerConfigError')] },
      'CreateContainerConfigError',
      '0/1',
    ],
    [
      'an init container that cannot be created',
      { phase: 'Pending', init: [{ name: 'i1' }], initStatuses: [waiting('i1', 'CreateContainerConfigError')] },
      'Init:CreateContainerConfigError',
      '0/1',
    ],
    [
      'init containers done, the container not created yet',
      {
        phase: 'Pending',
        init: [{ name: 'i1' }],
        initStatuses: [terminated('i1', 0, 'Completed')],
        statuses: [waiting('app', 'PodInitializing')],
        conditions: [{ type: 'Initialized', status: 'True' }],
      },
      'PodInitializing',
      '0/1',
    ],
    [
      'a sidecar started, the next init container running',
      {
        phase: 'Pending',
        init: [{ name: 'log', sidecar: true }, { name: 'i2' }],
        initStatuses: [running('log'), running('i2', false)],
        statuses: [waiting('app', 'PodInitializing')],
      },
      'Init:1/2',
      '1/2',
    ],
    [
      'a sidecar running but not started yet (startup probe pending)',
      {
        phase: 'Pending',
        init: [{ name: 'log', sidecar: true }],
        initStatuses: [{ ...running('log', false), started: false }],
        statuses: [waiting('app', 'PodInitializing')],
      },
      'Init:0/1',
      '0/2',
    ],
    [
      "a finished Job's pod whose sidecar still runs (being stopped)",
      {
        phase: 'Running',
        init: [{ name: 'log', sidecar: true }],
        initStatuses: [running('log')],
        statuses: [terminated('app', 0, 'Completed')],
        conditions: [{ type: 'Initialized', status: 'True' }],
      },
      'Completed',
      '1/2',
    ],
    [
      'a sidecar that exited after the pod was initialized: its reason, READY counts the running container',
      {
        phase: 'Running',
        init: [{ name: 'log', sidecar: true }],
        initStatuses: [terminated('log', 1, 'Error')],
        statuses: [running('app')],
        conditions: [{ type: 'Initialized', status: 'True' }, readyCond],
      },
      'Init:Error',
      '1/2',
    ],
    [
      'a sidecar being stopped with its pod: Terminating',
      {
        phase: 'Running',
        init: [{ name: 'log', sidecar: true }],
        initStatuses: [running('log')],
        statuses: [terminated('app', 0, 'Completed')],
        conditions: [{ type: 'Initialized', status: 'True' }],
        deleting: true,
      },
      'Terminating',
      '1/2',
    ],
    [
      'terminating but already terminal',
      { phase: 'Succeeded', statuses: [terminated('app', 0, 'Completed')], deleting: true },
      'Completed',
      '0/1',
    ],
    [
      'node lost',
      { phase: 'Running', reason: 'NodeLost', statuses: [running('app')], deleting: true },
      'Unknown',
      '1/1',
    ],
  ];
  for (const [name, shape, status, ready] of cases) {
    test(name, () => {
      const p = pod(shape);
      assert.deepEqual([podStatusText(p), podReadyText(p)], [status, ready]);
    });
  }
});

describe('podRestartsText', () => {
  const withLast = (s: ContainerStatus, finishedSecondsAgo: number): ContainerStatus => ({
    ...s,
    lastState: { terminated: { exitCode: 1, finishedAt: ago(finishedSecondsAgo) } },
  });

  test('no restarts', () =>
    assert.equal(podRestartsText(pod({ phase: 'Running', statuses: [running('app')] }), NOW), '0'));

  test('sums containers and shows the latest termination', () => {
    const p = pod({
      phase: 'Running',
      containers: ['a', 'b'],
      statuses: [withLast(running('a', true, 2), 300), withLast(running('b', true, 1), 125)],
    });
    assert.equal(podRestartsText(p, NOW), '3 (2m5s ago)');
  });

  test('restarts without a recorded termination time print the count only', () => {
    assert.equal(podRestartsText(pod({ phase: 'Running', statuses: [running('app', true, 4)] }), NOW), '4');
  });

  test('while initializing, init containers count; afterwards only sidecars and containers', () => {
    const initializing = pod({
      phase: 'Pending',
      init: [{ name: 'i1' }],
      initStatuses: [withLast(waiting('i1', 'CrashLoopBackOff', 5), 30)],
    });
    assert.equal(podRestartsText(initializing, NOW), '5 (30s ago)');
    const done = pod({
      phase: 'Running',
      init: [{ name: 'i1' }, { name: 'log', sidecar: true }],
      initStatuses: [{ ...terminated('i1', 0, 'Completed'), restartCount: 7 }, withLast(running('log', true, 1), 3600)],
      statuses: [withLast(running('app', true, 2), 60)],
    });
    assert.deepEqual(podSummary(done), {
      ready: 2,
      total: 2,
      status: 'Running',
      restarts: 3,
      lastRestartAt: NOW - 60_000,
    });
    assert.equal(podRestartsText(done, NOW), '3 (60s ago)');
  });
});
