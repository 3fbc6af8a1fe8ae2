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
 * `--timeline` records the causal timeline (sandbox/timeline) in every run, to measure what it costs.
 * `--only thousand|quick|envelope|workloads` runs one scenario (e.g. under `node --cpu-prof`; `--workloads` is
 * `--only workloads`). Prints figures (RSS at the end and the process's peak RSS); never fails on them.
 */
import { performance } from 'node:perf_hooks';
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
  virtualMs: number;
  running: number;
  settled: boolean;
  rssMb: number;
  peakRssMb: number;
  writes: number;
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
  const rv0 = Number(cluster.api.resourceVersion);
  const t0 = performance.now();
  const v0 = cluster.clock.now();
  for (let i = 0; i < deployments; i++) cluster.apply(deployment(`app-${i}`, replicas));
  const result = cluster.runUntilSettled(60 * 60_000);
  const wallMs = performance.now() - t0;
  const running = cluster.api.list('pods', { fieldSelector: 'status.phase=Running' }).items.length;
  const out = {
    wallMs,
    virtualMs: result.lastActivityAt - v0,
    running,
    settled: result.settled,
    rssMb: process.memoryUsage().rss / 2 ** 20,
    peakRssMb: process.resourceUsage().maxRSS / 2 ** 10,
    writes: Number(cluster.api.resourceVersion) - rv0,
  };
  cluster.stop();
  return out;
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
  const v0 = cluster.clock.now();
  for (let i = 0; i < sets; i++) cluster.apply(statefulSet(`db-${i}`));
  for (let i = 0; i < daemonSets; i++) cluster.apply(daemonSet(`agent-${i}`));
  const result = cluster.runUntilSettled(60 * 60_000);
  const wallMs = performance.now() - t0;
  const pods = cluster.api.list('pods', { namespace: 'default' }).items;
  const ready = pods.filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length;
  const out = {
    wallMs,
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
  };
  cluster.stop();
  return out;
}

function report(label: string, o: Outcome, target: string): void {
  console.log(
    `${label}: ${o.running} pods Running in ${fmt(o.wallMs / 1000, 2)} s wall (${fmt(o.virtualMs / 1000, 1)} s virtual), ${o.settled ? 'settled' : 'NOT settled'}, ${o.writes.toLocaleString('en-US')} API writes (${fmt(o.writes / (o.wallMs / 1000), 0)}/s), RSS ${fmt(o.rssMb, 0)} MB (peak ${fmt(o.peakRssMb, 0)} MB) — target ${target}`,
  );
}

function main(): void {
  const quick = process.argv.includes('--quick');
  const at = process.argv.indexOf('--only');
  const only = process.argv.includes('--workloads') ? 'workloads' : at >= 0 ? process.argv[at + 1] : undefined;
  const runs = (name: string) => only === undefined || only === name;
  console.log(`bench/converge on ${machine()}`);
  if (only === 'workloads') return reportWorkloads();

  converge(5, 50, 1);
  if (runs('thousand')) report('1,000 single-replica Deployments, 20 nodes', converge(20, 1000, 1), '≤ 1 s wall');
  if (only === 'quick' || (only === undefined && quick))
    report('envelope (quick): 500 nodes, 15,000 pods', converge(500, 150, 100), '—');
  else if (only === 'envelope' || (only === undefined && !quick))
    report('envelope: 5,000 nodes, 150,000 pods', converge(5000, 1500, 100), '≤ 60 s wall, ≤ 1.5 GB RSS');
  if (runs('workloads')) reportWorkloads();
}

function reportWorkloads(): void {
  const o = convergeWorkloads(50, 100, 10);
  console.log(
    `100 StatefulSets × 5 with PVCs + 10 DaemonSets, 50 nodes: ${o.ready} pods Ready (${o.running} Running), ${o.setsReady}/100 StatefulSets and ${o.daemonSetsReady}/10 DaemonSets ready, ${o.pvcsBound} PVCs Bound, in ${fmt(o.wallMs / 1000, 2)} s wall (${fmt(o.virtualMs / 1000, 1)} s virtual), ${o.settled ? 'settled' : 'NOT settled'}, ${o.writes.toLocaleString('en-US')} API writes, RSS ${fmt(o.rssMb, 0)} MB (peak ${fmt(o.peakRssMb, 0)} MB)`,
  );
}

main();
