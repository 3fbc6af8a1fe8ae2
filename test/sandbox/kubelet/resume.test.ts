/**
 * A fork of a running cluster (`ClusterOptions.resumePods`, as `kube-reconcile plan` forks a snapshot): the kubelets
 * take the pods Running on their nodes over as they are — same containers, IPs, restarts, readiness — so a settled
 * cluster is settled at once, and the resumed pods go on behaving (a crash restarts them, new pods get fresh IPs).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1';
import type { KubeObject } from '../../../sandbox/api/types';
import { restoreSnapshot, takeSnapshot } from '../../../sandbox/apiserver/snapshot';
import type { Snapshot } from '../../../sandbox/apiserver/snapshot';
import { SeededRandom } from '../../../sandbox/clock/random';
import { VirtualClock } from '../../../sandbox/clock/virtualClock';
import { Cluster } from '../../../sandbox/cluster/cluster';
import { aDeployment, aService } from '../../builders';

function settledSnapshot(): Snapshot {
  const cluster = new Cluster({ nodes: 3 });
  cluster.start();
  const web = aDeployment('web', { replicas: 4, image: 'nginx:1.27', name: 'nginx', requests: { cpu: '100m' } });
  web.spec!.template.spec!.containers[0].readinessProbe = { httpGet: { path: '/', port: 80 }, periodSeconds: 5 };
  cluster.apply(web);
  cluster.apply(aService('web'));
  cluster.runUntilSettled();
  const snapshot = JSON.parse(JSON.stringify(takeSnapshot(cluster.api))) as Snapshot;
  cluster.stop();
  return snapshot;
}

function fork(snapshot: Snapshot, resumePods: boolean): Cluster {
  const clock = new VirtualClock(snapshot.time);
  const api = restoreSnapshot(snapshot, { clock, random: new SeededRandom(1).fork('apiserver') });
  const cluster = new Cluster({ api, clock, seed: 1, nodes: 3, resumePods });
  cluster.start();
  return cluster;
}

const pods = (c: Cluster) => c.api.list('pods').items as (Pod & KubeObject)[];
const statusOf = (objects: readonly unknown[]) =>
  new Map(
    (objects as (Pod & KubeObject)[])
      .filter((o) => o.kind === 'Pod')
      .map((p) => [p.metadata.name!, JSON.stringify(p.status)]),
  );
interface EventLike {
  metadata: { name?: string };
  reason?: string;
  involvedObject?: { kind?: string };
}
const events = (c: Cluster) => c.api.list('events').items as unknown as EventLike[];
/** Reasons of the events about pods written since `before` (a set of event names). */
const podEventsSince = (c: Cluster, before: ReadonlySet<string | undefined>) =>
  events(c)
    .filter((e) => !before.has(e.metadata.name) && e.involvedObject?.kind === 'Pod')
    .map((e) => e.reason);

describe('resuming the pods of a saved cluster', () => {
  const snapshot = settledSnapshot();

  test('a fork of a settled cluster is settled at once: every pod keeps its status, nothing is started again', () => {
    const cluster = fork(snapshot, true);
    const eventsBefore = new Set(events(cluster).map((e) => e.metadata.name));
    const settle = cluster.runUntilSettled();
    assert.equal(settle.settled, true);
    assert.deepEqual(settle.pending, []);
    assert.equal(settle.lastActivityAt, snapshot.time, 'no pod work after the fork');
    assert.deepEqual(statusOf(pods(cluster)), statusOf(snapshot.objects));
    assert.deepEqual(podEventsSince(cluster, eventsBefore), [], 'no Pulled, Created, Started or probe events');
    // A minute on: the readiness probes keep passing, still nothing changes.
    cluster.runFor(60_000);
    assert.deepEqual(statusOf(pods(cluster)), statusOf(snapshot.objects));
    cluster.stop();
  });

  test('without resumePods the same fork starts every pod again (new container ids)', () => {
    const cluster = fork(snapshot, false);
    const eventsBefore = new Set(events(cluster).map((e) => e.metadata.name));
    const settle = cluster.runUntilSettled();
    assert.equal(settle.settled, true);
    assert.ok(settle.lastActivityAt > snapshot.time);
    const before = statusOf(snapshot.objects);
    const after = statusOf(pods(cluster));
    assert.equal(after.size, 4);
    for (const [name, status] of after) assert.notEqual(status, before.get(name), name);
    assert.ok(podEventsSince(cluster, eventsBefore).includes('Started'));
    cluster.stop();
  });

  test('a resumed container that crashes is restarted as before: restart count 1, same pod IP', () => {
    const cluster = fork(snapshot, true);
    cluster.runUntilSettled();
    const pod = pods(cluster)[0];
    const ip = pod.status!.podIP;
    cluster.crashContainer('default', pod.metadata.name!);
    cluster.runUntilSettled();
    const after = cluster.api.get('pods', 'default', pod.metadata.name!) as Pod;
    const status = after.status!.containerStatuses![0];
    assert.equal(status.restartCount, 1);
    assert.equal(status.ready, true);
    assert.equal(status.lastState?.terminated?.exitCode, 137);
    assert.equal(status.lastState?.terminated?.containerID, pod.status!.containerStatuses![0].containerID);
    assert.equal(after.status!.podIP, ip);
    cluster.stop();
  });

  test('a pod that is not Running as a whole (a container crash-looping) is started afresh; the others resume', () => {
    const cluster = new Cluster({ nodes: 3 });
    cluster.start();
    cluster.apply(aDeployment('web', { replicas: 2, image: 'nginx:1.27', name: 'nginx' }));
    const bad = aDeployment('bad', { replicas: 1, image: 'busybox:1.36', name: 'main' });
    bad.spec!.template.spec!.containers[0].command = ['sh', '-c', 'exit 1'];
    cluster.apply(bad);
    cluster.runFor(60_000);
    const saved = JSON.parse(JSON.stringify(takeSnapshot(cluster.api))) as Snapshot;
    cluster.stop();
    const badPod = (saved.objects as (Pod & KubeObject)[]).find(
      (o) => o.kind === 'Pod' && o.metadata.name!.startsWith('bad-'),
    )!;
    assert.equal(badPod.status?.containerStatuses?.[0].state?.waiting?.reason, 'CrashLoopBackOff');
    const forked = fork(saved, true);
    const before = new Set(events(forked).map((e) => e.metadata.name));
    forked.runFor(5_000);
    const fresh = events(forked).filter(
      (e) => !before.has(e.metadata.name) && (e as { reason?: string }).reason === 'Started',
    ) as unknown as { involvedObject: { name: string } }[];
    assert.deepEqual(
      fresh.map((e) => e.involvedObject.name),
      [badPod.metadata.name],
      'only the crash-looping pod starts again',
    );
    forked.runFor(5_000);
    const ips = pods(forked).map((p) => p.status?.podIP);
    assert.equal(new Set(ips).size, 3, `distinct pod IPs: ${ips.join(', ')}`);
    forked.stop();
  });

  test('pods created after the fork get IPs none of the resumed pods has', () => {
    const cluster = fork(snapshot, true);
    cluster.scale('deployments', 'default', 'web', 10);
    const settle = cluster.runUntilSettled();
    assert.equal(settle.settled, true);
    const ips = pods(cluster).map((p) => p.status?.podIP);
    assert.equal(ips.length, 10);
    assert.equal(new Set(ips).size, 10, `duplicate pod IPs: ${ips.join(', ')}`);
    cluster.stop();
  });
});
