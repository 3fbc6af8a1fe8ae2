/** Waiting for the language server's diagnostics of the text being saved, with injected timers. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticsFreshness } from '../../../client/src/model/diagnosticsFreshness';
import type { Timers } from '../../../client/src/model/diagnosticsFreshness';

function fakeTimers(): Timers & { fire(): void; pending(): number } {
  const timers = new Map<number, () => void>();
  let next = 1;
  return {
    setTimeout: (fn) => {
      timers.set(next, fn);
      return next++;
    },
    clearTimeout: (h) => void timers.delete(h as number),
    fire: () => {
      for (const [id, fn] of [...timers]) {
        timers.delete(id);
        fn();
      }
    },
    pending: () => timers.size,
  };
}

describe('DiagnosticsFreshness', () => {
  test('a document the server never validated never waits', async () => {
    const f = new DiagnosticsFreshness(fakeTimers());
    f.changed('file:///a.yaml');
    assert.equal(f.isFresh('file:///a.yaml'), true);
    assert.equal(await f.whenFresh('file:///a.yaml'), true);
  });

  test('after an edit, waits for the next publication', async () => {
    const timers = fakeTimers();
    const f = new DiagnosticsFreshness(timers);
    f.published('file:///a.yaml');
    f.changed('file:///a.yaml');
    assert.equal(f.isFresh('file:///a.yaml'), false);
    const waiting = f.whenFresh('file:///a.yaml');
    assert.equal(timers.pending(), 1);
    f.published('file:///a.yaml');
    assert.equal(await waiting, true);
    assert.equal(timers.pending(), 0, 'its deadline is cleared');
  });

  test('gives up at the deadline (the server may be busy or down); closing the document ends the wait', async () => {
    const timers = fakeTimers();
    const f = new DiagnosticsFreshness(timers);
    f.published('u');
    f.changed('u');
    const late = f.whenFresh('u', 2000);
    timers.fire();
    assert.equal(await late, false);
    const closing = f.whenFresh('u');
    f.closed('u');
    assert.equal(await closing, true);
    f.changed('u');
    assert.equal(f.isFresh('u'), true, 'closed: no longer validated as an open document');
  });
});
