import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeFile } from '../../../server/src/services/workspace/analyzeFile';
import { analyzeInSlices } from '../../../server/src/services/workspace/analyzeInSlices';
import { PieceCache } from '../../../server/src/services/workspace/pieceCache';
import { largeManifest } from './largeManifest';

const TEXT = largeManifest(50_000);
const DOCS = 2000;

/**
 * A clock that advances one millisecond each time it is read: a slice's "duration" is the number of pieces it analyzed.
 */
function countingClock(): () => number {
  let t = 0;
  return () => t++;
}

describe('analyzeInSlices', () => {
  test('a 50,000-line manifest is analyzed in budget-sized slices, yielding between them, with the same result', async () => {
    assert.equal(TEXT.split('\n').length, 50_000);
    const slices: number[] = [];
    let yields = 0;
    const result = await analyzeInSlices(TEXT, {
      now: countingClock(),
      yieldToEventLoop: async () => void yields++,
      isCancelled: () => false,
      budgetMs: 25,
      onSlice: (n) => slices.push(n),
    });
    assert.deepEqual(result, analyzeFile(TEXT));
    assert.equal(result?.objects.length, DOCS);
    assert.equal(result?.diagnostics.length, DOCS / 10);
    // Each slice reads the clock once at its start and once after each piece, so 25 ms of budget is 25 pieces.
    assert.equal(Math.max(...slices), 25);
    assert.equal(
      slices.reduce((a, b) => a + b, 0),
      DOCS,
    );
    assert.equal(slices.length, DOCS / 25);
    assert.equal(yields, slices.length - 1);
  });

  test('a run stops at the first yield after it is cancelled', async () => {
    const slices: number[] = [];
    let yields = 0;
    const result = await analyzeInSlices(TEXT, {
      now: countingClock(),
      yieldToEventLoop: async () => void yields++,
      isCancelled: () => yields >= 3,
      budgetMs: 25,
      onSlice: (n) => slices.push(n),
    });
    assert.equal(result, undefined);
    assert.deepEqual(slices, [25, 25, 25]);
  });

  test('a run cancelled before it starts does no work; a one-piece text needs no yield', async () => {
    let sliced = 0;
    const opts = {
      now: countingClock(),
      yieldToEventLoop: async () => assert.fail('no yield expected'),
      onSlice: () => void sliced++,
    };
    assert.equal(await analyzeInSlices(TEXT, { ...opts, isCancelled: () => true }), undefined);
    assert.equal(sliced, 0);
    const small = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n';
    assert.deepEqual(await analyzeInSlices(small, { ...opts, isCancelled: () => false }), analyzeFile(small));
  });

  test('with a piece cache, a one-line edit re-analyzes only the edited document, with the same result as from scratch', async () => {
    const cache = new PieceCache();
    const opts = { now: countingClock(), yieldToEventLoop: async () => undefined, isCancelled: () => false, cache };
    await analyzeInSlices(TEXT, opts);
    assert.equal(cache.computed, DOCS);
    const edited = TEXT.replace(
      '  replicas: 2\n  selector:\n    matchLabels:\n      app: app-7\n',
      '  replicas: -1\n  selector:\n    matchLabels:\n      app: app-7\n',
    );
    assert.notEqual(edited, TEXT);
    const result = await analyzeInSlices(edited, opts);
    assert.equal(cache.computed, DOCS + 1);
    assert.deepEqual(result, analyzeFile(edited));
  });
});
