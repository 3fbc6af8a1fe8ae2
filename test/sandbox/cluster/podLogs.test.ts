/**
 * `Cluster.podLogs` / `followPodLogs`: what `kubectl logs` gets through the
 * API, errors included, on a virtual clock with fixed kubelet delays.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1';
import { Cluster } from '../../../sandbox/cluster/cluster';
import type { PodLogOptions } from '../../../sandbox/cluster/cluster';
import { isApiError } from '../../../sandbox/api/errors';
import type { Typed } from '../../../sandbox/api/types';
import { BEHAVIOR_ANNOTATION } from '../../../sandbox/kubelet/behaviors';
import { FIXED_DELAYS } from '../kubelet/setup';

function newCluster(): Cluster {
  const c = new Cluster({ nodes: [{ name: 'node-1', index: 0, delays: FIXED_DELAYS }] });
  c.start();
  c.runUntilSettled();
  return c;
}

function createPod(
  c: Cluster,
  name: string,
  spec: Partial<NonNullable<Pod['spec']>>,
  annotations?: Record<string, string>,
): void {
  const pod: Typed<Pod> = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', ...(annotations ? { annotations } : {}) },
    spec: { containers: [], ...spec },
  };
  c.api.create(pod);
}

const COUNTER = {
  name: 'count',
  image: 'busybox',
  args: ['/bin/sh', '-c', 'i=0; while true; do echo "$i: $(date +%T)"; i=$((i+1)); sleep 1; done'],
};

/** `code reason: message` of the ApiError `fn` throws. */
function error(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (isApiError(e)) return `${e.status.code} ${e.status.reason}: ${e.status.message}`;
    throw e;
  }
  return 'no error';
}

const logs = (c: Cluster, pod: string, o: PodLogOptions = {}) => c.podLogs('default', pod, o);

describe('Cluster.podLogs', () => {
  test('a running container: tail, since and timestamps', () => {
    const c = newCluster();
    createPod(c, 'counter', { containers: [COUNTER] });
    c.runFor(12_000);
    const all = logs(c, 'counter').trimEnd().split('\n');
    // The cluster settled at 00:01:00; the pod started 1.5 s later (sandbox + pull), one line a second since.
    assert.equal(all.length, 11);
    assert.deepEqual(all.slice(0, 2), ['0: 00:01:01', '1: 00:01:02']);
    assert.equal(logs(c, 'counter', { tailLines: 2 }), `${all.slice(-2).join('\n')}\n`);
    assert.match(
      logs(c, 'counter', { tailLines: 1, timestamps: true }),
      /^2026-01-01T00:01:11\.500000000Z 10: 00:01:11\n$/,
    );
    assert.equal(logs(c, 'counter', { sinceSeconds: 2 }), `${all.slice(-2).join('\n')}\n`);
    assert.equal(logs(c, 'counter', { limitBytes: 4 }), '0: 0');
  });

  test('--previous after the crash action; before any restart there is none', () => {
    const c = newCluster();
    createPod(c, 'web', { containers: [{ name: 'web', image: 'nginx:1.27' }] });
    c.runFor(5000);
    assert.equal(
      error(() => logs(c, 'web', { previous: true })),
      '400 BadRequest: previous terminated container "web" in pod "web" not found',
    );
    c.crashContainer('default', 'web');
    c.runFor(5000);
    assert.match(
      logs(c, 'web', { previous: true }),
      /\[emerg\] 1#1: killed by the sandbox crash action \(exit code 137\)\n$/,
    );
    assert.doesNotMatch(logs(c, 'web'), /crash action/);
  });

  test('errors, in upstream words', () => {
    const c = newCluster();
    createPod(c, 'web-abc', {
      initContainers: [{ name: 'migrate', image: 'busybox', command: ['sleep', '5'] }],
      containers: [
        { name: 'web', image: 'nginx:1.27' },
        { name: 'sidecar', image: 'busybox', command: ['sleep', '3600'] },
      ],
    });
    createPod(c, 'pull', { containers: [{ name: 'app', image: 'example.com/does-not-exist/app:1' }] });
    createPod(c, 'nowhere', { nodeSelector: { disk: 'ssd' }, containers: [{ name: 'app', image: 'nginx' }] });
    createPod(c, 'ghost', { nodeName: 'node-9', containers: [{ name: 'app', image: 'nginx' }] });
    c.runFor(10);
    assert.equal(
      error(() => logs(c, 'nope')),
      '404 NotFound: pods "nope" not found',
    );
    assert.equal(
      error(() => logs(c, 'nope', { tailLines: -1 })),
      '422 Invalid: PodLogOptions "nope" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0',
    );
    assert.equal(
      error(() => logs(c, 'web-abc')),
      '400 BadRequest: a container name must be specified for pod web-abc, choose one of: [migrate web sidecar]',
    );
    assert.equal(
      error(() => logs(c, 'web-abc', { container: 'foo' })),
      '400 BadRequest: container foo is not valid for pod web-abc',
    );
    assert.equal(
      error(() => logs(c, 'web-abc', { container: 'migrate' })),
      '400 BadRequest: container "migrate" in pod "web-abc" is waiting to start: PodInitializing',
    );
    assert.equal(
      error(() => logs(c, 'pull')),
      '400 BadRequest: container "app" in pod "pull" is waiting to start: ContainerCreating',
    );
    c.runFor(1500);
    assert.equal(
      error(() => logs(c, 'pull')),
      '400 BadRequest: container "app" in pod "pull" is waiting to start: image can\'t be pulled',
    );
    c.runFor(1000);
    assert.equal(
      error(() => logs(c, 'pull')),
      '400 BadRequest: container "app" in pod "pull" is waiting to start: trying and failing to pull image',
    );
    assert.equal(
      error(() => logs(c, 'web-abc', { container: 'web' })),
      '400 BadRequest: container "web" in pod "web-abc" is waiting to start: PodInitializing',
    );
    // Not scheduled: upstream answers 204 with no body.
    assert.equal(logs(c, 'nowhere'), '');
    assert.equal(
      error(() => logs(c, 'ghost')),
      '404 NotFound: nodes "node-9" not found',
    );
  });

  test('a failed node: the API server cannot reach its kubelet', () => {
    const c = newCluster();
    createPod(c, 'web', { containers: [{ name: 'web', image: 'nginx:1.27' }] });
    c.runFor(5000);
    c.failNode('node-1');
    assert.equal(
      error(() => logs(c, 'web', { tailLines: 10 })),
      '500 : Get "https://10.0.0.2:10250/containerLogs/default/web/web?tailLines=10": dial tcp 10.0.0.2:10250: connect: connection refused',
    );
    c.recoverNode('node-1');
    assert.match(logs(c, 'web'), /nginx\/1\.27\.0/);
  });
});

describe('Cluster.followPodLogs', () => {
  test('delivers the log so far, then each new line as it is printed, and nothing after unsubscribing', () => {
    const c = newCluster();
    createPod(c, 'counter', { containers: [COUNTER] });
    c.runFor(4000);
    const got: string[] = [];
    let ended = false;
    const stop = c.followPodLogs(
      'default',
      'counter',
      { tailLines: 1 },
      (t) => got.push(t),
      () => (ended = true),
    );
    assert.equal(got.length, 1);
    const first = Number(got[0].split(':')[0]);
    c.runFor(3000);
    assert.deepEqual(
      got.map((t) => Number(t.split(':')[0])),
      [first, first + 1, first + 2, first + 3],
    );
    stop();
    c.runFor(3000);
    assert.equal(got.length, 4);
    assert.equal(ended, false);
  });

  test('ends when the container exits, and when the byte limit is reached', () => {
    const c = newCluster();
    createPod(c, 'job', {
      restartPolicy: 'Never',
      containers: [{ name: 'app', image: 'busybox', command: ['sh', '-c', 'echo one; sleep 2; echo two'] }],
    });
    c.runFor(1600);
    const got: string[] = [];
    c.followPodLogs(
      'default',
      'job',
      {},
      (t) => got.push(t),
      () => got.push('<end>'),
    );
    c.runFor(5000);
    assert.deepEqual(got, ['one\n', 'two\n', '<end>']);
    // Finished: the whole log at once, then the end.
    const again: string[] = [];
    c.followPodLogs(
      'default',
      'job',
      {},
      (t) => again.push(t),
      () => again.push('<end>'),
    );
    assert.deepEqual(again, ['one\ntwo\n', '<end>']);

    createPod(c, 'counter', { containers: [COUNTER] });
    c.runFor(1600);
    const limited: string[] = [];
    c.followPodLogs(
      'default',
      'counter',
      { limitBytes: 20 },
      (t) => limited.push(t),
      () => limited.push('<end>'),
    );
    c.runFor(5000);
    assert.equal(limited.at(-1), '<end>');
    assert.equal(limited.slice(0, -1).join('').length, 20);
  });

  test('an unscheduled pod ends at once; a failed node ends the stream; following does not keep the cluster from settling', () => {
    const c = newCluster();
    createPod(c, 'nowhere', { nodeSelector: { disk: 'ssd' }, containers: [{ name: 'app', image: 'nginx' }] });
    const got: string[] = [];
    c.followPodLogs(
      'default',
      'nowhere',
      {},
      (t) => got.push(t),
      () => got.push('<end>'),
    );
    assert.deepEqual(got, ['<end>']);

    createPod(c, 'counter', { containers: [COUNTER] }, { [BEHAVIOR_ANNOTATION]: 'ready-after=1s' });
    c.runFor(3000);
    const lines: string[] = [];
    c.followPodLogs(
      'default',
      'counter',
      { tailLines: 0 },
      (t) => lines.push(t),
      () => lines.push('<end>'),
    );
    const settle = c.runUntilSettled(60_000);
    assert.equal(settle.settled, true);
    assert.ok(lines.length > 0 && !lines.includes('<end>'));
    c.failNode('node-1');
    assert.equal(lines.at(-1), '<end>');
    assert.throws(
      () => c.followPodLogs('default', 'counter', {}, () => undefined),
      (e) => isApiError(e, 500),
    );
  });
});

describe('files from ConfigMap and Secret volumes', () => {
  test('cat prints a projected ConfigMap key, an items rename, a subPath and a decoded Secret; other paths are errors', () => {
    const c = newCluster();
    c.api.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cfg', namespace: 'default' },
      data: { 'app.properties': 'greeting=hello\nretries=3\n', other: 'x\n' },
    });
    c.api.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'sec', namespace: 'default' },
      stringData: { token: 'not-a-real-token\n' },
    });
    createPod(c, 'reader', {
      containers: [
        {
          name: 'app',
          image: 'busybox:1.36',
          command: [
            'sh',
            '-c',
            'cat /etc/app/app.properties /etc/renamed/o.txt /etc/one /etc/secret/token /etc/missing; sleep 3600',
          ],
          volumeMounts: [
            { name: 'cfg', mountPath: '/etc/app' },
            { name: 'renamed', mountPath: '/etc/renamed/' },
            { name: 'cfg', mountPath: '/etc/one', subPath: 'other' },
            { name: 'sec', mountPath: '/etc/secret' },
          ],
        },
      ],
      volumes: [
        { name: 'cfg', configMap: { name: 'cfg' } },
        { name: 'renamed', configMap: { name: 'cfg', items: [{ key: 'other', path: 'o.txt' }] } },
        { name: 'sec', secret: { secretName: 'sec' } },
      ],
    });
    c.runFor(30_000);
    assert.equal(
      logs(c, 'reader'),
      [
        'greeting=hello',
        'retries=3',
        'x',
        'x',
        'not-a-real-token',
        "cat: can't open '/etc/missing': No such file or directory",
        '',
      ].join('\n'),
    );
  });
});
