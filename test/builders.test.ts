/**
 * The builders every suite uses answer objects the API server accepts as they are, under strict field validation,
 * and their options land where a test expects them.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiServer } from '../sandbox/apiserver/apiServer';
import { VirtualClock } from '../sandbox/clock/virtualClock';
import {
  aConfigMap,
  aDeployment,
  aNamespace,
  aNode,
  aPod,
  aReplicaSet,
  aSecret,
  aService,
  anEvent,
  controllerRef,
  statusOf,
} from './builders';

function api(): ApiServer {
  return new ApiServer({ clock: new VirtualClock() });
}

describe('test builders', () => {
  test('every builder with its defaults is accepted under fieldValidation=Strict', () => {
    const server = api();
    const built = [
      aNamespace('team'),
      aNode('node-1', { cpu: '4', memory: '8Gi', pods: '110' }),
      aPod('p'),
      aDeployment('web', { replicas: 2 }),
      aReplicaSet('rs'),
      aConfigMap('c', { a: 'b' }),
      aSecret('s', { password: 'x' }),
      aService('web'),
      anEvent('e'),
    ];
    for (const obj of built) {
      const stored = server.create(obj, { fieldValidation: 'Strict' });
      assert.equal(stored.kind, obj.kind);
      assert.ok(stored.metadata.uid, `${obj.kind} stored`);
    }
    assert.equal(server.get('deployments', 'default', 'web').spec?.replicas, 2);
  });

  test('options land in metadata, spec and status', () => {
    const owner = controllerRef('ReplicaSet', 'web-1', 'uid-rs');
    const pod = aPod('p', {
      namespace: 'team',
      labels: { app: 'web' },
      owner,
      nodeName: 'node-1',
      requests: { cpu: '500m' },
    });
    assert.deepEqual(pod.metadata, {
      name: 'p',
      namespace: 'team',
      labels: { app: 'web' },
      ownerReferences: [owner],
    });
    assert.equal(pod.spec?.nodeName, 'node-1');
    assert.deepEqual(pod.spec?.containers[0].resources, { requests: { cpu: '500m' } });
    assert.equal(aPod('q', { namespace: null }).metadata.namespace, undefined, 'null leaves the namespace out');

    const node = aNode('n', { ready: false, unschedulable: true, taints: [{ key: 'k', effect: 'NoSchedule' }] });
    assert.equal(node.metadata.namespace, undefined, 'nodes are cluster-scoped');
    assert.deepEqual(node.metadata.labels, { 'kubernetes.io/hostname': 'n' });
    assert.deepEqual(node.status, { conditions: [{ type: 'Ready', status: 'Unknown' }] });
    assert.equal(node.spec?.unschedulable, true);

    const d = aDeployment('web', { selector: { tier: 'front' }, templateLabels: false });
    assert.deepEqual(d.spec?.selector, { matchLabels: { tier: 'front' } });
    assert.equal(d.spec?.template.metadata, undefined);
  });

  test('a template without its selector labels is refused: the builders do not hide invalid objects', () => {
    const status = statusOf(() => api().create(aDeployment('web', { templateLabels: false })));
    assert.equal(status.code, 422);
    assert.equal(
      status.message,
      'Deployment.apps "web" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{}: `selector` does not match template `labels`',
    );
  });

  test('statusOf answers the Status of a refusal and fails when the call succeeds', () => {
    const server = api();
    server.create(aConfigMap('c'));
    assert.equal(statusOf(() => server.create(aConfigMap('c'))).reason, 'AlreadyExists');
    assert.throws(() => statusOf(() => server.get('configmaps', 'default', 'c')), /expected an ApiError/);
  });
});
