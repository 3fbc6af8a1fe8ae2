import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { GvkIndex } from '../../../sandbox/api/gvkIndex';
import { ALL_RESOURCES, apiVersionOf, resourceFor } from '../../../sandbox/api/resources';
import { kindKey } from '../../../sandbox/apiserver/kindKey';

describe('resources by apiVersion and kind', () => {
  test('every built-in resource is found by its own apiVersion and kind; other spellings are not', () => {
    for (const r of ALL_RESOURCES) {
      const found = resourceFor(apiVersionOf(r), r.kind)!;
      assert.equal(found.kind, r.kind);
      assert.equal(apiVersionOf(found), apiVersionOf(r));
    }
    assert.equal(resourceFor('apps/v1', 'Deployment')?.plural, 'deployments');
    assert.equal(resourceFor('v1', 'Deployment'), undefined);
    assert.equal(resourceFor('v1|Pod', ''), undefined);
    assert.equal(resourceFor('v1', '|Pod'), undefined);
    assert.equal(resourceFor('', 'v1|Pod'), undefined);
  });

  test('the index answers the last resource set for a pair, and nothing once cleared', () => {
    const index = new GvkIndex<string>();
    index.set('v1', 'Pod', 'first');
    index.set('v1', 'Pod', 'second');
    index.set('apps/v1', 'Pod', 'other group');
    assert.equal(index.get('v1', 'Pod'), 'second');
    assert.equal(index.get('apps/v1', 'Pod'), 'other group');
    assert.equal(index.get('v1', 'pod'), undefined);
    index.clear();
    assert.equal(index.get('v1', 'Pod'), undefined);
  });

  test("a resource's store key and apiVersion are the same string every time they are asked", () => {
    const r = resourceFor('apps/v1', 'Deployment')!;
    assert.equal(kindKey(r), 'apps/Deployment');
    assert.equal(kindKey(resourceFor('v1', 'Pod')!), '/Pod');
    assert.equal(apiVersionOf(r), 'apps/v1');
    assert.equal(apiVersionOf(resourceFor('v1', 'Pod')!), 'v1');
  });
});
