/**
 * Output a container produces on its own as time passes, read lazily: a log
 * asks a source for the lines between two instants only when someone reads
 * or follows it, so a container that prints every second costs nothing while
 * nobody looks, and no timer is needed to keep its log current.
 */
import { sharedList } from '../sharedList';

/** One line of container output, at a clock time (epoch ms). */
export interface LogLine {
  readonly at: number;
  readonly text: string;
}

export interface LineSource {
  /** Lines with `from < at ≤ to`, oldest first; when there are more than `max`, at least the latest `max`. */
  between(from: number, to: number, max: number): LogLine[];
  /** When the first line after `after` is due, or undefined when none will come. */
  nextAfter(after: number): number | undefined;
}

/** What a line is apart from its time, shared by every line that prints the same thing (a styled line's template). */
export interface LinePart {
  lineAt(at: number): LogLine;
}

/** A line that can say what it is made of apart from its time. */
export interface PartLine extends LogLine {
  readonly part: LinePart;
}

/** A line's text or shared part, when the line is nothing else (a plain `{ at, text }`, or a `PartLine`). */
function partOf(line: LogLine): string | LinePart | undefined {
  if ('part' in line) return (line as PartLine).part;
  if (Object.getPrototypeOf(line) === Object.prototype && Object.keys(line).length === 2) return line.text;
  return undefined;
}

/**
 * A fixed set of lines, in time order (a stable sort: lines of the same time keep their order). Kept as an exact-size
 * copy (the array given, grown by pushes, may have room for many more) in one object with no closures (issue 16: one
 * per container instance); lines all printed at one time (a program's start-up lines) as that time and what each line
 * is apart from it (its text, or its shared template; one shared list for equal ones), the lines made again on each
 * read with the same times and texts.
 */
export function fixedLines(lines: readonly LogLine[]): LineSource {
  const sorted = lines.slice().sort((a, b) => a.at - b.at);
  if (sorted.length > 0 && sorted[0].at === sorted[sorted.length - 1].at) {
    const parts = sorted.map(partOf);
    if (!parts.includes(undefined)) {
      const first = typeof parts[0] === 'string' ? parts[0] : '';
      return new SameTimeLines(
        sorted[0].at,
        sharedList(parts as (string | LinePart)[], `${parts.length}\u0000${first}`),
      );
    }
  }
  return new FixedLines(sorted);
}

/** Lines printed at one time: the time, and each line's text or shared part. */
class SameTimeLines implements LineSource {
  constructor(
    private readonly at: number,
    private readonly parts: readonly (string | LinePart)[],
  ) {}

  between(from: number, to: number, max: number): LogLine[] {
    const { at } = this;
    if (!(at > from && at <= to)) return [];
    return this.parts.slice(-max).map((p) => (typeof p === 'string' ? { at, text: p } : p.lineAt(at)));
  }

  nextAfter(after: number): number | undefined {
    return this.at > after ? this.at : undefined;
  }
}

class FixedLines implements LineSource {
  constructor(private readonly sorted: readonly LogLine[]) {}

  between(from: number, to: number, max: number): LogLine[] {
    return this.sorted.filter((l) => l.at > from && l.at <= to).slice(-max);
  }

  nextAfter(after: number): number | undefined {
    return this.sorted.find((l) => l.at > after)?.at;
  }
}

/**
 * Lines that repeat: iteration `k` starts at `first + k·period` (before `until`, when set) and prints `render(k,
 * start)`, each line within its period.
 */
export interface Periodic {
  first: number;
  period: number;
  until?: number;
  render(k: number, start: number): LogLine[];
}

/** How many iterations `nextAfter` looks ahead for one that prints something. */
const LOOKAHEAD = 4;

export function periodicLines(p: Periodic): LineSource {
  const period = Math.max(1, p.period);
  const startOf = (k: number) => p.first + k * period;
  const lastK = p.until === undefined ? Infinity : Math.ceil((p.until - p.first) / period) - 1;
  const kAt = (t: number) => (t < p.first ? 0 : Math.floor((t - p.first) / period));
  return {
    between(from, to, max) {
      const hi = Math.min(lastK, Math.floor((to - p.first) / period));
      let lo = from === -Infinity ? 0 : Math.max(0, kAt(from));
      if (hi < lo || max <= 0) return [];
      if (hi - lo + 1 > max) lo = hi - max + 1;
      const out: LogLine[] = [];
      for (let k = lo; k <= hi; k++)
        for (const l of p.render(k, startOf(k))) if (l.at > from && l.at <= to) out.push(l);
      return out.slice(-max);
    },
    nextAfter(after) {
      for (let k = kAt(after), n = 0; k <= lastK && n < LOOKAHEAD; k++, n++) {
        const next = p.render(k, startOf(k)).find((l) => l.at > after);
        if (next) return next.at;
      }
      return undefined;
    },
  };
}
