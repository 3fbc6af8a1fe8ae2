/**
 * Lines a user makes a container print, with the pod annotation
 * `sandbox.kube-reconcile.dev/logs` (every regular container) or
 * `sandbox.kube-reconcile.dev/logs.<container>` (one container, init
 * containers included; it replaces the pod-wide one). One line of the value
 * is one log line, printed when the container starts; `@30s text` prints 30 s
 * after the start, `@every 1m text` every minute; `@@` starts a line with `@`.
 */
import type { Container, Pod } from 'kubernetes-types/core/v1';
import { parseDuration } from '../duration';
import type { LineSource, LogLine } from './lineSource';
import { fixedLines, periodicLines } from './lineSource';

export const LOGS_ANNOTATION = 'sandbox.kube-reconcile.dev/logs';

export interface CustomLine {
  /** After the container starts, ms. */
  afterMs: number;
  /** Repeats with this period, ms. */
  everyMs?: number;
  text: string;
}

export interface CustomLogs {
  lines: CustomLine[];
  /** `annotation: problem`, for the pod's `InvalidBehavior` event. */
  errors: string[];
}

function parseLine(raw: string): CustomLine | string {
  if (raw.startsWith('@@')) return { afterMs: 0, text: raw.slice(1) };
  if (!raw.startsWith('@')) return { afterMs: 0, text: raw };
  const every = /^@every\s+(\S+)\s?(.*)$/.exec(raw);
  if (every) {
    const ms = parseDuration(every[1]);
    if (ms === undefined || ms <= 0) return `invalid period "${every[1]}" in "${raw}" (use e.g. @every 30s)`;
    return { afterMs: ms, everyMs: ms, text: every[2] };
  }
  const once = /^@(\S+)\s?(.*)$/.exec(raw);
  const ms = once ? parseDuration(once[1]) : undefined;
  if (!once || ms === undefined)
    return `invalid time "${once?.[1] ?? ''}" in "${raw}" (use e.g. @30s, @every 1m, or @@ for a line starting with @)`;
  return { afterMs: ms, text: once[2] };
}

/** The container's custom lines: its own annotation, else (regular containers) the pod-wide one. */
export function customLogs(pod: Pod, container: Container, init: boolean): CustomLogs {
  const annotations = pod.metadata?.annotations ?? {};
  const own = `${LOGS_ANNOTATION}.${container.name}`;
  const name = own in annotations ? own : !init && LOGS_ANNOTATION in annotations ? LOGS_ANNOTATION : undefined;
  if (name === undefined) return { lines: [], errors: [] };
  const out: CustomLogs = { lines: [], errors: [] };
  for (const raw of annotations[name].split(/\r?\n/)) {
    if (raw.trim() === '') continue;
    const parsed = parseLine(raw);
    if (typeof parsed === 'string') out.errors.push(`${name}: ${parsed}`);
    else out.lines.push(parsed);
  }
  return out;
}

/** The custom lines of an instance started at `start`, as sources. */
export function customLogSources(lines: readonly CustomLine[], start: number): LineSource[] {
  const once: LogLine[] = lines
    .filter((l) => l.everyMs === undefined)
    .map((l) => ({ at: start + l.afterMs, text: l.text }));
  const sources = once.length > 0 ? [fixedLines(once)] : [];
  for (const l of lines) {
    if (l.everyMs === undefined) continue;
    const text = l.text;
    sources.push(periodicLines({ first: start + l.afterMs, period: l.everyMs, render: (_, at) => [{ at, text }] }));
  }
  return sources;
}
