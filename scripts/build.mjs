// Bundles the extension, the language server, the sandbox worker, the CLI and (when it exists) the webview
// script into dist/ with esbuild.
//
// JSON generated at build time (any `.json` imported from a folder named `generated/`, such as the
// Kubernetes schema) is not inlined into each Node bundle that imports it: it is copied once to
// dist/schemas/<file name>, and the bundles `require("./schemas/<file name>")` it at run time.
// The server, the sandbox worker and the CLI share one copy instead of carrying one each.
//
//   node scripts/build.mjs [--production] [--watch] [entry-name...]
//
// --production minifies. --watch rebuilds on change (Ctrl+C to stop). Entry names
// (extension, server, worker, cli, webview) restrict the build to those bundles.
//
// The CLI is two bundles (both built by the entry name `cli`): dist/cli.js carries `validate` alone, so that a
// pre-commit hook's `validate` does not compile the sandbox, the HTTP server and the plan engine (~3 MB);
// `simulate`, `plan` and `serve` run in dist/cli-full.js, the whole CLI (see commandsInFullCli).
// A required entry whose source file is missing fails the build before anything is
// written, so that a half-built dist/ can never pass for a complete one.
import * as esbuild from 'esbuild';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const production = args.includes('--production');
const watch = args.includes('--watch');
const selected = args.filter((a) => !a.startsWith('--'));

/** Options shared by every bundle. */
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  minify: production,
  logLevel: 'warning',
  absWorkingDir: root,
};

/**
 * Every bundle: a name to select it by, the esbuild options it adds to `common`, and
 * whether it may be absent (the webview script: nothing opens a webview yet).
 */
const entries = [
  {
    name: 'extension',
    options: { entryPoints: ['client/src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  },
  {
    name: 'server',
    options: { entryPoints: ['server/src/server.ts'], outfile: 'dist/server.js' },
  },
  {
    name: 'worker',
    options: { entryPoints: ['client/src/worker/main.ts'], outfile: 'dist/sandboxWorker.js' },
  },
  {
    name: 'cli',
    options: { entryPoints: ['cli/bin.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
    executable: true,
    fullCli: true,
  },
  // The whole CLI (cli/main.ts with every command), which dist/cli.js hands `simulate`, `plan` and `serve` to.
  { name: 'cli', options: { entryPoints: ['cli/main.ts'], outfile: 'dist/cli-full.js' } },
  {
    name: 'webview',
    options: {
      entryPoints: ['client/webview/main.ts'],
      outfile: 'dist/webview.js',
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      // Monaco imports its CSS (bundled into dist/webview.css) and the codicon font.
      loader: { '.ttf': 'file' },
    },
    optional: true,
  },
  // Monaco's workers for the webview: started from blob: URLs by client/webview/editors.ts.
  ...[
    ['webview-editor-worker', 'node_modules/monaco-editor/esm/vs/editor/editor.worker.js', 'dist/editor.worker.js'],
    ['webview-yaml-worker', 'node_modules/monaco-yaml/yaml.worker.js', 'dist/yaml.worker.js'],
  ].map(([name, entry, outfile]) => ({
    name,
    options: {
      entryPoints: [entry],
      outfile,
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      // The views never format YAML: prettier (440 kB) is replaced by a stub that throws.
      alias: Object.fromEntries(
        ['prettier/standalone', 'prettier/plugins/yaml', 'prettier/plugins/estree'].map((m) => [
          m,
          './client/webview/stubs/prettier.ts',
        ]),
      ),
    },
    optional: true,
  })),
];

const sourceOf = (entry) => entry.options.entryPoints[0];

/**
 * The Kubernetes schemas of the releases other than the default one (which the bundles embed): copied to
 * dist/schemas/, where sandbox/schema/schema.ts reads one when that release is chosen.
 */
function copySchemas() {
  const from = join(root, 'sandbox', 'schema', 'generated');
  const { defaultVersion } = JSON.parse(readFileSync(join(from, 'kubernetes-releases.json'), 'utf8'));
  const to = join(root, 'dist', 'schemas');
  mkdirSync(to, { recursive: true });
  for (const f of readdirSync(from)) {
    if (/^kubernetes-\d+\.\d+\.json$/.test(f) && f !== `kubernetes-${defaultVersion}.json`)
      copyFileSync(join(from, f), join(to, f));
  }
}

function fail(message) {
  console.error(`build: ${message}`);
  process.exit(1);
}

function chooseEntries() {
  const unknown = selected.filter((n) => !entries.some((e) => e.name === n));
  if (unknown.length > 0)
    fail(`unknown entry ${unknown.join(', ')} (known: ${[...new Set(entries.map((e) => e.name))].join(', ')})`);
  const chosen = selected.length > 0 ? entries.filter((e) => selected.includes(e.name)) : entries;
  const missing = chosen.filter((e) => !e.optional && !existsSync(join(root, sourceOf(e))));
  if (missing.length > 0) {
    fail(
      `missing entry point${missing.length > 1 ? 's' : ''}: ${missing.map((e) => `${sourceOf(e)} (${e.name})`).join(', ')}`,
    );
  }
  return chosen.filter((e) => existsSync(join(root, sourceOf(e))));
}

/**
 * Packages the Node bundles replace with a stub of ours: dead code at run time, with the reason in the stub.
 * (The browser bundles alias prettier in their own entries.)
 */
const NODE_ALIASES = { 'whatwg-url': './scripts/stubs/whatwg-url.mjs' };

function optionsFor(entry) {
  const options = { ...common, ...entry.options };
  const plugins = [];
  if (options.platform === 'node') {
    options.alias = { ...NODE_ALIASES, ...options.alias };
    plugins.push(sharedGeneratedJson(options.outfile));
  }
  if (entry.executable) plugins.push(chmodAfterBuild(entry.options.outfile));
  if (entry.fullCli) plugins.push(commandsInFullCli());
  return { ...options, plugins };
}

/** The whole CLI's bundle, next to dist/cli.js. */
const FULL_CLI = './cli-full.js';
/** The command modules cli/main.ts imports when a command runs that dist/cli.js leaves to FULL_CLI: name, export. */
const FULL_CLI_COMMANDS = {
  './simulate/command': ['simulate', 'runSimulate'],
  './plan': ['plan', 'runPlanCommand'],
  './serve': ['serve', 'runServe'],
};

/**
 * Keeps `simulate`, `plan` and `serve` out of dist/cli.js: cli/main.ts's import of each of their modules becomes a
 * forwarder that loads FULL_CLI (only when the command runs) and runs the command line through its `main`, which
 * prints the command's usage errors itself. So a process evaluates one copy of every module it runs — no state (the
 * Kubernetes release chosen, the class of a UsageError) is split between the two bundles — and the output is the
 * whole CLI's, byte for byte. The build fails if cli/main.ts stops importing one of them, rather than quietly
 * carrying it again.
 */
function commandsInFullCli() {
  const main = join(root, 'cli', 'main.ts');
  return {
    name: 'commands-in-full-cli',
    setup(build) {
      const forwarded = new Set();
      build.onStart(() => forwarded.clear());
      build.onResolve({ filter: /^\.\/(simulate\/command|plan|serve)$/ }, (args) => {
        if (args.importer !== main) return undefined;
        forwarded.add(args.path);
        return { path: args.path, namespace: 'full-cli' };
      });
      build.onResolve({ filter: /^\.\/cli-full\.js$/, namespace: 'full-cli' }, (args) => ({
        path: args.path,
        external: true,
      }));
      build.onLoad({ filter: /.*/, namespace: 'full-cli' }, (args) => {
        const [command, exported] = FULL_CLI_COMMANDS[args.path];
        return {
          contents:
            `const { main } = require(${JSON.stringify(FULL_CLI)});\n` +
            `export const ${exported} = (args, io) => main([${JSON.stringify(command)}, ...args], io);\n`,
          loader: 'js',
        };
      });
      build.onEnd((result) => {
        const missing = Object.keys(FULL_CLI_COMMANDS).filter((p) => !forwarded.has(p));
        if (result.errors.length > 0 || missing.length === 0) return;
        // esbuild does not print what an end callback throws: say it here.
        const message = `cli/main.ts no longer imports ${missing.join(', ')}: update FULL_CLI_COMMANDS in scripts/build.mjs`;
        console.error(`build: ${message}`);
        throw new Error(message);
      });
    },
  };
}

/** Where shared generated JSON goes: dist/schemas/<file name>. */
const GENERATED_DIR = join('dist', 'schemas');
/** An import of a `.json` file inside a `generated/` folder. */
const GENERATED_JSON = /(^|[\\/])generated[\\/][^\\/]+\.json$/;
/** Generated JSON copied to GENERATED_DIR by this build, by file name → its source (shared by all bundles). */
const generatedCopies = new Map();

/**
 * Keeps generated JSON out of the Node bundles: each import of one is left as a run-time
 * `require()` of its copy in dist/schemas/ (Node resolves it from the bundle's own folder), and
 * the file is copied there. Two generated files with the same name from different folders would
 * overwrite each other: the build refuses that.
 */
function sharedGeneratedJson(outfile) {
  return {
    name: 'shared-generated-json',
    setup(build) {
      build.onResolve({ filter: GENERATED_JSON }, (args) => {
        const source = resolve(args.resolveDir, args.path);
        const name = basename(source);
        if (!existsSync(source)) return { errors: [{ text: `${source} is missing: run npm run generate` }] };
        const other = generatedCopies.get(name);
        if (other !== undefined && other !== source)
          return { errors: [{ text: `two generated files are named ${name}: ${other} and ${source}` }] };
        generatedCopies.set(name, source);
        mkdirSync(join(root, GENERATED_DIR), { recursive: true });
        copyFileSync(source, join(root, GENERATED_DIR, name));
        const path = relative(dirname(join(root, outfile)), join(root, GENERATED_DIR, name))
          .split(sep)
          .join('/');
        return { path: path.startsWith('.') ? path : `./${path}`, external: true, watchFiles: [source] };
      });
    },
  };
}

/** The CLI bundle must stay runnable as `./dist/cli.js`, including after watch rebuilds. */
function chmodAfterBuild(outfile) {
  return {
    name: 'chmod',
    setup(build) {
      build.onEnd((result) => {
        if (result.errors.length === 0) chmodSync(join(root, outfile), 0o755);
      });
    },
  };
}

function formatSize(bytes) {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(2)} MB` : `${(bytes / 1024).toFixed(1)} kB`;
}

function printSizes(chosen) {
  const files = [
    ...chosen.map((e) => e.options.outfile),
    ...[...generatedCopies.keys()].map((name) => `${GENERATED_DIR}/${name}`),
  ];
  for (const file of files) {
    const size = statSync(join(root, file)).size;
    console.log(`  ${file.padEnd(34)} ${formatSize(size).padStart(10)}`);
  }
}

async function buildOnce(chosen) {
  // A full build starts from an empty dist/ so that no stale bundle survives a rename.
  if (selected.length === 0) rmSync(join(root, 'dist'), { recursive: true, force: true });
  const started = performance.now();
  // Every bundle runs to the end so that all of their errors are printed (by esbuild).
  const results = await Promise.allSettled(chosen.map((e) => esbuild.build(optionsFor(e))));
  const failed = chosen.filter((_, i) => results[i].status === 'rejected');
  if (failed.length > 0) fail(`failed: ${failed.map((e) => e.name).join(', ')}`);
  if (chosen.some((e) => e.options.platform !== 'browser')) copySchemas();
  console.log(
    `build: ${chosen.length} bundle(s)${production ? ' (production)' : ''} in ${Math.round(performance.now() - started)} ms`,
  );
  printSizes(chosen);
}

async function watchAll(chosen) {
  copySchemas();
  const contexts = await Promise.all(chosen.map((e) => esbuild.context({ ...optionsFor(e), logLevel: 'info' })));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log(`build: watching ${chosen.map((e) => e.name).join(', ')}`);
}

const chosen = chooseEntries();
if (watch) await watchAll(chosen);
else await buildOnce(chosen);
