/**
 * The only source of time in the sandbox. Controllers, kubelets, the API
 * server and tests take a Clock; nothing reads the wall clock directly.
 */

export interface TimerHandle {
  readonly id: number;
}

export interface TimerOptions {
  background?: boolean;
}

export interface Clock {
  /** Milliseconds since the Unix epoch, in this clock's time. */
  now(): number;
  /**
   * Runs `fn` once after `delayMs` of this clock's time. Timers due at the
   * same instant run in the order they were set. A `background` timer is
   * housekeeping (heartbeats, periodic resyncs): it does not count as pending
   * work when the simulator decides whether the cluster has settled.
   */
  setTimer(delayMs: number, fn: () => void, options?: TimerOptions): TimerHandle;
  clearTimer(handle: TimerHandle): void;
}

/** RFC 3339 with second precision, as Kubernetes timestamps are: `2026-01-01T00:00:05Z`. */
export function formatTimestamp(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second === lastSecond) return lastText;
  lastSecond = second;
  // The pods of a run start at many different seconds, so a one-second memo misses: the day's `YYYY-MM-DDT` is
  // kept and the time of day written from whole numbers (same text as `toISOString`).
  const day = Math.floor(second / 86_400);
  if (day !== lastDay) {
    const iso = new Date(day * 86_400_000).toISOString();
    // Years outside 0000–9999 are written with a sign and six digits: those take the plain path.
    dayPrefix = iso.length === 24 ? iso.slice(0, 11) : '';
    lastDay = day;
  }
  if (dayPrefix === '') return (lastText = new Date(second * 1000).toISOString().replace('.000Z', 'Z'));
  const t = second - day * 86_400;
  const minutes = Math.floor(t / 60);
  lastText = `${dayPrefix}${TWO_DIGITS[Math.floor(minutes / 60)]}:${TWO_DIGITS[minutes % 60]}:${TWO_DIGITS[t % 60]}Z`;
  return lastText;
}
// Many writes happen within the same second; formatting is cached for the last one seen, and the day's prefix.
let lastSecond = Number.NaN;
let lastText = '';
let lastDay = Number.NaN;
let dayPrefix = '';
const TWO_DIGITS: readonly string[] = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));

/** RFC 3339 with microseconds, as `MicroTime` fields (Event.eventTime, Lease.renewTime) are. */
export function formatMicroTime(ms: number): string {
  const iso = new Date(Math.floor(ms)).toISOString();
  return `${iso.slice(0, 19)}.${iso.slice(20, 23)}000Z`;
}

/** Parses an RFC 3339 timestamp into epoch milliseconds (NaN when it is not one). */
export function parseTimestamp(text: string): number {
  return Date.parse(text);
}
