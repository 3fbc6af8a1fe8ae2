/**
 * Host faults over HTTP (issue 16): 1,000 concurrent watchers all get every change and the 101st watch of one client
 * is refused with 429 and Retry-After (the sandbox's per-client bound); a client that goes away half-way through a
 * request body leaves nothing behind and nothing stored. (The client that never reads is in watch.test.ts.)
 */
import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { configMap, serve } from './helpers';
import type { Served } from './helpers';
import { fanOut, halfSentRequest } from './hostFaults';

const CMS = '/api/v1/namespaces/default/configmaps';

async function eventually(condition: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 60_000;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('HTTP API: host faults', () => {
  let s: Served;
  before(async () => {
    s = await serve();
  });
  after(async () => {
    await s.close();
  });

  it('1,000 concurrent watchers each get the change; the 101st watch of one client is 429 with Retry-After', async () => {
    const { watchers } = await fanOut(s, 10, 100);
    assert.equal(watchers.length, 1000);
    assert.equal(s.cluster.api.watchCount, 1000);
    for (const w of watchers) {
      assert.equal(w.status, 200);
      assert.equal(w.received[0].type, 'ADDED');
    }
    const refused = await s.request('GET', `${CMS}?watch=true`, { headers: { 'User-Agent': 'agent-0' } });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['retry-after'], '1');
    // A second change reaches all of them too, in order.
    s.cluster.api.create(configMap('second'));
    await Promise.all(watchers.map((w) => w.until(2, 60_000)));
    for (const w of watchers) assert.equal(w.received[1].object.metadata?.name, 'second');
    for (const w of watchers) w.close();
    await eventually(() => s.cluster.api.watchCount === 0, 'every watch closed on the server');
  });

  it('a client gone half-way through a request body: nothing stored, the server answers the next client', async () => {
    const before = s.cluster.api.resourceVersion;
    for (let i = 0; i < 20; i++) await halfSentRequest(s, CMS);
    const next = await s.request('POST', CMS, { body: configMap('after-half-open') });
    assert.equal(next.status, 201);
    assert.equal(Number(s.cluster.api.resourceVersion), Number(before) + 1, 'a half-sent body was stored');
  });
});
