/**
 * A bench-only trace of the save → tree path: when the environment variable
 * `KUBE_RECONCILE_TRACE` names a file, the extension host and the sandbox
 * worker append one JSON line per stage to it (`{"t", "thread", "stage", …}`,
 * `t` in epoch milliseconds from each thread's monotonic clock, so the two
 * threads and the browser page line up); bench/extension.ts reads it back and
 * prints where the time of a save goes. Off (every call a no-op) otherwise:
 * users never set it. No `vscode` import.
 */
import { appendFileSync } from 'node:fs';

/** The environment variable naming the trace file. */
export const SAVE_TRACE_ENV = 'KUBE_RECONCILE_TRACE';

export type TraceThread = 'host' | 'worker';

/** One line of the trace. */
export interface TraceLine {
  /** Epoch milliseconds (sub-millisecond precision). */
  t: number;
  thread: TraceThread;
  stage: string;
  [detail: string]: unknown;
}

export interface SaveTrace {
  readonly enabled: boolean;
  mark(stage: string, detail?: Record<string, unknown>): void;
}

const OFF: SaveTrace = { enabled: false, mark: () => undefined };

/** Epoch milliseconds from the monotonic clock (comparable across threads, processes and the page). */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

/** The trace of this thread: writing to the file the environment names, or off. */
export function saveTraceFrom(
  thread: TraceThread,
  env: Readonly<Record<string, string | undefined>> = process.env,
  write: (file: string, line: string) => void = appendFileSync,
): SaveTrace {
  const file = env[SAVE_TRACE_ENV];
  if (!file) return OFF;
  return {
    enabled: true,
    mark(stage, detail) {
      try {
        write(file, `${JSON.stringify({ t: epochNow(), thread, stage, ...detail })}\n`);
      } catch {
        // A trace that cannot be written must never break a save.
      }
    },
  };
}

/** Parses a trace file's text (lines that are not trace lines are skipped). */
export function readTrace(text: string): TraceLine[] {
  const out: TraceLine[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const v = JSON.parse(line) as unknown;
      if (
        typeof v === 'object' &&
        v !== null &&
        typeof (v as TraceLine).t === 'number' &&
        typeof (v as TraceLine).stage === 'string'
      )
        out.push(v as TraceLine);
    } catch {
      // A half-written last line.
    }
  }
  return out;
}

interface ChangeLike {
  resource: string;
  object: { metadata: { namespace?: string; name?: string }; spec?: unknown; status?: unknown };
}

/** The Deployments among `changes` with their readiness, `default/web 3/10` (what the bench waits for). */
export function deploymentsIn(changes: readonly ChangeLike[]): string[] {
  const out: string[] = [];
  for (const c of changes) {
    if (c.resource !== 'deployments') continue;
    const spec = (c.object.spec ?? {}) as { replicas?: number };
    const status = (c.object.status ?? {}) as { readyReplicas?: number };
    const m = c.object.metadata;
    out.push(`${m.namespace ?? ''}/${m.name ?? ''} ${status.readyReplicas ?? 0}/${spec.replicas ?? 1}`);
  }
  return out;
}
