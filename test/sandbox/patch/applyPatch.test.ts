import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isApiError } from '../../../sandbox/api/errors';
import { applyPatch, patchTypeFromContentType } from '../../../sandbox/api/patch/index';

describe('patchTypeFromContentType', () => {
  const cases: [string, string | undefined][] = [
    ['application/json-patch+json', 'json'],
    ['application/merge-patch+json', 'merge'],
    ['application/merge-patch+json; charset=utf-8', 'merge'],
    ['Application/JSON-Patch+JSON', 'json'],
    ['application/strategic-merge-patch+json', 'strategic'],
    ['application/apply-patch+yaml', 'apply'],
    ['application/json', undefined],
    ['text/plain', undefined],
    ['', undefined],
  ];
  for (const [ct, type] of cases) {
    test(JSON.stringify(ct), () => assert.equal(patchTypeFromContentType(ct), type));
  }
});

describe('applyPatch', () => {
  const target = { metadata: { name: 'web', labels: { app: 'web' } }, spec: { replicas: 1 } };

  test('merge', () => {
    assert.deepEqual(
      applyPatch('merge', target, { metadata: { labels: { app: null, tier: 'fe' } }, spec: { replicas: 3 } }),
      {
        metadata: { name: 'web', labels: { tier: 'fe' } },
        spec: { replicas: 3 },
      },
    );
  });

  test('json', () => {
    assert.deepEqual(applyPatch('json', target, [{ op: 'replace', path: '/spec/replicas', value: 2 }]), {
      metadata: { name: 'web', labels: { app: 'web' } },
      spec: { replicas: 2 },
    });
  });

  for (const patch of [null, 'x', 3, [{ a: 1 }]]) {
    test(`a merge patch that is not an object (${JSON.stringify(patch)}) → 400 Invalid JSON Patch`, () => {
      assert.throws(
        () => applyPatch('merge', target, patch),
        (e: unknown) => isApiError(e, 400) && e.status.message === 'Invalid JSON Patch' && e.reason === 'BadRequest',
      );
    });
  }
});
