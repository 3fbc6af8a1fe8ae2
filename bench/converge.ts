/**
 * bench/converge: wall time for the whole control plane to take manifests
 * from apply to every pod Running, in virtual time.
 *  1. 1,000 single-replica Deployments on 20 nodes (target ≤ 1 s wall).
 *  2. The envelope: 5,000 nodes, 150,000 pods as 1,500 Deployments × 100
 *     (target settles ≤ 60 s wall, ≤ 1.5 GB RSS). `--quick` scales it to
 *     500 nodes / 15,000 pods.
 *  3. Workloads (issue 12): 100 StatefulSets × 5 ordinals, each with a claim
 *     template (500 PVCs provisioned on first consumer), and 10 DaemonSets on
 *     50 nodes, to every pod Ready.
 * `--only shape` is the envelope's shape at 1% (50 nodes, 15 Deployments × 100 pods), for `--memory` and
 * `--heap-snapshot FILE` (a V8 heap snapshot of the settled cluster, written before the figures are taken).
 * `--timeline` records the causal timeline (sandbox/timeline) in every run, to measure what it costs.
 * `--only thousand|quick|envelope|workloads` runs one scenario (e.g. under `node --cpu-prof`; `--workloads` is
 * `--only workloads`). Prints figures (wall and CPU time, RSS at the end and the process's peak RSS); never fails on
 * them. `--fingerprint`: hashes of the final store and Events (the same seed must give the same hashes before and
 * after a change). `--memory` under `node --expose-gc`: the heap a pod costs once settled. `--progress`: a line at
 * every tenth of the pods scheduled and Running (with `--profile-dir DIR`, a CPU profile of each stretch).
 * `--repeat N` runs the 1,000 Deployments N times in one process (a fresh cluster each time) and reports each run:
 * the first pays the JIT's warm-up, the later ones show what a long-lived sandbox (the extension's worker) pays.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { writeHeapSnapshot } from 'node:v8';
import { performance } from 'node:perf_hooks';
import { takeSnapshot } from '../sandbox/apiserver/snapshot';
import { Cluster } from '../sandbox/cluster/cluster';
import type { KubeObject } from '../sandbox/api/types';
import { fmt, machine } from './stats';

function deployment(name: string, replicas: number): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '10m', memory: '16Mi' } } }],
        },
      },
    },
  };
}

interface Outcome {
  wallMs: number;
  /** CPU time of the process over the same span (user + system): what a loaded machine does not inflate. */
  cpuMs: number;
  virtualMs: number;
  running: number;
  settled: boolean;
  rssMb: number;
  peakRssMb: number;
  writes: number;
  /** With `--fingerprint`: sha256 of the final store (every object) and of the Events in creation order. */
  fingerprint?: { state: string; events: string; objects: number; eventCount: number };
}

/** Hashes of the settled store and of its Events (by creation order), to compare two builds' histories. */
function fingerprint(cluster: Cluster): NonNullable<Outcome['fingerprint']> {
  const snap = takeSnapshot(cluster.api);
  const state = createHash('sha256');
  for (const obj of snap.objects) state.update(JSON.stringify(obj));
  state.update(snap.resourceVersion);
  const events = cluster.api.list('events').items.slice();
  events.sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion));
  const ev = createHash('sha256');
  for (const e of events) ev.update(JSON.stringify([e.metadata.name, e.reason, e.message, e.count, e.involvedObject]));
  return {
    state: state.digest('hex'),
    events: ev.digest('hex'),
    objects: snap.objects.length,
    eventCount: events.length,
  };
}

function converge(nodes: number, deployments: number, replicas: number): Outcome {
  const cluster = new Cluster({
    nodes,
    seed: 1,
    timeline: process.argv.includes('--timeline'),
    nodeDefaults: {
      capacity: { pods: Math.max(110, Math.ceil((deployments * replicas * 1.3) / nodes)), cpu: '64', memory: '256Gi' },
    },
  });
  cluster.start();
  cluster.runUntilSettled();
  const heap0 = settledHeap();
  const buffers0 = process.memoryUsage().arrayBuffers;
  const rv0 = Number(cluster.api.resourceVersion);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const v0 = cluster.clock.now();
  const progress = process.argv.includes('--progress') ? watchProgress(cluster, deployments * replicas, t0) : undefined;
  for (let i = 0; i < deployments; i++) cluster.apply(deployment(`app-${i}`, replicas));
  const result = cluster.runUntilSettled(60 * 60_000);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  progress?.stop();
  const running = cluster.api.list('pods', { fieldSelector: 'status.phase=Running' }).items.length;
  const snapshotAt = process.argv.indexOf('--heap-snapshot');
  if (snapshotAt >= 0) writeHeapSnapshot(process.argv[snapshotAt + 1]);
  const out = {
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    virtualMs: result.lastActivityAt - v0,
    running,
    settled: result.settled,
    rssMb: process.memoryUsage().rss / 2 ** 20,
    peakRssMb: process.resourceUsage().maxRSS / 2 ** 10,
    writes: Number(cluster.api.resourceVersion) - rv0,
    fingerprint: process.argv.includes('--fingerprint') ? fingerprint(cluster) : undefined,
  };
  const heap1 = settledHeap();
  const buffers = process.memoryUsage().arrayBuffers - buffers0;
  if (heap0 !== undefined && heap1 !== undefined) {
    const events = cluster.api.objectStore.count('/Event');
    cluster.api.compact();
    const history = heap1 - settledHeap()!;
    const perPod = (bytes: number): string => `${fmt(bytes / running / 1024, 1)} KiB a pod`;
    console.log(
      `  heap after GC: +${fmt((heap1 - heap0) / 2 ** 20, 1)} MiB for ${running} pods (${perPod(heap1 - heap0)}, with their ${fmt(events / running, 1)} Events each and the controllers' and informers' state); of which the change history (old versions kept for watch resumes): ${fmt(history / 2 ** 20, 1)} MiB (${perPod(history)}); outside the heap, array buffers (typed arrays' data): +${fmt(buffers / 2 ** 20, 1)} MiB (${perPod(buffers)})`,
    );
  }
  cluster.stop();
  return out;
}

/**
 * With `--progress`: a line at every tenth of the pods scheduled and Running (wall and CPU time, RSS), so a long run
 * that is stopped still says how far it got. A watch only reads; the cluster's history is unchanged.
 */
function watchProgress(cluster: Cluster, pods: number, t0: number): { stop(): void } {
  const cpu0 = process.cpuUsage();
  const bound = new Set<string>();
  const running = new Set<string>();
  const step = Math.max(1, Math.round(pods / 10));
  const at = process.argv.indexOf('--profile-dir');
  const profiler = at >= 0 ? segmentProfiler(process.argv[at + 1]) : undefined;
  const line = (what: string, n: number): void => {
    const cpu = process.cpuUsage(cpu0);
    console.log(
      `  ${n.toLocaleString('en-US')} pods ${what}: ${fmt((performance.now() - t0) / 1000, 1)} s wall, ${fmt((cpu.user + cpu.system) / 1e6, 1)} s CPU, RSS ${fmt(process.memoryUsage().rss / 2 ** 20, 0)} MB`,
    );
    profiler?.write(`${what}-${n}`);
  };
  const watch = cluster.api.watch('pods', {}, (e) => {
    if (e.type !== 'ADDED' && e.type !== 'MODIFIED') return;
    const uid = e.object.metadata.uid!;
    if (e.object.spec?.nodeName && !bound.has(uid)) {
      bound.add(uid);
      if (bound.size % step === 0) line('scheduled', bound.size);
    }
    if (e.object.status?.phase === 'Running' && !running.has(uid)) {
      running.add(uid);
      if (running.size % step === 0) line('Running', running.size);
    }
  });
  return {
    stop: () => {
      watch.stop();
      profiler?.write('end');
    },
  };
}

/**
 * With `--profile-dir DIR` (and `--progress`): a CPU profile of each stretch between progress lines, written when the
 * line is printed (the in-thread inspector answers synchronously), so a run stopped part-way still has its profiles.
 */
function segmentProfiler(dir: string): { write(label: string): void } {
  const session = new Session();
  session.connect();
  const post = (method: string): unknown => {
    let result: unknown;
    session.post(method, (err, res) => {
      if (err) throw err;
      result = res;
    });
    return result;
  };
  post('Profiler.enable');
  post('Profiler.start');
  return {
    write(label) {
      const { profile } = post('Profiler.stop') as { profile: unknown };
      writeFileSync(`${dir}/${label}.cpuprofile`, JSON.stringify(profile));
      post('Profiler.start');
    },
  };
}

/** With `--memory` (and node's `--expose-gc`): the heap in use after two full collections. */
function settledHeap(): number | undefined {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!process.argv.includes('--memory') || gc === undefined) return undefined;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

function statefulSet(name: string): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, namespace: 'default' },
    spec: {
      serviceName: name,
      replicas: 5,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [
            {
              name: 'db',
              image: 'nginx:1.27',
              resources: { requests: { cpu: '10m', memory: '16Mi' } },
              volumeMounts: [{ name: 'data', mountPath: '/usr/share/nginx/html' }],
            },
          ],
        },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ],
    },
  };
}

function daemonSet(name: string): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [{ name: 'agent', image: 'fluentd:v1', resources: { requests: { cpu: '5m', memory: '8Mi' } } }],
        },
      },
    },
  };
}

interface WorkloadOutcome extends Outcome {
  ready: number;
  pvcsBound: number;
  setsReady: number;
  daemonSetsReady: number;
}

function convergeWorkloads(nodes: number, sets: number, daemonSets: number): WorkloadOutcome {
  const cluster = new Cluster({
    nodes,
    seed: 1,
    nodeDefaults: { capacity: { pods: 110, cpu: '64', memory: '256Gi' } },
  });
  cluster.start();
  cluster.runUntilSettled();
  const rv0 = Number(cluster.api.resourceVersion);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const v0 = cluster.clock.now();
  for (let i = 0; i < sets; i++) cluster.apply(statefulSet(`db-${i}`));
  for (let i = 0; i < daemonSets; i++) cluster.apply(daemonSet(`agent-${i}`));
  const result = cluster.runUntilSettled(60 * 60_000);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const pods = cluster.api.list('pods', { namespace: 'default' }).items;
  const ready = pods.filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length;
  const out = {
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    virtualMs: result.lastActivityAt - v0,
    running: pods.filter((p) => p.status?.phase === 'Running').length,
    ready,
    pvcsBound: cluster.api
      .list('persistentvolumeclaims', { namespace: 'default' })
      .items.filter((c) => c.status?.phase === 'Bound').length,
    setsReady: cluster.api.list('statefulsets').items.filter((s) => s.status?.readyReplicas === 5).length,
    daemonSetsReady: cluster.api
      .list('daemonsets')
      .items.filter((d) => d.status?.numberReady === nodes && d.status.desiredNumberScheduled === nodes).length,
    settled: result.settled,
    rssMb: process.memoryUsage().rss / 2 ** 20,
    peakRssMb: process.resourceUsage().maxRSS / 2 ** 10,
    writes: Number(cluster.api.resourceVersion) - rv0,
    fingerprint: process.argv.includes('--fingerprint') ? fingerprint(cluster) : undefined,
  };
  cluster.stop();
  return out;
}

function report(label: string, o: Outcome, target: string): void {
  console.log(
    `${label}: ${o.running} pods Running in ${fmt(o.wallMs / 1000, 2)} s wall, ${fmt(o.cpuMs / 1000, 2)} s CPU (${fmt(o.virtualMs / 1000, 1)} s virtual), ${o.settled ? 'settled' : 'NOT settled'}, ${o.writes.toLocaleString('en-US')} API writes (${fmt(o.writes / (o.wallMs / 1000), 0)}/s), RSS ${fmt(o.rssMb, 0)} MB (peak ${fmt(o.peakRssMb, 0)} MB) — target ${target}`,
  );
  const f = o.fingerprint;
  if (f)
    console.log(`  fingerprint: ${f.objects} objects sha256 ${f.state}; ${f.eventCount} Events sha256 ${f.events}`);
}

function main(): void {
  const quick = process.argv.includes('--quick');
  const at = process.argv.indexOf('--only');
  const only = process.argv.includes('--workloads') ? 'workloads' : at >= 0 ? process.argv[at + 1] : undefined;
  const runs = (name: string) => only === undefined || only === name;
  console.log(`bench/converge on ${machine()}`);
  if (only === 'workloads') return reportWorkloads();

  converge(5, 50, 1);
  if (runs('thousand')) {
    report('1,000 single-replica Deployments, 20 nodes', converge(20, 1000, 1), '≤ 1 s wall');
    const at = process.argv.indexOf('--repeat');
    const repeat = at >= 0 ? Number(process.argv[at + 1]) : 1;
    for (let i = 2; i <= repeat; i++) report(`  run ${i} in the same process`, converge(20, 1000, 1), '≤ 1 s wall');
  }
  if (only === 'shape') report('the envelope at 1%: 50 nodes, 1,500 pods', converge(50, 15, 100), '—');
  if (only === 'quick' || (only === undefined && quick))
    report('envelope (quick): 500 nodes, 15,000 pods', converge(500, 150, 100), '—');
  else if (only === 'envelope' || (only === undefined && !quick))
    report('envelope: 5,000 nodes, 150,000 pods', converge(5000, 1500, 100), '≤ 60 s wall, ≤ 1.5 GB RSS');
  if (runs('workloads')) reportWorkloads();
}

function reportWorkloads(): void {
  const o = convergeWorkloads(50, 100, 10);
  console.log(
    `100 StatefulSets × 5 with PVCs + 10 DaemonSets, 50 nodes: ${o.ready} pods Ready (${o.running} Running), ${o.setsReady}/100 StatefulSets and ${o.daemonSetsReady}/10 DaemonSets ready, ${o.pvcsBound} PVCs Bound, in ${fmt(o.wallMs / 1000, 2)} s wall, ${fmt(o.cpuMs / 1000, 2)} s CPU (${fmt(o.virtualMs / 1000, 1)} s virtual), ${o.settled ? 'settled' : 'NOT settled'}, ${o.writes.toLocaleString('en-US')} API writes, RSS ${fmt(o.rssMb, 0)} MB (peak ${fmt(o.peakRssMb, 0)} MB)`,
  );
}

main();
