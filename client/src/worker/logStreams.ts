/**
 * `kubectl logs` and `kubectl logs -f` in the worker: a log read once, or a
 * stream that sends what the container prints as `podLog` notifications until
 * the container stops, the pod leaves its node, or the host stops it.
 */
import type { Cluster } from '../../../sandbox/cluster/cluster';
import type { Notification, PodLogRequest, Requests } from '../sandbox/protocol';
import { BadRequest, record, text } from './params';

/** Ids unique in the worker, across sessions (a reset ends every stream but the host may still hold an id). */
let nextStream = 1;

export function podLogRequestOf(value: unknown): PodLogRequest {
  const p = record(value, 'params');
  const request: PodLogRequest = { namespace: text(p.namespace, 'namespace'), name: text(p.name, 'name') };
  if (p.container !== undefined) request.container = text(p.container, 'container');
  for (const flag of ['previous', 'follow'] as const) {
    if (p[flag] === undefined) continue;
    if (typeof p[flag] !== 'boolean') throw new BadRequest(`${flag} must be true or false`);
    request[flag] = p[flag];
  }
  if (p.tailLines !== undefined) {
    if (typeof p.tailLines !== 'number' || !Number.isInteger(p.tailLines) || p.tailLines < 0)
      throw new BadRequest('tailLines must be a non-negative integer');
    request.tailLines = p.tailLines;
  }
  return request;
}

export class LogStreams {
  private readonly open = new Map<number, () => void>();

  constructor(private readonly send: (n: Notification) => void) {}

  /** Reads (or starts following) a log; throws the API server's errors (400 for a container not started…). */
  start(cluster: Cluster, r: PodLogRequest): Requests['podLogs']['result'] {
    const options = {
      ...(r.container ? { container: r.container } : {}),
      ...(r.previous ? { previous: true } : {}),
      ...(r.tailLines !== undefined ? { tailLines: r.tailLines } : {}),
    };
    if (!r.follow) return { text: cluster.podLogs(r.namespace, r.name, options) };
    const stream = nextStream++;
    let first: string | undefined = '';
    let ended: string | undefined;
    const stop = cluster.followPodLogs(
      r.namespace,
      r.name,
      options,
      (t) => {
        if (first !== undefined) first += t;
        else this.send({ kind: 'podLog', stream, text: t });
      },
      () => {
        this.open.delete(stream);
        if (first !== undefined) ended = 'the container stopped';
        else this.send({ kind: 'podLog', stream, end: 'the container stopped' });
      },
    );
    const text = first;
    first = undefined;
    if (ended !== undefined) return { text };
    this.open.set(stream, stop);
    return { text, stream };
  }

  stop(stream: number): void {
    this.open.get(stream)?.();
    this.open.delete(stream);
  }

  /** Ends every stream (the session is going away). */
  dispose(reason = 'the sandbox was reset'): void {
    for (const [stream, stop] of [...this.open]) {
      stop();
      this.send({ kind: 'podLog', stream, end: reason });
    }
    this.open.clear();
  }
}
