/** RefreshPacer: the first change after a quiet moment at once, then fires spaced beyond VS Code's 200 ms debounce. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  FIRST_CHANGE_HOLD_MS,
  REFRESH_SPACING_MS,
  RefreshPacer,
  VSCODE_TREE_DEBOUNCE_MS,
} from '../../../client/src/model/refreshPacer';
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

/**
 * A pacer told whether the sandbox is busy (`sandbox.busy`, initially `busy`); each fire renders. `firstHoldMs` as the
 * Cluster view passes it, or 0 (the first change fires at once, busy or not).
 */
function pacedBusy(busy: boolean, firstHoldMs = 0) {
  const sandbox = { busy };
  const timer = new ManualTimer();
  const runs: number[] = [];
  const pacer = new RefreshPacer(
    () => {
      runs.push(timer.now());
      return true;
    },
    timer,
    () => sandbox.busy,
    () => firstHoldMs,
  );
  return { timer, runs, pacer, sandbox };
}

/**
 * Seeded bursts against a pacer: each burst requests every `step` ms while the sandbox is busy for `length(r)` ms (`r`
 * a seeded draw in [0, 1)), then once quiet with the settle notice, then 2 s of calm. The pacer sees the sandbox busy
 * only where `holdWhenBusy`; `firstHoldMs` as the Cluster view passes it. Returns every fire and each burst's times.
 */
function burstsAgainstPacer(o: {
  seed: number;
  bursts: number;
  step: number;
  length: (r: number) => number;
  holdWhenBusy: boolean;
  firstHoldMs: number;
}): { fires: number[]; bursts: { length: number; start: number; settledAt: number }[] } {
  const timer = new ManualTimer();
  const fires: number[] = [];
  let busy = false;
  const pacer = new RefreshPacer(
    () => {
      fires.push(timer.now());
      return true;
    },
    timer,
    () => o.holdWhenBusy && busy,
    () => o.firstHoldMs,
  );
  const bursts: { length: number; start: number; settledAt: number }[] = [];
  let seed = o.seed;
  const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  for (let burst = 0; burst < o.bursts; burst++) {
    const length = o.length(next());
    const start = timer.now();
    busy = true;
    for (let t = 0; t < length; t += o.step) {
      pacer.request();
      timer.advance(o.step);
    }
    busy = false;
    const settledAt = timer.now();
    pacer.request();
    pacer.settled();
    timer.advance(2000);
    bursts.push({ length, start, settledAt });
  }
  return { fires, bursts };
}

/** How long after `t` the first fire at or after it came (Infinity: none). */
const firstFireAfter = (fires: readonly number[], t: number) => (fires.find((f) => f >= t) ?? Infinity) - t;

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

  test('a whole-tree fire while a run is due on the next turn makes it wait for the spacing', () => {
    const { timer, runs, pacer } = paced();
    timer.advance(1000);
    pacer.request();
    pacer.fired();
    timer.advance(0);
    assert.deepEqual(runs, []);
    timer.advance(REFRESH_SPACING_MS);
    assert.deepEqual(runs, [1000 + REFRESH_SPACING_MS]);
  });

  test('against a model of VS Code’s leading-edge debounce, every fire renders at once and none waits longer than needed', () => {
    // Event.debounce(…, 200, true) as ExtHostTreeView uses it: a fire with no timer pending renders at once; any fire
    // (re)starts the timer; when it expires, it renders what came after the leading fire, if anything did.
    const timer = new ManualTimer();
    const rendered: number[] = [];
    let handle: unknown;
    let calls = 0;
    const vscodeFire = () => {
      calls++;
      if (handle === undefined) rendered.push(timer.now());
      else timer.clearTimeout(handle);
      handle = timer.setTimeout(() => {
        handle = undefined;
        if (calls > 1) rendered.push(timer.now());
        calls = 0;
      }, VSCODE_TREE_DEBOUNCE_MS);
    };
    const fires: number[] = [];
    const requests: number[] = [];
    const pacer = new RefreshPacer(() => {
      fires.push(timer.now());
      vscodeFire();
      return true;
    }, timer);
    // Requests at seeded pseudo-random moments: bursts and pauses.
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let i = 0; i < 400; i++) {
      timer.advance(Math.floor(next() * (next() < 0.2 ? 600 : 60)));
      requests.push(timer.now());
      pacer.request();
    }
    timer.advance(1000);
    assert.deepEqual(rendered, fires, 'each fire rendered when it was made');
    for (let i = 1; i < fires.length; i++) assert.ok(fires[i] - fires[i - 1] >= REFRESH_SPACING_MS);
    // No request waited for more than the spacing: each is followed by a fire within it.
    for (const r of requests) assert.ok(fires.some((f) => f >= r && f <= r + REFRESH_SPACING_MS));
  });

  test('a busy sandbox: at the spacing’s end the refresh waits for it to settle, then runs on the next turn', () => {
    const { timer, runs, pacer, sandbox } = pacedBusy(true);
    pacer.request();
    timer.advance(0);
    // The first change after a quiet moment is not held, busy or not.
    assert.deepEqual(runs, [0]);
    timer.advance(100);
    pacer.request();
    timer.advance(REFRESH_SPACING_MS);
    assert.deepEqual(runs, [0], 'held past the spacing while busy');
    // A busy batch's change keeps it held; the sandbox settling runs it.
    pacer.request();
    timer.advance(30);
    sandbox.busy = false;
    pacer.settled();
    assert.deepEqual(runs, [0], 'on the next turn, not within the settle notice');
    timer.advance(0);
    const settledAt = 100 + REFRESH_SPACING_MS + 30;
    assert.deepEqual(runs, [0, settledAt]);
    // It spaced again from that fire.
    pacer.request();
    timer.advance(0);
    assert.deepEqual(runs, [0, settledAt]);
    timer.advance(REFRESH_SPACING_MS);
    assert.deepEqual(runs, [0, settledAt, settledAt + REFRESH_SPACING_MS]);
  });

  test('a change that arrives quiet ends the hold, as the settle notice does', () => {
    const { timer, runs, pacer, sandbox } = pacedBusy(true);
    pacer.request();
    timer.advance(0);
    pacer.request();
    timer.advance(REFRESH_SPACING_MS + 40);
    assert.deepEqual(runs, [0]);
    sandbox.busy = false;
    pacer.request();
    timer.advance(0);
    assert.deepEqual(runs, [0, REFRESH_SPACING_MS + 40]);
  });

  test('a sandbox that stays busy fires at the latest every two spacings', () => {
    const { timer, runs, pacer } = pacedBusy(true);
    for (let t = 0; t < 2000; t += 20) {
      pacer.request();
      timer.advance(20);
    }
    assert.equal(runs[0], 0);
    assert.ok(runs.length > 3);
    for (let i = 1; i < runs.length; i++) assert.equal(runs[i] - runs[i - 1], 2 * REFRESH_SPACING_MS);
  });

  test('a settle notice with nothing held does nothing; a whole-tree fire ends a hold and spaces again', () => {
    const { timer, runs, pacer, sandbox } = pacedBusy(false);
    pacer.settled();
    timer.advance(0);
    assert.deepEqual(runs, []);
    pacer.request();
    timer.advance(0);
    sandbox.busy = true;
    pacer.request();
    timer.advance(REFRESH_SPACING_MS + 10);
    assert.deepEqual(runs, [0]);
    pacer.fired();
    sandbox.busy = false;
    pacer.settled();
    timer.advance(0);
    assert.deepEqual(runs, [0], 'the hold ended with the whole-tree fire: the request waits for its spacing');
    timer.advance(REFRESH_SPACING_MS);
    assert.deepEqual(runs, [0, 2 * REFRESH_SPACING_MS + 10]);
  });

  test('against VS Code’s debounce with a sandbox busy in bursts, the state each burst settles into is never shown later than with a fire at every spacing', () => {
    // A burst: busy batches every 30 ms, then one quiet batch (the settled state); bursts of seeded lengths.
    const run = (holding: boolean) => {
      const { fires, bursts } = burstsAgainstPacer({
        seed: 11,
        bursts: 60,
        step: 30,
        length: (r) => 30 + Math.floor(r * 700),
        holdWhenBusy: holding,
        firstHoldMs: 0,
      });
      return { fires, settledShown: bursts.map((b) => firstFireAfter(fires, b.settledAt)) };
    };
    const spaced = run(false);
    const held = run(true);
    for (let i = 0; i < held.settledShown.length; i++)
      assert.ok(held.settledShown[i] <= spaced.settledShown[i], `burst ${i}`);
    assert.ok(
      held.settledShown.reduce((a, b) => a + b) < spaced.settledShown.reduce((a, b) => a + b),
      'and sooner overall',
    );
    for (let i = 1; i < held.fires.length; i++) assert.ok(held.fires[i] - held.fires[i - 1] >= REFRESH_SPACING_MS);
  });

  test('the first change while the sandbox is busy waits for it to settle, then runs on the next turn', () => {
    const { timer, runs, pacer, sandbox } = pacedBusy(true, FIRST_CHANGE_HOLD_MS);
    pacer.request();
    timer.advance(0);
    assert.deepEqual(runs, [], 'held while busy');
    // Busy batches keep it held.
    timer.advance(40);
    pacer.request();
    timer.advance(40);
    assert.deepEqual(runs, []);
    // The save's convergence lands quiet: one fire, at once.
    sandbox.busy = false;
    pacer.request();
    timer.advance(0);
    assert.deepEqual(runs, [80]);
    // And spaced from it as any fire.
    pacer.request();
    timer.advance(REFRESH_SPACING_MS);
    assert.deepEqual(runs, [80, 80 + REFRESH_SPACING_MS]);
  });

  test('the settle notice (an empty quiet batch) releases a held first change too', () => {
    const { timer, runs, pacer, sandbox } = pacedBusy(true, FIRST_CHANGE_HOLD_MS);
    timer.advance(500);
    pacer.request();
    timer.advance(70);
    sandbox.busy = false;
    pacer.settled();
    timer.advance(0);
    assert.deepEqual(runs, [570]);
  });

  test('a first change held while the sandbox stays busy fires when the hold ends, then spaced and held as before', () => {
    const { timer, runs, pacer, sandbox } = pacedBusy(true, FIRST_CHANGE_HOLD_MS);
    pacer.request();
    timer.advance(FIRST_CHANGE_HOLD_MS - 1);
    assert.deepEqual(runs, []);
    timer.advance(1);
    assert.deepEqual(runs, [FIRST_CHANGE_HOLD_MS], 'progress shows after the hold, settled or not');
    pacer.request();
    timer.advance(REFRESH_SPACING_MS + 30);
    assert.deepEqual(runs, [FIRST_CHANGE_HOLD_MS], 'the later refresh waits for the settled state');
    sandbox.busy = false;
    pacer.settled();
    timer.advance(0);
    assert.deepEqual(runs, [FIRST_CHANGE_HOLD_MS, FIRST_CHANGE_HOLD_MS + REFRESH_SPACING_MS + 30]);
  });

  test('the first change while the sandbox is quiet is not held', () => {
    const { timer, runs, pacer } = pacedBusy(false, FIRST_CHANGE_HOLD_MS);
    timer.advance(300);
    pacer.request();
    timer.advance(0);
    assert.deepEqual(runs, [300]);
  });

  test('a whole-tree fire during a held first change ends the hold; the change waits for that fire’s spacing', () => {
    const { timer, runs, pacer, sandbox } = pacedBusy(true, FIRST_CHANGE_HOLD_MS);
    pacer.request();
    timer.advance(20);
    pacer.fired();
    sandbox.busy = false;
    pacer.settled();
    timer.advance(0);
    assert.deepEqual(runs, []);
    timer.advance(REFRESH_SPACING_MS);
    assert.deepEqual(runs, [20 + REFRESH_SPACING_MS]);
  });

  test('against VS Code’s debounce, a burst that settles within the hold shows in one fire at its end; a longer one soon after', () => {
    // Each burst: busy batches every 15 ms for its length, then a quiet one (the settled state); seeded lengths.
    const run = (firstHoldMs: number) => {
      const { fires, bursts } = burstsAgainstPacer({
        seed: 5,
        bursts: 80,
        step: 15,
        length: (r) => 15 * (1 + Math.floor(r * 30)),
        holdWhenBusy: true,
        firstHoldMs,
      });
      return bursts.map((b) => ({
        length: b.length,
        after: firstFireAfter(fires, b.settledAt),
        fires: fires.filter((f) => f >= b.start && f <= b.settledAt + 2000).length,
      }));
    };
    const atOnce = run(0);
    const held = run(FIRST_CHANGE_HOLD_MS);
    let within = 0;
    for (let i = 0; i < held.length; i++) {
      const { length, after, fires } = held[i]!;
      if (length < FIRST_CHANGE_HOLD_MS) {
        within++;
        assert.equal(after, 0, `burst ${i}: shown as it settled`);
        assert.equal(fires, 1, `burst ${i}: in one fire`);
        assert.ok(atOnce[i]!.after > 0, `burst ${i}: where firing at once shut it out`);
      } else assert.ok(after <= atOnce[i]!.after + FIRST_CHANGE_HOLD_MS, `burst ${i}: late by the hold at most`);
    }
    assert.ok(within > 5 && within < held.length - 5, 'both kinds of burst were drawn');
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
