/**
 * Request deadlines and slow connections over the real HTTP server (issue 16): a non-long-running request unanswered
 * at its deadline (60 s, or less by `?timeout=`) is 504 as upstream's timeout filter answers it, and its connection
 * closed; a `?timeout=` that is no duration is 400; watches have no deadline; a client that never finishes its
 * headers (slowloris) and an idle keep-alive connection are cut. Deadlines run on fake timers (fired by the test),
 * the connection timeouts are injected as a few hundred milliseconds: nothing waits for a real minute.
 */
import { strict as assert } from 'node:assert';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { describe, it } from 'node:test';
import { FakeTimers, TOKEN, configMap, serve } from './helpers';
import type { Served } from './helpers';

const CMS = '/api/v1/namespaces/default/configmaps';

/** A raw connection: what was received, and a promise settled when the server closes it. */
interface Raw {
  socket: Socket;
  received(): string;
  closed: Promise<void>;
}

function open(s: Served, first: string): Promise<Raw> {
  const url = new URL(s.server.url);
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(first);
      resolve({ socket, received: () => text, closed });
    });
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.on('data', (d: Buffer) => (text += d.toString('utf8')));
    socket.on('error', reject);
  });
}

/** POST headers and the first bytes of a 100-byte body, the rest never sent. */
function stalledPost(s: Served, query = ''): Promise<Raw> {
  return open(
    s,
    `POST ${CMS}${query} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\n` +
      'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"apiVersion":"v1","kind":"Con',
  );
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 30_000;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

function statusOf(response: string): { code: number; body: Record<string, unknown> } {
  const code = Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1]);
  const body = response.slice(response.indexOf('\r\n\r\n') + 4);
  return {
    code,
    body: JSON.parse(body.slice(body.indexOf('{'), body.lastIndexOf('}') + 1)) as Record<string, unknown>,
  };
}

describe('HTTP API: request deadlines and slow connections', () => {
  it('a body stalled past the 60 s deadline: 504 Timeout as upstream, connection closed, nothing stored', async () => {
    const timers = new FakeTimers();
    const s = await serve({ timers });
    try {
      const before = s.cluster.api.resourceVersion;
      const raw = await stalledPost(s);
      await until(() => timers.count(60_000) === 1, 'the request has its deadline');
      assert.equal(timers.fire(60_000), 1);
      await raw.closed;
      const { code, body } = statusOf(raw.received());
      assert.equal(code, 504);
      assert.deepEqual(body, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Timeout: request did not complete within the allotted timeout',
        reason: 'Timeout',
        details: {},
        code: 504,
      });
      assert.equal(s.cluster.api.resourceVersion, before);
      // The server answers the next client, and an answered request leaves no deadline behind.
      const next = await s.request('POST', CMS, { body: configMap('after-timeout') });
      assert.equal(next.status, 201);
      await until(() => timers.count(60_000) === 0, 'the answered request cleared its deadline');
    } finally {
      await s.close();
    }
  });

  it('?timeout= shortens the deadline; 0 and more than the maximum are the maximum; a bad one is 400', async () => {
    const timers = new FakeTimers();
    const s = await serve({ timers });
    try {
      const short = await stalledPost(s, '?timeout=250ms');
      await until(() => timers.count(250) === 1, 'a 250 ms deadline');
      timers.fire(250);
      await short.closed;
      assert.equal(statusOf(short.received()).code, 504);
      for (const [query, ms] of [
        ['?timeout=0s', 60_000],
        ['?timeout=2m', 60_000],
        ['?timeout=1m30s', 60_000],
        ['?timeout=1.5s', 1_500],
      ] as const) {
        const raw = await stalledPost(s, query);
        await until(() => timers.count(ms) === 1, `${query}: a ${ms} ms deadline`);
        raw.socket.destroy();
        await until(() => timers.count(ms) === 0, `${query}: the deadline cleared when the client left`);
      }
      const bad = await s.request('GET', `${CMS}?timeout=soon`);
      assert.equal(bad.status, 400);
      assert.equal(bad.json.message, 'invalid timeout specified in the request URL - time: invalid duration "soon"');
    } finally {
      await s.close();
    }
  });

  it('watches are long-running: no deadline', async () => {
    const timers = new FakeTimers();
    const s = await serve({ timers });
    try {
      const w = await s.watch(`${CMS}?watch=true&timeout=1s`);
      s.cluster.api.create(configMap('seen'));
      await w.until(1, 30_000);
      assert.equal(timers.count(1_000), 0);
      assert.equal(timers.count(60_000), 0);
      w.close();
    } finally {
      await s.close();
    }
  });

  it('a client that never finishes its headers (slowloris) is cut after headersTimeout', async () => {
    const s = await serve({ headersTimeoutMs: 200 });
    try {
      const raw = await open(s, `GET ${CMS} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthoriz`);
      await raw.closed;
      // Node answers 408 Request Timeout before closing (upstream's Go server closes without an answer).
      assert.match(raw.received(), /^(HTTP\/1\.1 408 |$)/);
      assert.equal((await s.request('GET', CMS)).status, 200);
    } finally {
      await s.close();
    }
  });

  it('an idle keep-alive connection is closed after keepAliveTimeout', async () => {
    const s = await serve({ keepAliveTimeoutMs: 200 });
    try {
      const raw = await open(s, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
      await raw.closed;
      assert.match(raw.received(), /^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nok$/);
    } finally {
      await s.close();
    }
  });
});
