import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EventRecorder } from '../../../sandbox/client/eventRecorder';
import { newApi, pod } from '../fixtures';

describe('EventRecorder', () => {
  test('records an Event with the involved object, and counts repeats', () => {
    const { api, clock } = newApi();
    const p = api.create(pod('web-1'));
    const rec = new EventRecorder(api, { component: 'kubelet', host: 'node-1' });
    rec.record(p, 'Normal', 'Pulled', 'Container image "nginx:1.27" already present on machine');
    clock.advance(10_000);
    rec.record(p, 'Normal', 'Pulled', 'Container image "nginx:1.27" already present on machine');
    rec.record(p, 'Warning', 'BackOff', 'Back-off restarting failed container app in pod web-1_default(x)');
    const events = api.list('events', { namespace: 'default' }).items;
    assert.equal(events.length, 2);
    const pulled = events.find((e) => e.reason === 'Pulled')!;
    const { metadata, ...rest } = pulled;
    assert.match(metadata.name!, /^web-1\.[0-9a-f]+$/);
    assert.deepEqual(rest, {
      apiVersion: 'v1',
      kind: 'Event',
      involvedObject: {
        apiVersion: 'v1',
        kind: 'Pod',
        name: 'web-1',
        namespace: 'default',
        uid: p.metadata.uid,
        resourceVersion: p.metadata.resourceVersion,
      },
      reason: 'Pulled',
      message: 'Container image "nginx:1.27" already present on machine',
      type: 'Normal',
      source: { component: 'kubelet', host: 'node-1' },
      reportingComponent: 'kubelet',
      reportingInstance: 'node-1',
      firstTimestamp: '2026-01-01T00:00:00Z',
      lastTimestamp: '2026-01-01T00:00:10Z',
      eventTime: null,
      count: 2,
    });
    const byField = api.list('events', { fieldSelector: 'involvedObject.name=web-1,reason=BackOff' }).items;
    assert.equal(byField.length, 1);
    assert.equal(byField[0].type, 'Warning');
  });

  test('events for cluster-scoped objects go to the default namespace; failures never throw', () => {
    const { api } = newApi();
    const ns = api.get('namespaces', undefined, 'kube-public');
    const rec = new EventRecorder(api, { component: 'namespace-controller' });
    const ev = rec.record(ns, 'Normal', 'Checked', 'ok');
    assert.equal(ev?.metadata.namespace, 'default');
    api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'gone' } });
    api.delete('namespaces', undefined, 'gone');
    const p = { ...pod('x'), metadata: { name: 'x', namespace: 'gone', uid: 'u' } };
    assert.equal(rec.record(p, 'Normal', 'X', 'y'), undefined);
  });
});
