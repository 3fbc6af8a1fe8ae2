import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { restoreSnapshot, takeSnapshot } from '../../../sandbox/apiserver/snapshot';
import { VirtualClock } from '../../../sandbox/clock/virtualClock';
import { configMap, deployment, newApi, pod, statusOf } from '../fixtures';

describe('snapshots', () => {
  test('restore gives back every object, the revision and the random sequence', () => {
    const { api } = newApi(3);
    api.create(deployment('web'));
    api.create(pod('p'));
    api.create(configMap('c', { a: '1' }));
    api.create({ ...configMap(''), metadata: { generateName: 'gen-', namespace: 'default' } });
    const snap = JSON.parse(JSON.stringify(takeSnapshot(api)));
    const restored = restoreSnapshot(snap, { clock: new VirtualClock() });
    assert.equal(restored.resourceVersion, api.resourceVersion);
    for (const kind of ['deployments', 'pods', 'configmaps', 'namespaces', 'services']) {
      assert.deepEqual(restored.list(kind).items, api.list(kind).items);
    }
    const next = (a: typeof api) =>
      a.create({ ...configMap(''), metadata: { generateName: 'n-', namespace: 'default' } }).metadata;
    const [x, y] = [next(api), next(restored)];
    assert.equal(x.name, y.name);
    assert.equal(x.uid, y.uid);
    assert.equal(x.resourceVersion, y.resourceVersion);
  });

  test('watches from before the snapshot are 410; allocations survive', () => {
    const { api } = newApi();
    api.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's', namespace: 'default' },
      spec: { ports: [{ port: 80 }], selector: { a: 'b' } },
    });
    const ip = (api.get('services', 'default', 's').spec as { clusterIP: string }).clusterIP;
    const restored = restoreSnapshot(JSON.parse(JSON.stringify(takeSnapshot(api))), { clock: new VirtualClock() });
    assert.equal(statusOf(() => restored.watch('pods', { resourceVersion: '1' }, () => undefined)).code, 410);
    const s = statusOf(() =>
      restored.create({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 't', namespace: 'default' },
        spec: { clusterIP: ip, ports: [{ port: 80 }], selector: { a: 'b' } },
      }),
    );
    assert.equal(s.code, 422);
  });

  test('a store of 200,000 objects is snapshotted (a list that large is not spread into one call)', () => {
    const { api } = newApi();
    const base = JSON.parse(JSON.stringify(takeSnapshot(api)));
    const rv = Number(base.resourceVersion) + 200_000;
    const objects = [...base.objects];
    for (let i = 0; i < 200_000; i++)
      objects.push({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `c${i}`, namespace: 'default', resourceVersion: String(rv - i), uid: `u${i}` },
      });
    const restored = restoreSnapshot({ ...base, resourceVersion: String(rv), objects }, { clock: new VirtualClock() });
    const again = takeSnapshot(restored);
    assert.equal(again.objects.length, objects.length);
    assert.equal(again.resourceVersion, String(rv));
  });

  test('a bad snapshot is refused whole with a clear message', () => {
    const { api } = newApi();
    const good = JSON.parse(JSON.stringify(takeSnapshot(api)));
    const clock = new VirtualClock();
    assert.throws(() => restoreSnapshot('nope', { clock }), /invalid snapshot: not a JSON object/);
    assert.throws(() => restoreSnapshot({ ...good, kind: 'Other' }, { clock }), /expected apiVersion/);
    assert.throws(
      () =>
        restoreSnapshot(
          { ...good, objects: [...good.objects, { apiVersion: 'x/v1', kind: 'Y', metadata: { name: 'z' } }] },
          { clock },
        ),
      /objects\[\d+\] has an unknown kind x\/v1\/Y/,
    );
    assert.throws(
      () => restoreSnapshot({ ...good, objects: [...good.objects, good.objects[0]] }, { clock }),
      /duplicates Namespace default/,
    );
    assert.throws(() => restoreSnapshot({ ...good, resourceVersion: '1' }, { clock }), /outside 1\.\.1/);
  });

  test('a ValidatingAdmissionPolicy of the wrong shape kept by an older build is refused, a good one restored', () => {
    const { api } = newApi();
    const policy = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'replicas-limit' },
      spec: {
        matchConstraints: {
          resourceRules: [
            { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] },
          ],
        },
        validations: [{ expression: 'object.spec.replicas <= 5' }],
      },
    };
    api.create(policy);
    const snap = JSON.parse(JSON.stringify(takeSnapshot(api)));
    const clock = new VirtualClock();
    assert.equal(
      restoreSnapshot(snap, { clock }).get('validatingadmissionpolicies', '', 'replicas-limit').kind,
      policy.kind,
    );
    const stored = snap.objects.find((o: { kind: string }) => o.kind === 'ValidatingAdmissionPolicy');
    stored.spec.matchConstraints.resourceRules[0].resources = 'deployments';
    assert.throws(
      () => restoreSnapshot(snap, { clock }),
      /invalid snapshot: objects\[\d+\] \(ValidatingAdmissionPolicy replicas-limit\) cannot be decoded: json: cannot unmarshal string into Go struct field .*resources of type \[\]string/,
    );
  });
});
