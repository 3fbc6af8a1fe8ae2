/**
 * bench/store: raw store writes/s, API creates/s (with admission), watch
 * delivery latency with 10 watchers, and LIST latency over 150,000 pods.
 * Prints figures; never fails on them. Targets (issue 2): ≥200,000 writes/s,
 * delivery p99 ≤ 5 ms, LIST of 150k pods ≤ 200 ms.
 */
import { performance } from 'node:perf_hooks';
import { ApiServer } from '../sandbox/apiserver/apiServer';
import { VirtualClock } from '../sandbox/clock/virtualClock';
import { ObjectStore } from '../sandbox/store/objectStore';
import type { KubeObject } from '../sandbox/api/types';
import { fmt, machine, summarize } from './stats';

function podObject(i: number, ns = 'default'): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `pod-${i}`,
      namespace: ns,
      labels: { app: `app-${i % 100}`, tier: i % 2 ? 'web' : 'db' },
      uid: `uid-${i}`,
    },
    spec: {
      nodeName: `node-${i % 5000}`,
      containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '100m', memory: '128Mi' } } }],
    },
    status: { phase: 'Running' },
  };
}

function storeWrites(n: number): number {
  const store = new ObjectStore({ historyCapacity: 50_000 });
  const objs = Array.from({ length: n }, (_, i) => podObject(i));
  const t0 = performance.now();
  for (const o of objs) store.put('/Pod', o);
  return n / ((performance.now() - t0) / 1000);
}

function apiCreates(n: number): number {
  const api = new ApiServer({ clock: new VirtualClock(), random: 1 });
  const objs = Array.from({ length: n }, (_, i) => podObject(i));
  const t0 = performance.now();
  for (const o of objs) api.create(o);
  return n / ((performance.now() - t0) / 1000);
}

function watchLatency(watchers: number, writes: number): { p50: number; p99: number; max: number; n: number } {
  const api = new ApiServer({ clock: new VirtualClock(), random: 1 });
  const samples: number[] = [];
  let started = 0;
  for (let w = 0; w < watchers; w++) {
    api.watch('configmaps', { resourceVersion: api.resourceVersion }, () => samples.push(performance.now() - started));
  }
  for (let i = 0; i < writes; i++) {
    const obj: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `cm-${i % 1000}`, namespace: 'default' },
      data: { i: String(i) },
    };
    started = performance.now();
    if (i < 1000) api.create(obj);
    else api.update(obj);
  }
  return summarize(samples);
}

function listLatency(
  pods: number,
  runs: number,
): { all: ReturnType<typeof summarize>; selector: ReturnType<typeof summarize>; first: number } {
  const api = new ApiServer({ clock: new VirtualClock(), random: 1 });
  const store = api.objectStore;
  for (let i = 0; i < pods; i++) store.put('/Pod', podObject(i));
  const t0 = performance.now();
  const first = api.list('pods');
  const firstMs = performance.now() - t0;
  if (first.items.length !== pods) throw new Error(`listed ${first.items.length} pods, expected ${pods}`);
  const all: number[] = [];
  const sel: number[] = [];
  for (let r = 0; r < runs; r++) {
    let t = performance.now();
    api.list('pods');
    all.push(performance.now() - t);
    t = performance.now();
    api.list('pods', { labelSelector: 'tier=web,app=app-7' });
    sel.push(performance.now() - t);
  }
  return { all: summarize(all), selector: summarize(sel), first: firstMs };
}

function main(): void {
  console.log(`bench/store on ${machine()}`);
  storeWrites(20_000);
  const raw = storeWrites(200_000);
  console.log(`store writes:           ${fmt(raw, 0)} writes/s (target ≥ 200,000)`);
  apiCreates(5_000);
  const creates = apiCreates(50_000);
  console.log(`API creates (admitted): ${fmt(creates, 0)} creates/s`);
  const lat = watchLatency(10, 20_000);
  console.log(
    `watch delivery, 10 watchers, ${lat.n} deliveries: p50 ${fmt(lat.p50 * 1000, 1)} µs, p99 ${fmt(lat.p99 * 1000, 1)} µs, max ${fmt(lat.max, 2)} ms (target p99 ≤ 5 ms)`,
  );
  const list = listLatency(150_000, 10);
  console.log(
    `LIST 150,000 pods: first (sorts keys) ${fmt(list.first, 1)} ms, then p50 ${fmt(list.all.p50, 1)} ms, p99 ${fmt(list.all.p99, 1)} ms (target ≤ 200 ms)`,
  );
  console.log(`LIST 150,000 pods with a label selector: p50 ${fmt(list.selector.p50, 1)} ms`);
  console.log(`heap used: ${fmt(process.memoryUsage().heapUsed / 2 ** 20, 0)} MiB`);
}

main();
