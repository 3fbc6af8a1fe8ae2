/**
 * bench/scheduler: the Scheduler against a real ApiServer on a VirtualClock.
 * 5,000 nodes are created directly; 1,000 warm-up pods then 10,000 measured
 * pods are created unbound and the clock is advanced until all are bound.
 * Prints pods/s (target ≥ 2,000 on one core) and where the time went:
 * the scheduling algorithm vs the API writes (binding, events). Runs once
 * with upstream's adaptive percentageOfNodesToScore and once scoring every
 * node. Then, as upstream's scheduler_perf does, with inter-pod
 * anti-affinity (each pod keeps off nodes running its app, topologyKey
 * hostname) and with topology spread (DoNotSchedule over zones, maxSkew 1),
 * side by side with the plain run. Prints figures; never fails on them.
 */
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { ApiServer } from '../sandbox/apiserver/apiServer';
import { InformerFactory } from '../sandbox/client/informerFactory';
import { SeededRandom } from '../sandbox/clock/random';
import { VirtualClock } from '../sandbox/clock/virtualClock';
import type { ComponentContext } from '../sandbox/client/component';
import { ReconcileLog } from '../sandbox/client/reconcileLog';
import type { KubeObject } from '../sandbox/api/types';
import type { SchedulerPhase } from '../sandbox/scheduler/scheduler';
import { Scheduler } from '../sandbox/scheduler/scheduler';
import { fmt, machine } from './stats';

// BENCH_SCHEDULER_NODES / _PODS shrink the run (profiling, the placement digest); the defaults are the recorded sizes.
const NODES = Number(process.env.BENCH_SCHEDULER_NODES ?? 5_000);
const WARMUP = 1_000;
const MEASURED = Number(process.env.BENCH_SCHEDULER_PODS ?? 10_000);

function nodeObject(i: number): KubeObject {
  const allocatable = { cpu: '4', memory: '16Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: `node-${i}`,
      labels: { 'kubernetes.io/hostname': `node-${i}`, 'topology.kubernetes.io/zone': `zone-${i % 3}` },
    },
    spec: {},
    status: { capacity: allocatable, allocatable },
  };
}

/**
 * `default-spread`: every app has a Service selecting it, so PodTopologySpread scores with the cluster default
 * constraints (hostname maxSkew 3, zone maxSkew 5); `soft-spread`: the pods' own ScheduleAnyway constraints over zones
 * and hostnames (scoring only).
 */
type Variant = 'plain' | 'anti-affinity' | 'spread' | 'default-spread' | 'soft-spread';
const VARIANTS: readonly Variant[] = ['plain', 'anti-affinity', 'spread', 'default-spread', 'soft-spread'];
const APPS = 50;

function constraints(variant: Variant, app: string): Record<string, unknown> {
  const selector = { matchLabels: { app } };
  if (variant === 'anti-affinity')
    return {
      affinity: {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { labelSelector: selector, topologyKey: 'kubernetes.io/hostname' },
          ],
        },
      },
    };
  if (variant === 'spread')
    return {
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: 'topology.kubernetes.io/zone',
          whenUnsatisfiable: 'DoNotSchedule',
          labelSelector: selector,
        },
      ],
    };
  if (variant === 'soft-spread')
    return {
      topologySpreadConstraints: ['topology.kubernetes.io/zone', 'kubernetes.io/hostname'].map((topologyKey) => ({
        maxSkew: 1,
        topologyKey,
        whenUnsatisfiable: 'ScheduleAnyway',
        labelSelector: selector,
      })),
    };
  return {};
}

function serviceObject(app: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: app, namespace: 'default' },
    spec: { selector: { app }, ports: [{ port: 80 }] },
  };
}

function podObject(i: number, variant: Variant = 'plain'): KubeObject {
  const app = `app-${i % APPS}`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `pod-${i}`, namespace: 'default', labels: { app } },
    spec: {
      ...constraints(variant, app),
      containers: [
        {
          name: 'app',
          image: 'nginx:1.27',
          resources: { requests: { cpu: i % 3 === 0 ? '250m' : '100m', memory: i % 2 === 0 ? '256Mi' : '128Mi' } },
        },
      ],
    },
  };
}

interface Run {
  /** sha256 of every pod's `name=node`, in name order: same seed and inputs must give the same digest. */
  digest: string;
  podsPerSecond: number;
  wallMs: number;
  phases: Record<SchedulerPhase, number>;
}

function run(percentageOfNodesToScore: number, variant: Variant = 'plain'): Run {
  const clock = new VirtualClock();
  const random = new SeededRandom(1);
  const api = new ApiServer({ clock, random: random.fork('apiserver'), historyCapacity: 50_000 });
  const ctx: ComponentContext = { api, clock, random, informers: new InformerFactory(api), log: new ReconcileLog() };
  const phases: Record<SchedulerPhase, number> = { schedule: 0, bind: 0, event: 0, status: 0 };
  let timing = false;
  const measure = <T>(phase: SchedulerPhase, fn: () => T): T => {
    if (!timing) return fn();
    const t0 = performance.now();
    try {
      return fn();
    } finally {
      phases[phase] += performance.now() - t0;
    }
  };
  for (let i = 0; i < NODES; i++) api.create(nodeObject(i));
  if (variant === 'default-spread') for (let i = 0; i < APPS; i++) api.create(serviceObject(`app-${i}`));
  const scheduler = new Scheduler(ctx, { percentageOfNodesToScore, measure });
  scheduler.start();
  const settle = (): void => {
    while (clock.pendingForegroundTimers > 0) clock.advanceTo(clock.nextForegroundTimerAt()!);
  };
  for (let i = 0; i < WARMUP; i++) api.create(podObject(i, variant));
  settle();
  for (let i = WARMUP; i < WARMUP + MEASURED; i++) api.create(podObject(i, variant));
  timing = true;
  const t0 = performance.now();
  settle();
  const wallMs = performance.now() - t0;
  const pods = api.list('pods', { namespace: 'default' }).items;
  const unbound = pods.filter((p) => !(p.spec as { nodeName?: string }).nodeName).length;
  const placements = pods
    .map((p) => `${p.metadata.name}=${(p.spec as { nodeName?: string }).nodeName ?? ''}`)
    .sort()
    .join('\n');
  const digest = createHash('sha256').update(placements).digest('hex').slice(0, 16);
  if (unbound > 0) console.log(`  warning: ${unbound} pods left unbound`);
  scheduler.stop();
  return { digest, podsPerSecond: MEASURED / (wallMs / 1000), wallMs, phases };
}

function report(label: string, r: Run): void {
  const p = r.phases;
  const writes = p.bind + p.event + p.status;
  const other = r.wallMs - p.schedule - writes;
  console.log(
    `  ${label}: ${fmt(r.podsPerSecond, 0)} pods/s (${fmt(r.wallMs, 0)} ms for ${MEASURED.toLocaleString('en-US')} pods), placements ${r.digest}`,
  );
  console.log(
    `    scheduling algorithm ${fmt(p.schedule, 0)} ms, API writes ${fmt(writes, 0)} ms (bind ${fmt(p.bind, 0)}, events ${fmt(p.event, 0)}, status ${fmt(p.status, 0)}), rest (informers, queue) ${fmt(other, 0)} ms`,
  );
}

console.log(`bench/scheduler — ${machine()}`);
console.log(
  `  ${NODES.toLocaleString('en-US')} nodes, ${WARMUP.toLocaleString('en-US')} warm-up + ${MEASURED.toLocaleString('en-US')} measured pods, default plugins (target ≥ 2,000 pods/s)`,
);
// BENCH_SCHEDULER_ONLY=plain|anti-affinity|spread|default-spread|soft-spread runs one variant (adaptive).
const only = process.env.BENCH_SCHEDULER_ONLY as Variant | undefined;
if (only && !VARIANTS.includes(only)) throw new Error(`BENCH_SCHEDULER_ONLY: one of ${VARIANTS.join(', ')}`);
if (!only || only === 'plain') report('adaptive percentageOfNodesToScore (upstream default)', run(0));
if (!only) report('percentageOfNodesToScore=100 (every node filtered and scored)', run(100));
if (!only || only === 'anti-affinity')
  report('required pod anti-affinity (hostname), adaptive', run(0, 'anti-affinity'));
if (!only || only === 'spread') report('topology spread (zones, DoNotSchedule maxSkew 1), adaptive', run(0, 'spread'));
if (!only || only === 'default-spread')
  report('default spread constraints (a Service per app), adaptive', run(0, 'default-spread'));
if (!only || only === 'soft-spread')
  report('topology spread (zones + hostnames, ScheduleAnyway maxSkew 1), adaptive', run(0, 'soft-spread'));
