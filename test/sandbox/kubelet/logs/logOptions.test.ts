import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerStatus, Pod } from 'kubernetes-types/core/v1';
import { isApiError } from '../../../../sandbox/api/errors';
import type { Status } from '../../../../sandbox/api/errors';
import { LogWriter, formatLog } from '../../../../sandbox/kubelet/logs/logOptions';
import {
  kubeletUnreachable,
  logContainerID,
  logContainerName,
  validateLogOptions,
} from '../../../../sandbox/kubelet/logs/logErrors';

const T0 = Date.UTC(2026, 0, 1);
const lines = [0, 1500, 3000, 4250].map((ms, i) => ({ at: T0 + ms, text: `line ${i + 1}` }));
const NOW = T0 + 5000;

function status(fn: () => unknown): Pick<Status, 'code' | 'reason' | 'message'> {
  try {
    fn();
  } catch (e) {
    if (isApiError(e)) return { code: e.status.code, reason: e.status.reason, message: e.status.message };
    throw e;
  }
  assert.fail('expected an ApiError');
}

describe('applying PodLogOptions', () => {
  test('everything, one line each', () => assert.equal(formatLog(lines, {}, NOW), 'line 1\nline 2\nline 3\nline 4\n'));
  test('tailLines', () => {
    assert.equal(formatLog(lines, { tailLines: 2 }, NOW), 'line 3\nline 4\n');
    assert.equal(formatLog(lines, { tailLines: 0 }, NOW), '');
    assert.equal(formatLog(lines, { tailLines: 10 }, NOW), 'line 1\nline 2\nline 3\nline 4\n');
  });
  test('sinceSeconds counts back from now; a line exactly at the bound is kept', () => {
    assert.equal(formatLog(lines, { sinceSeconds: 2 }, NOW), 'line 3\nline 4\n');
    assert.equal(formatLog(lines, { sinceSeconds: 1 }, NOW), 'line 4\n');
  });
  test('tail first, then since (as the kubelet reads the file)', () =>
    assert.equal(formatLog(lines, { tailLines: 3, sinceSeconds: 2 }, NOW), 'line 3\nline 4\n'));
  test('sinceTime', () =>
    assert.equal(formatLog(lines, { sinceTime: '2026-01-01T00:00:03Z' }, NOW), 'line 3\nline 4\n'));
  test('timestamps: RFC 3339 with nine fraction digits', () => {
    assert.equal(
      formatLog(lines.slice(1, 3), { timestamps: true }, NOW),
      '2026-01-01T00:00:01.500000000Z line 2\n2026-01-01T00:00:03.000000000Z line 3\n',
    );
  });
  test('limitBytes cuts mid-line, timestamps counted', () => {
    assert.equal(formatLog(lines, { limitBytes: 10 }, NOW), 'line 1\nlin');
    assert.equal(formatLog(lines, { limitBytes: 33, timestamps: true }, NOW), '2026-01-01T00:00:00.000000000Z li');
  });
  test('the byte limit holds across writes (follow)', () => {
    const w = new LogWriter({ limitBytes: 12 }, NOW);
    assert.equal(w.write(lines.slice(0, 1)), 'line 1\n');
    assert.equal(w.full, false);
    assert.equal(w.write(lines.slice(1)), 'line ');
    assert.equal(w.full, true);
    assert.equal(w.write(lines), '');
  });
});

describe('log request errors, in upstream words', () => {
  test('invalid options are 422 PodLogOptions', () => {
    assert.deepEqual(
      status(() => validateLogOptions('web', { tailLines: -1 })),
      {
        code: 422,
        reason: 'Invalid',
        message: 'PodLogOptions "web" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0',
      },
    );
    assert.deepEqual(
      status(() => validateLogOptions('web', { limitBytes: 0, sinceSeconds: 0 })),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'PodLogOptions "web" is invalid: [limitBytes: Invalid value: 0: must be greater than 0, sinceSeconds: Invalid value: 0: must be greater than 0]',
      },
    );
    assert.deepEqual(
      status(() => validateLogOptions('web', { sinceSeconds: 5, sinceTime: '2026-01-01T00:00:00Z' })).message,
      'PodLogOptions "web" is invalid: : Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified',
    );
    assert.doesNotThrow(() => validateLogOptions('web', { tailLines: 0, limitBytes: 1, sinceSeconds: 1 }));
  });

  const pod = (containers: string[], inits: string[] = []): Pod => ({
    metadata: { name: 'web-abc', namespace: 'default' },
    spec: {
      containers: containers.map((name) => ({ name })),
      ...(inits.length ? { initContainers: inits.map((name) => ({ name })) } : {}),
    },
  });

  test('which container: the only one, or the one named; every name listed, init containers first', () => {
    assert.equal(logContainerName(pod(['web'], ['init']), undefined), 'web');
    assert.equal(logContainerName(pod(['web', 'sidecar'], ['init']), 'init'), 'init');
    assert.deepEqual(
      status(() => logContainerName(pod(['web', 'sidecar']), undefined)),
      {
        code: 400,
        reason: 'BadRequest',
        message: 'a container name must be specified for pod web-abc, choose one of: [web sidecar]',
      },
    );
    assert.equal(
      status(() => logContainerName(pod(['web', 'sidecar'], ['migrate']), '')).message,
      'a container name must be specified for pod web-abc, choose one of: [migrate web sidecar]',
    );
    assert.deepEqual(
      status(() => logContainerName(pod(['web']), 'foo')),
      { code: 400, reason: 'BadRequest', message: 'container foo is not valid for pod web-abc' },
    );
  });

  const s = (state: ContainerStatus['state'], lastState: ContainerStatus['lastState'] = {}, containerID?: string) => ({
    state,
    lastState,
    containerID,
  });
  const err = (st: ReturnType<typeof s> | undefined, previous = false) =>
    status(() => logContainerID(st, 'web', 'web-abc', previous)).message;

  test('which instance, as the kubelet chooses it', () => {
    const dead = { exitCode: 1, containerID: 'containerd://old' };
    assert.equal(
      logContainerID(s({ running: {} }, {}, 'containerd://new'), 'web', 'web-abc', false),
      'containerd://new',
    );
    assert.equal(
      logContainerID(s({ waiting: { reason: 'CrashLoopBackOff' } }, { terminated: dead }), 'web', 'web-abc', false),
      'containerd://old',
    );
    assert.equal(
      logContainerID(s({ running: {} }, { terminated: dead }, 'containerd://new'), 'web', 'web-abc', true),
      'containerd://old',
    );
    assert.equal(
      logContainerID(s({ terminated: { exitCode: 0, containerID: 'containerd://done' } }), 'web', 'web-abc', false),
      'containerd://done',
    );
  });

  test('why there is none', () => {
    assert.equal(
      err(s({ waiting: { reason: 'ContainerCreating' } })),
      'container "web" in pod "web-abc" is waiting to start: ContainerCreating',
    );
    assert.equal(
      err(s({ waiting: { reason: 'PodInitializing' } })),
      'container "web" in pod "web-abc" is waiting to start: PodInitializing',
    );
    assert.equal(
      err(s({ waiting: { reason: 'ErrImagePull' } })),
      'container "web" in pod "web-abc" is waiting to start: image can\'t be pulled',
    );
    assert.equal(
      err(s({ waiting: { reason: 'ImagePullBackOff' } })),
      'container "web" in pod "web-abc" is waiting to start: trying and failing to pull image',
    );
    assert.equal(
      err(s({ running: {} }, {}, 'containerd://x'), true),
      'previous terminated container "web" in pod "web-abc" not found',
    );
    assert.equal(err(undefined), 'container "web" in pod "web-abc" is not available');
    assert.equal(err(s({})), 'container "web" in pod "web-abc" is waiting to start - no logs yet');
    assert.equal(
      status(() => logContainerID(s({ waiting: { reason: 'ContainerCreating' } }), 'web', 'web-abc', false)).code,
      400,
    );
  });

  test("an unreachable kubelet: the API server's dial error, 500 without a reason", () => {
    const e = kubeletUnreachable('10.0.0.3', pod(['web']), 'web', { follow: true, tailLines: 10, timestamps: true });
    assert.deepEqual(
      [e.status.code, e.status.reason, e.status.message],
      [
        500,
        '',
        'Get "https://10.0.0.3:10250/containerLogs/default/web-abc/web?follow=true&tailLines=10&timestamps=true": dial tcp 10.0.0.3:10250: connect: connection refused',
      ],
    );
  });
});
