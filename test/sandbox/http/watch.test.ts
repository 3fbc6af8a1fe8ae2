import { strict as assert } from 'node:assert';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { KubeObject } from '../../../sandbox/api/types';
import { FakeTimers, configMap, serve } from './helpers';
import type { Served } from './helpers';

const CMS = '/api/v1/namespaces/default/configmaps';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';

/** Resolves once `condition` holds, checking after each turn of the event loop (deadline 5 s). */
async function eventually(condition: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 5000;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

function cm(name: string, labels?: Record<string, string>): KubeObject {
  return configMap(name, { a: '1' }, labels);
}

describe('HTTP API: watch', () => {
  let s: Served;
  let timers: FakeTimers;
  before(async () => {
    timers = new FakeTimers();
    s = await serve({ timers, maxWatchesPerClient: 3, maxWatchBufferBytes: 256 * 1024 });
    s.cluster.api.create(cm('first'));
  });
  after(() => s.close());
  // The cluster is not started: the only watches are the ones these tests open. Each starts with none.
  beforeEach(() => eventually(() => s.cluster.api.watchCount === 0, 'previous watches closed'));

  it('streams initial ADDED events, then changes as they happen; closing it stops the API-server watch', async () => {
    const baseline = s.cluster.api.watchCount;
    const w = await s.watch(`${CMS}?watch=true`);
    assert.equal(w.status, 200);
    assert.equal(w.response.headers['content-type'], 'application/json');
    await w.until(1);
    assert.equal(s.cluster.api.watchCount, baseline + 1);
    s.cluster.api.create(cm('second'));
    s.cluster.api.patch('configmaps', 'default', 'second', 'merge', { data: { a: '2' } });
    s.cluster.api.delete('configmaps', 'default', 'second');
    const events = await w.until(4);
    assert.deepEqual(
      events.map((e) => `${e.type} ${e.object.metadata?.name}`),
      ['ADDED first', 'ADDED second', 'MODIFIED second', 'DELETED second'],
    );
    w.close();
    await eventually(
      () => s.cluster.api.watchCount === baseline,
      'the API-server watch stops when the client goes away',
    );
  });

  it('resumes after a resourceVersion with only the later changes', async () => {
    const rv = s.cluster.api.resourceVersion;
    s.cluster.api.create(cm('third'));
    const w = await s.watch(`${CMS}?watch=1&resourceVersion=${rv}`);
    const events = await w.until(1);
    assert.deepEqual(
      events.map((e) => `${e.type} ${e.object.metadata?.name}`),
      ['ADDED third'],
    );
    w.close();
  });

  it('reports a compacted resourceVersion as an ERROR event carrying 410 Expired, on an HTTP 200', async () => {
    const old = s.cluster.api.resourceVersion;
    s.cluster.api.create(cm('fourth'));
    s.cluster.api.compact();
    const w = await s.watch(`${CMS}?watch=true&resourceVersion=${old}`);
    assert.equal(w.status, 200);
    const [event] = await w.until(1);
    assert.equal(event.type, 'ERROR');
    assert.equal(event.object.kind, 'Status');
    assert.equal(event.object.code, 410);
    assert.equal(event.object.reason, 'Expired');
    await w.whenEnded();
  });

  it('sends a BOOKMARK each minute only when allowed', async () => {
    const plain = await s.watch(`${CMS}?watch=true&resourceVersion=${s.cluster.api.resourceVersion}`);
    await eventually(() => s.cluster.api.watchCount === 1, 'watch open');
    assert.equal(timers.count(60_000), 0);
    const w = await s.watch(
      `${CMS}?watch=true&allowWatchBookmarks=true&resourceVersion=${s.cluster.api.resourceVersion}`,
    );
    await eventually(() => timers.count(60_000) === 1, 'bookmark timer armed');
    s.cluster.api.create(cm('fifth'));
    await w.until(1);
    timers.fire(60_000);
    const events = await w.until(2);
    assert.equal(events[1].type, 'BOOKMARK');
    assert.equal(events[1].object.kind, 'ConfigMap');
    assert.equal(events[1].object.metadata?.resourceVersion, s.cluster.api.resourceVersion);
    w.close();
    plain.close();
    await eventually(() => timers.count(60_000) === 0, 'bookmark timer cleared');
  });

  it('ends the stream after timeoutSeconds', async () => {
    const baseline = s.cluster.api.watchCount;
    const w = await s.watch(`${CMS}?watch=true&timeoutSeconds=5`);
    await w.until(1);
    assert.equal(timers.fire(5000), 1);
    await w.whenEnded();
    assert.equal(s.cluster.api.watchCount, baseline);
  });

  it('marks the end of initial events with sendInitialEvents', async () => {
    const w = await s.watch(
      `${CMS}?watch=true&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan`,
    );
    const n = s.cluster.api.list('configmaps', { namespace: 'default' }).items.length;
    const events = await w.until(n + 1);
    assert.ok(events.slice(0, n).every((e) => e.type === 'ADDED'));
    assert.equal(events[n].type, 'BOOKMARK');
    assert.equal(events[n].object.metadata?.annotations?.['k8s.io/initial-events-end'], 'true');
    w.close();
    const invalid = await s.request('GET', `${CMS}?watch=true&sendInitialEvents=true`);
    assert.equal(invalid.status, 422);
  });

  it('filters by selector: an object that stops matching is DELETED for this watch', async () => {
    s.cluster.api.create(cm('labelled', { team: 'a' }));
    const w = await s.watch(`${CMS}?watch=true&labelSelector=team%3Da`);
    await w.until(1);
    s.cluster.api.patch('configmaps', 'default', 'labelled', 'merge', { metadata: { labels: { team: 'b' } } });
    const events = await w.until(2);
    assert.deepEqual(
      events.map((e) => `${e.type} ${e.object.metadata?.name}`),
      ['ADDED labelled', 'DELETED labelled'],
    );
    w.close();
  });

  it('watches one object through the legacy /watch/ prefix', async () => {
    const w = await s.watch('/api/v1/watch/namespaces/default/configmaps/first');
    const events = await w.until(1);
    assert.deepEqual(
      events.map((e) => e.object.metadata?.name),
      ['first'],
    );
    s.cluster.api.patch('configmaps', 'default', 'third', 'merge', { data: { b: '1' } });
    s.cluster.api.patch('configmaps', 'default', 'first', 'merge', { data: { b: '1' } });
    const more = await w.until(2);
    assert.deepEqual(
      more.map((e) => `${e.type} ${e.object.metadata?.name}`),
      ['ADDED first', 'MODIFIED first'],
    );
    w.close();
  });

  it('streams Tables with the column definitions in the first event only', async () => {
    const w = await s.watch(`${CMS}?watch=true`, { accept: TABLE });
    const n = s.cluster.api.list('configmaps', { namespace: 'default' }).items.length;
    const events = await w.until(n);
    const tables = events.map(
      (e) => e.object as { kind: string; columnDefinitions: unknown[]; rows: { cells: unknown[] }[] },
    );
    assert.ok(tables.every((t) => t.kind === 'Table' && t.rows.length === 1));
    assert.ok(tables[0].columnDefinitions.length > 0);
    assert.ok(tables.slice(1).every((t) => t.columnDefinitions.length === 0));
    assert.equal(
      tables[0].rows[0].cells[0],
      s.cluster.api.list('configmaps', { namespace: 'default' }).items[0].metadata.name,
    );
    w.close();
  });

  it('allows at most maxWatchesPerClient open watches per user agent: 429 beyond, with Retry-After', async () => {
    const ua = { 'User-Agent': 'greedy/1.0' };
    const open = [];
    for (let i = 0; i < 3; i++) {
      const w = await s.watch(`${CMS}?watch=true`, { headers: ua });
      await w.until(1);
      open.push(w);
    }
    const refused = await s.request('GET', `${CMS}?watch=true`, { headers: ua });
    assert.equal(refused.status, 429);
    assert.equal(refused.json.reason, 'TooManyRequests');
    assert.equal(refused.headers['retry-after'], '1');
    const other = await s.watch(`${CMS}?watch=true`, { headers: { 'User-Agent': 'polite/1.0' } });
    assert.equal(other.status, 200);
    other.close();
    await eventually(() => s.cluster.api.watchCount === 3, 'the other client is gone');
    open.pop()!.close();
    await eventually(() => s.cluster.api.watchCount === 2, 'a slot is freed');
    const again = await s.watch(`${CMS}?watch=true`, { headers: ua });
    assert.equal(again.status, 200);
    again.close();
    for (const w of open) w.close();
    await eventually(() => s.cluster.api.watchCount === 0, 'all closed');
  });

  it('drops a client that does not read while changes pile up past the buffer bound, and only that one', async () => {
    const from = s.cluster.api.resourceVersion;
    const slow = await s.watch(`${CMS}?watch=true&resourceVersion=${from}`, { headers: { 'User-Agent': 'slow' } });
    const fast = await s.watch(`${CMS}?watch=true&resourceVersion=${from}`, { headers: { 'User-Agent': 'fast' } });
    await eventually(() => s.cluster.api.watchCount === 2, 'watches open');
    slow.response.pause();
    const blob = 'x'.repeat(64 * 1024);
    let written = 0;
    while (s.cluster.api.watchCount === 2 && written < 400) {
      s.cluster.api.create({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `bulk-${written++}`, namespace: 'default' },
        data: { blob },
      });
      await new Promise((r) => setImmediate(r));
    }
    assert.equal(s.cluster.api.watchCount, 1, 'the slow watch was closed');
    await fast.until(written);
    assert.equal(fast.ended, false, 'the reading client keeps its watch');
    fast.close();
    slow.close();
  });
});
