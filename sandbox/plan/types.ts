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

/**
 * The rollout of a StatefulSet, DaemonSet or Job that the apply created or configured: the pods its controller created
 * and deleted during the run, and where it stands at the end from its status.
 */
export interface PlanWorkload {
  kind: 'StatefulSet' | 'DaemonSet' | 'Job';
  /** `default/db`. */
  workload: string;
  podsCreated: number;
  podsDeleted: number;
  /** Virtual time from the apply to the last change of its pods (ms). */
  durationMs: number;
  /** StatefulSet: the pods deleted to be replaced, in the order the controller went (highest ordinal first). */
  replaced?: string[];
  /** StatefulSet: spec.replicas; status.updatedReplicas and readyReplicas at the end. */
  replicas?: number;
  updated?: number;
  ready?: number;
  /**
   * DaemonSet: nodes that should run its pod (desiredNumberScheduled) and that run an available one (numberAvailable);
   * `updated` is then updatedNumberScheduled.
   */
  nodesDesired?: number;
  nodesCovered?: number;
  /** Job: completions wanted (spec.completions, or 1 with no parallelism), pods succeeded and failed at the end. */
  completions?: number;
  succeeded?: number;
  failed?: number;
  /**
   * `complete` (StatefulSet/DaemonSet: every replica updated and ready; Job: the Complete condition), `failed` (Job:
   * the Failed condition) or `progressing` (neither by the end).
   */
  outcome: 'complete' | 'failed' | 'progressing';
  /** Job: the Failed condition's reason and message; StatefulSet: why some pods keep their revision. */
  message?: string;
}

/** A PodDisruptionBudget that allows no disruption at the end: an eviction (`kubectl drain`) of its pods is refused. */
export interface PlanDisruptionBudget {
  /** `default/web`. */
  pdb: string;
  /** status at the end: currentHealthy, desiredHealthy, expectedPods, disruptionsAllowed (0). */
  currentHealthy: number;
  desiredHealthy: number;
  expectedPods: number;
  disruptionsAllowed: number;
  /** disruptionsAllowed before the apply (absent when the budget is new). */
  before?: number;
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

/** What is left on one node for the pods of an owner with Pending pods. */
export interface PlanNodeCapacity {
  node: string;
  /** status.allocatable: cpu and memory as quantities, pods as a count. */
  allocatable: { cpu: string; memory: string; pods: number };
  /**
   * Allocatable less what the pods of other owners bound to the node request (as the scheduler sums them:
   * containers, init containers, overhead; Succeeded and Failed pods not counted). The owner's own pods are left out:
   * a change to its requests replaces them.
   */
  free: { cpu: string; memory: string; pods: number };
  /**
   * Why the scheduler rejected the node for the owner's first Pending pod, when a smaller request would not help
   * (a taint, a node selector, a port…): the scheduler's reasons. Absent when only resources were short (or it fits).
   */
  blocked?: string[];
}

/** For each owner with Pending pods: one pod's request and what each node has free for its pods. */
export interface PlanCapacity {
  /** As `pending[].owner` names it (`Deployment default/web`), or `Pod default/web` for a pod of its own. */
  owner: string;
  /** One Pending pod's request as the scheduler counts it: cpu and memory as quantities (`2`, `1536Mi`). */
  request: { cpu: string; memory: string };
  nodes: PlanNodeCapacity[];
}

/** A container that would not run as its workload wants, found in its pods' status and the kubelet's events. */
export interface PlanContainerProblem {
  /** `crashloop`: waiting in CrashLoopBackOff; `readiness` / `liveness` / `startup`: that probe fails at the end. */
  problem: 'crashloop' | 'readiness' | 'liveness' | 'startup';
  /** As `pending[].owner` names it (`Deployment default/web`), or `Pod default/web`. */
  owner: string;
  container: string;
  /** An init container (spec.initContainers). */
  init?: boolean;
  /** Pods of the owner with this problem at the end, and the first of them (`default/web-5d9c7b8f6-x2x7q`). */
  pods: number;
  pod: string;
  /**
   * The kubelet's words: the container's waiting message (`back-off 40s restarting failed container=app pod=…`) or
   * the probe's Unhealthy event (`Readiness probe failed: HTTP probe failed with statuscode: 503`).
   */
  message: string;
  /** crashloop: the last termination's exit code and reason (`Error`, `OOMKilled`), and restarts so far. */
  exitCode?: number;
  reason?: string;
  restarts?: number;
  /** crashloop: the last line the previous instance logged, when it logged any. */
  lastLogLine?: string;
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
export type PlanFinding =
  | 'refused'
  | 'pending'
  | 'crashloop'
  | 'probe'
  | 'stuck'
  | 'failed'
  | 'endpoints'
  | 'disruption'
  | 'unsettled';

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
  /** StatefulSets, DaemonSets and Jobs the apply created or configured. */
  workloads: PlanWorkload[];
  pending: PlanPendingPod[];
  /** Present when pods stay Pending: per owner, what each node has free for its pods (a lower request's room). */
  capacity?: PlanCapacity[];
  /** Containers of the workloads the apply created or configured that would crash-loop or fail a probe. */
  containers: PlanContainerProblem[];
  services: PlanService[];
  /** PodDisruptionBudgets the apply created or configured, or that had room before, that allow no disruption now. */
  disruptionBudgets: PlanDisruptionBudget[];
  /** What has not converged at the end (the lines `simulate` prints). */
  unsettled: string[];
  /** Each finding present, in the order of PlanFinding. */
  findings: PlanFinding[];
  /** One line: what applying does and whether anything goes wrong. */
  verdict: string;
}
