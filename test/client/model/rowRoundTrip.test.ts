/** RowRoundTrip: VS Code's round trip for a refreshed row's children, and whether holding a first change pays. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CHEAP_ROUND_TRIP_MS, RowRoundTrip } from '../../../client/src/model/rowRoundTrip';

describe('RowRoundTrip', () => {
  test('cheap until a round trip is measured', () => {
    const r = new RowRoundTrip();
    assert.equal(r.typical, undefined);
    assert.equal(r.cheap, true);
  });

  test('the first children call after a fire closes the round trip; later ones until the next fire do not count', () => {
    const r = new RowRoundTrip();
    r.fired(1000);
    r.childrenAsked(1012);
    r.childrenAsked(1090);
    assert.equal(r.typical, 12);
    r.childrenAsked(1500);
    assert.equal(r.typical, 12, 'no fire before it');
  });

  test('slow round trips turn the hold off, fast ones back on: the median of the latest five decides', () => {
    const r = new RowRoundTrip();
    let t = 0;
    const trip = (ms: number) => {
      t += 1000;
      r.fired(t);
      r.childrenAsked(t + ms);
    };
    for (const ms of [10, 12, 80, 90]) trip(ms);
    assert.equal(r.cheap, true, 'two slow of four: the median is still cheap');
    trip(100);
    assert.equal(r.typical, 80);
    assert.equal(r.cheap, false);
    for (const ms of [8, 9]) trip(ms);
    assert.equal(r.cheap, false, 'the window still holds three slow ones');
    trip(11);
    assert.equal(r.typical, 11);
    assert.ok(11 <= CHEAP_ROUND_TRIP_MS);
    assert.equal(r.cheap, true);
  });

  test('a children call long after a fire is the user expanding a row, not counted', () => {
    const r = new RowRoundTrip();
    r.fired(0);
    r.childrenAsked(5_000);
    assert.equal(r.typical, undefined);
    // The fire is spent: a later call is not measured against it either.
    r.childrenAsked(5_010);
    assert.equal(r.typical, undefined);
  });

  test('a new fire restarts the round trip (a fire VS Code fetched nothing for is not counted)', () => {
    const r = new RowRoundTrip();
    r.fired(0);
    r.fired(400);
    r.childrenAsked(420);
    assert.equal(r.typical, 20);
  });
});
