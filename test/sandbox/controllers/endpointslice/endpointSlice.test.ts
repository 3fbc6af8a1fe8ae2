import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import type { KubeObject } from '../../../../sandbox/api/types';
import { EndpointSliceController } from '../../../../sandbox/controllers/endpointslice/endpointSliceController';
import { EndpointsController } from '../../../../sandbox/controllers/endpointslice/endpointsController';
import { newHarness } from '../harness';
import type { Harness } from '../harness';

function service(name: string, ports: Record<string, unknown>[], extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'default', labels: { tier: 'web' } },
    spec: { selector: { app: 'web' }, ports, ...extra },
  };
}

/** Creates a pod and writes the status a kubelet would: bound, running, with an IP and readiness. */
function pod(
  h: Harness,
  name: string,
  ip: string,
  ready: boolean,
  containerPort = 8080,
  labels: Record<string, string> = { app: 'web' },
): KubeObject {
  const created = h.api.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels },
    spec: {
      nodeName: 'node-1',
      containers: [{ name: 'main', image: 'nginx', ports: [{ name: 'http', containerPort }] }],
    },
  });
  return h.api.updateStatus({
    ...created,
    status: { phase: 'Running', podIP: ip, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  });
}

function setup(): Harness {
  const h = newHarness(1);
  h.api.create({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'node-1', labels: { 'topology.kubernetes.io/zone': 'zone-a' } },
  });
  new EndpointSliceController(h.ctx).start();
  new EndpointsController(h.ctx).start();
  return h;
}

const slices = (h: Harness): EndpointSlice[] => h.api.list('endpointslices', { namespace: 'default' }).items;
const ref = (h: Harness, name: string) => ({
  kind: 'Pod',
  namespace: 'default',
  name,
  uid: h.api.get('pods', 'default', name).metadata.uid,
});

describe('EndpointSlice controller', () => {
  test('one slice per Service with ready, not-ready and terminating endpoints and the named port resolved', () => {
    const h = setup();
    pod(h, 'web-a', '10.0.0.1', true);
    pod(h, 'web-b', '10.0.0.2', false);
    const svc = h.api.create(service('web', [{ name: 'http', port: 80, targetPort: 'http' }]));
    h.advance(0);
    const [slice, ...rest] = slices(h);
    assert.deepEqual(rest, []);
    assert.match(slice.metadata!.name!, /^web-[a-z0-9]{5}$/);
    assert.deepEqual(slice.metadata!.labels, {
      tier: 'web',
      'kubernetes.io/service-name': 'web',
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
    });
    assert.deepEqual(slice.metadata!.ownerReferences, [
      {
        apiVersion: 'v1',
        kind: 'Service',
        name: 'web',
        uid: svc.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    assert.deepEqual(
      [slice.addressType, slice.ports, slice.endpoints],
      [
        'IPv4',
        [{ name: 'http', port: 8080, protocol: 'TCP' }],
        [
          {
            addresses: ['10.0.0.1'],
            conditions: { ready: true, serving: true, terminating: false },
            nodeName: 'node-1',
            zone: 'zone-a',
            targetRef: ref(h, 'web-a'),
          },
          {
            addresses: ['10.0.0.2'],
            conditions: { ready: false, serving: false, terminating: false },
            nodeName: 'node-1',
            zone: 'zone-a',
            targetRef: ref(h, 'web-b'),
          },
        ],
      ],
    );
    h.record(['endpointslices']);
    h.api.delete('pods', 'default', 'web-a');
    h.advance(0);
    assert.deepEqual(h.actions(), [`MODIFIED endpointslices default/${slice.metadata!.name}`], 'updated in place');
    assert.deepEqual(slices(h)[0].endpoints[0].conditions, { ready: false, serving: true, terminating: true });
  });

  test('publishNotReadyAddresses makes every endpoint ready; terminal pods and pods without an IP are left out', () => {
    const h = setup();
    pod(h, 'web-a', '10.0.0.1', false);
    const done = pod(h, 'web-done', '10.0.0.9', false);
    h.api.updateStatus({ ...done, status: { ...(done.status as object), phase: 'Succeeded' } });
    h.api.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web-noip', namespace: 'default', labels: { app: 'web' } },
      spec: { containers: [{ name: 'main', image: 'nginx' }] },
    });
    h.api.create(service('web', [{ port: 80, targetPort: 8080 }], { publishNotReadyAddresses: true }));
    h.advance(0);
    const [slice] = slices(h);
    assert.deepEqual(
      slice.endpoints.map((e) => [e.targetRef?.name, e.conditions]),
      [['web-a', { ready: true, serving: false, terminating: false }]],
    );
    assert.deepEqual(slice.ports, [{ name: '', port: 8080, protocol: 'TCP' }]);
  });

  test('pods that resolve a named port differently get separate slices', () => {
    const h = setup();
    pod(h, 'web-a', '10.0.0.1', true, 8080);
    pod(h, 'web-b', '10.0.0.2', true, 9090);
    h.api.create(service('web', [{ name: 'http', port: 80, targetPort: 'http' }]));
    h.advance(0);
    const got = slices(h)
      .map((s) => [s.ports?.[0].port, s.endpoints.map((e) => e.targetRef?.name)])
      .sort();
    assert.deepEqual(got, [
      [8080, ['web-a']],
      [9090, ['web-b']],
    ]);
  });

  test('more than 100 endpoints are split into slices of at most 100', () => {
    const h = setup();
    for (let i = 0; i < 250; i++)
      pod(h, `web-${String(i).padStart(3, '0')}`, `10.0.${Math.floor(i / 200)}.${i % 200}`, true);
    h.api.create(service('web', [{ port: 80, targetPort: 8080 }]));
    h.advance(0);
    assert.deepEqual(
      slices(h)
        .map((s) => s.endpoints.length)
        .sort(),
      [100, 100, 50],
    );
    assert.equal(new Set(slices(h).flatMap((s) => s.endpoints.map((e) => e.targetRef?.name))).size, 250);
  });

  test('a Service with no matching pods has one empty slice; deleting the Service removes its slices', () => {
    const h = setup();
    h.api.create(service('web', [{ port: 80 }]));
    h.advance(0);
    assert.deepEqual(
      slices(h).map((s) => [s.endpoints, s.ports]),
      [[[], undefined]],
    );
    pod(h, 'web-a', '10.0.0.1', true);
    h.advance(0);
    assert.deepEqual(
      slices(h).map((s) => [s.endpoints.length, s.ports]),
      [[1, [{ name: '', port: 80, protocol: 'TCP' }]]],
    );
    h.api.delete('services', 'default', 'web');
    h.advance(0);
    assert.deepEqual(slices(h), []);
    assert.equal(h.api.tryGet('endpoints', 'default', 'web'), undefined);
  });
});

describe('Endpoints controller', () => {
  test('an Endpoints object named like the Service with ready and not-ready addresses', () => {
    const h = setup();
    pod(h, 'web-b', '10.0.0.2', true);
    pod(h, 'web-a', '10.0.0.1', true);
    pod(h, 'web-c', '10.0.0.3', false);
    h.api.create(
      service('web', [
        { name: 'http', port: 80, targetPort: 'http' },
        { name: 'metrics', port: 9100 },
      ]),
    );
    h.advance(0);
    const ep = h.api.get('endpoints', 'default', 'web');
    const addr = (name: string, ip: string) => ({ ip, nodeName: 'node-1', targetRef: ref(h, name) });
    assert.deepEqual(
      [ep.metadata.labels, ep.subsets],
      [
        { tier: 'web', 'endpointslice.kubernetes.io/skip-mirror': 'true' },
        [
          {
            addresses: [addr('web-a', '10.0.0.1'), addr('web-b', '10.0.0.2')],
            notReadyAddresses: [addr('web-c', '10.0.0.3')],
            ports: [
              { name: 'http', port: 8080, protocol: 'TCP' },
              { name: 'metrics', port: 9100, protocol: 'TCP' },
            ],
          },
        ],
      ],
    );
  });
});
