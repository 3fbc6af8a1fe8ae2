/**
 * The worker's Dispatcher run in this thread (no worker thread): its posted messages are kept, and a reply can be
 * awaited by id (`reply`), or a request sent and its reply awaited (`call`; `result` also asserts it is no error).
 */
import assert from 'node:assert/strict';
import type { ReplyMessage, WorkerMessage } from '../../../client/src/sandbox/protocol';
import { Dispatcher } from '../../../client/src/worker/dispatcher';
import type { DispatcherDeps } from '../../../client/src/worker/dispatcher';
import { until } from './harness';

export function inProcessDispatcher(deps: DispatcherDeps = { now: () => Date.UTC(2026, 0, 1) }, deadlineMs = 60_000) {
  const posted: WorkerMessage[] = [];
  const wakers = new Set<() => void>();
  const d = new Dispatcher((m) => {
    posted.push(m);
    for (const w of [...wakers]) w();
  }, deps);
  /** Subscribes `wake` to every posted message (for `until`). */
  const onPost = (wake: () => void) => {
    wakers.add(wake);
    return { dispose: () => wakers.delete(wake) };
  };
  const reply = (id: number): Promise<ReplyMessage> =>
    until(
      `reply ${id}`,
      () => posted.find((m): m is ReplyMessage => m.kind === 'reply' && m.id === id),
      onPost,
      deadlineMs,
    );
  // Ids of `call` start far above the ones a test sends itself through `d.handle`.
  let nextId = 1_000_000;
  const call = (method: string, params: unknown): Promise<ReplyMessage> => {
    const id = nextId++;
    d.handle({ kind: 'request', id, method, params });
    return reply(id);
  };
  const result = async <T>(method: string, params: unknown): Promise<T> => {
    const r = await call(method, params);
    assert.equal(r.error, undefined, JSON.stringify(r.error));
    return r.result as T;
  };
  return { d, posted, onPost, reply, call, result };
}
