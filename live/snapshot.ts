/**
 * A snapshot of the live state that matters for a plan, read from a real cluster with list requests only (GET:
 * a read-only connection suffices) and shaped as the sandbox's own snapshot (`sandbox/apiserver/snapshot.ts`), so
 * `sandbox/plan` can fork a Cluster from it: nodes (allocatable, labels, taints), pods (requests, owners, node),
 * workloads, Services, PDBs, PVs/PVCs/StorageClasses, PriorityClasses, namespaces, quotas and limit ranges.
 *
 * What it cannot see is said, not guessed: admission webhooks and custom resources (listed by name, as far as the
 * credentials may list them), kinds the credentials may not list, and the controllers the sandbox does not run.
 */
import type { KubeObject } from '../sandbox/api/types';
import { resourceFor } from '../sandbox/api/resources';
import { SNAPSHOT_API_VERSION } from '../sandbox/apiserver/snapshotFormat';
import type { Snapshot } from '../sandbox/apiserver/snapshotFormat';
import { SeededRandom } from '../sandbox/clock/random';
import { LiveError } from './connection';
import type { LiveConnection } from './connection';

/** The kinds a snapshot copies, with their collection path across namespaces. */
export const SNAPSHOT_KINDS: readonly { apiVersion: string; kind: string; path: string }[] = [
  { apiVersion: 'v1', kind: 'Namespace', path: '/api/v1/namespaces' },
  { apiVersion: 'v1', kind: 'Node', path: '/api/v1/nodes' },
  { apiVersion: 'v1', kind: 'Pod', path: '/api/v1/pods' },
  { apiVersion: 'v1', kind: 'Service', path: '/api/v1/services' },
  { apiVersion: 'v1', kind: 'PersistentVolume', path: '/api/v1/persistentvolumes' },
  { apiVersion: 'v1', kind: 'PersistentVolumeClaim', path: '/api/v1/persistentvolumeclaims' },
  { apiVersion: 'v1', kind: 'ResourceQuota', path: '/api/v1/resourcequotas' },
  { apiVersion: 'v1', kind: 'LimitRange', path: '/api/v1/limitranges' },
  { apiVersion: 'apps/v1', kind: 'Deployment', path: '/apis/apps/v1/deployments' },
  { apiVersion: 'apps/v1', kind: 'ReplicaSet', path: '/apis/apps/v1/replicasets' },
  { apiVersion: 'apps/v1', kind: 'StatefulSet', path: '/apis/apps/v1/statefulsets' },
  { apiVersion: 'apps/v1', kind: 'DaemonSet', path: '/apis/apps/v1/daemonsets' },
  { apiVersion: 'batch/v1', kind: 'Job', path: '/apis/batch/v1/jobs' },
  { apiVersion: 'batch/v1', kind: 'CronJob', path: '/apis/batch/v1/cronjobs' },
  { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', path: '/apis/policy/v1/poddisruptionbudgets' },
  { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', path: '/apis/storage.k8s.io/v1/storageclasses' },
  { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', path: '/apis/scheduling.k8s.io/v1/priorityclasses' },
];

/** What the snapshot could not see, each with why; read by the plan's report. */
const WEBHOOKS = [
  {
    kind: 'ValidatingWebhookConfiguration',
    path: '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
  },
  { kind: 'MutatingWebhookConfiguration', path: '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations' },
];
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** A node as the fork's kubelet registers it (the shape of sandbox/kubelet's NodeConfig). */
export interface LiveNode {
  name: string;
  index: number;
  /** The live node's allocatable: what the scheduler fits pods into (the fork reports it as capacity too). */
  capacity: { cpu?: string; memory?: string; pods?: string; 'ephemeral-storage'?: string };
  labels: Record<string, string>;
  taints: { key: string; value?: string; effect: string }[];
}

export interface LiveSnapshot {
  /** For `runPlan({ snapshot })`: the sandbox snapshot format. */
  snapshot: Snapshot;
  nodes: LiveNode[];
  /** Objects copied, per kind. */
  counts: Record<string, number>;
  /** Lines saying what the snapshot could not see. */
  unseen: string[];
}

export interface SnapshotOptions {
  /** When the snapshot is taken (ms since epoch): the fork's clock starts there. */
  time: number;
  /** Seed of the fork's random generator (default 1). */
  seed?: number | string;
}

function names(items: readonly KubeObject[], max = 5): string {
  const all = items.map((i) => i.metadata.name ?? '');
  return all.length <= max ? all.join(', ') : `${all.slice(0, max).join(', ')} and ${all.length - max} more`;
}

/** A live object as the sandbox stores it: typed, without managedFields (the fork applies with its own). */
function stored(obj: KubeObject, apiVersion: string, kind: string): KubeObject {
  const metadata = { ...obj.metadata };
  delete metadata.managedFields;
  return { ...obj, apiVersion, kind, metadata };
}

function liveNode(node: KubeObject, index: number): LiveNode {
  const status = (node.status ?? {}) as { allocatable?: Record<string, string> };
  const spec = (node.spec ?? {}) as { taints?: LiveNode['taints'] };
  const a = status.allocatable ?? {};
  const capacity: LiveNode['capacity'] = {};
  for (const k of ['cpu', 'memory', 'pods', 'ephemeral-storage'] as const) if (a[k] !== undefined) capacity[k] = a[k];
  return { name: node.metadata.name!, index, capacity, labels: { ...node.metadata.labels }, taints: spec.taints ?? [] };
}

function why(e: unknown): string {
  if (e instanceof LiveError) return e.status === 403 ? 'forbidden' : e.status === 404 ? 'not served' : e.message;
  throw e;
}

/**
 * Reads the live state through `conn` (GET only) and returns it as a sandbox snapshot. Unreachable servers and
 * refused credentials reject; a kind the credentials may not list is left out and named in `unseen`.
 */
export async function takeLiveSnapshot(conn: LiveConnection, options: SnapshotOptions): Promise<LiveSnapshot> {
  const objects: KubeObject[] = [];
  const counts: Record<string, number> = {};
  const unseen: string[] = [];
  let nodes: KubeObject[] = [];
  for (const k of SNAPSHOT_KINDS) {
    if (!resourceFor(k.apiVersion, k.kind)) continue;
    try {
      const list = await conn.list(k.path);
      const items = list.items.map((o) => stored(o, k.apiVersion, k.kind));
      counts[k.kind] = items.length;
      objects.push(...items);
      if (k.kind === 'Node') nodes = items;
    } catch (e) {
      if (e instanceof LiveError && (e.kind === 'unreachable' || e.kind === 'unauthorized' || e.kind === 'credentials'))
        throw e;
      unseen.push(`${k.kind}s: could not list them (${why(e)}); the plan runs without them`);
    }
  }
  for (const w of WEBHOOKS) {
    try {
      const { items } = await conn.list(w.path);
      if (items.length > 0)
        unseen.push(
          `${items.length} ${w.kind}${items.length === 1 ? '' : 's'} (${names(items)}): admission webhooks run only ` +
            'on the real cluster; they may change or refuse what this plan shows accepted',
        );
    } catch (e) {
      unseen.push(`${w.kind}s: could not list them (${why(e)}); admission webhooks, if any, were not considered`);
    }
  }
  try {
    const { items } = await conn.list(CRDS);
    if (items.length > 0)
      unseen.push(
        `${items.length} CustomResourceDefinition${items.length === 1 ? '' : 's'} (${names(items)}): custom resources ` +
          'and the operators that reconcile them are not in the snapshot',
      );
  } catch (e) {
    unseen.push(`CustomResourceDefinitions: could not list them (${why(e)})`);
  }
  unseen.push(
    'controllers the sandbox does not model (cloud controller manager, cluster autoscaler, operators, ' +
      'service meshes): the plan never adds nodes and runs none of them',
    "live resource usage: quotas and requests are copied, but metrics (HPAs) start from the sandbox's simulated load",
  );
  // resourceVersions renumbered 1…N in list order: the fork's store needs its own sequence; uids and names are kept
  objects.forEach((o, i) => (o.metadata.resourceVersion = String(i + 1)));
  return {
    snapshot: {
      apiVersion: SNAPSHOT_API_VERSION,
      kind: 'Snapshot',
      resourceVersion: String(objects.length),
      time: options.time,
      random: new SeededRandom(options.seed ?? 1).getState(),
      objects,
    },
    nodes: nodes.map((n, i) => liveNode(n, i)),
    counts,
    unseen,
  };
}
