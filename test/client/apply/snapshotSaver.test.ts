/** SnapshotSaver: saves while changed, on demand, and forgets on reset. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileSnapshotStore, loadSnapshot, SnapshotSaver } from '../../../client/src/apply/snapshotSaver';
import type { SnapshotStore } from '../../../client/src/apply/snapshotSaver';
import type { SandboxConnection } from '../../../client/src/sandbox/connection';
import { MirrorCache } from '../../../client/src/sandbox/mirror';
import type { WatchChange } from '../../../client/src/sandbox/protocol';

function memoryStore(): SnapshotStore & { text?: string; writes: number } {
  const s = {
    text: undefined as string | undefined,
    writes: 0,
    read: () => Promise.resolve(s.text),
    write: (t: string) => ((s.text = t), s.writes++, Promise.resolve()),
    remove: () => ((s.text = undefined), Promise.resolve()),
  };
  return s;
}

function fakeConnection() {
  let listener: ((c: WatchChange[]) => void) | undefined;
  let n = 0;
  const connection = {
    cache: new MirrorCache(),
    status: undefined,
    request: () => Promise.resolve({ snapshot: { n: ++n } }),
    onDidChange: (l: (c: WatchChange[]) => void) => ((listener = l), { dispose: () => (listener = undefined) }),
    onDidLog: () => ({ dispose: () => undefined }),
    onDidStatus: () => ({ dispose: () => undefined }),
    dispose: () => undefined,
  } as unknown as SandboxConnection;
  return { connection, change: () => listener?.([]) };
}

describe('SnapshotSaver', () => {
  test('saves only when something changed since the last save', async () => {
    const store = memoryStore();
    const { connection, change } = fakeConnection();
    const saver = new SnapshotSaver(connection, store, 60_000);
    try {
      await saver.saveIfChanged();
      assert.equal(store.writes, 0);
      change();
      assert.equal(saver.dirty, true);
      await saver.saveIfChanged();
      assert.deepEqual([store.writes, store.text, saver.dirty], [1, '{"n":1}', false]);
      await saver.saveIfChanged();
      assert.equal(store.writes, 1);
      await saver.saveNow();
      assert.deepEqual([store.writes, store.text], [2, '{"n":2}']);
      assert.deepEqual(await loadSnapshot(store), { n: 2 });
      await saver.clear();
      assert.equal(await loadSnapshot(store), undefined);
    } finally {
      saver.dispose();
    }
  });

  test('a stored text that is not JSON is refused whole, with the reason, and kept aside', async () => {
    const files = memoryFiles();
    const store = fileSnapshotStore(files);
    files.map.set('sandbox-snapshot.json', '{"apiVersion":"kube-reconcile/v1","objects":[{"kind":"Po');
    await assert.rejects(loadSnapshot(store), (e: Error) => {
      assert.match(
        e.message,
        /not valid JSON \(56 bytes, truncated or corrupt: .*\); it was kept as \/store\/sandbox-snapshot\.corrupt\.json/,
      );
      return true;
    });
    // Nothing lost: the bad text is where the message says, and the next save cannot overwrite it.
    assert.equal(
      files.map.get('sandbox-snapshot.corrupt.json'),
      '{"apiVersion":"kube-reconcile/v1","objects":[{"kind":"Po',
    );
    await store.write('{"n":1}');
    assert.equal(files.map.get('sandbox-snapshot.corrupt.json')?.length, 56);
    assert.equal(await loadSnapshot(store).then((v) => JSON.stringify(v)), '{"n":1}');
  });

  test('a store that cannot keep aside still refuses the text with the reason', async () => {
    const store = memoryStore();
    store.text = '{broken';
    await assert.rejects(loadSnapshot(store), /the saved sandbox is not valid JSON \(7 bytes/);
  });
});

describe('fileSnapshotStore: atomic writes', () => {
  test('a write goes to a temporary file renamed over the snapshot', async () => {
    const files = memoryFiles();
    const store = fileSnapshotStore(files);
    await store.write('{"n":1}');
    assert.deepEqual(files.log, [
      'write sandbox-snapshot.json.tmp',
      'rename sandbox-snapshot.json.tmp sandbox-snapshot.json',
    ]);
    assert.deepEqual([...files.map.keys()], ['sandbox-snapshot.json']);
  });

  test('a write that fails midway (the worker killed, the disk full) leaves the last good snapshot whole', async () => {
    for (const failAt of ['write', 'rename'] as const) {
      const files = memoryFiles();
      const store = fileSnapshotStore(files);
      await store.write('{"good":true}');
      files.failOn = failAt;
      await assert.rejects(store.write('{"newer":tr'), /disk full/);
      assert.equal(files.map.get('sandbox-snapshot.json'), '{"good":true}', `after a failed ${failAt}`);
      assert.equal(files.map.has('sandbox-snapshot.json.tmp'), false, 'the temporary file was left behind');
      assert.deepEqual(await loadSnapshot(store), { good: true });
    }
  });
});

/** Files in memory; `failOn` makes the next write (after half the text) or rename throw. */
function memoryFiles() {
  const files = {
    map: new Map<string, string>(),
    log: [] as string[],
    failOn: undefined as 'write' | 'rename' | undefined,
    read: (name: string) => Promise.resolve(files.map.get(name)),
    write: (name: string, text: string) => {
      files.log.push(`write ${name}`);
      if (files.failOn === 'write') {
        files.map.set(name, text.slice(0, text.length / 2));
        return Promise.reject(new Error('ENOSPC: disk full'));
      }
      files.map.set(name, text);
      return Promise.resolve();
    },
    rename: (from: string, to: string) => {
      files.log.push(`rename ${from} ${to}`);
      if (files.failOn === 'rename') return Promise.reject(new Error('EIO: disk full'));
      const text = files.map.get(from);
      if (text === undefined) return Promise.reject(new Error(`ENOENT: ${from}`));
      files.map.delete(from);
      files.map.set(to, text);
      return Promise.resolve();
    },
    remove: (name: string) => (files.map.delete(name), Promise.resolve()),
    describe: (name: string) => `/store/${name}`,
  };
  return files;
}
