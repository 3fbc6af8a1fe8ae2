/** Event names' hexadecimal nanoseconds, computed without `BigInt` where doubles are exact, equal `BigInt`'s. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { hexNanos } from '../../../sandbox/client/eventRecorder';

const reference = (ms: number, nanos: number): string => (BigInt(ms) * 1_000_000n + BigInt(nanos)).toString(16);

describe('hexNanos', () => {
  test('equals BigInt arithmetic at the edges of its two parts', () => {
    const edges = [0, 1, 2 ** 24 - 1, 2 ** 24, 2 ** 24 + 1, 1_700_000_000_000, 2 ** 41, 2 ** 53 - 1];
    for (const ms of edges)
      for (const nanos of [0, 1, 16_777_215 % 1_000_000, 999_999])
        assert.equal(hexNanos(ms, nanos), reference(ms, nanos));
    assert.equal(hexNanos(0, 0), '0');
    assert.equal(hexNanos(1, 0), 'f4240');
  });

  test('equals BigInt arithmetic for any whole millisecond and nanosecond offset', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), fc.nat({ max: 999_999 }), (ms, nanos) => {
        assert.equal(hexNanos(ms, nanos), reference(ms, nanos));
      }),
      { numRuns: 2000 },
    );
  });

  test('equals BigInt arithmetic in runs that share the high part (kept from call to call) and across its changes', () => {
    // Where the high part (above the low 24 bits) is just below and at 2^24, and an instant of the thousand's clock.
    const highEdges = [
      Math.floor(((2 ** 24 - 1) * 2 ** 24) / 1_000_000),
      Math.floor(2 ** 48 / 1_000_000),
      1_764_750_000_000,
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...highEdges),
        fc.array(fc.tuple(fc.nat({ max: 3 }), fc.nat({ max: 999_999 })), { minLength: 1, maxLength: 60 }),
        (base, steps) => {
          for (const [dms, nanos] of steps) assert.equal(hexNanos(base + dms, nanos), reference(base + dms, nanos));
        },
      ),
      { numRuns: 500 },
    );
    for (let nanos = 0; nanos < 40_000; nanos += 7)
      assert.equal(hexNanos(1_764_750_000_000, nanos), reference(1_764_750_000_000, nanos));
  });
});
