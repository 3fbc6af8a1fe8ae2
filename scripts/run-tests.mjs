// Runs every test/**/*.test.ts with Node's built-in test runner (TypeScript via tsx).
// Node 20's --test does not expand globs itself, so the files are found here.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const only = process.argv.slice(2);

function find(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...find(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

let files = find(join(root, 'test')).filter((f) => !f.includes(`${join('test', 'e2e')}`));
if (only.length > 0) files = files.filter((f) => only.some((o) => relative(root, f).includes(o)));
if (files.length === 0) {
  console.error('no test files found: refusing to pass with zero tests');
  process.exit(1);
}
// The spec reporter's own summary goes by; a plain "N passed, N failed" line closes the run for CI.
const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], {
  stdio: ['ignore', 'pipe', 'inherit'],
  cwd: root,
});
const counts = { pass: 0, fail: 0, skipped: 0 };
let tail = '';
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  tail = (tail + chunk.toString()).slice(-4000);
});
child.on('close', (code) => {
  for (const key of Object.keys(counts)) {
    const m = tail.match(new RegExp(`^\\S*\\s*${key} (\\d+)$`, 'm'));
    if (m) counts[key] = Number(m[1]);
  }
  console.log(`\n${counts.pass} passed, ${counts.fail} failed, ${counts.skipped} skipped`);
  if (counts.pass === 0) {
    console.error('no test passed: refusing to report success');
    process.exit(1);
  }
  process.exit(code ?? 1);
});
