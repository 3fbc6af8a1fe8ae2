/**
 * Watches a cluster while a plan runs: for each Deployment, the surge and unavailability at every instant
 * something changes (each watch event, delivered synchronously in revision order, so no instant is missed), the
 * pods created and deleted and when it last changed; for each Service, its ready endpoints over the run.
 *
 * Surge is counted as the Deployment controller counts it — ReplicaSet replicas (spec) above the Deployment's
 * replicas (upstream: pkg/controller/deployment/util/deployment_util.go `NewRSNewReplicas`, maxTotalPods =
 * replicas + maxSurge over `GetReplicaCountForReplicaSets`). Unavailability is replicas less the pods that are
 * available (`IsPodAvailable`: Ready for minReadySeconds) and not terminating, as `MaxUnavailable` bounds it.
 */
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import type { ApiServer } from '../apiserver/apiServer';
import type { Clock } from '../clock/clock';
import type { KubeObject, WatchEvent } from '../api/types';
import { availableAt, isPodTerminal } from '../controllers/util/pods';

interface DeploymentTrack {
  uid: string;
  replicas: number;
  minReadySeconds: number;
  podsCreated: number;
  podsDeleted: number;
  peakSurge: number;
  peakUnavailable: number;
  lastChangeAt: number;
}

interface PodTrack {
  rs: string;
  /** When it counts as available (ms), or undefined when not Ready, terminating or finished. */
  availableAt?: number;
}

/** Pods of a controller that owns them directly (a StatefulSet, a DaemonSet, a Job) over the run. */
export interface OwnerFigures {
  podsCreated: number;
  podsDeleted: number;
  /** Names of the pods deleted, in the order they went (a StatefulSet replaces ordinals under the same names). */
  deleted: string[];
  lastChangeAt: number;
}

export interface DeploymentFigures {
  podsCreated: number;
  podsDeleted: number;
  peakSurge: number;
  peakUnavailable: number;
  lastChangeAt: number;
}

const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

function controllerUid(obj: KubeObject): string | undefined {
  return obj.metadata.ownerReferences?.find((o) => o.controller === true)?.uid;
}

function readyEndpoints(slice: EndpointSlice): number {
  // upstream: discovery/v1 EndpointConditions.Ready — nil means ready
  return (slice.endpoints ?? []).filter((e) => e.conditions?.ready !== false).length;
}

export class PlanObserver {
  private readonly deployments = new Map<string, DeploymentTrack>(); // by uid
  private readonly deploymentKeys = new Map<string, string>(); // ns/name → uid
  private readonly replicaSets = new Map<string, { deployment?: string; replicas: number }>(); // by uid
  /** The uids of each Deployment's ReplicaSets (by the Deployment's uid): `measure` reads only those. */
  private readonly replicaSetsOf = new Map<string, Set<string>>();
  private readonly pods = new Map<string, PodTrack>(); // by uid
  private readonly podsByRs = new Map<string, Set<string>>();
  private readonly slices = new Map<string, { service: string; ready: number }>(); // by uid
  /** The uids of each Service's EndpointSlices (by `namespace/name`). */
  private readonly slicesOf = new Map<string, Set<string>>();
  private readonly serviceReady = new Map<string, number>(); // ns/name → ready endpoints now
  private readonly serviceMin = new Map<string, number>();
  private readonly serviceBefore = new Map<string, number>();
  private readonly changedServices = new Set<string>();
  private readonly handles: { stop(): void }[] = [];
  private readonly owners = new Map<string, OwnerFigures>(); // by owner uid, pods not owned by a ReplicaSet

  constructor(
    api: ApiServer,
    private readonly clock: Clock,
  ) {
    for (const d of api.list('deployments').items) this.deployment(d, false, false);
    for (const rs of api.list('replicasets').items) this.replicaSet(rs);
    for (const p of api.list('pods').items) this.pod({ type: 'ADDED', object: p }, false);
    for (const s of api.list('endpointslices').items) this.slice({ type: 'ADDED', object: s }, false);
    for (const [service, ready] of this.serviceReady) this.serviceBefore.set(service, ready);
    const rv = api.resourceVersion;
    this.handles.push(
      api.watch('deployments', { resourceVersion: rv }, (e) =>
        this.deployment(e.object as Deployment & KubeObject, e.type === 'DELETED', true),
      ),
      api.watch('replicasets', { resourceVersion: rv }, (e) => this.replicaSetEvent(e)),
      api.watch('pods', { resourceVersion: rv }, (e) => this.pod(e, true)),
      api.watch('endpointslices', { resourceVersion: rv }, (e) => this.slice(e, true)),
    );
  }

  stop(): void {
    for (const h of this.handles) h.stop();
  }

  /** The figures of a Deployment (`namespace/name`) since the observer started. */
  figures(key: string): DeploymentFigures | undefined {
    const uid = this.deploymentKeys.get(key);
    const t = uid === undefined ? undefined : this.deployments.get(uid);
    return t && { ...t };
  }

  /** The pods a controller owns directly (by its uid), created and deleted since the observer started. */
  ownerFigures(uid: string | undefined): OwnerFigures | undefined {
    const f = uid === undefined ? undefined : this.owners.get(uid);
    return f && { ...f, deleted: [...f.deleted] };
  }

  /** Ready endpoints of a Service before, at the fewest and now; undefined when it never had an EndpointSlice. */
  endpoints(key: string): { before?: number; min: number; after: number } | undefined {
    if (!this.serviceReady.has(key) && !this.serviceMin.has(key)) return undefined;
    return {
      before: this.serviceBefore.get(key),
      min: this.serviceMin.get(key) ?? 0,
      after: this.serviceReady.get(key) ?? 0,
    };
  }

  /** Services whose ready endpoints changed during the run. */
  get servicesChanged(): string[] {
    return [...this.changedServices];
  }

  private deployment(d: Deployment & KubeObject, deleted: boolean, live: boolean): void {
    const uid = d.metadata.uid!;
    const key = `${d.metadata.namespace}/${d.metadata.name}`;
    if (deleted) {
      this.deploymentKeys.delete(key);
      return;
    }
    let t = this.deployments.get(uid);
    if (!t) {
      t = {
        uid,
        replicas: 0,
        minReadySeconds: 0,
        podsCreated: 0,
        podsDeleted: 0,
        peakSurge: 0,
        peakUnavailable: 0,
        lastChangeAt: this.clock.now(),
      };
      this.deployments.set(uid, t);
      this.deploymentKeys.set(key, uid);
    }
    t.replicas = d.spec?.replicas ?? 1;
    t.minReadySeconds = d.spec?.minReadySeconds ?? 0;
    if (!live) return;
    t.lastChangeAt = this.clock.now();
    this.measure(t);
  }

  private replicaSetEvent(e: WatchEvent): void {
    const rs = e.object as ReplicaSet & KubeObject;
    if (e.type === 'DELETED') {
      const uid = rs.metadata.uid!;
      const owner = this.replicaSets.get(uid)?.deployment;
      this.replicaSets.delete(uid);
      if (owner !== undefined) this.replicaSetsOf.get(owner)?.delete(uid);
      this.touch(owner);
      return;
    }
    this.touch(this.replicaSet(rs));
  }

  private replicaSet(rs: ReplicaSet & KubeObject): string | undefined {
    const uid = rs.metadata.uid!;
    const deployment = controllerUid(rs);
    const was = this.replicaSets.get(uid)?.deployment;
    if (was !== undefined && was !== deployment) this.replicaSetsOf.get(was)?.delete(uid);
    this.replicaSets.set(uid, { deployment, replicas: rs.spec?.replicas ?? 1 });
    if (deployment !== undefined) {
      let set = this.replicaSetsOf.get(deployment);
      if (!set) this.replicaSetsOf.set(deployment, (set = new Set()));
      set.add(uid);
    }
    return deployment;
  }

  private pod(e: WatchEvent, live: boolean): void {
    const pod = e.object as Pod & KubeObject;
    const uid = pod.metadata.uid!;
    const rs = controllerUid(pod);
    if (rs === undefined) return;
    if (live && !this.replicaSets.has(rs)) this.ownedPod(e, rs);
    const owner = this.replicaSets.get(rs)?.deployment;
    const t = owner === undefined ? undefined : this.deployments.get(owner);
    if (e.type === 'DELETED') {
      this.pods.delete(uid);
      this.podsByRs.get(rs)?.delete(uid);
      if (t && live) t.podsDeleted++;
      this.touch(owner);
      return;
    }
    if (t && live && !this.pods.has(uid)) t.podsCreated++;
    const usable = !pod.metadata.deletionTimestamp && !isPodTerminal(pod);
    this.pods.set(uid, { rs, availableAt: usable ? availableAt(pod, t?.minReadySeconds ?? 0) : undefined });
    let set = this.podsByRs.get(rs);
    if (!set) this.podsByRs.set(rs, (set = new Set()));
    set.add(uid);
    if (live) this.touch(owner);
  }

  private ownedPod(e: WatchEvent, owner: string): void {
    let f = this.owners.get(owner);
    if (!f) this.owners.set(owner, (f = { podsCreated: 0, podsDeleted: 0, deleted: [], lastChangeAt: 0 }));
    f.lastChangeAt = this.clock.now();
    if (e.type === 'ADDED') f.podsCreated++;
    if (e.type === 'DELETED') {
      f.podsDeleted++;
      f.deleted.push(e.object.metadata.name!);
    }
  }

  private touch(deploymentUid: string | undefined): void {
    const t = deploymentUid === undefined ? undefined : this.deployments.get(deploymentUid);
    if (!t) return;
    t.lastChangeAt = this.clock.now();
    this.measure(t);
  }

  private measure(t: DeploymentTrack): void {
    const now = this.clock.now();
    let total = 0;
    let available = 0;
    for (const uid of this.replicaSetsOf.get(t.uid) ?? []) {
      const rs = this.replicaSets.get(uid)!;
      total += rs.replicas;
      for (const podUid of this.podsByRs.get(uid) ?? []) {
        const at = this.pods.get(podUid)?.availableAt;
        if (at !== undefined && at <= now) available++;
      }
    }
    t.peakSurge = Math.max(t.peakSurge, total - t.replicas);
    t.peakUnavailable = Math.max(t.peakUnavailable, t.replicas - available);
  }

  private slice(e: WatchEvent, live: boolean): void {
    const slice = e.object as EndpointSlice & KubeObject;
    const name = slice.metadata.labels?.[SERVICE_NAME_LABEL];
    if (name === undefined) return;
    const service = `${slice.metadata.namespace}/${name}`;
    const uid = slice.metadata.uid!;
    const before = this.slices.get(uid)?.service;
    if (before !== undefined && before !== service) this.slicesOf.get(before)?.delete(uid);
    let mine = this.slicesOf.get(service);
    if (!mine) this.slicesOf.set(service, (mine = new Set()));
    if (e.type === 'DELETED') {
      this.slices.delete(uid);
      mine.delete(uid);
    } else {
      this.slices.set(uid, { service, ready: readyEndpoints(slice) });
      mine.add(uid);
    }
    let ready = 0;
    for (const s of mine) ready += this.slices.get(s)!.ready;
    const was = this.serviceReady.get(service);
    this.serviceReady.set(service, ready);
    if (!live) return;
    if (was !== ready) this.changedServices.add(service);
    this.serviceMin.set(service, Math.min(this.serviceMin.get(service) ?? was ?? ready, ready));
  }
}
