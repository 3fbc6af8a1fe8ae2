import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeDescription, objectDescription } from '../../../client/src/model/describe';
import { objectIcon } from '../../../client/src/model/icons';
import { objectTooltip } from '../../../client/src/model/tooltip';
import { CREATED, NOW, controller, meta, node, pod } from './fixtures';

describe('descriptions', () => {
  test('pods read like kubectl STATUS, with readiness, restarts, node and age', () => {
    assert.deepEqual(
      [
        pod('a', 'running', 'node-1'),
        pod('b', 'unready', 'node-2'),
        pod('c', 'pending', undefined),
        pod('d', 'crashing', 'node-1'),
        pod('e', 'completed', 'node-3'),
      ].map((p) => objectDescription(p, NOW)),
      [
        'Running · node-1 · 5m',
        'Running · 0/1 ready · node-2 · 5m',
        'Pending · 5m',
        'CrashLoopBackOff · 4 restarts · node-1 · 5m',
        'Completed · node-3 · 5m',
      ],
    );
  });

  test('a terminating pod says Terminating, as kubectl does', () => {
    const p = pod('a', 'running', 'node-1');
    p.metadata.deletionTimestamp = '2025-01-01T00:09:30Z';
    assert.equal(objectDescription(p, NOW), 'Terminating · node-1 · 5m');
  });

  test('nodes: status words and the count of pods that are not finished', () => {
    const pods = [pod('a', 'running', 'node-1'), pod('b', 'completed', 'node-1'), pod('c', 'crashing', 'node-1')];
    assert.equal(nodeDescription(node('node-1', true), pods), 'Ready · 2 pods');
    assert.equal(nodeDescription(node('node-1', false, true), []), 'NotReady · SchedulingDisabled · 0 pods');
    assert.equal(nodeDescription(node('node-1', true), [pods[0]]), 'Ready · 1 pod');
  });

  test('config objects count their keys; secrets say their type', () => {
    const cm = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: meta('cfg', 'u1', 'default'),
      data: { a: '1', b: '2' },
    };
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: meta('s', 'u2', 'default'),
      type: 'Opaque',
      data: { password: 'cw==' },
    };
    assert.deepEqual([objectDescription(cm, NOW), objectDescription(secret, NOW)], ['2 keys', 'Opaque · 1 key']);
  });
});

describe('icons', () => {
  test('pod icons are coloured by status: running green, starting yellow, failing red, finished plain, going grey', () => {
    const terminating = pod('t', 'running', 'node-1');
    terminating.metadata.deletionTimestamp = CREATED;
    assert.deepEqual(
      [
        pod('a', 'running', 'node-1'),
        pod('b', 'pending', undefined),
        pod('c', 'crashing', 'node-1'),
        pod('d', 'completed', 'node-1'),
        terminating,
      ].map((p) => objectIcon('pods', p)),
      [
        { id: 'vm', color: 'charts.green' },
        { id: 'vm', color: 'charts.yellow' },
        { id: 'vm', color: 'charts.red' },
        { id: 'vm' },
        { id: 'vm', color: 'disabledForeground' },
      ],
    );
  });

  test('a pod that failed with an error exit code is red', () => {
    const p = pod('x', 'running', 'node-1');
    p.status = {
      phase: 'Failed',
      containerStatuses: [
        {
          name: 'app',
          image: 'nginx:1.27',
          imageID: '',
          ready: false,
          restartCount: 0,
          state: { terminated: { exitCode: 2 } },
        },
      ],
    };
    assert.deepEqual(objectIcon('pods', p), { id: 'vm', color: 'charts.red' });
  });
});

describe('tooltips', () => {
  test('a pod tooltip is its kind and name, then its wide kubectl row', () => {
    const p = pod('web-1', 'crashing', 'node-1', controller('ReplicaSet', 'web', 'uid-web'));
    assert.equal(
      objectTooltip(p, NOW),
      [
        '**Pod** default/web\\-1',
        '',
        '- Ready: 0/1',
        '- Status: CrashLoopBackOff',
        '- Restarts: 4 \\(60s ago\\)',
        '- Age: 5m',
        '- Node: node\\-1',
      ].join('\n'),
    );
  });
});
