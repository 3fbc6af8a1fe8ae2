/**
 * What the causal timeline (sandbox/timeline) costs, which the extension records always (bench/RESULTS.md, "The causal
 * timeline's cost"): 300 single-replica Deployments on 20 nodes from apply to settled, CPU time (not wall: the machine
 * is shared), timeline off and on alternately in one process after warm-up pairs (`--pairs N`, default 6); then the
 * timeline's own work alone — the run's store changes, and one decision per Event, replayed into a Timeline — and the
 * heap a full timeline holds. Prints figures; never fails on them.
 */
import type { KubeObject } from '../sandbox/api/types';
import { Cluster } from '../sandbox/cluster/cluster';
import type { ChangeRecord } from '../sandbox/store/history';
import { recordChange } from '../sandbox/timeline/changes';
import { Timeline } from '../sandbox/timeline/timeline';
import { fmt, machine, percentile } from './stats';

const DEPLOYMENTS = 300;

function deployment(name: string): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '10m' } } }] },
      },
    },
  };
}

/** One run: CPU ms from the applies to settled; `changes` collects the store's changes when given. */
function run(timeline: boolean, changes?: ChangeRecord[]): { cpuMs: number; entries: number } {
  const cluster = new Cluster({
    nodes: 20,
    seed: 1,
    timeline,
    nodeDefaults: { capacity: { pods: 110, cpu: '64', memory: '256Gi' } },
  });
  cluster.start();
  cluster.runUntilSettled();
  if (changes) cluster.api.observeChanges((r) => void changes.push(r));
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < DEPLOYMENTS; i++) cluster.apply(deployment(`app-${i}`));
  cluster.runUntilSettled(60 * 60_000);
  const cpu = process.cpuUsage(cpu0);
  const entries = cluster.timeline?.recorded ?? 0;
  cluster.stop();
  return { cpuMs: (cpu.user + cpu.system) / 1000, entries };
}

/** What the timeline adds to a run: an entry per store change (and pod transitions), a decision per Event. */
function replay(changes: readonly ChangeRecord[], into: Timeline): void {
  for (const r of changes) {
    recordChange(into, r, 0);
    if (r.object.kind === 'Event' && r.type === 'ADDED')
      into.record({
        time: 0,
        type: 'decision',
        component: 'bench',
        subject: { kind: 'Pod', namespace: 'default', name: String(r.object.metadata.name) },
        what: 'Reason',
        message: 'message',
        level: 'Normal',
      });
  }
}

function median(xs: readonly number[]): number {
  return percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
}

function main(): void {
  const at = process.argv.indexOf('--pairs');
  const pairs = at >= 0 ? Number(process.argv[at + 1]) : 6;
  console.log(`bench/timeline on ${machine()}`);
  for (let i = 0; i < 3; i++) {
    run(false);
    run(true);
  }
  const off: number[] = [];
  const on: number[] = [];
  const deltas: number[] = [];
  let entries = 0;
  for (let i = 0; i < pairs; i++) {
    // Alternate which goes first, so that a drift of the machine's load does not favour one side.
    const first = i % 2 === 0 ? run(false) : run(true);
    const second = i % 2 === 0 ? run(true) : run(false);
    const [a, b] = i % 2 === 0 ? [first, second] : [second, first];
    off.push(a.cpuMs);
    on.push(b.cpuMs);
    deltas.push(100 * (b.cpuMs / a.cpuMs - 1));
    entries = b.entries;
  }
  const sum = (xs: readonly number[]) => xs.reduce((x, y) => x + y, 0);
  console.log(
    `${DEPLOYMENTS} Deployments, 20 nodes, ${pairs} pairs: CPU median off ${fmt(median(off), 0)} ms, on ${fmt(median(on), 0)} ms (${fmt(100 * (median(on) / median(off) - 1), 1)} %; total ${fmt(100 * (sum(on) / sum(off) - 1), 1)} %), pair by pair ${fmt(Math.min(...deltas), 0)} … ${fmt(Math.max(...deltas), 0)} %; ${entries.toLocaleString('en-US')} entries recorded`,
  );

  const changes: ChangeRecord[] = [];
  const base = run(false, changes);
  const alone: number[] = [];
  for (let i = 0; i < 30; i++) {
    const cpu0 = process.cpuUsage();
    replay(changes, new Timeline());
    const cpu = process.cpuUsage(cpu0);
    alone.push((cpu.user + cpu.system) / 1000);
  }
  const events = changes.filter((r) => r.object.kind === 'Event' && r.type === 'ADDED').length;
  console.log(
    `the timeline's own work: ${changes.length.toLocaleString('en-US')} store changes (${events.toLocaleString('en-US')} Events) replayed, median ${fmt(median(alone), 1)} ms CPU over 30 = ${fmt((100 * median(alone)) / base.cpuMs, 2)} % of that run's ${fmt(base.cpuMs, 0)} ms`,
  );
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    const heap0 = process.memoryUsage().heapUsed;
    const full = new Timeline();
    while (full.recorded < full.capacity * 1.5) replay(changes, full);
    gc();
    const heap = process.memoryUsage().heapUsed - heap0;
    console.log(
      `a full timeline: ${full.size.toLocaleString('en-US')} entries kept (of ${full.recorded.toLocaleString('en-US')} recorded) hold ${fmt(heap / 2 ** 20, 1)} MiB of heap`,
    );
  }
}

main();
