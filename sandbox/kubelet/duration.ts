/**
 * Durations as users write them in behaviours (`30s`, `2m`, `1m30s`, `500ms`)
 * and as Go's `time.Duration.String()` prints them in kubelet messages
 * (`10s`, `1m20s`, `5m0s`, `1.234s`, `812ms`).
 */

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Milliseconds for `1h2m3s500ms`-style text; undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    total += Number(m[1]) * UNIT_MS[m[2]];
    matched = re.lastIndex;
  }
  if (text === '' || matched !== text.length) return undefined;
  return Math.round(total);
}

/** Go's `Duration.String()` for a whole number of milliseconds. */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  const sec = `${trimFraction(s)}s`;
  if (h > 0) return `${h}h${m}m${sec}`;
  if (m > 0) return `${m}m${sec}`;
  return sec;
}

function trimFraction(s: number): string {
  return s.toFixed(3).replace(/\.?0+$/, '');
}
