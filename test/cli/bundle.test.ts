/**
 * The built CLI (scripts/build.mjs): dist/cli.js loads only what the command line needs — `validate` its checks and
 * no sandbox, `--version` and `--help` not even those — and hands `simulate`, `plan` and `serve` to dist/cli-full.js,
 * with the same output as the CLI run from source. Each case runs the bundle in a child process and reads, at exit,
 * which files its `require` loaded and which of Node's built-in modules it evaluated. Needs a built dist/ (`npm test`
 * builds first).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import packageJson from '../../package.json';
import { main } from '../../cli/main';
import { MAIN_HELP } from '../../cli/main';
import { PLAN_HELP } from '../../cli/plan';
import { SIMULATE_HELP } from '../../cli/simulate/command';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(root, 'dist', 'cli.js');
const FULL = join(root, 'dist', 'cli-full.js');
const MARK = '\u0000loaded:';

/** Runs dist/cli.js with `args` as `node dist/cli.js` would, noting at exit what it loaded (on stderr, after MARK). */
const PROBE = `
const [cli, ...args] = process.argv.slice(1);
process.argv = [process.argv[0], cli, ...args];
const before = new Set(process.moduleLoadList);
process.on('exit', () => {
  const builtins = process.moduleLoadList.filter((m) => !before.has(m) && m.startsWith('NativeModule '));
  process.stderr.write(${JSON.stringify(MARK)} + JSON.stringify({ files: Object.keys(require.cache), builtins }));
});
require(cli);
`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Files `require` loaded, relative to the project, in load order. */
  files: string[];
  /** Node built-in modules the run evaluated (`http`, `net`, ...). */
  builtins: string[];
}

function runBundle(...args: string[]): Run {
  assert.ok(existsSync(CLI) && existsSync(FULL), 'dist/ is not built: run `npm run build` (npm test does it first)');
  const r = spawnSync(process.execPath, ['-e', PROBE, CLI, ...args], { cwd: root, encoding: 'utf8' });
  const at = r.stderr.lastIndexOf(MARK);
  assert.ok(at >= 0, `no probe report: ${r.stderr}`);
  const loaded = JSON.parse(r.stderr.slice(at + MARK.length)) as { files: string[]; builtins: string[] };
  return {
    code: r.status,
    stdout: r.stdout,
    stderr: r.stderr.slice(0, at),
    files: loaded.files.map((f) => relative(root, f).split('\\').join('/')),
    builtins: loaded.builtins.map((m) => m.slice('NativeModule '.length)),
  };
}

/** The same command line through the CLI's source, in this process. */
async function runSource(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    cwd: root,
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

describe('the CLI bundle loads only what the command needs', () => {
  test('--version and --help load dist/cli.js alone: no schema, no other bundle', () => {
    for (const [arg, out] of [
      ['--version', `${packageJson.version}\n`],
      ['--help', MAIN_HELP],
    ]) {
      const r = runBundle(arg);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, out);
      assert.deepEqual(r.files, ['dist/cli.js'], arg);
    }
  });

  test('validate loads its checks and the schema, never dist/cli-full.js nor the HTTP server', async () => {
    const r = runBundle('validate', 'examples/');
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.files.includes('dist/schemas/kubernetes-1.32.json'), r.files.join(', '));
    assert.deepEqual(
      r.files.filter((f) => !f.startsWith('dist/schemas/')),
      ['dist/cli.js'],
    );
    // The builtins the sandbox's HTTP API and serve load at their top level; the probe sees builtins at all.
    assert.ok(r.builtins.includes('fs/promises'), r.builtins.join(', '));
    for (const m of ['http', 'https', 'crypto', 'zlib']) assert.ok(!r.builtins.includes(m), `${m} was loaded`);
    const source = await runSource('validate', 'examples/');
    assert.deepEqual({ code: r.code, stdout: r.stdout, stderr: r.stderr }, source);
  });

  test('validate --jobs 2 starts its workers from dist/cli.js and prints what --jobs 1 does', () => {
    const pool = runBundle('validate', '--jobs', '2', '--format', 'json', 'examples/', 'test/fixtures/public');
    const one = runBundle('validate', '--jobs', '1', '--format', 'json', 'examples/', 'test/fixtures/public');
    assert.equal(pool.code, one.code, pool.stderr);
    assert.equal(pool.stdout, one.stdout);
    assert.ok(JSON.parse(pool.stdout).length > 0, 'the public fixtures have findings');
    assert.ok(!pool.files.includes('dist/cli-full.js'));
  });

  test('simulate and plan run in dist/cli-full.js, with the output of the CLI from source', async () => {
    for (const [args, help] of [
      [['simulate', '--help'], SIMULATE_HELP],
      [['plan', '--help'], PLAN_HELP],
    ] as const) {
      const r = runBundle(...args);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, help);
      assert.deepEqual(r.files.slice(0, 2), ['dist/cli.js', 'dist/cli-full.js']);
    }
    // A usage error thrown in dist/cli-full.js is reported there, as main reports it: exit code 2, the same words.
    for (const args of [['plan', '--bogus'], ['serve', '--port', 'x'], ['simulate']]) {
      const r = runBundle(...args);
      const source = await runSource(...args);
      assert.equal(source.code, 2);
      assert.deepEqual({ code: r.code, stdout: r.stdout, stderr: r.stderr }, source, args.join(' '));
    }
  });
});
