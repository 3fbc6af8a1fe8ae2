/**
 * The VSIX's file list (scripts/package.mjs, .vscodeignore, scripts/build.mjs): what the
 * extension loads is in it, the CLI and sources are not, and the generated schema is one shared
 * file rather than inlined into each bundle. The last tests list the real package with vsce, so
 * they need a built dist/ (`npm test` builds first).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listFiles, PackageManager } from '@vscode/vsce';
import {
  checkPackageFiles,
  fingerprints,
  manifestFiles,
  relativeRequires,
  RUNTIME_FILES,
} from '../../scripts/package.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { main: string };

const SCHEMA_TEXT = JSON.stringify({
  definitions: {
    Pod: {
      description:
        'Pod is a collection of containers that can run on a host, created by clients and scheduled onto hosts.',
    },
  },
});
const SCHEMA_MARK =
  'Pod is a collection of containers that can run on a host, created by clients and scheduled onto hosts.';

/** A package that is right: every file the extension loads, bundles that require the shared schema. */
function goodPackage(): Map<string, string> {
  const files = new Map<string, string>();
  for (const f of [...manifestFiles(manifest), ...RUNTIME_FILES, 'package.json', 'README.md']) files.set(f, '');
  files.set('dist/server.js', 'var s = require("./schemas/kubernetes-schema.json");');
  files.set('dist/sandboxWorker.js', "const s = require('./schemas/kubernetes-schema.json');");
  files.set('dist/schemas/kubernetes-schema.json', SCHEMA_TEXT);
  return files;
}

function check(files: Map<string, string>): string[] {
  return checkPackageFiles([...files.keys()], manifest, (f) => {
    const text = files.get(f);
    if (text === undefined) throw new Error(`read of an unlisted file ${f}`);
    return text;
  });
}

describe('checkPackageFiles', () => {
  test('a package with what the extension loads and nothing else passes', () => {
    assert.deepEqual(check(goodPackage()), []);
  });

  test('dist/cli.js in the package is refused', () => {
    const files = goodPackage();
    files.set('dist/cli.js', '#!/usr/bin/env node');
    assert.deepEqual(check(files), [
      'dist/cli.js is shipped: the CLI, which the extension never loads (npm users get it from the npm package)',
    ]);
  });

  test('a missing bundle, the manifest main, or a contributed file is reported', () => {
    for (const gone of [
      'dist/server.js',
      manifest.main.replace(/^\.\//, ''),
      'media/cluster.svg',
      'walkthrough/killPod.md',
    ]) {
      const files = goodPackage();
      files.delete(gone);
      assert.ok(
        check(files).includes(`${gone} is missing: the extension loads it`),
        `${gone}: ${JSON.stringify(check(files))}`,
      );
    }
  });

  test('a bundle requiring a file that is not packaged is reported', () => {
    const files = goodPackage();
    files.delete('dist/schemas/kubernetes-schema.json');
    assert.deepEqual(check(files), [
      'dist/server.js requires ./schemas/kubernetes-schema.json, which is not in the package',
      'dist/sandboxWorker.js requires ./schemas/kubernetes-schema.json, which is not in the package',
    ]);
  });

  test('a bundle that inlines the shared generated JSON is reported', () => {
    const files = goodPackage();
    files.set('dist/server.js', `var s = { description: "${SCHEMA_MARK}" };`);
    assert.deepEqual(check(files), [
      'dist/server.js inlines dist/schemas/kubernetes-schema.json instead of loading it',
    ]);
  });

  test('a bundle carrying whatwg-url (stubbed by the build: node-fetch never runs it) is reported', () => {
    const files = goodPackage();
    files.set('dist/extension.js', 'var t=[[[0,44],"disallowed_STD3_valid"]];');
    assert.deepEqual(check(files), [
      "dist/extension.js bundles whatwg-url and tr46 (node-fetch takes Node's URL; scripts/stubs/whatwg-url.mjs), which never run",
    ]);
  });

  test('source maps, node_modules and sources are refused', () => {
    const files = goodPackage();
    for (const f of ['dist/server.js.map', 'node_modules/yaml/index.js', 'sandbox/schema/schema.ts']) files.set(f, '');
    assert.equal(check(files).length, 3, JSON.stringify(check(files)));
  });

  test('relativeRequires and fingerprints read what they promise', () => {
    assert.deepEqual(relativeRequires('require("./a.json");require(\'../b\');require("vscode");require("./a.json")'), [
      './a.json',
      '../b',
    ]);
    assert.deepEqual(fingerprints(SCHEMA_TEXT), [SCHEMA_MARK]);
  });
});

describe('the real package', () => {
  test('RUNTIME_FILES holds every dist/ file the client source opens by path', () => {
    const named = new Set<string>();
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.endsWith('.ts')) {
          const text = readFileSync(p, 'utf8');
          for (const m of text.matchAll(/'(dist\/[\w.]+)'/g)) named.add(m[1]);
          for (const m of text.matchAll(/\(dist, '([\w.]+)'\)/g)) named.add(`dist/${m[1]}`);
        }
      }
    };
    walk(join(root, 'client', 'src'));
    assert.ok(named.size >= 4, `found ${[...named].join(', ')}`);
    for (const file of named) {
      if (file === manifest.main.replace(/^\.\//, '')) continue;
      assert.ok(RUNTIME_FILES.includes(file), `${file} is opened by the client but not in RUNTIME_FILES`);
    }
  });

  test('vsce lists what the extension loads, one schema file, and not dist/cli.js', async () => {
    assert.ok(
      existsSync(join(root, 'dist', 'extension.js')),
      'dist/ is not built: run `npm run build` (npm test does it first)',
    );
    const files = await listFiles({ cwd: root, packageManager: PackageManager.None });
    assert.ok(!files.includes('dist/cli.js'), 'dist/cli.js is packaged');
    assert.ok(files.includes('dist/server.js') && files.includes('dist/sandboxWorker.js'));
    const generated = files.filter((f) => f.startsWith('dist/schemas/'));
    assert.ok(generated.length > 0, `no shared generated JSON in ${files.join(', ')}`);
    const problems = checkPackageFiles(files, manifest, (f) => readFileSync(join(root, f), 'utf8'));
    assert.deepEqual(problems, [], `${relative(root, join(root, '.vscodeignore'))} or the build is wrong`);
  });
});
