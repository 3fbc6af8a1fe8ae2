/**
 * `node --import tsx scripts/host-faults.ts`: figures for the host faults of issue 16 over HTTP — 1,000 concurrent
 * watchers (time to open, time for one change to reach all, memory), a client that never reads (how much it was sent
 * before it was dropped), and 1,000 clients gone half-way through a request body (memory, nothing stored).
 */
import { configMap, serve } from '../test/sandbox/http/helpers';
import { fanOut, halfSentRequest } from '../test/sandbox/http/hostFaults';

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;

async function main(): Promise<void> {
  const s = await serve({ maxWatchBufferBytes: 16 * 1024 * 1024 });
  const rss0 = process.memoryUsage().rss;
  const f = await fanOut(s, 10, 100);
  console.log(
    `1,000 watchers: opened in ${(f.openMs / 1000).toFixed(2)} s, one change reached all in ${f.deliverMs.toFixed(0)} ms, ` +
      `rss +${mb(process.memoryUsage().rss - rss0)} (${s.cluster.api.watchCount} open on the server)`,
  );
  const refused = await s.request('GET', '/api/v1/namespaces/default/configmaps?watch=true', {
    headers: { 'User-Agent': 'agent-0' },
  });
  console.log(`101st watch of one client: ${refused.status}, Retry-After ${refused.headers['retry-after']}`);
  for (const w of f.watchers) w.close();
  while (s.cluster.api.watchCount > 0) await new Promise((r) => setTimeout(r, 10));

  const slow = await s.watch('/api/v1/namespaces/default/configmaps?watch=true', { headers: { 'User-Agent': 'slow' } });
  slow.response.pause();
  const blob = 'x'.repeat(64 * 1024);
  const t0 = performance.now();
  let written = 0;
  while (s.cluster.api.watchCount === 1 && written < 2000) {
    s.cluster.api.create({ ...configMap(`bulk-${written++}`), data: { blob } });
    await new Promise((r) => setImmediate(r));
  }
  console.log(
    `client that never reads: dropped after ${written} changes of 64 KiB (${mb(written * 64 * 1024)} sent) in ` +
      `${((performance.now() - t0) / 1000).toFixed(2)} s; buffer bound 16 MiB; watches left ${s.cluster.api.watchCount}`,
  );
  slow.close();

  const rss1 = process.memoryUsage().rss;
  const rv = s.cluster.api.resourceVersion;
  const t1 = performance.now();
  for (let i = 0; i < 1000; i++) await halfSentRequest(s, '/api/v1/namespaces/default/configmaps');
  const after = await s.request('GET', '/api/v1/namespaces/default/configmaps?limit=1');
  console.log(
    `1,000 clients gone half-way through a body: ${((performance.now() - t1) / 1000).toFixed(2)} s, ` +
      `stored ${Number(s.cluster.api.resourceVersion) - Number(rv)} objects, rss ${mb(process.memoryUsage().rss - rss1)} ` +
      `change, next request ${after.status}`,
  );
  await s.close();
}

void main();
