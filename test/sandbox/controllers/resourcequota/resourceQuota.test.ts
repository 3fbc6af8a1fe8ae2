/**
 * ResourceQuota: the quota controller's status (upstream: pkg/controller/resourcequota/resource_quota_controller.go
 * syncResourceQuota) and the admission check (plugin/pkg/admission/resourcequota/controller.go CheckRequest, with
 * pkg/quota/v1/evaluator/core/pods.go for pod usage and Constraints), through the API server.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../sandbox/api/types';
import { ResourceQuotaController } from '../../../../sandbox/controllers/resourcequota/resourceQuotaController';
import { statusOf } from '../../fixtures';
import { newHarness } from '../harness';
import type { Harness } from '../harness';

function start(): Harness {
  const h = newHarness(1);
  new ResourceQuotaController(h.ctx).start();
  return h;
}

function quota(name: string, hard: Record<string, string>, extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name, namespace: 'default' },
    spec: { hard, ...extra },
  };
}

function pod(name: string, resources?: unknown, extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { containers: [{ name: 'nginx', image: 'nginx', ...(resources ? { resources } : {}) }], ...extra },
  };
}

function status(h: Harness, name: string): unknown {
  return h.api.get('resourcequotas', 'default', name).status;
}

describe('ResourceQuota controller', () => {
  test('status.hard mirrors spec.hard and status.used counts what the namespace holds', () => {
    const h = start();
    h.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default' } });
    h.api.create(quota('objects', { configmaps: '10', 'count/pods': '5', pods: '5' }));
    h.advance(0);
    assert.deepEqual(status(h, 'objects'), {
      hard: { configmaps: '10', 'count/pods': '5', pods: '5' },
      used: { configmaps: '1', 'count/pods': '0', pods: '0' },
    });
  });

  test('an admitted pod is charged at once; its usage is released when it finishes or goes', () => {
    const h = start();
    h.api.create(quota('compute', { 'requests.cpu': '1', 'limits.memory': '1Gi', pods: '2' }));
    h.advance(0);
    const res = { requests: { cpu: '400m' }, limits: { cpu: '400m', memory: '512Mi' } };
    h.api.create(pod('a', res));
    // Charged by admission, before the controller has looked.
    assert.deepEqual((status(h, 'compute') as { used: unknown }).used, {
      'limits.memory': '512Mi',
      pods: '1',
      'requests.cpu': '400m',
    });
    h.advance(0);
    const p = h.api.get('pods', 'default', 'a');
    h.api.updateStatus({ ...p, status: { ...p.status, phase: 'Succeeded' } });
    h.advance(0);
    assert.deepEqual((status(h, 'compute') as { used: unknown }).used, {
      'limits.memory': '0',
      pods: '0',
      'requests.cpu': '0',
    });
  });
});

describe('ResourceQuota admission', () => {
  test('a pod exceeding the quota is refused with upstream’s exceeded quota message', () => {
    const h = start();
    h.api.create(quota('compute', { 'requests.cpu': '1', 'requests.memory': '1Gi' }));
    h.advance(0);
    h.api.create(pod('first', { requests: { cpu: '700m', memory: '256Mi' } }));
    h.advance(0);
    const s = statusOf(() => h.api.create(pod('second', { requests: { cpu: '500m', memory: '256Mi' } })));
    assert.equal(s.code, 403);
    assert.equal(
      s.message,
      'pods "second" is forbidden: exceeded quota: compute, requested: requests.cpu=500m, ' +
        'used: requests.cpu=700m, limited: requests.cpu=1',
    );
    assert.equal(h.api.tryGet('pods', 'default', 'second'), undefined);
  });

  test('with cpu or memory quota’d, a container that does not state them is refused (must specify)', () => {
    const h = start();
    h.api.create(quota('compute', { 'limits.cpu': '2', 'requests.memory': '1Gi' }));
    h.advance(0);
    const s = statusOf(() => h.api.create(pod('bare')));
    assert.equal(
      s.message,
      'pods "bare" is forbidden: failed quota: compute: must specify limits.cpu for: nginx; requests.memory for: nginx',
    );
  });

  test('object counts: the fourth ConfigMap over count/configmaps=3 is refused', () => {
    const h = start();
    h.api.create(quota('counts', { 'count/configmaps': '3' }));
    h.advance(0);
    const cm = (name: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: 'default' },
    });
    for (const n of ['a', 'b', 'c']) h.api.create(cm(n));
    assert.equal(
      statusOf(() => h.api.create(cm('d'))).message,
      'configmaps "d" is forbidden: exceeded quota: counts, requested: count/configmaps=1, ' +
        'used: count/configmaps=3, limited: count/configmaps=3',
    );
    h.api.delete('configmaps', 'default', 'a');
    h.advance(0);
    assert.ok(h.api.create(cm('d')));
  });

  test('a BestEffort-scoped quota counts only BestEffort pods', () => {
    const h = start();
    h.api.create(quota('besteffort', { pods: '1' }, { scopes: ['BestEffort'] }));
    h.advance(0);
    h.api.create(pod('be1'));
    h.api.create(pod('burstable', { requests: { cpu: '100m' } }));
    assert.equal(
      statusOf(() => h.api.create(pod('be2'))).message,
      'pods "be2" is forbidden: exceeded quota: besteffort, requested: pods=1, used: pods=1, limited: pods=1',
    );
  });

  test('a dry run charges nothing', () => {
    const h = start();
    h.api.create(quota('count', { pods: '1' }));
    h.advance(0);
    h.api.create(pod('dry'), { dryRun: true });
    assert.deepEqual((status(h, 'count') as { used: unknown }).used, { pods: '0' });
  });
});
