/**
 * Saving and restoring the whole store as one JSON document, so a sandbox can
 * survive a window reload or be handed to `serve --state`. Restoring checks
 * every object before anything is loaded: a bad snapshot is refused whole.
 */
import type { Clock } from '../clock/clock';
import { SeededRandom } from '../clock/random';
import { resourceFor } from '../api/resources';
import type { ResourceType } from '../api/resources';
import { crdResources } from '../apiextensions/served';
import type { CustomResourceDefinition } from '../apiextensions/types';
import { isCrd } from '../apiextensions/types';

/**
 * The resource of a snapshot's object: a built-in kind, or a custom resource of one of the snapshot's CRDs (custom
 * resources are saved and restored with their CRDs).
 */
function snapshotResolver(objects: readonly unknown[]): (apiVersion: string, kind: string) => ResourceType | undefined {
  const custom = new Map<string, ResourceType>();
  for (const o of objects) {
    if (!isPlainObject(o) || !isCrd(o)) continue;
    for (const r of crdResources(o as unknown as CustomResourceDefinition))
      custom.set(`${r.group}/${r.version}|${r.kind}`, r);
  }
  return (apiVersion, kind) => resourceFor(apiVersion, kind) ?? custom.get(`${apiVersion}|${kind}`);
}
import type { KubeObject } from '../api/types';
import { ObjectStore } from '../store/objectStore';
import { appendAll } from '../util/arrays';
import { cloneJson, isPlainObject } from '../util/json';
import type { ApiServerOptions } from './apiServer';
import { ApiServer } from './apiServer';
import { kindKey } from './kindKey';
import { mistypedPolicyReason } from './mistypedPolicy';

import { SNAPSHOT_API_VERSION } from './snapshotFormat';
import type { Snapshot } from './snapshotFormat';

export { SNAPSHOT_API_VERSION } from './snapshotFormat';
export type { Snapshot } from './snapshotFormat';

/** What a snapshot records besides the store. */
export interface SnapshotOptions {
  /** Nodes whose kubelet is stopped now (`Cluster.isKubeletRunning` false). */
  failedNodes?: readonly string[];
}

export class SnapshotError extends Error {
  constructor(message: string) {
    super(`invalid snapshot: ${message}`);
    this.name = 'SnapshotError';
  }
}

/** Every stored object, in a stable order (kind, namespace, name), and the nodes whose kubelet is stopped. */
export function takeSnapshot(api: ApiServer, options: SnapshotOptions = {}): Snapshot {
  const store = api.objectStore;
  const objects: KubeObject[] = [];
  for (const key of store.kindKeys()) appendAll(objects, store.list(key));
  const snapshot: Snapshot = {
    apiVersion: SNAPSHOT_API_VERSION,
    kind: 'Snapshot',
    resourceVersion: String(store.revision),
    time: api.clock.now(),
    random: api.random.getState(),
    objects,
  };
  if (options.failedNodes && options.failedNodes.length > 0) snapshot.failedNodes = [...options.failedNodes].sort();
  return snapshot;
}

/**
 * The nodes a snapshot records as failed (their kubelet stopped), checked as `restoreSnapshot` checks the rest; none
 * for a snapshot written before they were recorded. Throws SnapshotError for a malformed list.
 */
export function snapshotFailedNodes(data: unknown): string[] {
  return checkFailedNodes(data, isPlainObject(data) && Array.isArray(data.objects) ? data.objects : []);
}

function checkFailedNodes(data: unknown, objects: readonly unknown[]): string[] {
  const failed = isPlainObject(data) ? data.failedNodes : undefined;
  if (failed === undefined) return [];
  if (!Array.isArray(failed) || failed.some((n) => typeof n !== 'string' || n === ''))
    throw new SnapshotError('failedNodes must be a list of node names');
  const nodes = new Set(
    objects.flatMap((o) =>
      isPlainObject(o) && o.kind === 'Node' && o.apiVersion === 'v1' && isPlainObject(o.metadata)
        ? [o.metadata.name]
        : [],
    ),
  );
  const unknown = (failed as string[]).filter((n) => !nodes.has(n));
  if (unknown.length > 0)
    throw new SnapshotError(`failedNodes names ${unknown.join(', ')}, not a Node of the snapshot`);
  return [...(failed as string[])];
}

/**
 * A new API server holding exactly the snapshot's objects and revision.
 * Watches from before the snapshot get 410 Gone, as after etcd compaction.
 */
export function restoreSnapshot(
  data: unknown,
  options: Omit<ApiServerOptions, 'bootstrap'> & { clock: Clock },
): ApiServer {
  const snap = checkSnapshot(data);
  const store = new ObjectStore({
    historyCapacity: options.historyCapacity,
    initialRevision: Number(snap.resourceVersion),
  });
  const resolve = snapshotResolver(snap.objects);
  // A frozen object is a stored one (a snapshot of a running API server, as the editor's plan forks): it cannot change,
  // so the fork's store shares it (deepFreeze's convention: frozen means frozen all the way down); others are copied.
  for (const obj of snap.objects)
    store.load(kindKey(resolve(obj.apiVersion, obj.kind)!), Object.isFrozen(obj) ? obj : cloneJson(obj));
  const random = options.random instanceof SeededRandom ? options.random : new SeededRandom(options.random ?? 1);
  random.setState(snap.random);
  return new ApiServer({ ...options, random, bootstrap: false }, store);
}

function checkSnapshot(data: unknown): Snapshot {
  if (!isPlainObject(data)) throw new SnapshotError('not a JSON object');
  if (data.apiVersion !== SNAPSHOT_API_VERSION || data.kind !== 'Snapshot')
    throw new SnapshotError(`expected apiVersion ${SNAPSHOT_API_VERSION}, kind Snapshot`);
  const rv = Number(data.resourceVersion);
  if (!Number.isInteger(rv) || rv < 0)
    throw new SnapshotError(`resourceVersion ${JSON.stringify(data.resourceVersion)} is not a non-negative integer`);
  if (!Array.isArray(data.random) || data.random.length !== 4 || data.random.some((n) => !Number.isInteger(n)))
    throw new SnapshotError('random must be four integers');
  if (!Array.isArray(data.objects)) throw new SnapshotError('objects must be a list');
  const seen = new Set<string>();
  const resolve = snapshotResolver(data.objects as unknown[]);
  data.objects.forEach((obj: unknown, i: number) => {
    const where = `objects[${i}]`;
    if (!isPlainObject(obj) || !isPlainObject(obj.metadata))
      throw new SnapshotError(`${where} is not a Kubernetes object`);
    const r =
      typeof obj.apiVersion === 'string' && typeof obj.kind === 'string'
        ? resolve(obj.apiVersion, obj.kind)
        : undefined;
    if (!r) throw new SnapshotError(`${where} has an unknown kind ${String(obj.apiVersion)}/${String(obj.kind)}`);
    const meta = obj.metadata;
    if (typeof meta.name !== 'string' || meta.name === '') throw new SnapshotError(`${where} has no name`);
    if (r.namespaced !== (typeof meta.namespace === 'string' && meta.namespace !== ''))
      throw new SnapshotError(`${where} (${r.kind} ${meta.name}) has a wrong namespace`);
    const orv = Number(meta.resourceVersion);
    if (!Number.isInteger(orv) || orv < 1 || orv > rv)
      throw new SnapshotError(
        `${where} (${r.kind} ${meta.name}) has resourceVersion ${JSON.stringify(meta.resourceVersion)} outside 1..${rv}`,
      );
    // A policy or binding of the wrong shape is one the API server refuses to store (apiServer.ts refuseMistyped, as
    // upstream's decoding): admission would run it on every later request. One kept by an older build is refused here.
    const reason = mistypedPolicyReason(r.group, obj);
    if (reason !== undefined) throw new SnapshotError(`${where} (${r.kind} ${meta.name}) cannot be decoded: ${reason}`);
    const key = `${kindKey(r)}|${meta.namespace ?? ''}|${meta.name}`;
    if (seen.has(key)) throw new SnapshotError(`${where} duplicates ${r.kind} ${meta.name}`);
    seen.add(key);
  });
  checkFailedNodes(data, data.objects as unknown[]);
  return data as unknown as Snapshot;
}
