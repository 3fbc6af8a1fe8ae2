/**
 * `collectFiles`: the folder walk reads folders synchronously and builds the paths below a folder given by
 * appending names, not by joining at every level. Its answer must be what joining each path with `path.join` gives,
 * in the same order, for every way of writing the folder (`./x/`, `x/../x`, absolute, `.`), with hidden folders,
 * `node_modules`, non-manifest files, a missing path and a plain file as before.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { collectFiles } from '../../cli/collectFiles';

/** The walk as written before: a join at every level and for every file. */
function expected(given: string, cwd: string): { display: string; absolute: string }[] {
  const absolute = resolve(cwd, given);
  const under = (dir: string): string[] => {
    const out: string[] = [];
    const names = readdirSync(dir).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const name of names) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) {
        if (name.startsWith('.') || name === 'node_modules') continue;
        for (const rel of under(p)) out.push(join(name, rel));
      } else if (/\.ya?ml$/i.test(name)) out.push(name);
    }
    return out;
  };
  return under(absolute).map((rel) => ({ display: join(given, rel), absolute: join(absolute, rel) }));
}

describe('collectFiles', () => {
  const root = mkdtempSync(join(tmpdir(), 'kr-collect-'));
  const tree = join(root, 'tree');
  for (const dir of ['a/b/c', 'a/.hidden', 'a/node_modules/x', 'B', 'z z/ü', '.git'])
    mkdirSync(join(tree, dir), { recursive: true });
  for (const file of [
    'top.yaml',
    'Top.YML',
    'notes.txt',
    'a/one.yml',
    'a/b/two.yaml',
    'a/b/c/three.yaml',
    'a/b/c/four.json',
    'a/.hidden/no.yaml',
    'a/node_modules/x/no.yaml',
    'B/_.yaml',
    'z z/ü/ä.yaml',
    '.git/no.yaml',
  ])
    writeFileSync(join(tree, file), 'kind: ConfigMap\n');

  test('every spelling of the folder gives the joined paths, in order', async () => {
    const spellings = ['tree', './tree/', 'tree/', 'tree/../tree', 'tree//a', 'tree/a/b/..', tree, `${tree}/`, '.'];
    for (const given of spellings) {
      const cwd = given === '.' ? tree : root;
      const got = await collectFiles([given], cwd);
      assert.deepEqual(got, expected(given, cwd), given);
      assert.ok(got.length > 0, given);
    }
  });

  test('files given as such, missing paths and duplicates keep their place', async () => {
    const got = await collectFiles(['tree/notes.txt', 'missing', 'tree/a', 'tree'], root);
    assert.deepEqual(
      got.map((f) => f.display),
      [
        'tree/notes.txt',
        'missing',
        ...expected('tree/a', root).map((f) => f.display),
        ...expected('tree', root)
          .map((f) => f.display)
          .filter((d) => !d.startsWith(join('tree', 'a') + '/')),
      ],
    );
    assert.equal(got.filter((f) => basename(f.display) === 'three.yaml').length, 1);
    assert.equal(relative(root, got[1].absolute), 'missing');
  });

  test.after(() => rmSync(root, { recursive: true, force: true }));
});
