/**
 * `npm run bench -- validate`: batch `kube-reconcile validate` throughput on a corpus of ≥ 10,000 resources made
 * from the repository's examples and public fixtures (each copied into its own folder, so the folder-scoped
 * cross-document checks see what they see on one copy), in process, with `--jobs 1` (one core) and `--jobs N`.
 * Prints resources per second and the time per phase; never fails on the figures. BENCH_VALIDATE_RESOURCES sets
 * the corpus size, BENCH_VALIDATE_JOBS the pool sizes (comma-separated).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runValidate } from '../cli/validate';
import { analyzeFile } from '../server/src/services/workspace/analyzeFile';
import { fmt, machine } from './stats';
import { yamlFiles } from '../test/yamlFiles';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WANTED = Number(process.env.BENCH_VALIDATE_RESOURCES ?? 10_000);
const JOBS = (process.env.BENCH_VALIDATE_JOBS ?? `1,${Math.max(2, cpus().length)}`).split(',').map(Number);

/** Writes copies of the seed files until the corpus holds `wanted` resources; returns the folder and its count. */
export function makeCorpus(wanted: number): { dir: string; files: number; resources: number } {
  const seeds = [...yamlFiles(join(ROOT, 'examples')), ...yamlFiles(join(ROOT, 'test/fixtures/public'))].map((p) => ({
    rel: relative(ROOT, p),
    text: readFileSync(p, 'utf8'),
    resources: analyzeFile(readFileSync(p, 'utf8')).objects.length,
  }));
  const dir = join(tmpdir(), 'kube-reconcile-bench-validate');
  rmSync(dir, { recursive: true, force: true });
  let resources = 0;
  let files = 0;
  for (let copy = 0; resources < wanted; copy++) {
    for (const s of seeds) {
      const p = join(dir, `copy-${String(copy).padStart(4, '0')}`, s.rel);
      mkdirSync(join(p, '..'), { recursive: true });
      writeFileSync(p, s.text);
      resources += s.resources;
      files++;
    }
  }
  return { dir, files, resources };
}

function sink(): { write(text: string): boolean; text(): string } {
  const parts: string[] = [];
  return { write: (t: string) => parts.push(t) > 0, text: () => parts.join('') };
}

async function main(): Promise<void> {
  console.log(`bench/validate — ${machine()}\n`);
  const corpus = makeCorpus(WANTED);
  console.log(
    `corpus: ${corpus.files.toLocaleString('en-US')} files, ${corpus.resources.toLocaleString('en-US')} resources\n`,
  );
  // Warm-up (schema tables, JIT) on one copy.
  await runValidate(['--jobs', '1', join(corpus.dir, 'copy-0000')], { stdout: sink(), stderr: sink(), cwd: ROOT });
  let reference: string | undefined;
  for (const jobs of JOBS) {
    const out = sink();
    const err = sink();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const code = await runValidate(['--jobs', String(jobs), corpus.dir], { stdout: out, stderr: err, cwd: ROOT });
    const s = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(c0);
    const same = reference === undefined ? 'reference' : reference === out.text() ? 'identical' : 'DIFFERENT';
    reference ??= out.text();
    console.log(
      `--jobs ${String(jobs).padEnd(2)} ${fmt(s, 2)} s wall = ${fmt(corpus.resources / s, 0)} resources/s ` +
        `(main thread CPU ${fmt((cpu.user + cpu.system) / 1e6, 2)} s), exit ${code}, output ${same}`,
    );
  }
  console.log(`\ntarget: ≥ 10,000 resources/s on one core (--jobs 1)`);
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 0;
});
