/**
 * How long simulated kubelet work takes, in virtual milliseconds. Ranges are
 * `[min, max]` drawn from the kubelet's seeded generator.
 */

export type Range = readonly [number, number];

export interface KubeletDelays {
  /** Pod sandbox and network set-up, before `PodReadyToStartContainers`. */
  sandbox: Range;
  /** Pulling an image the node does not have (with the sandbox: ContainerCreating of about 1–3 s). */
  pull: Range;
  /** Re-pulling a present image under `imagePullPolicy: Always` (a registry round trip). */
  repull: Range;
  /** How long a command that returns at once (`false`, `true`, `echo`) runs. */
  quickExit: Range;
  /** How long an init container running a program the sandbox does not know works before it completes. */
  initWork: Range;
  /** How long a program the sandbox does not know runs as batch work (a Job's, a `Never`/`OnFailure` pod's). */
  batchWork: Range;
  /** How long an interpreter one-liner (`python -c`, `perl -e`, `node -e`) takes beyond its own sleeps. */
  interpreter: Range;
  /**
   * The pod worker's back-off after a failed sync (pkg/kubelet/pod_workers.go: 10 s with 0.5 jitter): when a
   * `CreateContainerConfigError` or an unbound claim is tried again.
   */
  podRetry: Range;
  /** How long a container takes to stop after SIGTERM (never more than the grace period). */
  stop: Range;
  /** How soon the kubelet notices an exit and acts on it (PLEG relist), ms. */
  sync: number;
  /** Lease renewal interval, ms (upstream 10 s: 25% of the 40 s lease). */
  leaseRenew: number;
  /** Node status is re-posted this often even when unchanged, ms (upstream 5 min). */
  nodeStatusReport: number;
}

export const DEFAULT_KUBELET_DELAYS: KubeletDelays = {
  sandbox: [300, 800],
  pull: [700, 2200],
  repull: [200, 600],
  quickExit: [50, 300],
  initWork: [1000, 3000],
  batchWork: [2000, 8000],
  interpreter: [300, 1200],
  podRetry: [10_000, 15_000],
  stop: [100, 1000],
  sync: 1000,
  leaseRenew: 10_000,
  nodeStatusReport: 300_000,
};
