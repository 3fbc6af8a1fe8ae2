import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findResults } from '../../../sandbox/printers/jsonPath';

describe('JSONPath (printer columns)', () => {
  const list = { items: Array.from({ length: 200_000 }, (_, i) => ({ metadata: { name: `p${i}` } })) };

  test('[*], slices and recursive descent over a list of 200,000 items give every match in order', () => {
    const all = findResults(list, '{.items[*]}');
    assert.equal(all.length, 200_000);
    assert.equal(all[199_999], list.items[199_999]);
    assert.equal(findResults(list, '{.items[1:150001]}').length, 150_000);
    const names = findResults(list, '{..name}');
    assert.equal(names.length, 200_000);
    assert.equal(names[5], 'p5');
    const byKey = Object.fromEntries(list.items.map((x, i) => [`k${i}`, x]));
    assert.equal(findResults({ byKey }, '{.byKey[*]}').length, 200_000);
  });

  test('small paths answer as kubectl', () => {
    const pod = {
      status: {
        conditions: [
          { type: 'Ready', status: 'True' },
          { type: 'Scheduled', status: 'True' },
        ],
      },
    };
    assert.deepEqual(findResults(pod, '{.status.conditions[?(@.type=="Ready")].status}'), ['True']);
    assert.deepEqual(findResults(pod, '{.status.conditions[-1].type}'), ['Scheduled']);
  });
});
