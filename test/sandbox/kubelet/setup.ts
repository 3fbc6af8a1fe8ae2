/**
 * Fixtures for kubelet tests: a harness with one started kubelet whose delays
 * are fixed (so every transition has an exact time), and a pod factory.
 */
import type { Pod } from 'kubernetes-types/core/v1';
import type { Typed } from '../../../sandbox/api/types';
import { Kubelet } from '../../../sandbox/kubelet/kubelet';
import type { KubeletDelays, NodeConfig } from '../../../sandbox/kubelet/kubelet';
import { newHarness } from '../controllers/harness';
import type { Harness } from '../controllers/harness';
import { aPod } from '../../builders';
import { ROOT_CA_CONFIGMAP, SANDBOX_CA_PEM } from '../../../sandbox/controllers/serviceaccount/rootCaPublisher';

/**
 * Every range collapsed to one value: sandbox 500 ms, pull 1 s, quick exits 100 ms, init work 2 s, batch work 5 s,
 * interpreter start 500 ms, stop 300 ms, pod retry 10 s.
 */
export const FIXED_DELAYS: KubeletDelays = {
  sandbox: [500, 500],
  pull: [1000, 1000],
  repull: [200, 200],
  quickExit: [100, 100],
  initWork: [2000, 2000],
  batchWork: [5000, 5000],
  interpreter: [500, 500],
  podRetry: [10_000, 10_000],
  stop: [300, 300],
  sync: 1000,
  leaseRenew: 10_000,
  nodeStatusReport: 300_000,
};

export interface KubeletFixture {
  h: Harness;
  kubelet: Kubelet;
  /** Creates a pod bound to the node; returns it as stored. */
  create(pod: Typed<Pod>): Typed<Pod>;
  /** The pod as stored now (undefined once deleted). */
  pod(name: string): Typed<Pod> | undefined;
  /** Milliseconds since the fixture started (after its warm-up). */
  elapsed(): number;
  /** Event lines `Type Reason: message` for one object, oldest first. */
  events(name: string): string[];
}

/**
 * A harness with one started kubelet. `warmMs`: how long the kubelet runs before the fixture's time starts — probe
 * workers of pods admitted within a period of the kubelet's start begin at a random point of that period, so tests of
 * probe timing start after a warm-up.
 */
export function setupKubelet(config: Partial<NodeConfig> = {}, seed = 1, warmMs = 0): KubeletFixture {
  const h = newHarness(seed);
  // What the root CA publisher puts in every namespace: the kube-api-access volume of every pod projects it.
  h.api.create({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: ROOT_CA_CONFIGMAP, namespace: 'default' },
    data: { 'ca.crt': SANDBOX_CA_PEM },
  });
  const kubelet = new Kubelet(h.ctx, { name: 'node-1', index: 1, delays: FIXED_DELAYS, ...config });
  kubelet.start();
  h.advance(warmMs);
  const start = h.clock.now();
  return {
    h,
    kubelet,
    create: (pod) => h.api.create(pod),
    pod: (name) => h.api.tryGet('pods', 'default', name),
    elapsed: () => h.clock.now() - start,
    events: (name) =>
      h.api
        .list('events', { namespace: 'default' })
        .items.filter((e) => e.involvedObject.name === name)
        .map((ev) => `${ev.type} ${ev.reason}: ${ev.message}${(ev.count ?? 0) > 1 ? ` (x${ev.count})` : ''}`),
  };
}

export function newPod(
  name: string,
  spec: Partial<NonNullable<Pod['spec']>> = {},
  annotations?: Record<string, string>,
): Typed<Pod> {
  return aPod(name, { annotations, spec: { nodeName: 'node-1', ...spec } });
}
