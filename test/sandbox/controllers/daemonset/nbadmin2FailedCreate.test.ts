/**
 * A DaemonSet whose pods the API server refuses (the Konnectivity page's konnectivity-agent.yaml names
 * `serviceAccountName: konnectivity-agent`, which exists only once konnectivity-rbac.yaml is applied). Upstream
 * syncDaemonSet (pkg/controller/daemon/daemon_controller.go) writes the status even when updateDaemonSet failed:
 * `kubectl get ds` shows DESIRED = the eligible nodes and CURRENT 0, next to the FailedCreate events.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DaemonSet } from 'kubernetes-types/apps/v1';
import { Cluster } from '../../../../sandbox/cluster/cluster';
import type { KubeObject } from '../../../../sandbox/api/types';

const agent: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'konnectivity-agent', namespace: 'kube-system', labels: { 'k8s-app': 'konnectivity-agent' } },
  spec: {
    selector: { matchLabels: { 'k8s-app': 'konnectivity-agent' } },
    template: {
      metadata: { labels: { 'k8s-app': 'konnectivity-agent' } },
      spec: {
        priorityClassName: 'system-cluster-critical',
        containers: [{ name: 'konnectivity-agent', image: 'registry.k8s.io/kas-network-proxy/proxy-agent:v0.0.37' }],
        serviceAccountName: 'konnectivity-agent',
      },
    },
  },
};

describe('DaemonSet whose pods are refused', () => {
  test('the status counts the nodes that should run a pod; FailedCreate names the missing service account', () => {
    const c = new Cluster({ seed: 1 });
    c.start();
    c.runUntilSettled();
    c.apply(agent);
    c.runFor(60_000);
    const ds = c.api.get('daemonsets', 'kube-system', 'konnectivity-agent') as DaemonSet & KubeObject;
    const nodes = c.api.list('nodes').items.length;
    assert.equal(ds.status?.desiredNumberScheduled, nodes);
    assert.equal(ds.status?.currentNumberScheduled, 0);
    assert.equal(ds.status?.numberUnavailable, nodes);
    assert.equal(ds.status?.observedGeneration, 1);
    const events = c.api
      .list('events', { namespace: 'kube-system' })
      .items.filter((e) => (e as { reason?: string }).reason === 'FailedCreate');
    assert.ok(events.length > 0);
    assert.ok(
      ((events[0] as { message?: string }).message ?? '').includes(
        'error looking up service account kube-system/konnectivity-agent: serviceaccount "konnectivity-agent" not found',
      ),
    );
  });
});
