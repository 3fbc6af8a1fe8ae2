/**
 * Durations the way kubectl prints them (upstream
 * `k8s.io/apimachinery/pkg/util/duration`): the AGE column, "2m ago", a
 * Job's DURATION.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const YEAR = 365 * DAY;

/** Whole units of `unit` in `ms`, truncated toward zero as Go's integer conversion does. */
function whole(ms: number, unit: number): number {
  return Math.trunc(ms / unit);
}

/** Up to two seconds in the future is clock skew ("0s"); further is `<invalid>`. */
function skew(ms: number): string | undefined {
  const seconds = whole(ms, SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  return undefined;
}

/**
 * `HumanDuration`: about two significant figures — `45s`, `119s`, `5m3s`,
 * `47m`, `3h5m`, `30h`, `3d4h`, `12d`, `2y3d`, `9y`.
 */
export function humanDuration(ms: number): string {
  const early = skew(ms);
  if (early) return early;
  const seconds = whole(ms, SECOND);
  if (seconds < 120) return `${seconds}s`;
  const minutes = whole(ms, MINUTE);
  if (minutes < 10) return withRest(minutes, 'm', seconds % 60, 's');
  if (minutes < 180) return `${minutes}m`;
  const hours = whole(ms, HOUR);
  if (hours < 8) return withRest(hours, 'h', minutes % 60, 'm');
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / 24);
  if (hours < 24 * 8) return withRest(days, 'd', hours % 24, 'h');
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.trunc(days / 365);
  if (hours < 24 * 365 * 8) return withRest(years, 'y', days % 365, 'd');
  return `${years}y`;
}

function withRest(big: number, bigUnit: string, rest: number, restUnit: string): string {
  return rest === 0 ? `${big}${bigUnit}` : `${big}${bigUnit}${rest}${restUnit}`;
}

/** `ShortHumanDuration`: one unit only — `59s`, `1m`, `23h`, `364d`, `2y`. */
export function shortHumanDuration(ms: number): string {
  const early = skew(ms);
  if (early) return early;
  if (ms < MINUTE) return `${whole(ms, SECOND)}s`;
  if (ms < HOUR) return `${whole(ms, MINUTE)}m`;
  if (ms < DAY) return `${whole(ms, HOUR)}h`;
  if (ms < YEAR) return `${whole(ms, DAY)}d`;
  return `${whole(ms, YEAR)}y`;
}
