import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../sandbox/api/types';
import { ApiServer } from '../../../sandbox/apiserver/apiServer';
import { VirtualClock } from '../../../sandbox/clock/virtualClock';
import { cloneJson } from '../../../sandbox/util/json';
import { configMap, eventLog, newApi, pod, statusOf } from '../fixtures';

const relabel = (obj: KubeObject, labels: Record<string, string>): KubeObject => {
  const copy = cloneJson(obj);
  copy.metadata.labels = labels;
  return copy;
};

describe('watch', () => {
  test('unset resourceVersion: ADDED for what exists, then changes in order', () => {
    const { api } = newApi();
    api.create(configMap('b'));
    api.create(configMap('a'));
    const log = eventLog();
    api.watch('configmaps', {}, log.handler);
    const c = api.create(configMap('c'));
    api.update({ ...cloneJson(c), data: { x: '1' } });
    api.delete('configmaps', 'default', 'a');
    const rvs = log.events.map((e) => Number(e.object.metadata.resourceVersion));
    assert.deepEqual(
      log.events.map((e) => `${e.type} ${e.object.metadata.name}`),
      ['ADDED a', 'ADDED b', 'ADDED c', 'MODIFIED c', 'DELETED a'],
    );
    assert.deepEqual(
      rvs.slice(2),
      [...rvs.slice(2)].sort((x, y) => x - y),
    );
  });

  test('from a resourceVersion: only the changes after it, replayed from history', () => {
    const { api } = newApi();
    api.create(configMap('a'));
    const from = api.resourceVersion;
    api.create(configMap('b'));
    api.create(pod('p'));
    api.delete('configmaps', 'default', 'a');
    const log = eventLog();
    api.watch('configmaps', { resourceVersion: from }, log.handler);
    api.create(configMap('c'));
    assert.deepEqual(
      log.events.map((e) => `${e.type} ${e.object.metadata.name}`),
      ['ADDED b', 'DELETED a', 'ADDED c'],
    );
  });

  test('a compacted resourceVersion is 410 Gone', () => {
    const { api } = newApi();
    api.create(configMap('a'));
    const old = api.resourceVersion;
    api.create(configMap('b'));
    api.compact();
    const s = statusOf(() => api.watch('configmaps', { resourceVersion: String(Number(old) - 1) }, () => undefined));
    assert.equal(s.code, 410);
    assert.equal(s.reason, 'Expired');
    assert.equal(s.message, `too old resource version: ${Number(old) - 1} (${api.resourceVersion})`);
    api.watch('configmaps', { resourceVersion: api.resourceVersion }, () => undefined);
  });

  test('history capacity compacts too: an old watch is 410 Expired, a recent one replays', () => {
    // Three changes of history: bootstrap's writes are already beyond it, then five creates push out two more.
    const small = new ApiServer({ clock: new VirtualClock(), historyCapacity: 3 });
    const first = small.resourceVersion;
    const rvs = [0, 1, 2, 3, 4].map((i) => small.create(configMap(`c${i}`)).metadata.resourceVersion!);
    // Kept: the changes of c2, c3, c4; so a watch may start from c1's revision, and nothing older.
    const oldestAllowed = rvs[1];
    const s = statusOf(() => small.watch('configmaps', { resourceVersion: first }, () => undefined));
    assert.equal(s.code, 410);
    assert.equal(s.reason, 'Expired');
    assert.equal(s.message, `too old resource version: ${first} (${oldestAllowed})`);
    assert.equal(
      statusOf(() => small.watch('configmaps', { resourceVersion: rvs[0] }, () => undefined)).message,
      `too old resource version: ${rvs[0]} (${oldestAllowed})`,
    );
    const log = eventLog();
    small.watch('configmaps', { resourceVersion: oldestAllowed }, log.handler);
    small.create(configMap('c5'));
    assert.deepEqual(
      log.events.map((e) => `${e.type} ${e.object.metadata.name} ${e.object.metadata.resourceVersion}`),
      [`ADDED c2 ${rvs[2]}`, `ADDED c3 ${rvs[3]}`, `ADDED c4 ${rvs[4]}`, `ADDED c5 ${small.resourceVersion}`],
    );
  });

  test('selector-filtered watch: starts matching → ADDED, stops matching → DELETED', () => {
    const { api } = newApi();
    const log = eventLog();
    api.watch('pods', { labelSelector: 'app=web' }, log.handler);
    let p = api.create(pod('p', { labels: { app: 'db' } }));
    p = api.update(relabel(p, { app: 'web' }));
    p = api.update(relabel(p, { app: 'web', v: '2' }));
    const stopped = api.update(relabel(p, { app: 'db' }));
    api.delete('pods', 'default', 'p');
    assert.deepEqual(
      log.events.map((e) => `${e.type} ${JSON.stringify(e.object.metadata.labels)}`),
      ['ADDED {"app":"web"}', 'MODIFIED {"app":"web","v":"2"}', 'DELETED {"app":"web","v":"2"}'],
    );
    assert.equal(log.events[2].object.metadata.resourceVersion, stopped.metadata.resourceVersion);
  });

  test('field selectors and namespaces filter too', () => {
    const { api } = newApi();
    api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } });
    const log = eventLog();
    api.watch('pods', { namespace: 'default', fieldSelector: 'spec.nodeName=n1' }, log.handler);
    api.create(pod('a', { nodeName: 'n1' }));
    api.create(pod('b', { nodeName: 'n2' }));
    api.create(pod('c', { nodeName: 'n1', namespace: 'other' }));
    assert.deepEqual(
      log.events.map((e) => `${e.type} ${e.object.metadata.name}`),
      ['ADDED a'],
    );
  });

  test('bookmarks: initial-events-end with sendInitialEvents, and on request', () => {
    const { api } = newApi();
    api.create(configMap('a'));
    const log = eventLog();
    api.watch('configmaps', { allowWatchBookmarks: true, sendInitialEvents: true }, log.handler);
    const plain = eventLog();
    api.watch('configmaps', {}, plain.handler);
    api.bookmark();
    assert.deepEqual(
      log.events.map((e) => e.type),
      ['ADDED', 'BOOKMARK', 'BOOKMARK'],
    );
    assert.deepEqual(log.events[1].object, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { resourceVersion: api.resourceVersion, annotations: { 'k8s.io/initial-events-end': 'true' } },
    });
    assert.deepEqual(
      plain.events.map((e) => e.type),
      ['ADDED'],
    );
  });

  test('writes made by a handler are delivered after the current change, to every watcher in the same order', () => {
    const { api } = newApi();
    const first = eventLog();
    const second = eventLog();
    api.watch('configmaps', { resourceVersion: api.resourceVersion }, (e) => {
      first.handler(e);
      if (e.object.metadata.name === 'a' && e.type === 'ADDED') api.create(configMap('from-handler'));
    });
    api.watch('configmaps', { resourceVersion: api.resourceVersion }, second.handler);
    api.create(configMap('a'));
    api.create(configMap('b'));
    assert.deepEqual(first.lines(), second.lines());
    assert.deepEqual(
      first.events.map((e) => e.object.metadata.name),
      ['a', 'from-handler', 'b'],
    );
  });

  test('stop ends delivery, even from inside the handler', () => {
    const { api } = newApi();
    const seen: string[] = [];
    const h = api.watch('configmaps', {}, (e) => {
      seen.push(e.object.metadata.name!);
      h.stop();
    });
    api.create(configMap('a'));
    api.create(configMap('b'));
    assert.deepEqual(seen, ['a']);
    assert.equal(h.stopped, true);
    assert.equal(api.watchCount, 0);
  });

  test('bad resourceVersions and selectors are 400; a future one is 504', () => {
    const { api } = newApi();
    assert.equal(statusOf(() => api.watch('pods', { resourceVersion: 'abc' }, () => undefined)).code, 400);
    assert.equal(statusOf(() => api.watch('pods', { labelSelector: 'a in (' }, () => undefined)).code, 400);
    assert.equal(statusOf(() => api.watch('pods', { fieldSelector: 'spec.bogus=1' }, () => undefined)).code, 400);
    assert.equal(statusOf(() => api.watch('pods', { resourceVersion: '999999' }, () => undefined)).code, 504);
  });
});

describe('list', () => {
  test('key order, selectors, and paging with limit/continue', () => {
    const { api } = newApi();
    for (const n of ['e', 'b', 'd', 'a', 'c']) api.create(pod(n, { labels: { tier: n < 'c' ? 'front' : 'back' } }));
    const all = api.list('pods', { namespace: 'default' });
    assert.equal(all.kind, 'PodList');
    assert.equal(all.apiVersion, 'v1');
    assert.equal(all.metadata.resourceVersion, api.resourceVersion);
    assert.deepEqual(
      all.items.map((p) => p.metadata.name),
      ['a', 'b', 'c', 'd', 'e'],
    );
    assert.deepEqual(
      api.list('po', { labelSelector: 'tier=front' }).items.map((p) => p.metadata.name),
      ['a', 'b'],
    );
    assert.deepEqual(
      api.list('pods', { fieldSelector: 'metadata.name!=c' }).items.map((p) => p.metadata.name),
      ['a', 'b', 'd', 'e'],
    );
    const page1 = api.list('pods', { limit: 2 });
    assert.deepEqual(
      page1.items.map((p) => p.metadata.name),
      ['a', 'b'],
    );
    assert.equal(page1.metadata.remainingItemCount, 3);
    const page2 = api.list('pods', { limit: 2, continue: page1.metadata.continue });
    assert.deepEqual(
      page2.items.map((p) => p.metadata.name),
      ['c', 'd'],
    );
    const page3 = api.list('pods', { limit: 2, continue: page2.metadata.continue });
    assert.deepEqual(
      page3.items.map((p) => p.metadata.name),
      ['e'],
    );
    assert.equal(page3.metadata.continue, undefined);
    assert.equal(statusOf(() => api.list('pods', { continue: 'garbage' })).code, 400);
  });

  test('unknown resources are 404; cluster-scoped ones ignore the namespace', () => {
    const { api } = newApi();
    assert.equal(statusOf(() => api.list('widgets')).message, 'the server could not find the requested resource');
    assert.equal(api.list('namespaces', { namespace: 'default' }).items.length, 4);
  });
});

describe('watches by node (spec.nodeName field selectors, as kubelets use them)', () => {
  test('each node sees only its pods, from binding to deletion; other watchers see everything', () => {
    const { api } = newApi();
    const n1 = eventLog();
    const n2 = eventLog();
    const all = eventLog();
    api.watch('pods', { fieldSelector: 'spec.nodeName=n1' }, n1.handler);
    api.watch('pods', { fieldSelector: 'spec.nodeName=n2' }, n2.handler);
    api.watch('pods', { fieldSelector: 'spec.nodeName!=n2' }, all.handler);
    api.create(pod('a'));
    api.bind('default', 'a', 'n1');
    api.create(pod('b', { nodeName: 'n2' }));
    api.delete('pods', 'default', 'a', { gracePeriodSeconds: 0 });
    assert.deepEqual(
      n1.events.map((e) => `${e.type} ${e.object.metadata.name}`),
      ['ADDED a', 'DELETED a'],
    );
    assert.deepEqual(
      n2.events.map((e) => `${e.type} ${e.object.metadata.name}`),
      ['ADDED b'],
    );
    assert.deepEqual(
      all.events.map((e) => `${e.type} ${e.object.metadata.name}`),
      ['ADDED a', 'MODIFIED a', 'DELETED a'],
    );
  });

  test('every change reaches its watchers in the order they were opened, routed by node, by name or not at all', () => {
    const { api } = newApi();
    const log: string[] = [];
    const watcher = (name: string, fieldSelector?: string) =>
      api.watch('pods', fieldSelector ? { fieldSelector } : {}, (e) => log.push(`${name}:${e.type}`));
    watcher('A');
    watcher('B', 'spec.nodeName=n1');
    watcher('G', 'metadata.name=a');
    watcher('C', 'spec.nodeName=');
    watcher('D');
    watcher('E', 'spec.nodeName=n1');
    watcher('F', 'spec.nodeName=n2');
    api.create(pod('a'));
    assert.deepEqual(log.splice(0), ['A:ADDED', 'G:ADDED', 'C:ADDED', 'D:ADDED'], 'unscheduled');
    api.create(pod('b'));
    assert.deepEqual(log.splice(0), ['A:ADDED', 'C:ADDED', 'D:ADDED'], 'another unscheduled one');
    api.bind('default', 'b', 'n1');
    assert.deepEqual(
      log.splice(0),
      ['A:MODIFIED', 'B:ADDED', 'C:DELETED', 'D:MODIFIED', 'E:ADDED'],
      'a move: the node it left and the one it joined, merged with the unrouted watchers',
    );
    api.bind('default', 'a', 'n2');
    assert.deepEqual(
      log.splice(0),
      ['A:MODIFIED', 'G:MODIFIED', 'C:DELETED', 'D:MODIFIED', 'F:ADDED'],
      'routed by two fields: still in the order opened',
    );
    api.delete('pods', 'default', 'b', { gracePeriodSeconds: 0 });
    assert.deepEqual(log.splice(0), ['A:DELETED', 'B:DELETED', 'D:DELETED', 'E:DELETED'], 'deleted on n1');
  });
});
