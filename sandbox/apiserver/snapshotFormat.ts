/**
 * The snapshot document's format alone (no API server): what `snapshot.ts` writes and restores, and what
 * `live/snapshot.ts` builds from a real cluster in the extension host, which must not load the API server to name it.
 */
import type { KubeObject } from '../api/types';

export const SNAPSHOT_API_VERSION = 'sandbox.kube-reconcile.dev/v1alpha1';

export interface Snapshot {
  apiVersion: typeof SNAPSHOT_API_VERSION;
  kind: 'Snapshot';
  /** The store's revision when saved. */
  resourceVersion: string;
  /** Clock time when saved (ms since epoch). */
  time: number;
  /** The seeded generator's state, so a restored sandbox continues the same sequence. */
  random: number[];
  objects: KubeObject[];
  /**
   * Nodes whose kubelet was stopped (Fail Node) when saved: a restored sandbox or a plan's fork keeps them stopped.
   * Absent when none (and in snapshots written before it was recorded, which then restore every kubelet running).
   */
  failedNodes?: string[];
}
