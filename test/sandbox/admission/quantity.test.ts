import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  compareQuantity,
  formatQuantity,
  parseQuantity,
  quantityToMilli,
  quantityValue,
} from '../../../sandbox/api/quantity';

describe('parseQuantity', () => {
  const table: [string | number, number, number, string][] = [
    // input, milli, value (rounded up), canonical
    ['100m', 100, 1, '100m'],
    ['0.5', 500, 1, '500m'],
    [0.5, 500, 1, '500m'],
    ['1', 1000, 1, '1'],
    [2, 2000, 2, '2'],
    ['1.5Gi', 1610612736000, 1610612736, '1536Mi'],
    ['128974848', 128974848000, 128974848, '128974848'],
    ['129e6', 129000000000, 129000000, '129e6'],
    ['123Mi', 128974848000, 128974848, '123Mi'],
    ['1k', 1000000, 1000, '1k'],
    ['1000', 1000000, 1000, '1k'],
    ['1Ki', 1024000, 1024, '1Ki'],
    ['512', 512000, 512, '512'],
    ['1M', 1e9, 1e6, '1M'],
    ['1n', 1, 1, '1n'],
    ['0.1n', 1, 1, '1n'],
    ['-1', -1000, -1, '-1'],
    ['0', 0, 0, '0'],
    ['1E', 1e21, 1e18, '1E'],
    ['.5', 500, 1, '500m'],
  ];
  for (const [input, milli, value, canonical] of table) {
    test(`${JSON.stringify(input)}`, () => {
      const q = parseQuantity(input);
      assert.ok(q);
      assert.deepEqual(
        [quantityToMilli(q), quantityValue(q), formatQuantity(q), q.milli(), q.value()],
        [milli, value, canonical, milli, value],
      );
    });
  }

  for (const bad of ['', 'abc', '1K', '1.2.3', '1Mb', ' 1', '1 ', 'Mi', '--1', '1e', '.']) {
    test(`rejects ${JSON.stringify(bad)}`, () => assert.equal(parseQuantity(bad), undefined));
  }

  test('compareQuantity orders by value across formats', () => {
    const q = (s: string) => parseQuantity(s)!;
    assert.deepEqual(
      [compareQuantity(q('1Gi'), q('1G')), compareQuantity(q('500m'), q('0.5')), compareQuantity(q('1'), q('2'))],
      [1, 0, -1],
    );
  });

  test('sums are exact', () => {
    const total = ['100m', '200m', '0.7'].reduce((n, s) => n + quantityToMilli(parseQuantity(s)!), 0);
    assert.equal(total, 1000);
  });
});
