/** startSandbox with a saved snapshot that cannot be used: refused whole, said so, and kept aside (nothing lost). */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox } from '../../../client/src/commands/startup';
import type { SandboxStatus } from '../../../client/src/sandbox/protocol';
import { FakeConnection, FakeUi, contextOf } from './fakes';

const RUNNING: SandboxStatus = { running: true, paused: false, speed: 1, time: 0, pods: 0, nodes: 3 };

function setup(warning?: string) {
  const connection = new FakeConnection();
  connection.replies.init = () => ({ ...RUNNING, ...(warning ? { warning } : {}) });
  const ui = new FakeUi();
  const kept: string[] = [];
  const keepAside = () => (kept.push('kept'), Promise.resolve('/storage/sandbox-snapshot.corrupt.json'));
  return { connection, ui, ctx: contextOf(connection, ui), kept, keepAside };
}

describe('startSandbox: a saved snapshot that cannot be used', () => {
  test('one the worker cannot restore is kept aside and the warning says where', async () => {
    const { ui, ctx, kept, keepAside } = setup(
      'The saved sandbox could not be restored, so a fresh one was started: x',
    );
    assert.equal(await startSandbox(ctx, async () => ({ apiVersion: 'nope' }), keepAside), true);
    assert.deepEqual(kept, ['kept']);
    assert.ok(
      ui.shown.some(
        (s) => s.includes('could not be restored') && s.includes('kept as /storage/sandbox-snapshot.corrupt.json'),
      ),
      ui.shown.join('\n'),
    );
  });

  test('one that restored is left where it is', async () => {
    const { ui, ctx, kept, keepAside } = setup();
    assert.equal(await startSandbox(ctx, async () => ({ apiVersion: 'ok' }), keepAside), true);
    assert.deepEqual(kept, []);
    assert.deepEqual(ui.shown, []);
  });

  test('one that is not JSON starts a fresh sandbox and says why', async () => {
    const { ui, ctx } = setup();
    const load = () =>
      Promise.reject(new Error('the saved sandbox is not valid JSON (56 bytes, …); it was kept as /x'));
    assert.equal(await startSandbox(ctx, load), true);
    assert.ok(
      ui.shown.some((s) => s.includes('not valid JSON') && s.includes('kept as /x')),
      ui.shown.join('\n'),
    );
  });
});
