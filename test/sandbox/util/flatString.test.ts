import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { flatString } from '../../../sandbox/util/flatString';

describe('flatString', () => {
  test('keeps the text', () => {
    const parts = ['Successfully pulled image "nginx:1.27"', ' in 1.2s', ' (1.2s including waiting)'];
    const built = `${parts[0]}${parts[1]}${parts[2]}`;
    assert.equal(flatString(built), parts.join(''));
    assert.equal(flatString('short'), 'short');
    // A decomposed é (e + U+0301) is not what NFC would answer: it is kept as written, not normalized.
    const decomposed = `${'Back-off pulling image "caf'}e\u0301${'" for a while'}`;
    assert.equal(flatString(decomposed), decomposed);
    assert.notEqual(flatString(decomposed), decomposed.normalize());
  });
});
