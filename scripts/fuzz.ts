/**
 * `npm run fuzz -- [--runs N] [--seed S] [--target NAME] [--seconds T]`: runs every fuzz target of
 * test/fuzz/targets.ts over N inputs (default 100,000; fewer when a target's time budget T runs out) and
 * prints, per target, the inputs run, the wall and CPU time, and the first finding (fast-check's shrunk
 * counterexample) if any. Exits 1 when a target found something.
 */
import { parseArgs } from 'node:util';
import { fuzzTargets } from '../test/fuzz/targets';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '1' },
    target: { type: 'string' },
    seconds: { type: 'string' },
  },
});
const runs = Number(values.runs);
const seed = Number(values.seed);
const budgetMs = values.seconds === undefined ? undefined : Number(values.seconds) * 1000;
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed) || (budgetMs !== undefined && !(budgetMs > 0))) {
  console.error(
    'usage: npm run fuzz -- [--runs N] [--seed S] [--target NAME] [--seconds T]  (N ≥ 1, S an integer, T > 0)',
  );
  process.exit(2);
}
const targets = fuzzTargets().filter((t) => !values.target || t.name.includes(values.target));
if (targets.length === 0) {
  console.error(
    `no target matches "${values.target}"; targets: ${fuzzTargets()
      .map((t) => t.name)
      .join(', ')}`,
  );
  process.exit(2);
}

console.log(`fuzz: ${runs} inputs per target, seed ${seed}`);
let findings = 0;
const started = performance.now();
for (const t of targets) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const outcome = t.check(runs, seed, budgetMs);
  const s = (performance.now() - t0) / 1000;
  const used = process.cpuUsage(c0);
  const cpuS = (used.user + used.system) / 1e6;
  const rate = Math.round(outcome.numRuns / cpuS);
  console.log(
    `  ${t.name.padEnd(20)} ${String(outcome.numRuns).padStart(7)} inputs  ${s.toFixed(1).padStart(6)} s wall ` +
      `(${cpuS.toFixed(1)} s of CPU, ${rate}/CPU-s)  ${outcome.failure ? 'FINDING' : 'ok'}`,
  );
  if (outcome.failure) {
    findings++;
    console.log(`    input: ${outcome.failure.counterexample.slice(0, 2000)}`);
    console.log(`    error: ${outcome.failure.error.slice(0, 2000)}`);
  }
}
const mem = process.memoryUsage();
console.log(
  `${targets.length} targets, ${findings} with findings, ${((performance.now() - started) / 1000).toFixed(1)} s, ` +
    `rss ${(mem.rss / 1024 / 1024).toFixed(0)} MB`,
);
process.exit(findings === 0 ? 0 : 1);
