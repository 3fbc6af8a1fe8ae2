/**
 * bench/extension: the packaged extension in a real VS Code (code-server
 * 4.100.3 + headless Chromium, as in the e2e suite).
 *  1. VSIX size (target ≤ 3 MB).
 *  2. Activation time, from the extension's own `activated in N ms` line in
 *     its output channel (the synchronous wiring in activate(); the language server starts after it).
 *  3. Save → converged tree: a 10-replica Deployment at 20× speed, from the
 *     Ctrl+S keydown to the Cluster view showing it `10/10`, measured inside
 *     the page (target ≤ 300 ms). Each round empties the file and saves
 *     (prune), waits for the tree to clear, then undoes and saves again. Two
 *     manifests: examples/web.yaml's (readiness probe, 2 s initial delay) and
 *     the same without the probe. Beside each, the floor: the sandbox time the
 *     same manifest needs to converge on a virtual clock, divided by 20.
 *  4. Where each save's time goes: the extension writes a trace of the path's stages (KUBE_RECONCILE_TRACE,
 *     client/src/sandbox/saveTrace.ts) — parse, the language server's verdict, the worker's apply, the sandbox
 *     converging, the batch, the host, the tree's refresh, VS Code's render — printed p50/p95/max per stage
 *     (bench/extension/breakdown.ts).
 * Prints figures; never fails on them (a machine that cannot run VS Code prints why).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../sandbox/api/types';
import { readTrace, SAVE_TRACE_ENV } from '../client/src/sandbox/saveTrace';
import { breakdown, STAGES } from './extension/breakdown';
import type { SaveBreakdown } from './extension/breakdown';
import { Cluster } from '../sandbox/cluster/cluster';
import { startSession } from '../test/e2e/harness/session';
import type { Session } from '../test/e2e/harness/session';
import { until } from '../test/e2e/harness/wait';
import { fmt, machine, percentile, summarize } from './stats';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ARTIFACTS = join(ROOT, 'test-artifacts', 'bench-extension');
const TRACE_FILE = join(ARTIFACTS, 'save-trace.jsonl');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const REPLICAS = 10;
const WAIT_MS = 60_000;

const SPEED = 20;
const WEB_YAML = readFileSync(join(ROOT, 'examples', 'web.yaml'), 'utf8').replace(
  /^ {2}replicas: 3$/m,
  `  replicas: ${REPLICAS}`,
);
/** The manifests measured: file name → Deployment name (also its label prefix) and text. */
const ALL_VARIANTS = [
  {
    file: 'probed.yaml',
    name: 'probed',
    title: 'with a readiness probe',
    text: WEB_YAML.replace(/\bweb\b/g, 'probed'),
  },
  {
    file: 'plain.yaml',
    name: 'plain',
    title: 'without a probe',
    text: WEB_YAML.replace(/\bweb\b/g, 'plain').replace(/^ *readinessProbe:[\s\S]*?periodSeconds: 5\n/m, ''),
  },
];
/** `BENCH_VARIANTS=plain` measures only the manifests named (comma-separated); all by default. */
const VARIANTS = ALL_VARIANTS.filter(
  (v) => !process.env.BENCH_VARIANTS || process.env.BENCH_VARIANTS.split(',').includes(v.name),
);

interface Prepared {
  codeServer?: string;
  vsix?: string;
  skip?: string;
}

function prepare(): Prepared {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'e2e', 'prepare.mjs'), '--json'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (r.status !== 0) return { skip: `preparing code-server and the VSIX failed (exit ${r.status})` };
  return JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as Prepared;
}

function findFiles(dir: string, suffix: string): string[] {
  let out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out = out.concat(findFiles(p, suffix));
    else if (entry.name.endsWith(suffix)) out.push(p);
  }
  return out;
}

/** The `activated in N ms` figure from the output channel's log file (VS Code writes channels to disk). */
function activationMs(session: Session): Promise<number> {
  return until(
    'the extension to log its activation time',
    async () => {
      for (const f of findFiles(join(session.dirs.userDataDir, 'logs'), 'Kube Reconcile.log')) {
        const m = /activated in (\d+) ms/.exec(readFileSync(f, 'utf8'));
        if (m) return Number(m[1]);
      }
      return undefined;
    },
    WAIT_MS,
  );
}

/** Whether the tree shows a Deployment `name` whose READY column is `want`, or (want null) shows none. */
function deploymentShows(session: Session, name: string, want: string | null): Promise<boolean> {
  return session.browser.page.evaluate(
    ([n, w]) => {
      const rows = Array.from(document.querySelectorAll('.part.sidebar .pane-body .monaco-list-row[role="treeitem"]'));
      const text = (r: Element, sel: string) => r.querySelector(sel)?.textContent?.trim() ?? '';
      const row = rows.find((r) => text(r, '.label-name') === n && /^\d+\/\d+$/.test(text(r, '.label-description')));
      return w === null ? row === undefined : text(row ?? document.body, '.label-description') === w;
    },
    [name, want] as const,
  );
}

/** One save: the keydown and the row reading its final READY, in epoch ms (the trace's clock). */
interface Round {
  keydown: number;
  shown: number;
  /** Time the page's main thread spent in long tasks (≥ 50 ms) between the two. */
  rendererBusy?: number;
}

/** Ctrl+S, then the instants in the page of that keydown and of the Deployment row reading `want`. */
async function saveToConverged(session: Session, name: string, want: string): Promise<Round> {
  const page = session.browser.page;
  await page.evaluate(() => {
    const w = window as unknown as { benchSavedAt?: number; benchLongTasks?: number[][]; benchObserver?: unknown };
    w.benchSavedAt = undefined;
    // The renderer's long tasks (≥ 50 ms of its main thread), to tell a busy page from a late change.
    w.benchLongTasks = [];
    if (w.benchObserver === undefined && PerformanceObserver.supportedEntryTypes.includes('longtask')) {
      const observer = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.benchLongTasks?.push([performance.timeOrigin + e.startTime, e.duration]);
      });
      observer.observe({ type: 'longtask' });
      w.benchObserver = observer;
    }
    // Not `once`: the Control keydown comes first.
    const onKey = (e: KeyboardEvent) => {
      if (!e.ctrlKey || e.key.toLowerCase() !== 's') return;
      w.benchSavedAt = performance.timeOrigin + performance.now();
      document.removeEventListener('keydown', onKey, true);
    };
    document.addEventListener('keydown', onKey, true);
  });
  await page.keyboard.press('Control+S');
  const handle = await page.waitForFunction(
    ([n, d]) => {
      const w = window as unknown as { benchSavedAt?: number };
      const rows = Array.from(document.querySelectorAll('.part.sidebar .pane-body .monaco-list-row[role="treeitem"]'));
      const done = rows.some(
        (r) =>
          r.querySelector('.label-name')?.textContent?.trim() === n &&
          r.querySelector('.label-description')?.textContent?.trim() === d,
      );
      return done && w.benchSavedAt !== undefined
        ? { keydown: w.benchSavedAt, shown: performance.timeOrigin + performance.now() }
        : false;
    },
    [name, want] as const,
    { polling: 5, timeout: WAIT_MS },
  );
  const round = (await handle.jsonValue()) as Round;
  const longTasks = (await page.evaluate(
    () => (window as unknown as { benchLongTasks?: number[][] }).benchLongTasks ?? [],
  )) as number[][];
  const overlap = (start: number, duration: number) =>
    Math.max(0, Math.min(round.shown, start + duration) - Math.max(round.keydown, start));
  return { ...round, rendererBusy: longTasks.reduce((sum, [start, d]) => sum + overlap(start, d), 0) };
}

/** Rounds of: empty the file and save (prune), wait for the tree to clear, undo, save and time it. */
async function measureConvergence(session: Session, file: string, name: string): Promise<Round[]> {
  const wb = session.workbench;
  const page = session.browser.page;
  const want = `${REPLICAS}/${REPLICAS}`;
  await until(
    `${name} applied at start`,
    async () => ((await deploymentShows(session, name, want)) ? true : undefined),
    WAIT_MS,
  );
  await wb.quickOpen(file);
  const samples: Round[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.press('Control+S');
    await until(
      `${name} and its pods to leave the tree`,
      async () => {
        const labels = await page
          .locator('.part.sidebar .pane-body .monaco-list-row[role="treeitem"] .label-name')
          .allInnerTexts();
        return labels.some((l) => l.trim().startsWith(name)) ? undefined : true;
      },
      WAIT_MS,
    );
    await page.keyboard.press('Control+Z');
    // Undone: the editor differs from the (empty) saved file again.
    await wb.waitDirty(true);
    samples.push(await saveToConverged(session, name, want));
  }
  return samples;
}

/** Sandbox time from apply to the Deployment's readyReplicas reaching REPLICAS, on a virtual clock (50 ms steps). */
function simulatedMs(text: string, name: string): number {
  const cluster = new Cluster({ nodes: 3, seed: 1 });
  cluster.start();
  cluster.runUntilSettled();
  const started = cluster.clock.now();
  for (const doc of parseAllDocuments(text)) cluster.apply(doc.toJS() as KubeObject);
  for (let t = 0; t < WAIT_MS; t += 50) {
    const d = cluster.api.tryGet('deployments', 'default', name) as { status?: { readyReplicas?: number } } | undefined;
    if (d?.status?.readyReplicas === REPLICAS) break;
    cluster.runFor(50);
  }
  const took = cluster.clock.now() - started;
  cluster.stop();
  return took;
}

function row(label: string, samples: number[]): string {
  const s = [...samples].sort((a, b) => a - b);
  const cell = (n: number) => fmt(n, 0).padStart(6);
  return `    ${label.padEnd(78)} ${cell(percentile(s, 50))} ${cell(percentile(s, 95))} ${cell(s[s.length - 1])}`;
}

/** Per stage p50 / p95 / max over the rounds (ms), then the sandbox time and the plans that ran meanwhile. */
function printBreakdown(rounds: SaveBreakdown[], busy: number[]): void {
  console.log(
    `    ${'stage (from the previous one)'.padEnd(78)} ${'p50'.padStart(6)} ${'p95'.padStart(6)} ${'max'.padStart(6)}`,
  );
  for (const [stage, label] of STAGES) {
    const samples = rounds.flatMap((r) => (r.stages[stage] === undefined ? [] : [r.stages[stage]]));
    if (samples.length > 0)
      console.log(
        row(`${label}${samples.length < rounds.length ? ` (${samples.length} of ${rounds.length})` : ''}`, samples),
      );
  }
  console.log(
    row(
      'end to end (keydown → row shown)',
      rounds.map((r) => r.total),
    ),
  );
  const overhead = rounds.flatMap((r) => (r.overhead === undefined ? [] : [r.overhead]));
  if (overhead.length > 0)
    console.log(row("the extension's share (end to end less VS Code's save and the sandbox converging)", overhead));
  const sandbox = rounds.flatMap((r) => (r.sandboxMs === undefined ? [] : [r.sandboxMs / SPEED]));
  if (sandbox.length > 0) console.log(row(`sandbox time from apply to ready ÷ ${SPEED}`, sandbox));
  console.log(
    row(
      'foresight plans run on the worker meanwhile (ms of its thread)',
      rounds.map((r) => r.planMs),
    ),
  );
  console.log(
    row(
      'batches of changes received by the host meanwhile (count)',
      rounds.map((r) => r.batches),
    ),
  );
  console.log(row("the page's main thread in long tasks (≥ 50 ms) meanwhile (ms)", busy));
}

function load(): string {
  return os
    .loadavg()
    .map((l) => fmt(l, 2))
    .join(' ');
}

async function main(): Promise<void> {
  console.log(`bench/extension — ${machine()}`);
  console.log(`  load average at start: ${load()}`);
  const ready = prepare();
  // `BENCH_VSIX=path` measures another build (a saved copy of the VSIX, to alternate two builds in one load window).
  if (process.env.BENCH_VSIX && ready.codeServer) ready.vsix = process.env.BENCH_VSIX;
  if (ready.skip || !ready.codeServer || !ready.vsix) {
    console.log(`  skipped: ${ready.skip ?? 'no code-server'}`);
    return;
  }
  const vsixBytes = statSync(ready.vsix).size;
  console.log(`  VSIX size: ${fmt(vsixBytes / 1024 / 1024)} MB (target ≤ 3 MB)`);
  // The extension host and its worker inherit the environment from code-server: they trace each save's stages.
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(TRACE_FILE, '');
  process.env[SAVE_TRACE_ENV] = TRACE_FILE;
  const session = await startSession({
    codeServer: ready.codeServer,
    vsix: ready.vsix,
    files: Object.fromEntries(ALL_VARIANTS.map((v) => [v.file, v.text])),
    // Applied at start-up without the once-per-workspace question (as the e2e scenario's settings).
    settings: { 'kubeReconcile.sandbox.speed': SPEED, 'kubeReconcile.applyOnStartup': 'always' },
    artifactsDir: ARTIFACTS,
  });
  try {
    // tsx (esbuild, keepNames) wraps the page functions' named closures in __name(), which the page lacks.
    await session.browser.page.evaluate('window.__name = window.__name || ((f) => f)');
    console.log(`  workbench ready: ${session.workbenchReadyMs} ms after opening the page`);
    console.log(
      `  activation: ${await activationMs(session)} ms (activate() wiring; the language server starts in the background)`,
    );
    await session.workbench.openViewContainer('Kube Reconcile');
    for (const v of VARIANTS) {
      const rounds = await measureConvergence(session, v.file, v.name);
      const s = summarize(rounds.map((r) => r.shown - r.keydown));
      const p95 = percentile(
        rounds.map((r) => r.shown - r.keydown).sort((a, b) => a - b),
        95,
      );
      const floor = simulatedMs(v.text, v.name);
      console.log(
        `  save → tree shows ${REPLICAS}/${REPLICAS} at ${SPEED}×, ${v.title}: p50 ${fmt(s.p50, 0)} ms, p95 ${fmt(p95, 0)} ms, max ${fmt(s.max, 0)} ms over ${s.n} rounds ` +
          `(of which sandbox time ${fmt(floor / 1000, 1)} s ÷ ${SPEED} = ${fmt(floor / SPEED, 0)} ms; target ≤ 300 ms)`,
      );
      const trace = readTrace(readFileSync(TRACE_FILE, 'utf8'));
      const want = `default/${v.name} ${REPLICAS}/${REPLICAS}`;
      const breakdowns = rounds.map((r) => breakdown(trace, r.keydown, r.shown, want));
      printBreakdown(
        breakdowns,
        rounds.map((r) => r.rendererBusy ?? 0),
      );
      // Each round's stages beside the page's long tasks, to tell a slow build from a busy machine.
      writeFileSync(
        join(ARTIFACTS, `rounds-${v.name}.json`),
        JSON.stringify(
          rounds.map((r, i) => ({ ...r, ...breakdowns[i] })),
          null,
          1,
        ),
      );
    }
    console.log(`  load average at the end: ${load()}`);
  } catch (e) {
    await session.workbench.screenshot('failed').catch(() => undefined);
    throw e;
  } finally {
    await session.stop();
  }
}

main().catch((e: unknown) => {
  // A benchmark never fails the run: say what went wrong and exit 0.
  console.log(`  bench/extension could not finish: ${e instanceof Error ? e.message : String(e)}`);
});
