import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { COMPACTION_INTERVAL_MS } from '../../../sandbox/apiserver/compactor';
import { ChangeHistory } from '../../../sandbox/store/history';
import type { ApiServer } from '../../../sandbox/apiserver/apiServer';
import type { ObjectStore } from '../../../sandbox/store/objectStore';
import { configMap, newApi } from '../fixtures';

const storeOf = (api: ApiServer) => (api as unknown as { store: ObjectStore }).store;

describe('change history compaction every 5 minutes (etcd3 compactor)', () => {
  test('the history of a long run holds only the last one to two intervals of changes', () => {
    const { api, clock } = newApi();
    // 60 virtual minutes, a write every 10 s: 360 changes, of which at most two intervals' (60) may stay.
    for (let i = 0; i < 360; i++) {
      api.create(configMap(`cm-${i}`, { n: String(i) }));
      clock.advance(10_000);
    }
    const revision = Number(api.resourceVersion);
    const kept = storeOf(api).changesSince(storeOf(api).compactedRevision)!.length;
    assert.ok(kept > 0 && kept <= 2 * (COMPACTION_INTERVAL_MS / 10_000), `kept ${kept} changes`);
    assert.ok(
      storeOf(api).compactedRevision > revision - 61,
      `compacted at ${storeOf(api).compactedRevision} of ${revision}`,
    );
  });

  test('a watch resumes from a revision seen at the previous tick; one from before it is 410 Gone', () => {
    const { api, clock } = newApi();
    const start = api.resourceVersion;
    api.create(configMap('a', { n: '1' }));
    const watchFrom = (rv: string) => {
      const seen: string[] = [];
      api
        .watch('configmaps', { resourceVersion: rv }, (e) =>
          seen.push(e.type === 'ERROR' ? `ERROR ${JSON.stringify(e.object)}` : `${e.type} ${e.object.metadata.name}`),
        )
        .stop();
      return seen;
    };
    clock.advance(COMPACTION_INTERVAL_MS + 1); // first tick: compacts at the start-up revision, remembers a's
    const afterA = api.resourceVersion;
    api.create(configMap('b', { n: '1' }));
    assert.deepEqual(watchFrom(start), ['ADDED a', 'ADDED b']);
    clock.advance(COMPACTION_INTERVAL_MS); // second tick: compacts at a's revision
    assert.equal(storeOf(api).compactedRevision, Number(afterA));
    assert.deepEqual(watchFrom(afterA), ['ADDED b']);
    let gone: unknown;
    try {
      const seen = watchFrom(start);
      gone = seen.find((x) => x.startsWith('ERROR'));
    } catch (e) {
      gone = e;
    }
    assert.match(String(gone instanceof Error ? gone.message : gone), /410|too old|Expired|Gone/i);
  });

  test('dropped records are let go at once (not kept until the array is sliced)', () => {
    const h = new ChangeHistory(10);
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } };
    for (let r = 1; r <= 100; r++)
      h.append({ revision: r, type: 'ADDED', kindKey: 'configmaps', namespace: '', object: obj });
    assert.equal(h.size, 10);
    const slots = (h as unknown as { records: unknown[] }).records.filter((x) => x !== undefined).length;
    assert.equal(slots, 10);
  });
});
