/**
 * Host faults over HTTP (issue 16): many concurrent watchers, a client that never reads, a client that goes away
 * half-way through a request. Shared by test/sandbox/http/hostFaults.test.ts (behaviour) and scripts/host-faults.ts
 * (figures: time and memory).
 */
import { connect } from 'node:net';
import type { Served, WatchStream } from './helpers';
import { TOKEN, configMap } from './helpers';

const CMS = '/api/v1/namespaces/default/configmaps';

export interface FanOut {
  watchers: WatchStream[];
  /** ms to open every watch (each answered 200 and registered). */
  openMs: number;
  /** ms from one write until every watcher has its event. */
  deliverMs: number;
}

/** Opens `agents × perAgent` watches (distinct User-Agents: the per-client limit counts by agent), then writes once. */
export async function fanOut(s: Served, agents: number, perAgent: number): Promise<FanOut> {
  const t0 = performance.now();
  const from = s.cluster.api.resourceVersion;
  const opening: Promise<WatchStream>[] = [];
  for (let a = 0; a < agents; a++)
    for (let i = 0; i < perAgent; i++)
      opening.push(s.watch(`${CMS}?watch=true&resourceVersion=${from}`, { headers: { 'User-Agent': `agent-${a}` } }));
  const watchers = await Promise.all(opening);
  const openMs = performance.now() - t0;
  const t1 = performance.now();
  s.cluster.api.create(configMap(`fan-out-${from}`));
  // A deadline for a loaded machine (1,000 sockets on one event loop), not a figure: the figure is `deliverMs`.
  await Promise.all(watchers.map((w) => w.until(1, 60_000)));
  return { watchers, openMs, deliverMs: performance.now() - t1 };
}

/** Sends a POST's headers and half of its declared body on a raw socket, then drops the connection. */
export function halfSentRequest(s: Served, path: string): Promise<void> {
  const url = new URL(s.server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${TOKEN}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"apiVersion":"v1","kind":"Con',
      );
      setImmediate(() => {
        socket.destroy();
        resolve();
      });
    });
    socket.on('error', reject);
  });
}
