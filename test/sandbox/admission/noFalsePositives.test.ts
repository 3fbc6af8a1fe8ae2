import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_VALID } from './fixtures';
import { lines, validate } from './helpers';

describe('no false positives', () => {
  for (const obj of ALL_VALID) {
    test(`${obj.kind} ${obj.metadata.name}: create`, () => assert.deepEqual(lines(validate(obj)), []));
    test(`${obj.kind} ${obj.metadata.name}: update to itself`, () => assert.deepEqual(lines(validate(obj, obj)), []));
  }
});
