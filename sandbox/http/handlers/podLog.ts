/**
 * GET `pods/<name>/log`: a container's log as text/plain, from the simulated
 * kubelets (`Cluster.podLogs`). With `follow=true` the response stays open and
 * new text is streamed as the container prints it, until the stream ends
 * (the container stopped, the byte limit, the node failed) or the client goes.
 */
import type { PodLogOptions } from '../../cluster/cluster';
import type { RequestContext } from '../context';
import { boolParam, intParam } from '../query';
import { sendText } from '../respond';

/** PodLogOptions from the query; their values are checked by the cluster (422 as upstream). */
export function podLogOptions(query: URLSearchParams): PodLogOptions {
  const out: PodLogOptions = {};
  const container = query.get('container');
  const sinceTime = query.get('sinceTime');
  const previous = boolParam(query, 'previous');
  const timestamps = boolParam(query, 'timestamps');
  const tailLines = intParam(query, 'tailLines');
  const sinceSeconds = intParam(query, 'sinceSeconds');
  const limitBytes = intParam(query, 'limitBytes');
  if (container) out.container = container;
  if (sinceTime) out.sinceTime = sinceTime;
  if (previous !== undefined) out.previous = previous;
  if (timestamps !== undefined) out.timestamps = timestamps;
  if (tailLines !== undefined) out.tailLines = tailLines;
  if (sinceSeconds !== undefined) out.sinceSeconds = sinceSeconds;
  if (limitBytes !== undefined) out.limitBytes = limitBytes;
  return out;
}

function startText(ctx: RequestContext): void {
  const { res } = ctx;
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, private');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.flushHeaders();
}

export function podLog(ctx: RequestContext): void {
  const namespace = ctx.info.namespace!;
  const name = ctx.info.name!;
  const options = podLogOptions(ctx.query);
  const { cluster } = ctx.server;
  if (!boolParam(ctx.query, 'follow')) {
    sendText(ctx.res, 200, cluster.podLogs(namespace, name, options));
    return;
  }
  const { res, server } = ctx;
  let started = false;
  let done = false;
  const early: string[] = [];
  let unfollow: () => void = () => undefined;
  const stop = (): void => {
    if (done) return;
    done = true;
    unfollow();
    server.streams.delete(end);
  };
  const end = (): void => {
    stop();
    if (!started) {
      // The stream ended before the first write (e.g. a stopped container): a plain response.
      sendText(res, 200, early.join(''));
      return;
    }
    if (!res.writableEnded) res.end();
  };
  const onText = (text: string): void => {
    if (done) return;
    if (!started) {
      early.push(text);
      return;
    }
    res.write(text);
    if (res.writableLength > server.maxWatchBufferBytes) {
      stop();
      res.destroy();
    }
  };
  // The log so far arrives synchronously; errors (404, 400, 422) are thrown before anything is sent.
  unfollow = cluster.followPodLogs(namespace, name, options, onText, () => queueMicrotask(end));
  if (done) return;
  server.streams.add(end);
  res.on('close', stop);
  startText(ctx);
  started = true;
  for (const text of early) res.write(text);
}
