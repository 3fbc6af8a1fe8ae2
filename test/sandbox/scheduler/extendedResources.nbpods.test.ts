/**
 * Extended resources, as the docs' "Advertise Extended Resources for a Node" and "Assign Extended Resources to a
 * Container" tasks use them (kubernetes/website content/en/examples/pods/resource/extended-resource-pod*.yaml, CC BY
 * 4.0, copies in test/fixtures/docs/nbpods): a node advertises 4 dongles by a JSON patch of its status; the first pod
 * takes 3 and runs there, the second asks for 2 and stays Pending. Upstream: NodeResourcesFit `fitsRequest` counts
 * every scalar resource; the kubelet's `nodestatus.MachineInfo` keeps the patched capacity and copies it to
 * allocatable.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeObject } from '../../../sandbox/api/types';
import { Cluster } from '../../../sandbox/cluster/cluster';
import { manifestObjects } from '../../../sandbox/manifests/parseManifests';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'docs', 'nbpods', 'content', 'en', 'examples');

function example(file: string): KubeObject {
  return manifestObjects(readFileSync(join(FIXTURES, file), 'utf8')).manifests[0].object;
}

function started(): Cluster {
  const c = new Cluster({ nodes: 3 });
  c.start();
  c.runUntilSettled();
  return c;
}

function pod(c: Cluster, name: string) {
  return c.api.get('pods', 'default', name);
}

function failedScheduling(c: Cluster, name: string): string[] {
  return c.api
    .list('events', { namespace: 'default' })
    .items.filter((e) => e.involvedObject?.name === name && e.reason === 'FailedScheduling')
    .map((e) => e.message ?? '');
}

/** The docs' `curl --request PATCH … /api/v1/nodes/<node>/status` with `application/json-patch+json`. */
function advertiseDongles(c: Cluster, node: string, count: string): void {
  c.api.patch(
    'nodes',
    undefined,
    node,
    'json',
    [{ op: 'add', path: '/status/capacity/example.com~1dongle', value: count }],
    { subresource: 'status' },
  );
}

describe('extended resources (docs: extended-resource-pod.yaml, extended-resource-pod-2.yaml)', () => {
  test('a pod asking for dongles no node advertises stays Pending with "Insufficient example.com/dongle"', () => {
    const c = started();
    c.apply(example('pods/resource/extended-resource-pod-2.yaml'), { namespace: 'default' });
    c.runFor(30_000);
    const p = pod(c, 'extended-resource-demo-2');
    assert.equal(p.status?.phase, 'Pending');
    assert.equal(p.spec?.nodeName, undefined);
    assert.deepEqual(failedScheduling(c, 'extended-resource-demo-2'), [
      '0/3 nodes are available: 3 Insufficient example.com/dongle. preemption: 0/3 nodes are available: 3 No ' +
        'preemption victims found for incoming pod.',
    ]);
  });

  test('the kubelet copies a patched capacity to allocatable, keeps it, and the dongles are counted', () => {
    const c = started();
    advertiseDongles(c, 'node-2', '4');
    c.runFor(10_000);
    const allocatable = () =>
      (c.api.get('nodes', undefined, 'node-2').status?.allocatable ?? {}) as Record<string, string>;
    assert.equal(allocatable()['example.com/dongle'], '4');
    c.apply(example('pods/resource/extended-resource-pod.yaml'), { namespace: 'default' });
    c.runFor(30_000);
    const first = pod(c, 'extended-resource-demo');
    assert.equal(first.spec?.nodeName, 'node-2');
    assert.equal(first.status?.phase, 'Running');
    c.apply(example('pods/resource/extended-resource-pod-2.yaml'), { namespace: 'default' });
    c.runFor(30_000);
    assert.equal(pod(c, 'extended-resource-demo-2').status?.phase, 'Pending');
    // node-2 has 1 dongle left; the others advertise none.
    assert.deepEqual(failedScheduling(c, 'extended-resource-demo-2'), [
      '0/3 nodes are available: 3 Insufficient example.com/dongle. preemption: 0/3 nodes are available: 3 No ' +
        'preemption victims found for incoming pod.',
    ]);
    // The kubelet's 5-minute status report keeps the advertised capacity (upstream MachineInfo only sets its own).
    c.runFor(6 * 60_000);
    const node = c.api.get('nodes', undefined, 'node-2');
    assert.equal((node.status?.capacity as Record<string, string>)['example.com/dongle'], '4');
    assert.equal(allocatable()['example.com/dongle'], '4');
    // Deleting the first pod frees its 3 dongles: the second is scheduled on node-2.
    c.api.delete('pods', 'default', 'extended-resource-demo', { gracePeriodSeconds: 0 });
    c.runFor(60_000);
    const second = pod(c, 'extended-resource-demo-2');
    assert.equal(second.spec?.nodeName, 'node-2');
    assert.equal(second.status?.phase, 'Running');
  });
});
