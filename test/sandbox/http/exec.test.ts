import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { configMap, pod, serve, TOKEN } from './helpers';
import type { Served } from './helpers';

interface WsReply {
  status: number;
  headers: IncomingMessage['headers'];
  /** Text per channel (1 stdout, 2 stderr, 3 error), and whether a close frame came. */
  channels: Map<number, string>;
  closed: boolean;
}

/** A WebSocket exec as kubectl opens it; reads every frame until the server closes the connection. */
function wsExec(s: Served, path: string, protocols = 'v5.channel.k8s.io, v4.channel.k8s.io'): Promise<WsReply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, s.server.url), {
      headers: {
        Authorization: `Bearer ${TOKEN}`,
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
        'Sec-WebSocket-Protocol': protocols,
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          channels: new Map([[0, Buffer.concat(chunks).toString('utf8')]]),
          closed: false,
        }),
      );
    });
    req.on('upgrade', (res: IncomingMessage, socket: Socket, head: Buffer) => {
      const chunks: Buffer[] = [head];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('end', () => {
        let buf = Buffer.concat(chunks);
        const channels = new Map<number, string>();
        let closed = false;
        while (buf.length >= 2) {
          const opcode = buf[0] & 0x0f;
          let len = buf[1] & 0x7f;
          let at = 2;
          if (len === 126) [len, at] = [buf.readUInt16BE(2), 4];
          else if (len === 127) [len, at] = [Number(buf.readBigUInt64BE(2)), 10];
          const payload = buf.subarray(at, at + len);
          buf = buf.subarray(at + len);
          if (opcode === 8) closed = true;
          else if (opcode === 2)
            channels.set(payload[0], (channels.get(payload[0]) ?? '') + payload.subarray(1).toString('utf8'));
        }
        socket.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, channels, closed });
      });
    });
    req.end();
  });
}

const PODS = '/api/v1/namespaces/default/pods';
const SPDY = { Connection: 'Upgrade', Upgrade: 'SPDY/3.1', 'X-Stream-Protocol-Version': 'v4.channel.k8s.io' };

describe('HTTP API: exec, attach and port-forward', () => {
  let s: Served;
  before(async () => {
    s = await serve({ start: true });
    await s.request('POST', PODS, { body: pod('web') });
    await s.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: configMap('cfg', { 'app.properties': 'greeting=hello\n', level: 'debug' }),
    });
    const volume = { volumes: [{ name: 'cfg', configMap: { name: 'cfg' } }] };
    const env = [{ name: 'LEVEL', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'level' } } }];
    await s.request('POST', PODS, {
      body: pod(
        'configured',
        {},
        {
          ...volume,
          containers: [
            {
              name: 'app',
              image: 'busybox',
              command: ['sleep', '3600'],
              env,
              volumeMounts: [{ name: 'cfg', mountPath: '/etc/app' }],
            },
          ],
        },
      ),
    });
    await s.request('POST', PODS, {
      body: {
        ...pod('two'),
        spec: {
          containers: [
            { name: 'a', image: 'nginx' },
            { name: 'b', image: 'nginx' },
          ],
        },
      },
    });
    s.cluster.runFor(30_000);
    // Created after the run: not scheduled yet.
    await s.request('POST', PODS, { body: pod('fresh') });
  });
  after(() => s.close());

  for (const sub of ['exec', 'attach', 'portforward']) {
    it(`${sub}: a missing pod is 404 with upstream's message, as a plain request and as an upgrade`, async () => {
      for (const headers of [{}, SPDY]) {
        const r = await s.request('POST', `${PODS}/ghost/${sub}?command=ls&stdout=true`, { headers });
        assert.equal(r.status, 404);
        assert.equal(r.json.reason, 'NotFound');
        assert.equal(r.json.message, 'pods "ghost" not found');
      }
    });
  }

  it('exec and attach check the container as the API server does (400)', async () => {
    const unnamed = await s.request('POST', `${PODS}/two/exec?command=ls&stdout=true`, { headers: SPDY });
    assert.equal(unnamed.status, 400);
    assert.equal(unnamed.json.message, 'a container name must be specified for pod two, choose one of: [a b]');
    const wrong = await s.request('GET', `${PODS}/web/attach?container=zz&stdout=true`);
    assert.equal(wrong.status, 400);
    assert.equal(wrong.json.message, 'container zz is not valid for pod web');
  });

  it('a pod without a node is 400', async () => {
    const r = await s.request('POST', `${PODS}/fresh/exec?command=ls&stdout=true`, { headers: SPDY });
    assert.equal(r.status, 400);
    assert.equal(r.json.message, 'pod fresh does not have a host assigned');
  });

  it('exec runs the command in the container over WebSocket: stdout on channel 1, a Success Status on channel 3', async () => {
    const r = await wsExec(
      s,
      `${PODS}/configured/exec?command=cat&command=/etc/app/app.properties&stdout=true&stderr=true`,
    );
    assert.equal(r.status, 101);
    assert.equal(r.headers['sec-websocket-protocol'], 'v5.channel.k8s.io');
    assert.equal(r.channels.get(1), 'greeting=hello\n');
    assert.equal(r.channels.get(2), undefined);
    assert.deepEqual(JSON.parse(r.channels.get(3)!), { metadata: {}, status: 'Success' });
    assert.ok(r.closed);
    const env = await wsExec(s, `${PODS}/configured/exec?command=env&stdout=true`);
    assert.match(env.channels.get(1)!, /^HOSTNAME=configured$/m);
    assert.match(env.channels.get(1)!, /^LEVEL=debug$/m);
  });

  it('a non-zero exit is a NonZeroExitCode Status with the code; an unknown program is 127 with a reason on stderr', async () => {
    const r = await wsExec(
      s,
      `${PODS}/web/exec?command=sh&command=-c&command=${encodeURIComponent('echo hi; exit 3')}&stdout=true&stderr=true`,
    );
    assert.equal(r.channels.get(1), 'hi\n');
    const status = JSON.parse(r.channels.get(3)!) as {
      status: string;
      reason: string;
      details: { causes: { reason: string; message: string }[] };
    };
    assert.equal(status.status, 'Failure');
    assert.equal(status.reason, 'NonZeroExitCode');
    assert.deepEqual(status.details.causes, [{ reason: 'ExitCode', message: '3' }]);
    const unknown = await wsExec(s, `${PODS}/web/exec?command=frobnicate&stdout=true&stderr=true`);
    assert.match(unknown.channels.get(2)!, /^sh: (1: )?frobnicate: not found/);
    assert.equal(
      (JSON.parse(unknown.channels.get(3)!) as { details: { causes: { message: string }[] } }).details.causes[0]
        .message,
      '127',
    );
  });

  it('interactive exec is refused on the error channel; exec over SPDY or an unknown subprotocol is 400', async () => {
    const tty = await wsExec(s, `${PODS}/web/exec?command=sh&stdin=true&tty=true&stdout=true`);
    assert.equal(tty.status, 101);
    assert.match(
      (JSON.parse(tty.channels.get(3)!) as { message: string }).message,
      /interactive exec \(-i, -t\) is not available/,
    );
    const spdy = await s.request('POST', `${PODS}/web/exec?command=ls&stdout=true`, { headers: SPDY });
    assert.equal(spdy.status, 400);
    assert.match(String(spdy.json.message), /SPDY is not available/);
    const base64 = await wsExec(s, `${PODS}/web/exec?command=ls&stdout=true`, 'base64.channel.k8s.io');
    assert.equal(base64.status, 400);
  });

  it('attach and port-forward to a running pod say the sandbox runs no processes (400)', async () => {
    const attach = await s.request('POST', `${PODS}/web/attach?stdout=true`, { headers: SPDY });
    assert.equal(attach.status, 400);
    assert.equal(attach.json.reason, 'BadRequest');
    assert.equal(
      attach.json.message,
      'the sandbox simulates containers and runs no processes: attach is not available',
    );
    const forward = await s.request('POST', `${PODS}/web/portforward?ports=80`, {
      headers: { ...SPDY, 'X-Stream-Protocol-Version': 'portforward.k8s.io' },
    });
    assert.equal(forward.status, 400);
    assert.equal(
      forward.json.message,
      'the sandbox simulates containers and runs no processes: port-forward is not available',
    );
  });

  it('upgrade requests are authenticated and routed like any other', async () => {
    const anonymous = await s.request('POST', `${PODS}/web/exec?command=ls`, { headers: SPDY, token: null });
    assert.equal(anonymous.status, 401);
    const list = await s.request('GET', PODS, { headers: SPDY });
    assert.equal(list.status, 200);
    assert.equal(list.json.kind, 'PodList');
    // Answered on the raw socket of the upgrade, which then closes.
    assert.equal(list.headers.connection, 'close');
  });
});
