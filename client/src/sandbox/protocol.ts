/**
 * The messages between the extension host and the sandbox worker thread —
 * declared once, imported by both ends. The worker owns the cluster (API
 * server, controllers, scheduler, kubelets on a real-time clock) and the
 * GitOps desired state; the host owns VS Code. Every request carries an id and
 * gets exactly one reply; the worker also pushes notifications (watch events,
 * log lines, status), batched at most 10 times a second.
 *
 * This file must not import `vscode`: the worker imports it too.
 */
import type { KubeObject, WatchEventType } from '../../../sandbox/api/types';
import type { Status } from '../../../sandbox/api/errors';
import type { LogEntry } from '../../../sandbox/client/reconcileLog';
import type { SchedulingExplanation } from '../../../sandbox/scheduler/explanation';
import type { PlanReport } from '../../../sandbox/plan/types';
import type { TimelineEntry } from '../../../sandbox/timeline/timeline';
import type { Snapshot } from '../../../sandbox/apiserver/snapshotFormat';
import type { ForesightDiagnostic } from '../foresight/diagnostics';

/** One Kubernetes document of a saved file, with the 0-based line it starts on. */
export interface ManifestInput {
  line: number;
  object: KubeObject;
}

/** What happened to one document of a file on apply. */
export interface ApplyOutcome {
  line: number;
  /** `deployment.apps/web created|configured|unchanged`, or the rejection message. */
  message: string;
  ok: boolean;
  /** What kubectl's apply did, when the document was applied. */
  action?: 'created' | 'configured' | 'unchanged';
  /** The API server's Status when rejected (422, 404, 403, …). */
  status?: Status;
  /** The fields the rejection names, as upstream paths, when its Status does not (`unknown field "spec.foo"`). */
  fields?: string[];
  /** Other files that declare the same object (the file applied last is the one in the cluster). */
  sharedWith?: string[];
}

export interface ApplyReply {
  outcomes: ApplyOutcome[];
  /** `kind/name` of objects deleted because the file no longer declares them. */
  pruned: string[];
  /**
   * `deployment.apps/web from web.yaml`: objects the file no longer declares that another file does, whose declaration
   * was applied instead of deleting them.
   */
  reapplied?: string[];
}

/** Why a file was applied: the reconciliation log names the user's action. */
export type ApplyTrigger = 'save' | 'command' | 'disk' | 'workspace' | 'sync';

/** One field as a change names it: its path, its keys and indexes, and the values on each side. */
export interface FieldChangeInfo {
  /** `spec.replicas`, `metadata.annotations["a.b/c"]`. */
  path: string;
  segments: (string | number)[];
  live?: unknown;
  desired?: unknown;
}

/** An object of the GitOps desired state: the declaration in the cluster, and other files that declare it too. */
export interface DesiredObject {
  resource: string;
  namespace?: string;
  name: string;
  /** The workspace file (workspace-relative path) whose declaration is in the cluster: the one applied last. */
  source: string;
  /** The 0-based line its document starts on. */
  line: number;
  manifest: KubeObject;
  /** Other files' declarations, oldest applied first. */
  shadowed: { source: string; line: number }[];
}

/** Self-heal put an object back to its manifest. */
export interface SelfHealRevert {
  ref: ObjectRef;
  kind: string;
  source: string;
  line: number;
  /** The fields put back, with the live values they had (empty when the object was recreated). */
  changes: FieldChangeInfo[];
  recreated: boolean;
}

/** An object reference as the tree and commands use it. */
export interface ObjectRef {
  /** Plural resource name: `pods`, `deployments`, `nodes`… */
  resource: string;
  namespace?: string;
  name: string;
}

/** The sandbox's clock and size, for the status bar. */
export interface SandboxStatus {
  running: boolean;
  paused: boolean;
  speed: number;
  /** Clock time, ms since epoch. */
  time: number;
  pods: number;
  nodes: number;
  /** The HTTP API for kubectl, once the host has configured it (init or setApi). */
  api?: ApiStatus;
  /** kubectl operations still running (a drain waiting for its pods), with what each waits for. */
  operations?: OperationStatus[];
  /** Nodes whose kubelet Fail Node stopped, with when the node lifecycle controller will mark them NotReady. */
  failedNodes?: FailedNode[];
  /** Drains that failed on nodes still cordoned (kubectl leaves a node cordoned when its drain fails). */
  refusedDrains?: RefusedDrain[];
}

/**
 * A drain that failed — kubectl's filters refused a pod (`cannot delete Pods that declare no controller (use --force
 * to override): default/bare`), an eviction failed — on a node it left cordoned. Kept until the node is uncordoned,
 * drained again or gone, so that the outcome outlasts its notification.
 */
export interface RefusedDrain {
  node: string;
  /** kubectl's error, as the notification said it. */
  message: string;
}

/** A node whose kubelet is stopped (Fail Node): its last heartbeat plus the node monitor grace period. */
export interface FailedNode {
  name: string;
  /** Sandbox clock time (ms since epoch) at which the node lifecycle controller marks it NotReady. */
  notReadyAt: number;
}

/** What Fast-forward did: whether the cluster settled, how much time passed, and what is still pending if not. */
export interface FastForwardReport {
  settled: boolean;
  elapsedMs: number;
  /** `pod default/web-x: Pending (0/3 nodes are available: …)`, as simulate prints what has not converged. */
  pending: string[];
}

/** A running operation: `Drain node-2`, `waiting: a PodDisruptionBudget allows no disruption for default/web-x …`. */
export interface OperationStatus {
  title: string;
  detail: string;
}

/**
 * The sandbox's Kubernetes HTTP API, as the host configures it: served on
 * 127.0.0.1 at `port` (0: any free port, the previous one preferred), with
 * the kubeconfig written to `kubeconfig` (an absolute path, mode 0600).
 */
export interface ApiSettings {
  enabled: boolean;
  port: number;
  kubeconfig: string;
}

/**
 * Where the HTTP API stands: off, starting, serving at `url` (kubectl reads `kubeconfig`), or failed with the reason.
 */
export type ApiStatus =
  | { state: 'off' }
  | { state: 'starting' }
  | { state: 'serving'; url: string; kubeconfig: string }
  | { state: 'failed'; error: string };

export type FaultAction =
  | { type: 'killPod'; namespace: string; name: string }
  | { type: 'crashContainer'; namespace: string; name: string; container?: string }
  | { type: 'scale'; resource: string; namespace: string; name: string; replicas: number }
  | { type: 'restartRollout'; resource: string; namespace: string; name: string }
  | { type: 'rollBack'; resource: string; namespace: string; name: string }
  /** The tree's Set Load…: `simulate --at load=SELECTOR:cpu=CPU` on the workload's pod selector. */
  | { type: 'setLoad'; resource: string; namespace: string; name: string; cpu: string }
  | { type: 'delete'; resource: string; namespace?: string; name: string }
  | { type: 'failNode' | 'recoverNode' | 'cordon' | 'uncordon' | 'drain'; name: string }
  /** Replace the live object (the "edit live object" action): drift the sync loop may revert. */
  | { type: 'replaceLive'; object: KubeObject };

export type ControlAction =
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'step'; ms: number }
  | { type: 'speed'; speed: number }
  | { type: 'reset' }
  | { type: 'fastForward'; limitMs: number };

export interface SandboxSettings {
  nodes: number;
  speed: number;
  seed: number;
  /** GitOps self-heal: revert hand-made drift from the saved manifests. */
  selfHeal: boolean;
  /** The Kubernetes minor release the sandbox serves (`1.32`); its default when absent. */
  kubernetesVersion?: string;
  /** false: the sandbox does not record its causal timeline (it does when absent). */
  timeline?: boolean;
}

/**
 * Foresight's answer: the plan (JSON form, sandbox/plan/types.ts) with its text form (sandbox/plan/format.ts) and the
 * scheduler's per-node reasons for Pending pods; or
 * that a newer request for the same document superseded this one; or that the text has YAML errors (not planned).
 */
export type ForesightResult =
  /** `nodeReasons`: per Pending pod (the first of each owner), each node's reasons from the scheduler's last try. */
  /**
   * `diagnostics`: found in the worker from the same parse the plan used (positions in the planned text), so the
   * extension host never parses the document for them.
   */
  | { report: PlanReport; text: string; nodeReasons?: Record<string, string[]>; diagnostics: ForesightDiagnostic[] }
  | { superseded: true }
  | { yamlErrors: number };

/** An object the timeline names: its kind (`Deployment`), namespace (absent when cluster-scoped) and name. */
export interface TimelineObject {
  kind: string;
  namespace?: string;
  name: string;
}

/** One step of an object's causal chain, with the manifest `file:line` of the apply its chain started from. */
export interface TimelineStep extends TimelineEntry {
  /** `web.yaml:9`: the source of the apply at the root of this step's causes (an apply's own source), if any. */
  origin?: string;
}

/**
 * The causal timeline of one object (sandbox/timeline: the same selection as `simulate --explain`): the steps that
 * led to its first recorded step, then every step about it. Says what could not be recorded.
 */
export interface TimelineReply {
  /** False when the running sandbox does not record a timeline (then `steps` is empty). */
  recording: boolean;
  /** Sandbox clock time (ms) the recording began: nothing before it was recorded (a restored or reset sandbox). */
  since?: number;
  steps: TimelineStep[];
  /** Earlier steps of the chain were dropped by the timeline's cap. */
  truncated: boolean;
  /** The cap: how many entries the whole sandbox's timeline keeps. */
  capacity: number;
  /** Older steps about the object left out of this reply (it carries the most recent ones). */
  omitted?: number;
  /** For a pod: the scheduler's last decision for it, node by node, shown under its last scheduling step `step`. */
  scheduling?: { step: number; explanation: SchedulingExplanation };
}

/** Requests, by method: `params` in, `result` out. */
export interface Requests {
  /**
   * Starts (or restarts) the sandbox, restored from `snapshot` when given; `warning` says why a snapshot was not used.
   * `api` configures the HTTP API (without it, the API stays as configured before); it starts in the background
   * and a status notification says when it serves.
   */
  init: {
    params: { settings: SandboxSettings; snapshot?: unknown; api?: ApiSettings };
    result: SandboxStatus & { warning?: string };
  };
  /**
   * The file's manifests become its desired state; `prune: false` (a file with YAML errors) keeps objects it no longer
   * lists. `text`, the file's text the manifests were read from, lets the timeline link each apply (and a later
   * self-heal revert) to the line of the field it changed.
   */
  applyFile: {
    params: { file: string; manifests: ManifestInput[]; prune?: boolean; trigger?: ApplyTrigger; text?: string };
    result: ApplyReply;
  };
  removeFile: { params: { file: string }; result: Omit<ApplyReply, 'outcomes'> };
  /** "Revert Live to Manifest": applies the object's declaration in effect now, whatever self-heal says. */
  revert: { params: ObjectRef; result: { message: string; source: string; changes: FieldChangeInfo[] } };
  /** A user action the host decided on (a save not applied, and why), recorded in the reconciliation log. */
  record: { params: { level: 'Normal' | 'Warning'; reason: string; object: string; message: string }; result: object };
  /**
   * Runs a fault action; `message` says what it did. A drain goes on after the answer: `operation` is its id, and
   * `operation` notifications with that id carry its further lines and its end.
   */
  action: { params: FaultAction; result: { message: string; operation?: number } };
  /** The status after the control; Fast-forward adds its report. */
  control: { params: ControlAction; result: SandboxStatus & { fastForward?: FastForwardReport } };
  setSelfHeal: { params: { selfHeal: boolean }; result: { selfHeal: boolean } };
  snapshot: { params: Record<string, never>; result: { snapshot: unknown } };
  explain: { params: { namespace: string; name: string }; result: { explanation?: SchedulingExplanation } };
  /** The saved manifest (desired state) behind an object, with its file and line, if it came from one. */
  desired: { params: ObjectRef; result: { file?: string; line?: number; manifest?: KubeObject } };
  /** Starts, moves or stops the HTTP API; answers once it serves (or failed, or stopped). */
  setApi: { params: ApiSettings; result: ApiStatus };
  /**
   * A container's log, as `kubectl logs` reads it (`GET …/pods/NAME/log`). With `follow`, `text` is the log so far and
   * `stream` the id whose `podLog` notifications carry what the container prints next, until their `end`.
   */
  podLogs: { params: PodLogRequest; result: { text: string; stream?: number } };
  /** Stops following a log stream (the user closed its document); unknown ids are ignored. */
  stopPodLogs: { params: { stream: number }; result: Record<string, never> };
  /**
   * Foresight: what saving `text` (an editor's unsaved YAML of the workspace file `source`) would do, planned on a fork
   * of the running sandbox — the sandbox is not changed. A newer request for the same `uri` supersedes this one.
   */
  plan: { params: { uri: string; source: string; text: string }; result: ForesightResult };
  /**
   * Plan Against Cluster…: `text` (the active editor's manifests, of the workspace file `source`) planned with
   * `sandbox/plan` on a fork of a real cluster's snapshot, which the host took (live/snapshot.ts) over its read-only
   * connection; the report's text (sandbox/plan/format.ts). The running sandbox is not touched, and needs no `init`.
   */
  planLive: { params: LivePlanRequest; result: { text: string } };
  /** The causal timeline of one object: its chain from the apply that started it, the scheduler's per-node results. */
  timeline: { params: TimelineObject; result: TimelineReply };
}

/** A real cluster's state for Plan Against Cluster… (`live/snapshot.ts`'s `LiveSnapshot`, its plan inputs). */
export interface LivePlanRequest {
  source: string;
  text: string;
  /** The live objects in the sandbox's snapshot format. */
  snapshot: Snapshot;
  /** The live nodes (allocatable, labels, taints) as the fork's kubelets register them (live/snapshot.ts). */
  nodes: LivePlanNode[];
}

/**
 * A node of a real cluster as the fork's kubelet registers it: sandbox/kubelet's `NodeConfig`, spelled out here because
 * the webview's program (which reads this file) cannot type-check the kubelet's module.
 */
export interface LivePlanNode {
  name: string;
  index: number;
  capacity: { cpu?: string; memory?: string; pods?: string; 'ephemeral-storage'?: string };
  labels: Record<string, string>;
  taints: { key: string; value?: string; effect: string }[];
}

/** Which log: the pod, its container (the only one when absent), the previous instance, follow. */
export interface PodLogRequest {
  namespace: string;
  name: string;
  container?: string;
  previous?: boolean;
  follow?: boolean;
  tailLines?: number;
}

export type Method = keyof Requests;

export interface RequestMessage<M extends Method = Method> {
  kind: 'request';
  id: number;
  method: M;
  params: Requests[M]['params'];
}

export interface ReplyMessage<M extends Method = Method> {
  kind: 'reply';
  id: number;
  /** Exactly one of result / error. */
  result?: Requests[M]['result'];
  error?: { message: string; status?: Status };
}

export interface WatchChange {
  type: Exclude<WatchEventType, 'BOOKMARK' | 'ERROR'>;
  resource: string;
  object: KubeObject;
}

/** Pushed by the worker, never answered. */
export type Notification =
  /** The whole current state, sent once after init (and after reset/restore): the list of list + watch. */
  | { kind: 'list'; resourceVersion: string; objects: { resource: string; object: KubeObject }[] }
  /**
   * Changes since the last batch, in resourceVersion order; `quiet` when the sandbox had nothing due within the next
   * batch interval as it was sent (the state a burst of work settled into: worth showing at once).
   */
  | { kind: 'changes'; changes: WatchChange[]; quiet?: boolean }
  | { kind: 'log'; entries: LogEntry[] }
  | { kind: 'status'; status: SandboxStatus }
  /** A line printed by a running operation (`line`), or its end (`done`): kubectl's words. */
  | { kind: 'operation'; id: number; title: string; line?: string; done?: { ok: boolean; message: string } }
  /** The whole GitOps desired state, sent after init and whenever a declaration was made or withdrawn. */
  | { kind: 'desired'; objects: DesiredObject[] }
  /** Self-heal reverted objects (sent after the changes it made). */
  | { kind: 'selfHeal'; reverts: SelfHealRevert[] }
  /** What a followed container printed (`text`), or the end of its stream (`end`: why). */
  | { kind: 'podLog'; stream: number; text?: string; end?: string };

export type WorkerMessage = ReplyMessage | ({ kind: 'notification' } & { notification: Notification });
export type HostMessage = RequestMessage;
