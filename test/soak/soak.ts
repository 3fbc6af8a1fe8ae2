/**
 * The soak run: a seeded chaos run in virtual time on a whole cluster (50 nodes by default) — pod kills, container
 * crashes, node failures and recoveries, node deletions, drains, scales, rollouts and concurrent edits — with the
 * invariants of issue 16 checked after every step:
 *
 * - resourceVersions strictly increase, in every watch stream and in the store;
 * - a watch from a revision replays to the same state as a list (the long-running watch from the start, and a watch
 *   opened from a revision recorded earlier, replayed onto what was listed then);
 * - no object keeps an owner reference to an owner that is gone (beyond the garbage collector's bound);
 * - no pod bound to a deleted node stays Running (beyond PodGC's bound);
 * - once faults stop (every chaos period ends with nodes recovered and uncordoned), every Deployment, ReplicaSet,
 *   StatefulSet and DaemonSet converges to its desired counts within a bound;
 * - memory is bounded: the stored objects (Events aside) at each quiet point stay under a fixed multiple of the
 *   first quiet point's count, the change history keeps no change older than two compaction intervals, and the
 *   figures record heap and RSS.
 *
 * Pure function of its seed (the cluster's and the chaos's choices are seeded; time is virtual), so a failure is
 * reproduced by its seed. `npm run soak` (scripts/soak.ts) prints the figures; test/soak/soak.test.ts runs a short one.
 */
import type { Deployment, StatefulSet, DaemonSet, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { Cluster } from '../../sandbox/cluster/cluster';
import { SeededRandom } from '../../sandbox/clock/random';
import type { KubeObject, WatchEvent } from '../../sandbox/api/types';
import { isApiError } from '../../sandbox/api/errors';
import { uncordon } from '../../sandbox/operations/cordon';
import { drainNode } from '../../sandbox/operations/drain';
import type { DrainHandle } from '../../sandbox/operations/drain';
import { SIMULATE_DRAIN_OPTIONS } from '../../sandbox/cluster/actions';
import { COMPACTION_INTERVAL_MS } from '../../sandbox/apiserver/compactor';

export interface SoakOptions {
  seed: number | string;
  /** Virtual time to run, in ms. */
  virtualMs: number;
  /** Default 50. */
  nodes?: number;
  /** Virtual time between two chaos steps (default 20 s). */
  stepMs?: number;
  /** Length of one chaos period before faults stop and convergence is checked (default 30 min). */
  chaosMs?: number;
  /** How long the workloads get to converge once faults stop (default 15 min). */
  convergeBoundMs?: number;
  /** Called after each chaos period with the figures so far. */
  onCycle?: (figures: SoakFigures) => void;
  /** Test hook: called after each step, before the checks (a test plants a violation here). */
  afterStep?: (cluster: Cluster) => void;
}

export interface SoakFigures {
  seed: string;
  nodes: number;
  steps: number;
  cycles: number;
  virtualMs: number;
  wallMs: number;
  /** Actions carried out, by kind. */
  actions: Record<string, number>;
  /** Invariant checks made, by invariant. */
  checks: Record<string, number>;
  /** Every violation, with its virtual time; empty when the run is clean. */
  violations: string[];
  /** Peak resident set size and heap seen at quiet points (bytes). */
  peakRss: number;
  peakHeap: number;
  /** Stored objects at the last quiet point: Events, and all other kinds together. */
  events: number;
  objects: number;
  pods: number;
}

const NS = 'soak';
/** The garbage collector's and PodGC's bounds as the checks allow them (upstream PodGC quarantines 40 s). */
const ORPHAN_BOUND_MS = 2 * 60_000;
const DELETED_NODE_BOUND_MS = 2 * 60_000;
/** Stored objects (Events aside) at a quiet point may not exceed this multiple of the first quiet point's count. */
const OBJECT_GROWTH_BOUND = 1.5;
const WATCHED = ['pods', 'replicasets', 'deployments', 'statefulsets', 'daemonsets', 'nodes'] as const;
type Watched = (typeof WATCHED)[number];

function container(rev: number): KubeObject {
  return {
    name: 'app',
    image: 'nginx:1.27',
    env: [{ name: 'REV', value: String(rev) }],
    resources: { requests: { cpu: '50m', memory: '32Mi' } },
  } as unknown as KubeObject;
}

function deployment(name: string, replicas: number): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NS },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [container(0)] } },
    },
  };
}

function statefulSet(name: string, replicas: number): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, namespace: NS },
    spec: {
      replicas,
      serviceName: name,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [container(0)] } },
    },
  };
}

function daemonSet(name: string): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: NS },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [container(0)] } },
    },
  };
}

const DEPLOYMENTS = ['web-a', 'web-b', 'web-c', 'web-d', 'web-e'];
const STATEFULSETS = ['db'];
const DAEMONSETS = ['agent'];

interface Mirror {
  objects: Map<string, string>;
  lastRv: number;
  handle: { stop(): void };
}

interface Checkpoint {
  revision: string;
  pods: Map<string, string>;
}

const key = (o: KubeObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** Runs the soak; returns its figures (violations listed, never thrown). */
export function runSoak(options: SoakOptions): SoakFigures {
  const started = performance.now();
  const nodes = options.nodes ?? 50;
  const stepMs = options.stepMs ?? 20_000;
  const chaosMs = options.chaosMs ?? 30 * 60_000;
  const convergeBoundMs = options.convergeBoundMs ?? 15 * 60_000;
  const rng = new SeededRandom(`soak-${options.seed}`);
  const cluster = new Cluster({ seed: options.seed, nodes });
  const api = cluster.api;
  const figures: SoakFigures = {
    seed: String(options.seed),
    nodes,
    steps: 0,
    cycles: 0,
    virtualMs: 0,
    wallMs: 0,
    actions: {},
    checks: {},
    violations: [],
    peakRss: 0,
    peakHeap: 0,
    events: 0,
    objects: 0,
    pods: 0,
  };
  const t0 = cluster.clock.now();
  const at = () => `${((cluster.clock.now() - t0) / 1000).toFixed(0)}s`;
  const check = (name: string, ok: boolean, detail: () => string) => {
    figures.checks[name] = (figures.checks[name] ?? 0) + 1;
    if (!ok && figures.violations.length < 200) figures.violations.push(`${at()} ${name}: ${detail()}`);
  };
  const did = (action: string) => (figures.actions[action] = (figures.actions[action] ?? 0) + 1);

  cluster.start();
  api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  DEPLOYMENTS.forEach((d, i) => cluster.apply(deployment(d, 3 + i)));
  for (const s of STATEFULSETS) {
    cluster.apply({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: s, namespace: NS },
      spec: { clusterIP: 'None', selector: { app: s } },
    });
    cluster.apply(statefulSet(s, 3));
  }
  for (const d of DAEMONSETS) cluster.apply(daemonSet(d));
  cluster.runUntilSettled();

  // ---- the long-running watches: strictly increasing resourceVersions, and a mirror that must equal a list ----
  const mirrors = new Map<Watched, Mirror>();
  for (const resource of WATCHED) {
    const list = api.list(resource);
    const mirror: Mirror = {
      objects: new Map(list.items.map((o) => [key(o), o.metadata.resourceVersion!])),
      lastRv: Number(list.metadata.resourceVersion),
      handle: { stop: () => undefined },
    };
    mirror.handle = api.watch(resource, { resourceVersion: list.metadata.resourceVersion }, (e: WatchEvent) => {
      if (e.type === 'BOOKMARK' || e.type === 'ERROR') return;
      const rv = Number(e.object.metadata.resourceVersion);
      check(
        'watch resourceVersion strictly increases',
        rv > mirror.lastRv,
        () => `${resource}: ${rv} after ${mirror.lastRv}`,
      );
      mirror.lastRv = Math.max(mirror.lastRv, rv);
      if (e.type === 'DELETED') mirror.objects.delete(key(e.object));
      else mirror.objects.set(key(e.object), e.object.metadata.resourceVersion!);
    });
    mirrors.set(resource, mirror);
  }

  const checkpoints: Checkpoint[] = [];
  const failed = new Set<string>();
  const deletedNodes = new Map<string, number>();
  const drains: DrainHandle[] = [];
  const orphanSince = new Map<string, number>();
  const onDeletedNodeSince = new Map<string, number>();
  let rev = 0;
  let lastRevision = Number(api.resourceVersion);
  let firstQuietObjects: number | undefined;
  const quietRevisions: { at: number; revision: number }[] = [];

  const pick = <T>(items: readonly T[]): T | undefined =>
    items.length === 0 ? undefined : items[Math.floor(rng.next() * items.length)];
  const livePods = () => api.list('pods', { namespace: NS }).items.filter((p) => !p.metadata.deletionTimestamp);
  const liveNodes = () => cluster.nodeNames.filter((n) => !failed.has(n) && !deletedNodes.has(n));

  // ---- chaos actions ----
  const actions: { weight: number; run: () => void }[] = [
    {
      weight: 6,
      run: () => {
        const p = pick(livePods());
        if (!p) return;
        cluster.killPod(NS, p.metadata.name!);
        did('pod kill');
      },
    },
    {
      weight: 5,
      run: () => {
        const p = pick(livePods().filter((x: Pod) => x.status?.phase === 'Running' && x.spec?.nodeName));
        if (!p || !cluster.isKubeletRunning(p.spec!.nodeName!)) return;
        cluster.crashContainer(NS, p.metadata.name!);
        did('container crash');
      },
    },
    {
      weight: 3,
      run: () => {
        if (failed.size + deletedNodes.size >= nodes / 10) return;
        const n = pick(liveNodes());
        if (!n) return;
        cluster.failNode(n);
        failed.add(n);
        did('node failure');
      },
    },
    {
      weight: 3,
      run: () => {
        const n = pick([...failed]);
        if (!n) return;
        cluster.recoverNode(n);
        failed.delete(n);
        did('node recovery');
      },
    },
    {
      weight: 1,
      run: () => {
        // `kubectl delete node` of a failed node (a machine gone for good): PodGC must clear its pods.
        if (failed.size + deletedNodes.size >= nodes / 10) return;
        const n = pick([...failed]);
        if (!n) return;
        api.delete('nodes', undefined, n);
        failed.delete(n);
        deletedNodes.set(n, cluster.clock.now());
        did('node deletion');
      },
    },
    {
      weight: 2,
      run: () => {
        if (drains.some((d) => d.outcome === undefined)) return;
        const n = pick(liveNodes());
        if (!n) return;
        drains.push(drainNode(api, cluster.clock, n, SIMULATE_DRAIN_OPTIONS));
        did('drain');
      },
    },
    {
      weight: 4,
      run: () => {
        const which = rng.next() < 0.8 ? pick(DEPLOYMENTS)! : pick(STATEFULSETS)!;
        const resource = DEPLOYMENTS.includes(which) ? 'deployments' : 'statefulsets';
        cluster.scale(resource, NS, which, 1 + Math.floor(rng.next() * 8));
        did('scale');
      },
    },
    {
      weight: 3,
      run: () => {
        const all = [
          ...DEPLOYMENTS.map((n) => ['deployments', n] as const),
          ...STATEFULSETS.map((n) => ['statefulsets', n] as const),
          ...DAEMONSETS.map((n) => ['daemonsets', n] as const),
        ];
        const [resource, name] = pick(all)!;
        rev++;
        api.patch(resource, NS, name, 'strategic', {
          spec: { template: { spec: { containers: [container(rev)] } } },
        });
        did('rollout');
      },
    },
    {
      weight: 3,
      run: () => {
        // Two clients read the same Deployment and both write: the second must get 409 Conflict and nothing of its
        // write is stored; its retry on a fresh read succeeds.
        const name = pick(DEPLOYMENTS)!;
        const a = api.get('deployments', NS, name);
        const b = api.get('deployments', NS, name);
        const mark = (o: KubeObject, who: string) => ({
          ...o,
          metadata: { ...o.metadata, annotations: { ...o.metadata.annotations, 'soak/editor': who } },
        });
        api.update(mark(a, `a${figures.steps}`));
        let conflict = false;
        try {
          api.update(mark(b, `b${figures.steps}`));
        } catch (e) {
          conflict = isApiError(e) && e.status.code === 409;
        }
        check('a stale write is refused with 409', conflict, () => `deployment ${name}: the second write got through`);
        const stored = api.get('deployments', NS, name).metadata.annotations?.['soak/editor'];
        check(
          'a refused write leaves the object unchanged',
          stored === `a${figures.steps}`,
          () => `${name}: ${stored}`,
        );
        api.update(mark(api.get('deployments', NS, name), `b${figures.steps}`));
        did('concurrent edit');
      },
    },
  ];
  const totalWeight = actions.reduce((s, a) => s + a.weight, 0);
  const chaosStep = () => {
    let r = rng.next() * totalWeight;
    for (const a of actions) {
      r -= a.weight;
      if (r < 0) {
        try {
          a.run();
        } catch (e) {
          // A target that went away between the read and the write (404/409) is part of the chaos, not a failure.
          if (!isApiError(e) || (e.status.code !== 404 && e.status.code !== 409)) throw e;
          did('raced (404/409)');
        }
        return;
      }
    }
  };

  // ---- invariants after every step ----
  const ownerUids = () => {
    const uids = new Set<string>();
    for (const r of ['deployments', 'replicasets', 'statefulsets', 'daemonsets', 'nodes'] as const)
      for (const o of api.list(r).items) uids.add(o.metadata.uid!);
    return uids;
  };
  const stepChecks = () => {
    const now = cluster.clock.now();
    const revision = Number(api.resourceVersion);
    check('store revision never decreases', revision >= lastRevision, () => `${revision} after ${lastRevision}`);
    lastRevision = revision;

    for (const [resource, mirror] of mirrors) {
      const listed = api.list(resource).items;
      const same =
        listed.length === mirror.objects.size &&
        listed.every((o) => mirror.objects.get(key(o)) === o.metadata.resourceVersion);
      check('watch from the start replays to the list', same, () => `${resource}: watch and list differ`);
    }

    const pods = api.list('pods').items;
    if (rng.next() < 0.25 && checkpoints.length > 0) {
      const cp = pick(checkpoints)!;
      const replay = new Map(cp.pods);
      try {
        const h = api.watch('pods', { resourceVersion: cp.revision }, (e: WatchEvent) => {
          if (e.type === 'DELETED') replay.delete(key(e.object));
          else if (e.type === 'ADDED' || e.type === 'MODIFIED')
            replay.set(key(e.object), e.object.metadata.resourceVersion!);
        });
        h.stop();
        const same =
          pods.length === replay.size && pods.every((o) => replay.get(key(o)) === o.metadata.resourceVersion);
        check('watch from an earlier revision replays to the list', same, () => `pods from revision ${cp.revision}`);
      } catch (e) {
        // 410 Gone once history is compacted: the checkpoint is too old, which is upstream's answer, not a failure.
        if (!isApiError(e) || e.status.code !== 410) throw e;
        checkpoints.splice(checkpoints.indexOf(cp), 1);
      }
    }
    checkpoints.push({
      revision: api.resourceVersion,
      pods: new Map(pods.map((p) => [key(p), p.metadata.resourceVersion!])),
    });
    if (checkpoints.length > 20) checkpoints.splice(Math.floor(rng.next() * 19), 1);

    const owners = ownerUids();
    const seen = new Set<string>();
    for (const r of ['pods', 'replicasets', 'controllerrevisions'] as const) {
      for (const o of api.list(r, { namespace: NS }).items) {
        const refs = o.metadata.ownerReferences ?? [];
        if (refs.length === 0 || refs.some((ref) => owners.has(ref.uid))) continue;
        const k = `${r}/${key(o)}/${o.metadata.uid}`;
        seen.add(k);
        const since = orphanSince.get(k) ?? now;
        orphanSince.set(k, since);
        check(
          'no orphan outlives its owner',
          now - since <= ORPHAN_BOUND_MS,
          () => `${k} orphaned since ${since - t0} ms`,
        );
      }
    }
    for (const k of orphanSince.keys()) if (!seen.has(k)) orphanSince.delete(k);
    figures.checks['no orphan outlives its owner'] = (figures.checks['no orphan outlives its owner'] ?? 0) + 1;

    const nodeNames = new Set(api.list('nodes').items.map((n) => n.metadata.name!));
    const onGone = new Set<string>();
    for (const p of pods) {
      const node = p.spec?.nodeName;
      if (!node || nodeNames.has(node) || p.status?.phase !== 'Running') continue;
      const k = `${key(p)}@${node}`;
      onGone.add(k);
      const since = onDeletedNodeSince.get(k) ?? now;
      onDeletedNodeSince.set(k, since);
      check('no pod on a deleted node stays Running', now - since <= DELETED_NODE_BOUND_MS, () => k);
    }
    for (const k of onDeletedNodeSince.keys()) if (!onGone.has(k)) onDeletedNodeSince.delete(k);
    figures.checks['no pod on a deleted node stays Running'] =
      (figures.checks['no pod on a deleted node stays Running'] ?? 0) + 1;
  };

  // ---- convergence once faults stop ----
  const stopFaults = () => {
    for (const d of drains) if (d.outcome === undefined) d.cancel();
    drains.length = 0;
    for (const n of failed) cluster.recoverNode(n);
    failed.clear();
    // A deleted node comes back as a machine rejoining does: its kubelet registers it again.
    for (const n of deletedNodes.keys()) {
      cluster.failNode(n);
      cluster.recoverNode(n);
    }
    deletedNodes.clear();
    for (const n of api.list('nodes').items) if (n.spec?.unschedulable) uncordon(api, n.metadata.name!);
  };
  const convergenceChecks = () => {
    const settled = cluster.runUntilSettled(convergeBoundMs);
    check('workloads converge once faults stop', settled.pending.length === 0, () => settled.pending.join('; '));
    for (const d of api.list('deployments', { namespace: NS }).items as (Deployment & KubeObject)[]) {
      const want = d.spec?.replicas ?? 1;
      const s = d.status ?? {};
      const ok =
        s.observedGeneration === d.metadata.generation &&
        s.replicas === want &&
        s.updatedReplicas === want &&
        s.readyReplicas === want &&
        s.availableReplicas === want;
      check(
        'Deployment reaches its desired counts',
        ok,
        () => `${d.metadata.name}: want ${want}, ${JSON.stringify(s)}`,
      );
    }
    for (const rs of api.list('replicasets', { namespace: NS }).items as (ReplicaSet & KubeObject)[]) {
      const want = rs.spec?.replicas ?? 1;
      const owned = api
        .list('pods', { namespace: NS })
        .items.filter((p) => p.metadata.ownerReferences?.some((r) => r.uid === rs.metadata.uid));
      const ok = rs.status?.replicas === want && (rs.status?.readyReplicas ?? 0) === want && owned.length === want;
      check(
        'ReplicaSet reaches its desired counts',
        ok,
        () => `${rs.metadata.name}: want ${want}, ${owned.length} pods`,
      );
    }
    for (const s of api.list('statefulsets', { namespace: NS }).items as (StatefulSet & KubeObject)[]) {
      const want = s.spec?.replicas ?? 1;
      const st = s.status;
      const ok =
        st?.replicas === want &&
        st.readyReplicas === want &&
        st.updatedReplicas === want &&
        st.currentRevision === st.updateRevision;
      check('StatefulSet reaches its desired counts', ok, () => `${s.metadata.name}: ${JSON.stringify(st)}`);
    }
    const ready = api.list('nodes').items.length;
    for (const d of api.list('daemonsets', { namespace: NS }).items as (DaemonSet & KubeObject)[]) {
      const st = d.status;
      const ok =
        st?.desiredNumberScheduled === ready &&
        st.currentNumberScheduled === ready &&
        st.numberReady === ready &&
        st.updatedNumberScheduled === ready &&
        st.numberMisscheduled === 0;
      check(
        'DaemonSet runs one ready pod per node',
        ok,
        () => `${d.metadata.name}: ${ready} nodes, ${JSON.stringify(st)}`,
      );
    }
    let events = 0;
    let objects = 0;
    for (const r of api.resources.storedKinds()) {
      const n = api.list(r).items.length;
      if (r.kind === 'Event') events += n;
      else objects += n;
    }
    figures.events = events;
    figures.objects = objects;
    figures.pods = api.list('pods').items.length;
    firstQuietObjects ??= objects;
    check(
      'stored objects stay bounded',
      objects <= firstQuietObjects * OBJECT_GROWTH_BOUND,
      () => `${objects} objects, first quiet point had ${firstQuietObjects}`,
    );
    // Memory bounded, the change history: every change older than two compaction intervals is compacted away (a
    // watch from before a quiet point that long ago is 410 Gone), so the history holds minutes of changes, not hours.
    const now = cluster.clock.now();
    quietRevisions.push({ at: now, revision: Number(api.resourceVersion) });
    while (quietRevisions.length > 1 && now - quietRevisions[1].at > 2 * COMPACTION_INTERVAL_MS) quietRevisions.shift();
    const old = quietRevisions[0];
    if (now - old.at > 2 * COMPACTION_INTERVAL_MS) {
      let gone = false;
      try {
        api.watch('pods', { resourceVersion: String(old.revision - 1) }, () => undefined).stop();
      } catch (e) {
        gone = isApiError(e, 410);
      }
      check(
        'change history compacted within two intervals',
        gone,
        () => `revision ${old.revision - 1} still resumable`,
      );
    }
    const mem = process.memoryUsage();
    figures.peakRss = Math.max(figures.peakRss, mem.rss);
    figures.peakHeap = Math.max(figures.peakHeap, mem.heapUsed);
  };

  const end = t0 + options.virtualMs;
  while (cluster.clock.now() < end) {
    const periodEnd = Math.min(end, cluster.clock.now() + chaosMs);
    while (cluster.clock.now() < periodEnd) {
      chaosStep();
      cluster.runFor(Math.min(stepMs, periodEnd - cluster.clock.now()));
      options.afterStep?.(cluster);
      stepChecks();
      figures.steps++;
    }
    stopFaults();
    convergenceChecks();
    stepChecks();
    figures.cycles++;
    figures.virtualMs = cluster.clock.now() - t0;
    figures.wallMs = performance.now() - started;
    options.onCycle?.(figures);
  }
  for (const m of mirrors.values()) m.handle.stop();
  cluster.stop();
  figures.virtualMs = cluster.clock.now() - t0;
  figures.wallMs = performance.now() - started;
  return figures;
}
