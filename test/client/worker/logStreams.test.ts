/** The worker's `kubectl logs -f`: the log so far, then what the container prints as notifications, until stopped. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../sandbox/api/types';
import { Cluster } from '../../../sandbox/cluster/cluster';
import type { Notification } from '../../../client/src/sandbox/protocol';
import { LogStreams, podLogRequestOf } from '../../../client/src/worker/logStreams';
import { FIXED_DELAYS } from '../../sandbox/kubelet/setup';

function counter(): Cluster {
  const c = new Cluster({ nodes: [{ name: 'node-1', index: 0, delays: FIXED_DELAYS }] });
  c.start();
  c.runUntilSettled();
  c.api.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'counter', namespace: 'default' },
    spec: {
      containers: [
        {
          name: 'count',
          image: 'busybox',
          args: ['/bin/sh', '-c', 'i=0; while true; do echo "tick $i"; i=$((i+1)); sleep 1; done'],
        },
      ],
    },
  } as unknown as KubeObject);
  c.runFor(5_000);
  return c;
}

describe('LogStreams', () => {
  test('follow: the lines so far in the answer, later ones as podLog notifications, none after stop', () => {
    const c = counter();
    const sent: Notification[] = [];
    const streams = new LogStreams((n) => sent.push(n));
    const first = streams.start(c, { namespace: 'default', name: 'counter', follow: true });
    assert.match(first.text, /^tick 0\ntick 1\n/);
    assert.equal(typeof first.stream, 'number');
    c.runFor(2_000);
    const texts = sent.map((n) => (n.kind === 'podLog' ? n.text : '')).join('');
    assert.match(texts, /^tick \d+\ntick \d+\n$/);
    assert.ok(sent.every((n) => n.kind === 'podLog' && n.stream === first.stream));
    streams.stop(first.stream!);
    const count = sent.length;
    c.runFor(3_000);
    assert.equal(sent.length, count, 'nothing after stop');
  });

  test('without follow: the log once; a reset ends the open streams with why', () => {
    const c = counter();
    const sent: Notification[] = [];
    const streams = new LogStreams((n) => sent.push(n));
    const once = streams.start(c, { namespace: 'default', name: 'counter', tailLines: 1 });
    assert.equal(once.stream, undefined);
    assert.match(once.text, /^tick \d+\n$/);
    const open = streams.start(c, { namespace: 'default', name: 'counter', follow: true });
    streams.dispose();
    assert.deepEqual(sent.at(-1), { kind: 'podLog', stream: open.stream, end: 'the sandbox was reset' });
  });

  test("a pod on a node whose kubelet is stopped answers kubectl's connection refused", () => {
    const c = new Cluster({ nodes: 1 });
    c.start();
    c.failNode('node-1');
    c.api.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'waiting', namespace: 'default' },
      spec: { nodeName: 'node-1', containers: [{ name: 'a', image: 'busybox' }] },
    } as unknown as KubeObject);
    const streams = new LogStreams(() => undefined);
    assert.throws(
      () => streams.start(c, { namespace: 'default', name: 'waiting', follow: true }),
      /dial tcp 10\.0\.0\.2:10250: connect: connection refused/,
    );
  });

  test('requests are checked at the edge', () => {
    assert.deepEqual(podLogRequestOf({ namespace: 'default', name: 'p', previous: true, tailLines: 3 }), {
      namespace: 'default',
      name: 'p',
      previous: true,
      tailLines: 3,
    });
    assert.throws(
      () => podLogRequestOf({ namespace: 'default', name: 'p', follow: 'yes' }),
      /follow must be true or false/,
    );
    assert.throws(() => podLogRequestOf({ namespace: 'default', name: 'p', tailLines: -1 }), /tailLines/);
  });
});
