import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { closestName, editDistance } from '../../../server/src/services/schemaRules/suggest';

describe('did-you-mean suggestions', () => {
  test('Damerau–Levenshtein distance: a swap of neighbours costs 1', () => {
    assert.deepEqual(
      [
        editDistance('poarts', 'ports', 5),
        editDistance('imgae', 'image', 5),
        editDistance('', 'abc', 5),
        editDistance('kitten', 'sitting', 5),
        editDistance('abc', 'xyzuvw', 2),
      ],
      [1, 1, 3, 3, 3],
    );
  });

  test('closest name: case first, then the nearest within a tolerance, ties to the first candidate', () => {
    const fields = ['name', 'image', 'ports', 'env', 'envFrom', 'imagePullPolicy'];
    assert.deepEqual(
      [
        closestName('Image', fields),
        closestName('poarts', fields),
        closestName('imagePullPolcy', fields),
        closestName('evn', fields),
        closestName('volumes', fields),
        closestName('x', fields),
      ],
      ['image', 'ports', 'imagePullPolicy', 'env', undefined, undefined],
    );
  });
});
