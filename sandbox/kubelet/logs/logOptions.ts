/**
 * `PodLogOptions` and how the kubelet applies them to a container's log
 * (pkg/kubelet/kuberuntime/logs): the last `tailLines` lines, then those not
 * older than `sinceSeconds`/`sinceTime`, each prefixed with its RFC 3339 time
 * under `timestamps`, cut after `limitBytes` bytes (mid-line if need be).
 */
import type { LogLine } from './lineSource';
import { parseTimestamp } from '../../clock/clock';
import { rfc3339NanoFixed } from './logTime';

/** The query of `GET /api/v1/namespaces/{ns}/pods/{name}/log` (follow aside). */
export interface PodLogOptions {
  container?: string;
  previous?: boolean;
  tailLines?: number;
  sinceSeconds?: number;
  /** RFC 3339; at most one of this and `sinceSeconds`. */
  sinceTime?: string;
  timestamps?: boolean;
  limitBytes?: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Writes lines as the kubelet streams them, keeping count of the byte limit across calls (for follow). */
export class LogWriter {
  private readonly since: number;
  private remaining: number;

  constructor(
    private readonly options: PodLogOptions,
    now: number,
  ) {
    const fromSeconds = options.sinceSeconds !== undefined ? now - options.sinceSeconds * 1000 : -Infinity;
    const fromTime = options.sinceTime !== undefined ? parseTimestamp(options.sinceTime) : -Infinity;
    this.since = Math.max(fromSeconds, Number.isNaN(fromTime) ? -Infinity : fromTime);
    this.remaining = options.limitBytes ?? Infinity;
  }

  /** The byte limit has been reached: nothing more will be written. */
  get full(): boolean {
    return this.remaining <= 0;
  }

  write(lines: readonly LogLine[]): string {
    let out = '';
    for (const l of lines) {
      if (this.full) break;
      if (l.at < this.since) continue;
      const line = `${this.options.timestamps ? `${rfc3339NanoFixed(l.at)} ` : ''}${l.text}\n`;
      out += this.cut(line);
    }
    return out;
  }

  private cut(line: string): string {
    if (this.remaining === Infinity) return line;
    const bytes = encoder.encode(line);
    const n = Math.min(bytes.length, this.remaining);
    this.remaining -= n;
    return n === bytes.length ? line : decoder.decode(bytes.slice(0, n));
  }
}

/** The last `tailLines` lines (all of them when unset). */
export function tail(lines: readonly LogLine[], tailLines: number | undefined): readonly LogLine[] {
  if (tailLines === undefined) return lines;
  return tailLines <= 0 ? [] : lines.slice(-tailLines);
}

/** A whole log as `GET …/log` returns it. */
export function formatLog(lines: readonly LogLine[], options: PodLogOptions, now: number): string {
  return new LogWriter(options, now).write(tail(lines, options.tailLines));
}
