import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setupKubelet } from './setup';

const T0 = '2026-01-01T00:00:00Z';

describe('node registration and heartbeats', () => {
  test('registers the Node with capacity, conditions, addresses and nodeInfo', () => {
    const f = setupKubelet({
      labels: { zone: 'a' },
      taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }],
    });
    const node = f.h.api.get('nodes', undefined, 'node-1');
    const capacity = {
      cpu: '4',
      'ephemeral-storage': '100Gi',
      'hugepages-1Gi': '0',
      'hugepages-2Mi': '0',
      memory: '16Gi',
      pods: '110',
    };
    const cond = (type: string, status: string, reason: string, message: string) => ({
      type,
      status,
      lastHeartbeatTime: T0,
      lastTransitionTime: T0,
      reason,
      message,
    });
    assert.deepEqual(node.metadata.labels, {
      'beta.kubernetes.io/arch': 'amd64',
      'beta.kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/hostname': 'node-1',
      'kubernetes.io/os': 'linux',
      'node.kubernetes.io/instance-type': 'sandbox',
      zone: 'a',
    });
    assert.deepEqual(node.spec, {
      podCIDR: '10.244.1.0/24',
      podCIDRs: ['10.244.1.0/24'],
      taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }],
    });
    assert.deepEqual(node.status, {
      capacity,
      allocatable: capacity,
      conditions: [
        cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
      ],
      addresses: [
        { type: 'InternalIP', address: '10.0.0.3' },
        { type: 'Hostname', address: 'node-1' },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        architecture: 'amd64',
        bootID: '',
        containerRuntimeVersion: 'containerd://1.7.24',
        kernelVersion: '6.8.0-sandbox',
        kubeProxyVersion: 'v1.32.0',
        kubeletVersion: 'v1.32.0',
        machineID: '',
        operatingSystem: 'linux',
        osImage: 'Kube Reconcile sandbox',
        systemUUID: '',
      },
    });
    assert.deepEqual(f.h.api.get('leases', 'kube-node-lease', 'node-1').spec, {
      holderIdentity: 'node-1',
      leaseDurationSeconds: 40,
      renewTime: '2026-01-01T00:00:00.000000Z',
    });
    assert.deepEqual(f.events('node-1'), [
      'Normal Starting: Starting kubelet.',
      'Normal NodeHasSufficientMemory: Node node-1 status is now: NodeHasSufficientMemory',
      'Normal NodeHasNoDiskPressure: Node node-1 status is now: NodeHasNoDiskPressure',
      'Normal NodeHasSufficientPID: Node node-1 status is now: NodeHasSufficientPID',
      'Normal NodeAllocatableEnforced: Updated Node Allocatable limit across pods',
      'Normal NodeReady: Node node-1 status is now: NodeReady',
    ]);
  });

  test('renews the lease every 10 s and re-posts unchanged status every 5 min, on background timers', () => {
    const f = setupKubelet();
    f.h.record(['nodes', 'leases']);
    assert.equal(f.h.clock.pendingForegroundTimers, 0);
    f.h.advance(300_000);
    const actions = f.h.actions();
    assert.equal(actions.filter((a) => a === 'MODIFIED leases kube-node-lease/node-1').length, 30);
    assert.deepEqual(
      actions.filter((a) => a.includes('nodes')),
      ['MODIFIED nodes node-1'],
    );
    const ready = f.h.api.get('nodes', undefined, 'node-1').status?.conditions?.find((c) => c.type === 'Ready');
    assert.equal(ready?.lastHeartbeatTime, '2026-01-01T00:05:00Z');
  });

  test('conditions changed by someone else (node lifecycle) are re-posted at the next heartbeat', () => {
    const f = setupKubelet();
    const node = f.h.api.get('nodes', undefined, 'node-1');
    const status = node.status ?? {};
    f.h.api.updateStatus({
      ...node,
      status: {
        ...status,
        conditions: (status.conditions ?? []).map((c) => ({
          ...c,
          status: 'Unknown',
          reason: 'NodeStatusUnknown',
          message: 'Kubelet stopped posting node status.',
        })),
      },
    });
    f.h.advance(10_000);
    const ready = f.h.api.get('nodes', undefined, 'node-1').status?.conditions?.find((c) => c.type === 'Ready');
    assert.deepEqual(ready, {
      type: 'Ready',
      status: 'True',
      lastHeartbeatTime: '2026-01-01T00:00:10Z',
      lastTransitionTime: '2026-01-01T00:00:10Z',
      reason: 'KubeletReady',
      message: 'kubelet is posting ready status',
    });
    assert.equal(f.events('node-1').at(-1), 'Normal NodeReady: Node node-1 status is now: NodeReady (x2)');
  });

  test('a stopped kubelet stops renewing; a restarted one takes over the existing Node', () => {
    const f = setupKubelet();
    f.kubelet.stop();
    f.h.record(['nodes', 'leases']);
    f.h.advance(60_000);
    assert.deepEqual(f.h.actions(), []);
    f.kubelet.start();
    // On start a kubelet posts status at once (fresh heartbeats), then renews the lease.
    assert.deepEqual(f.h.actions(), ['MODIFIED nodes node-1', 'MODIFIED leases kube-node-lease/node-1']);
    assert.equal(
      (f.h.api.get('leases', 'kube-node-lease', 'node-1').spec as { renewTime: string }).renewTime,
      '2026-01-01T00:01:00.000000Z',
    );
  });
});
