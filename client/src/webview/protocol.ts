/**
 * The messages between the extension host and the Desired vs Actual / Cluster
 * overview webviews — declared once, imported by both ends (GitLens style).
 *
 * The webview speaks first: it posts `ready` once its script runs, and the
 * host posts nothing before that. Every message that arrives from the other
 * side is checked by the validator below before anything acts on it; a
 * message that fails is dropped and logged.
 *
 * No `vscode` and no DOM imports: the browser bundle and the host both use this file.
 */
import type { SchedulingExplanation } from '../../../sandbox/scheduler/explanation';
import type { DiffEntry } from '../health/diff';
import type { HealthStatus, HealthStatusCode, SyncStatusCode } from '../health/types';
import type { ObjectRef } from '../sandbox/protocol';

export type { DiffEntry, HealthStatus, ObjectRef, SchedulingExplanation };

/** One event in `kubectl get events` words. */
export interface EventRow {
  lastSeen: string;
  type: string;
  reason: string;
  /** `pod/web-abc12`. */
  object: string;
  message: string;
  count: number;
}

/** The saved manifest behind the object. */
export interface ManifestInfo {
  yaml: string;
  /** Workspace-relative path for display. */
  label: string;
  /** 1-based, for display (`web.yaml:12`). */
  line: number;
}

/** Argo CD's sync status of the object against its saved file, with the line that explains it. */
export interface SyncViewState {
  status: SyncStatusCode;
  /** `OutOfSync: spec.replicas differs from web.yaml:9`. */
  message: string;
}

/** The sync actions the page offers, by the command each runs on the object. */
export type SyncAction = 'sync' | 'revertLive' | 'updateManifestFromLive';
export const SYNC_ACTIONS: readonly SyncAction[] = ['sync', 'revertLive', 'updateManifestFromLive'];
/** What the live object is compared with. */
export type Comparison =
  /** Its own saved manifest. */
  | { kind: 'manifest' }
  /** The pod template of the controller that made it (`replicaset/web-7d9f`), itself managed by `deployment/web`. */
  | { kind: 'template'; owner: string; managedBy: string[] }
  /** Nothing: `why` says why there is no desired state (a node is the cluster's own…). */
  | { kind: 'none'; why: string };

/** One node's room for a Pending pod: `4 allocatable − 0.3 requested = 3.7 free` per resource. */
export interface FitRow {
  node: string;
  cpu: string;
  memory: string;
  /** `fits`, `too little cpu`, `cordoned`… */
  verdict: string;
  fits: boolean;
}

/** Why a Pending pod waits, in numbers, first in the view. */
export interface PendingWhy {
  /** `requests 64 CPU and 64Mi memory; no node has that much free`. */
  lead: string;
  rows: FitRow[];
}

/** One node's result in the scheduler's decision, under the step that records it. */
export interface TimelineNodeRow {
  node: string;
  /** `rejected by NodeResourcesFit: Insufficient cpu` or `score 693, chosen`. */
  verdict: string;
  chosen: boolean;
  rejected: boolean;
}

/** One step of the object's causal timeline. */
export interface TimelineRow {
  /** The step's id on the sandbox's timeline (links and folded node lists are keyed by it). */
  id: number;
  /** `+2.381s`: virtual time since the first step shown. */
  time: string;
  /** The sandbox clock time, ISO 8601 (shown on hover). */
  at: string;
  /** `Apply`, `API server`, `Controller`, `Scheduler`, `Kubelet`, or the component's own name. */
  actor: string;
  /** `deployment-controller`. */
  component: string;
  /** The Event's reason (`ScalingReplicaSet`), an apply's `created`/`configured`; empty for a pod's transitions. */
  what: string;
  /** What it did: the Event's message, `pod/web-x phase Pending → Running`, `deployment/web (resourceVersion 86)`. */
  text: string;
  /** Why, when the component said more (`new template`, `image nginx:1.25 → nginx:1.27`, `on node-1`). */
  why?: string;
  warning: boolean;
  /** The object the step is about when it is not the view's own (`deployment/web` in a pod's chain). */
  about?: string;
  /** `web.yaml:9`: the manifest line of the apply this step goes back to; the page asks the host to open it. */
  link?: string;
  /** The scheduler's result for every node it evaluated, under its decision. */
  nodes?: TimelineNodeRow[];
}

/** The causal timeline section: its steps, oldest first, and what could not be recorded. */
export interface TimelineView {
  rows: TimelineRow[];
  /** What the timeline could not record or does not show (timeline off, steps dropped by the cap, before it began). */
  notes: string[];
}

export interface ObjectViewState {
  view: 'object';
  comparedWith?: Comparison;
  /** For a Pending pod: its requests against every node, before the scheduler's own words. */
  why?: PendingWhy;
  ref: ObjectRef;
  /** `deployment/web`. */
  title: string;
  kind: string;
  /** Absent when the object did not come from a saved file. */
  manifest?: ManifestInfo;
  /** Absent when the object does not exist (health is then Missing). */
  liveYaml?: string;
  diff: DiffEntry[];
  /** Absent for kinds with no health rule. */
  health?: HealthStatus;
  /** Absent for objects the cluster made (neither declared in a file nor applied by hand). */
  sync?: SyncViewState;
  events: EventRow[];
  /** For a Pending pod: the scheduler's last decision, node by node. */
  scheduling?: SchedulingExplanation;
  /** On a real context: its name, and how desired and actual were compared (client-side, read-only). */
  cluster?: { context: string; note: string };
  /** The causal timeline (the sandbox only: a real context has none). */
  timeline?: TimelineView;
}

export interface OverviewRow {
  ref: ObjectRef;
  kind: string;
  health?: HealthStatus;
}

export interface OverviewViewState {
  view: 'overview';
  /** The worst health of all rows, as Argo CD aggregates an application. */
  health: HealthStatus;
  rows: OverviewRow[];
}

export type ViewState = ObjectViewState | OverviewViewState;

/** Host → webview. */
export type HostMessage =
  | { type: 'state'; state: ViewState }
  /** The reply to `editLive`, matched by id. */
  | { type: 'editResult'; id: number; ok: boolean; message: string };

/** Webview → host. */
export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'refresh' }
  /** Reveal the manifest line the view shows. */
  | { type: 'openManifest' }
  /** Replace the live object with this YAML (drift the sync loop may revert). */
  | { type: 'editLive'; id: number; yaml: string }
  /** From the overview: open Desired vs Actual for a row. */
  | { type: 'openObject'; ref: ObjectRef }
  /** Sync, Revert Live to Manifest or Update Manifest from Live, on the object the view shows. */
  | { type: 'syncAction'; action: SyncAction }
  /** Open the manifest line a timeline step links to (by the step's id: the host knows the file). */
  | { type: 'openStep'; step: number };

// ---- validators: hand-written, one per message, no trust in the sender ----

type Unknown = Record<string, unknown>;

const isRecord = (v: unknown): v is Unknown => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown, max = 256): v is string => typeof v === 'string' && v.length <= max;
const isId = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const hasOnly = (m: Unknown, keys: readonly string[]): boolean => Object.keys(m).every((k) => keys.includes(k));

/** Edited YAML larger than this is refused: the API server's own request limit is 3 MiB. */
export const MAX_EDIT_BYTES = 3 * 1024 * 1024;

export function isObjectRef(v: unknown): v is ObjectRef {
  if (!isRecord(v) || !hasOnly(v, ['resource', 'namespace', 'name'])) return false;
  return (
    isString(v.resource, 63) &&
    v.resource !== '' &&
    isString(v.name, 253) &&
    v.name !== '' &&
    (v.namespace === undefined || (isString(v.namespace, 63) && v.namespace !== ''))
  );
}

const WEBVIEW_VALIDATORS: Record<WebviewMessage['type'], (m: Unknown) => boolean> = {
  ready: (m) => hasOnly(m, ['type']),
  refresh: (m) => hasOnly(m, ['type']),
  openManifest: (m) => hasOnly(m, ['type']),
  editLive: (m) => hasOnly(m, ['type', 'id', 'yaml']) && isId(m.id) && isString(m.yaml, MAX_EDIT_BYTES),
  openObject: (m) => hasOnly(m, ['type', 'ref']) && isObjectRef(m.ref),
  syncAction: (m) => hasOnly(m, ['type', 'action']) && SYNC_ACTIONS.includes(m.action as SyncAction),
  openStep: (m) => hasOnly(m, ['type', 'step']) && isId(m.step),
};

/** True when `m` is exactly one of the webview's messages (no extra fields, every field of the right type). */
export function isWebviewMessage(m: unknown): m is WebviewMessage {
  if (!isRecord(m) || typeof m.type !== 'string' || !Object.hasOwn(WEBVIEW_VALIDATORS, m.type)) return false;
  return WEBVIEW_VALIDATORS[m.type as WebviewMessage['type']](m);
}

const HEALTH_CODES: readonly HealthStatusCode[] = [
  'Healthy',
  'Progressing',
  'Degraded',
  'Suspended',
  'Missing',
  'Unknown',
];

export function isHealthStatus(v: unknown): v is HealthStatus {
  return isRecord(v) && HEALTH_CODES.includes(v.status as HealthStatusCode) && typeof v.message === 'string';
}

const SYNC_CODES: readonly SyncStatusCode[] = ['Synced', 'OutOfSync', 'Missing', 'Extra'];

function isSyncState(v: unknown): boolean {
  return isRecord(v) && SYNC_CODES.includes(v.status as SyncStatusCode) && typeof v.message === 'string';
}

function isTimelineRow(r: unknown): boolean {
  return (
    isRecord(r) &&
    isId(r.id) &&
    ['time', 'at', 'actor', 'component', 'what', 'text'].every((k) => typeof r[k] === 'string') &&
    typeof r.warning === 'boolean' &&
    (r.link === undefined || typeof r.link === 'string') &&
    (r.nodes === undefined || (Array.isArray(r.nodes) && r.nodes.every((n) => isRecord(n) && isString(n.node))))
  );
}

function isTimelineView(v: unknown): boolean {
  return (
    isRecord(v) &&
    Array.isArray(v.rows) &&
    v.rows.every(isTimelineRow) &&
    Array.isArray(v.notes) &&
    v.notes.every((n) => typeof n === 'string')
  );
}

function isObjectState(s: Unknown): boolean {
  return (
    isObjectRef(s.ref) &&
    typeof s.title === 'string' &&
    typeof s.kind === 'string' &&
    Array.isArray(s.diff) &&
    Array.isArray(s.events) &&
    (s.health === undefined || isHealthStatus(s.health)) &&
    (s.sync === undefined || isSyncState(s.sync)) &&
    (s.timeline === undefined || isTimelineView(s.timeline))
  );
}

function isOverviewState(s: Unknown): boolean {
  return (
    isHealthStatus(s.health) &&
    Array.isArray(s.rows) &&
    s.rows.every((r) => isRecord(r) && isObjectRef(r.ref) && typeof r.kind === 'string')
  );
}

/**
 * True when `m` is one of the host's messages. The webview checks the shape it
 * renders from (the host is trusted more than the page, but a bug must not become a broken page).
 */
export function isHostMessage(m: unknown): m is HostMessage {
  if (!isRecord(m)) return false;
  if (m.type === 'editResult') return isId(m.id) && typeof m.ok === 'boolean' && typeof m.message === 'string';
  if (m.type !== 'state' || !isRecord(m.state)) return false;
  if (m.state.view === 'object') return isObjectState(m.state);
  return m.state.view === 'overview' && isOverviewState(m.state);
}
