/** SnapshotSaver: saves while changed, on demand, and forgets on reset. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSnapshot, SnapshotSaver } from '../../../client/src/apply/snapshotSaver';
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

  test('a stored text that is not JSON loads as no snapshot', async () => {
    const store = memoryStore();
    store.text = '{broken';
    assert.equal(await loadSnapshot(store), undefined);
  });
});
