/**
 * `kindEntry` (sandbox/schema/schema.ts) looks a kind up by apiVersion then kind: every release's every served pair
 * answers its entry, and a `|` in either string finds nothing, as the joined `apiVersion|kind` key answered.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getSchema, kindEntry } from '../../../sandbox/schema/schema';
import { KUBERNETES_VERSIONS } from '../../../sandbox/schema/versions';

describe('kindEntry', () => {
  test("every release's served pairs, and none holds a |", () => {
    for (const version of KUBERNETES_VERSIONS) {
      const kinds = getSchema(version).kinds;
      const joined = new Map(kinds.map((k) => [`${k.apiVersion}|${k.kind}`, k]));
      for (const k of kinds) {
        assert.ok(!k.apiVersion.includes('|') && !k.kind.includes('|'), `${version} ${k.apiVersion} ${k.kind}`);
        assert.equal(kindEntry(k.apiVersion, k.kind, version), joined.get(`${k.apiVersion}|${k.kind}`));
      }
    }
  });

  test('a | in either part, a wrong case or an unserved pair finds nothing', () => {
    assert.ok(kindEntry('v1', 'Pod'));
    assert.ok(kindEntry('apps/v1', 'Deployment'));
    for (const [apiVersion, kind] of [
      ['v1|Pod', ''],
      ['v1', 'Pod|'],
      ['apps', 'v1|Deployment'],
      ['apps/v1|', 'Deployment'],
      ['v1', 'pod'],
      ['apps/v1', 'Pod'],
      ['', ''],
    ])
      assert.equal(kindEntry(apiVersion, kind), undefined, `${apiVersion} ${kind}`);
  });
});
