/**
 * `npm run soak -- --seed S --hours H [--nodes N]`: the seeded chaos run of test/soak/soak.ts in virtual time,
 * printing a line per chaos period and the figures at the end (steps, invariant checks, virtual hours, wall time,
 * RSS). Exits 1 when an invariant was violated, listing each violation.
 */
import { parseArgs } from 'node:util';
import { runSoak } from '../test/soak/soak';
import type { SoakFigures } from '../test/soak/soak';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    hours: { type: 'string', default: '1' },
    nodes: { type: 'string', default: '50' },
  },
});
const hours = Number(values.hours);
const nodes = Number(values.nodes);
if (!(hours > 0) || !Number.isInteger(nodes) || nodes < 1) {
  console.error('usage: npm run soak -- --seed S --hours H [--nodes N]  (H > 0, N a whole number ≥ 1)');
  process.exit(2);
}

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;
const total = (f: SoakFigures) => Object.values(f.checks).reduce((s, n) => s + n, 0);

console.log(`soak: seed ${values.seed}, ${hours} virtual h, ${nodes} nodes`);
const figures = runSoak({
  seed: values.seed!,
  virtualMs: hours * 3_600_000,
  nodes,
  onCycle: (f) =>
    console.log(
      `  ${(f.virtualMs / 3_600_000).toFixed(2)} h: ${f.steps} steps, ${total(f)} checks, ` +
        `${f.violations.length} violations, ${f.pods} pods, ${f.objects} objects + ${f.events} events, ` +
        `rss ${mb(process.memoryUsage().rss)}, ${(f.wallMs / 1000).toFixed(1)} s`,
    ),
});

console.log(`
seed              ${figures.seed}
nodes             ${figures.nodes}
virtual time      ${(figures.virtualMs / 3_600_000).toFixed(2)} h
chaos steps       ${figures.steps} (${figures.cycles} chaos periods, each ending in a convergence check)
actions           ${Object.entries(figures.actions)
  .map(([k, v]) => `${k} ${v}`)
  .join(', ')}
invariant checks  ${total(figures)}
${Object.entries(figures.checks)
  .map(([k, v]) => `  ${String(v).padStart(9)}  ${k}`)
  .join('\n')}
violations        ${figures.violations.length}
stored at end     ${figures.pods} pods, ${figures.objects} objects (Events aside), ${figures.events} events
wall time         ${(figures.wallMs / 1000).toFixed(1)} s
peak RSS          ${mb(figures.peakRss)} (heap ${mb(figures.peakHeap)})`);
for (const v of figures.violations) console.log(`  VIOLATION ${v}`);
process.exit(figures.violations.length === 0 ? 0 : 1);
