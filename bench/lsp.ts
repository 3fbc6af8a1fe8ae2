/**
 * `npm run bench -- lsp`: our language server side by side with
 * yaml-language-server (the engine of Red Hat's YAML extension) on the same
 * generated manifests, both over stdio with real LSP JSON-RPC, yaml-language-
 * server given the JSON Schema converted from our own generated schema.
 * Prints figures and ratios; never fails on them.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { KubeSchema } from '../server/src/schema/types';
import { analyzeManifestText } from '../server/src/services/validateDocument';
import { analyzeInSlices } from '../server/src/services/workspace/analyzeInSlices';
import { benchManifest } from './lsp/manifests';
import { toJsonSchema } from './lsp/jsonSchema';
import { startServer } from './lsp/lspClient';
import type { BenchServer } from './lsp/lspClient';
import { fmt, machine, percentile } from './stats';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WORK = join(tmpdir(), 'kube-reconcile-bench-lsp');
const RUNS = 10;
const WARMUP = 1;
/** Each server's own debounce before it validates, subtracted for the "net" figures. */
const DEBOUNCE_MS = { ours: { open: 0, edit: 0 }, theirs: { open: 200, edit: 200 } };

interface Figures {
  open: number[];
  edit: number[];
  completion: number[];
  diagnostics: number;
}

async function main(): Promise<void> {
  mkdirSync(WORK, { recursive: true });
  console.log(`bench/lsp — ${machine()}\n`);
  const schemaFile = prepareSchema();
  const serverJs = await bundleOurServer();
  const sizes = [1_000, 10_000];
  const manifests = sizes.map((lines) => benchManifest(lines));
  // One server at a time, so neither competes with the other for the two cores.
  const ours = await startServer('kube-reconcile', process.execPath, [serverJs, '--stdio'], {});
  const oursCompletes = ours.capabilities.completionProvider !== undefined;
  const a: Figures[] = [];
  for (const [i, m] of manifests.entries()) a.push(await measure(ours, m, sizes[i], oursCompletes));
  const oursRss = ours.peakRssMiB();
  await ours.stop();
  if (process.env.KR_BENCH_OURS_ONLY === '1') {
    for (const [i, m] of manifests.entries()) report(sizes[i], m.text.split('\n').length - 1, a[i], undefined);
    console.log(`\npeak RSS: kube-reconcile ${fmt(oursRss, 1)} MiB`);
    await slicing();
    batch();
    return;
  }
  const theirs = await startServer(
    'yaml-language-server',
    process.execPath,
    [join(ROOT, 'node_modules/yaml-language-server/bin/yaml-language-server'), '--stdio'],
    {
      yaml: {
        validate: true,
        hover: true,
        completion: true,
        schemas: { [pathToFileURL(schemaFile).href]: '*.yaml' },
        schemaStore: { enable: false },
        kubernetesCRDStore: { enable: false },
      },
      http: {},
      '[yaml]': {},
      editor: {},
    },
  );
  const b: Figures[] = [];
  for (const [i, m] of manifests.entries()) b.push(await measure(theirs, m, sizes[i], true));
  const theirsRss = theirs.peakRssMiB();
  await theirs.stop();
  for (const [i, m] of manifests.entries()) report(sizes[i], m.text.split('\n').length - 1, a[i], b[i]);
  console.log(
    `\npeak RSS: kube-reconcile ${fmt(oursRss, 1)} MiB, yaml-language-server ${fmt(theirsRss, 1)} MiB, ratio ${fmt(theirsRss / oursRss)}×`,
  );
  await slicing();
  batch();
}

function prepareSchema(): string {
  const generated = join(ROOT, 'sandbox/schema/generated/kubernetes-1.32.json');
  if (!existsSync(generated))
    spawnSync(process.execPath, [join(ROOT, 'scripts/generate-schema.mjs')], { stdio: 'inherit', cwd: ROOT });
  const schema = JSON.parse(readFileSync(generated, 'utf8')) as KubeSchema;
  const file = join(WORK, 'kubernetes.schema.json');
  writeFileSync(file, JSON.stringify(toJsonSchema(schema)));
  console.log(`schema: ${schema.source}, ${schema.kinds.length} kinds → ${file}`);
  return file;
}

async function bundleOurServer(): Promise<string> {
  const outfile = join(WORK, 'server.js');
  await build({
    entryPoints: [join(ROOT, 'server/src/server.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile,
    logLevel: 'error',
  });
  return outfile;
}

async function measure(
  server: BenchServer,
  manifest: ReturnType<typeof benchManifest>,
  lines: number,
  completes: boolean,
): Promise<Figures> {
  const figures: Figures = { open: [], edit: [], completion: [], diagnostics: 0 };
  for (let run = 0; run < WARMUP + RUNS; run++) {
    const uri = pathToFileURL(join(WORK, `${server.name}-${lines}-${run}.yaml`)).href;
    const opened = server.nextDiagnostics(uri);
    let t = performance.now();
    await server.conn.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'yaml', version: 1, text: manifest.text },
    });
    const first = await opened;
    const openMs = performance.now() - t;

    const edited = server.nextDiagnostics(uri);
    const range = {
      start: { line: manifest.editLine, character: 12 },
      end: { line: manifest.editLine, character: 13 },
    };
    t = performance.now();
    await server.conn.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range, text: '3' }],
    });
    await edited;
    const editMs = performance.now() - t;

    let completionMs = Number.NaN;
    if (completes) {
      const line = manifest.completionLine;
      const insert = { start: { line, character: 0 }, end: { line, character: 0 } };
      await server.conn.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: 3 },
        contentChanges: [{ range: insert, text: '        im\n' }],
      });
      t = performance.now();
      await server.conn.sendRequest('textDocument/completion', {
        textDocument: { uri },
        position: { line, character: 10 },
      });
      completionMs = performance.now() - t;
    }
    await server.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
    process.stderr.write(
      `${server.name} ${lines} lines run ${run}: open ${fmt(openMs, 0)} ms, edit ${fmt(editMs, 0)} ms\n`,
    );
    if (run < WARMUP) continue;
    figures.open.push(openMs);
    figures.edit.push(editMs);
    if (completes) figures.completion.push(completionMs);
    figures.diagnostics = first.diagnostics.length;
  }
  return figures;
}

function stat(samples: number[], minus = 0): { p50: number; p95: number } {
  const s = samples.map((x) => x - minus).sort((a, b) => a - b);
  return { p50: percentile(s, 50), p95: percentile(s, 95) };
}

/** Prints one size's figures; `b` (yaml-language-server) is absent when only our server ran (KR_BENCH_OURS_ONLY=1). */
function report(lines: number, actual: number, a: Figures, theirs: Figures | undefined): void {
  const b = theirs ?? { open: [Number.NaN], edit: [Number.NaN], completion: [Number.NaN], diagnostics: Number.NaN };
  console.log(
    `\n${lines.toLocaleString('en-US')}-line manifest (${actual} lines), ${RUNS} runs; diagnostics found: kube-reconcile ${a.diagnostics}, yaml-language-server ${b.diagnostics}`,
  );
  const row = (what: string, x: { p50: number; p95: number }, y: { p50: number; p95: number }): void =>
    console.log(
      `  ${what.padEnd(38)} ours p50 ${fmt(x.p50, 1).padStart(8)} p95 ${fmt(x.p95, 1).padStart(8)} ms | theirs p50 ${fmt(y.p50, 1).padStart(8)} p95 ${fmt(y.p95, 1).padStart(8)} ms | ratio p95 ${fmt(y.p95 / x.p95)}×`,
    );
  row('first diagnostics (raw)', stat(a.open), stat(b.open));
  row(
    'first diagnostics (net of debounce)',
    stat(a.open, DEBOUNCE_MS.ours.open),
    stat(b.open, DEBOUNCE_MS.theirs.open),
  );
  row('after one-line edit (raw)', stat(a.edit), stat(b.edit));
  row(
    'after one-line edit (net of debounce)',
    stat(a.edit, DEBOUNCE_MS.ours.edit),
    stat(b.edit, DEBOUNCE_MS.theirs.edit),
  );
  if (a.completion.length === 0) {
    const y = stat(b.completion);
    console.log(
      `  ${'completion'.padEnd(38)} ours n/a (no completion provider yet)          | theirs p50 ${fmt(y.p50, 1).padStart(8)} p95 ${fmt(y.p95, 1).padStart(8)} ms`,
    );
  } else row('completion', stat(a.completion), stat(b.completion));
}

/** In-process: the longest synchronous stretch of a sliced validation of a 50,000-line manifest. */
async function slicing(): Promise<void> {
  const { text } = benchManifest(50_000);
  const stretches: number[] = [];
  let last = performance.now();
  const started = last;
  await analyzeInSlices(text, {
    now: () => performance.now(),
    yieldToEventLoop: () => new Promise((resolve) => setImmediate(resolve)),
    isCancelled: () => false,
    onSlice: () => {
      const now = performance.now();
      stretches.push(now - last);
      last = now;
    },
  });
  const total = performance.now() - started;
  const s = [...stretches].sort((x, y) => x - y);
  console.log(
    `\nsliced validation, 50,000 lines: ${stretches.length} slices, longest ${fmt(s[s.length - 1], 1)} ms, p95 ${fmt(percentile(s, 95), 1)} ms (limit 50 ms), total ${fmt(total, 0)} ms`,
  );
}

/** In-process batch validation throughput on one core (what `kube-reconcile validate` runs per file). */
function batch(): void {
  const { text } = benchManifest(100_000);
  analyzeManifestText(benchManifest(5_000).text);
  const t = performance.now();
  const { resources } = analyzeManifestText(text);
  const seconds = (performance.now() - t) / 1000;
  console.log(
    `batch validate: ${resources.toLocaleString('en-US')} resources in ${fmt(seconds, 2)} s = ${fmt(resources / seconds, 0)} resources/s on one core (target ≥ 10,000/s)`,
  );
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 0;
});
