/**
 * Test harness for control-plane components (the sample-controller style):
 * a fresh API server on a virtual clock, the shared informers and log, and a
 * recorder of every write the components make, as `VERB kind ns/name` lines.
 */
import { ApiServer } from '../../../sandbox/apiserver/apiServer';
import { VirtualClock } from '../../../sandbox/clock/virtualClock';
import { SeededRandom } from '../../../sandbox/clock/random';
import { InformerFactory } from '../../../sandbox/client/informerFactory';
import type { ComponentContext } from '../../../sandbox/client/component';
import { ReconcileLog, formatLogEntry } from '../../../sandbox/client/reconcileLog';
import type { KubeObject, WatchEvent } from '../../../sandbox/api/types';
import type { WatchHandle } from '../../../sandbox/store/watchHub';

export interface Harness {
  ctx: ComponentContext;
  api: ApiServer;
  clock: VirtualClock;
  /**
   * Starts recording writes to these resources (plural names); returns the recorded lines so far on each call of
   * `actions()`.
   */
  record(resources: string[]): void;
  /**
   * Recorded writes since `record`/the last `clearActions`: `ADDED pods default/web-x`, `MODIFIED replicasets
   * default/web`, `DELETED pods default/web-y`.
   */
  actions(): string[];
  clearActions(): void;
  /** The reconciliation log as text lines. */
  logLines(): string[];
  /** Advances virtual time by `ms`, running every due timer. */
  advance(ms: number): void;
  /** Runs until no foreground timer is pending (or `limitMs` of virtual time passes). */
  settle(limitMs?: number): void;
}

export function newHarness(seed: number | string = 1): Harness {
  const clock = new VirtualClock();
  const random = new SeededRandom(seed);
  const api = new ApiServer({
    clock,
    random: random.fork('apiserver'),
    onWatchError: (e) => {
      throw e;
    },
  });
  const log = new ReconcileLog();
  const ctx: ComponentContext = { api, clock, random, informers: new InformerFactory(api), log };
  let lines: string[] = [];
  const handles: WatchHandle[] = [];
  const describe = (plural: string) => (e: WatchEvent) => {
    const o: KubeObject = e.object;
    lines.push(`${e.type} ${plural} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`);
  };
  return {
    ctx,
    api,
    clock,
    record(resources) {
      for (const r of resources)
        handles.push(api.watch(r, { resourceVersion: api.resourceVersion }, describe(api.resolve(r).plural)));
    },
    actions: () => [...lines],
    clearActions: () => {
      lines = [];
    },
    logLines: () => log.recent().map(formatLogEntry),
    advance: (ms) => {
      clock.advance(ms);
    },
    settle(limitMs = 10 * 60 * 1000) {
      const end = clock.now() + limitMs;
      while (clock.pendingForegroundTimers > 0) {
        const next = clock.nextForegroundTimerAt()!;
        if (next > end) break;
        clock.advanceTo(next);
      }
    },
  };
}
