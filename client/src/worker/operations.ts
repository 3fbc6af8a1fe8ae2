/**
 * The kubectl operations of the worker that outlive their request — today a
 * drain, which waits on the sandbox's clock for its pods to go, retrying
 * evictions a PodDisruptionBudget refuses. Each gets an id; its lines and its
 * end go to the host as `operation` notifications, and the running ones are
 * part of the status (what the status bar shows while a drain waits). A drain
 * that failed stays in the status while its node is cordoned (`refusedDrains`),
 * so that the tree and the status bar keep saying why after its notification.
 */
import type { Clock } from '../../../sandbox/clock/clock';
import type { ApiServer } from '../../../sandbox/apiserver/apiServer';
import { drainNode } from '../../../sandbox/operations/drain';
import type { DrainHandle, DrainOptions } from '../../../sandbox/operations/drain';
import type { Notification, OperationStatus, RefusedDrain } from '../sandbox/protocol';

/** The tree's Drain: `kubectl drain NODE --ignore-daemonsets --delete-emptydir-data` (no `--force`). */
export const TREE_DRAIN_OPTIONS: DrainOptions = { ignoreDaemonSets: true, deleteEmptyDirData: true };

/** What an action answers: its lines so far, and the operation id when it goes on. */
export interface Started {
  message: string;
  operation?: number;
}

interface Running {
  title: string;
  handle: DrainHandle;
}

/** Ids unique in the worker, across sessions (a reset starts a new one while the host may still follow an old id). */
let nextId = 1;

export class Operations {
  private readonly running = new Map<number, Running>();
  /** Failed drains by node: kubectl's error. */
  private readonly refused = new Map<string, string>();
  private disposed = false;

  constructor(private readonly send: (n: Notification) => void) {}

  /**
   * Starts a drain. When it ends at once (nothing to evict, or kubectl's filters refuse a pod) the outcome is the
   * answer — an Error for a failure; otherwise the lines so far and an id whose progress follows.
   */
  drain(api: ApiServer, clock: Clock, node: string): Started {
    const id = nextId++;
    const title = `Drain ${node}`;
    const lines: string[] = [];
    let started = false;
    this.refused.delete(node);
    const handle = drainNode(api, clock, node, TREE_DRAIN_OPTIONS, {
      onLine: (line) => {
        if (!started) lines.push(line.text);
        else if (!this.disposed) this.send({ kind: 'operation', id, title, line: line.text });
      },
      onDone: (outcome) => {
        if (!started) return;
        this.running.delete(id);
        if (!outcome.ok && !this.disposed) this.refused.set(node, outcome.error!);
        const message = outcome.ok ? `node/${node} drained` : outcome.error!;
        this.send({ kind: 'operation', id, title, done: { ok: outcome.ok, message } });
      },
    });
    started = true;
    const outcome = handle.outcome;
    if (outcome && !outcome.ok) {
      this.refused.set(node, outcome.error!);
      throw new Error(outcome.error);
    }
    if (outcome) return { message: lines.join('\n') };
    this.running.set(id, { title, handle });
    return { message: lines.join('\n'), operation: id };
  }

  /** One entry per operation still running, saying what it waits for. */
  status(): OperationStatus[] {
    return [...this.running.values()].map(({ title, handle }) => ({ title, detail: describe(handle) }));
  }

  /**
   * The failed drains whose node is still cordoned — the hint lasts until the user uncordons it (here or with
   * kubectl), drains it again, or the node goes. A drain that failed before it cordoned (no such node) is not kept.
   */
  refusedDrains(api: ApiServer): RefusedDrain[] {
    for (const node of [...this.refused.keys()]) {
      const o = api.tryGet('nodes', undefined, node);
      if (o?.spec?.unschedulable !== true) this.refused.delete(node);
    }
    return [...this.refused].map(([node, message]) => ({ node, message }));
  }

  /** Stops every running operation (the session is going away): each ends with `drain cancelled`, its lines unsaid. */
  dispose(): void {
    this.disposed = true;
    for (const { handle } of [...this.running.values()]) handle.cancel();
    this.running.clear();
    this.refused.clear();
  }
}

function describe(handle: DrainHandle): string {
  if (handle.blocked.length > 0)
    return `waiting: a PodDisruptionBudget allows no disruption for ${handle.blocked.join(', ')} (retrying every 5s)`;
  const n = handle.pending.length;
  return `waiting for ${n} pod${n === 1 ? '' : 's'} to terminate: ${handle.pending.join(', ')}`;
}
