/**
 * The plan report: what applying manifests to a cluster would do, as `kube-reconcile plan -o json` prints it.
 * docs/plan.md documents every field; `PLAN_API_VERSION` changes when a field changes meaning or goes away.
 */

export const PLAN_API_VERSION = 'plan.kube-reconcile.dev/v1alpha1';

/** What applying one document does (kubectl apply's words), or that the API server refused it. */
export type PlanAction = 'created' | 'configured' | 'unchanged' | 'pruned' | 'refused';

export interface PlanObject {
  action: PlanAction;
  /** `deployment.apps/web`, as kubectl names objects. */
  ref: string;
  /** Absent for cluster-scoped objects (and for a refused document that named none). */
  namespace?: string;
  /** Where the document is: `file:line` (for a pruned object, the file it was applied from). */
  source: string;
  /**
   * `configured` only: a unified diff of the live object before and right after the apply, as `kubectl diff` shows
   * it (YAML, keys sorted; managedFields left out; status and resourceVersion as they were, since a dry run does not
   * change them).
   */
  diff?: string;
  /** `refused` only: the API server's message, as `kubectl apply` and `validate` print it. */
  message?: string;
}

/** The rollout a Deployment went through during the run (only Deployments the apply created or configured). */
export interface PlanRollout {
  /** `default/web`. */
  deployment: string;
  /** spec.replicas after the apply. */
  replicas: number;
  strategy: 'RollingUpdate' | 'Recreate';
  /** maxSurge and maxUnavailable resolved against replicas (deployment_util ResolveFenceposts); 0/0 for Recreate. */
  maxSurge: number;
  maxUnavailable: number;
  podsCreated: number;
  podsDeleted: number;
  /** Most ReplicaSet replicas (sum of spec.replicas) above spec.replicas at any instant of the run. */
  peakSurge: number;
  /** Most of spec.replicas not available (pods Ready for minReadySeconds, not terminating) at any instant. */
  peakUnavailable: number;
  /** Virtual time from the apply to the Deployment's last change (ms). */
  durationMs: number;
  /** The ReplicaSets at the end, newest revision first. */
  replicaSets: { name: string; revision: string; replicas: number }[];
  /** `complete` (NewReplicaSetAvailable), `stuck` (ProgressDeadlineExceeded) or `progressing` (neither by the end). */
  outcome: 'complete' | 'stuck' | 'progressing';
  /** The Progressing condition's message at the end. */
  message?: string;
}

/** A pod left Pending at the end of the run because the scheduler could not place it. */
export interface PlanPendingPod {
  /** `default/web-5d9c7b8f6-x2x7q`. */
  pod: string;
  /** The owning Deployment (`default/web`), ReplicaSet or other controller (`ReplicaSet default/web-…`), if any. */
  owner?: string;
  /** The scheduler's message from the PodScheduled condition: `0/3 nodes are available: 3 Insufficient cpu. …`. */
  message: string;
}

/** Ready endpoints of a Service with a selector (from its EndpointSlices). */
export interface PlanService {
  /** `default/web`. */
  service: string;
  /** Before the apply (absent when the Service is new). */
  before?: number;
  /** Fewest ready endpoints at any instant after the apply. */
  min: number;
  /** At the end of the run. */
  after: number;
}

/** What can make the plan fail (`--fail-on`). */
export type PlanFinding = 'refused' | 'pending' | 'stuck' | 'endpoints' | 'unsettled';

export interface PlanReport {
  apiVersion: typeof PLAN_API_VERSION;
  kind: 'Plan';
  /** Whether the cluster settled (no foreground work pending) within the run's bound. */
  settled: boolean;
  /** Virtual time from the apply until the cluster settled, or the bound when it did not (ms). */
  durationMs: number;
  /** Nodes of the cluster the plan ran on. */
  nodes: number;
  objects: PlanObject[];
  rollouts: PlanRollout[];
  pending: PlanPendingPod[];
  services: PlanService[];
  /** What has not converged at the end (the lines `simulate` prints). */
  unsettled: string[];
  /** Each finding present, in the order of PlanFinding. */
  findings: PlanFinding[];
  /** One line: what applying does and whether anything goes wrong. */
  verdict: string;
}
