// Runs the benchmark scripts in bench/ (all, or those named: `npm run bench -- store`).
// They print figures; they never fail on them.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const available = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.ts') && f !== 'stats.ts')
  .map((f) => f.slice(0, -3))
  .sort();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !available.includes(w));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; available: ${available.join(', ')}`);
  process.exit(2);
}
for (const name of wanted.length > 0 ? wanted : available) {
  const r = spawnSync(
    process.execPath,
    ['--expose-gc', '--max-old-space-size=4096', '--import', 'tsx', join(root, 'bench', `${name}.ts`)],
    { stdio: 'inherit', cwd: root },
  );
  if (r.status !== 0) process.exit(r.status ?? 1);
}
