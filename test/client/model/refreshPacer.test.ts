/** RefreshPacer: the first change after a quiet moment at once, then fires spaced beyond VS Code's 200 ms debounce. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { REFRESH_SPACING_MS, RefreshPacer, VSCODE_TREE_DEBOUNCE_MS } from '../../../client/src/model/refreshPacer';
import { ManualTimer } from './manualTimer';

function paced(fires = () => true) {
  const timer = new ManualTimer();
  const runs: number[] = [];
  const pacer = new RefreshPacer(() => {
    runs.push(timer.now());
    return fires();
  }, timer);
  return { timer, runs, pacer };
}

describe('RefreshPacer', () => {
  test('spaces fires beyond VS Code’s debounce, so that each renders at once', () => {
    assert.equal(VSCODE_TREE_DEBOUNCE_MS, 200);
    assert.ok(REFRESH_SPACING_MS > VSCODE_TREE_DEBOUNCE_MS);
  });

  test('the first request after a quiet moment runs on the next turn; requests meanwhile join it', () => {
    const { timer, runs, pacer } = paced();
    pacer.request();
    pacer.request();
    assert.deepEqual(runs, []);
    timer.advance(0);
    assert.deepEqual(runs, [0]);
  });

  test('a request soon after a fire waits until a fire renders at once, no longer', () => {
    const { timer, runs, pacer } = paced();
    pacer.request();
    timer.advance(50);
    pacer.request();
    timer.advance(REFRESH_SPACING_MS);
    assert.deepEqual(runs, [0, REFRESH_SPACING_MS]);
  });

  test('a steady stream of requests fires once per spacing', () => {
    const { timer, runs, pacer } = paced();
    for (let t = 0; t < 1000; t += 20) {
      pacer.request();
      timer.advance(20);
    }
    assert.equal(runs[0], 0);
    for (let i = 1; i < runs.length; i++) assert.equal(runs[i] - runs[i - 1], REFRESH_SPACING_MS);
  });

  test('a refresh that fired nothing does not hold the next one back; a whole-tree fire does', () => {
    let fire = false;
    const { timer, runs, pacer } = paced(() => fire);
    pacer.request();
    timer.advance(10);
    fire = true;
    pacer.request();
    timer.advance(0);
    assert.deepEqual(runs, [0, 10]);
    timer.advance(500);
    pacer.fired();
    pacer.request();
    timer.advance(0);
    assert.deepEqual(runs, [0, 10]);
    timer.advance(REFRESH_SPACING_MS);
    assert.deepEqual(runs, [0, 10, 510 + REFRESH_SPACING_MS]);
  });

  test('disposed: nothing runs', () => {
    const { timer, runs, pacer } = paced();
    pacer.request();
    pacer.dispose();
    pacer.request();
    timer.advance(1000);
    assert.deepEqual(runs, []);
  });
});
