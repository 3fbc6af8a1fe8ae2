/** How values and health read in the page. */
import type { JsonValue } from '../../sandbox/api/types';
import type { HealthStatus } from '../src/webview/protocol';

/** A diff cell: strings as they are, everything else as compact JSON, absent as an em dash. */
export function formatValue(v: JsonValue | undefined): string {
  if (v === undefined) return '—';
  if (typeof v === 'string') return v.length > 120 ? `${v.slice(0, 117)}...` : v;
  return JSON.stringify(v);
}

/**
 * `Progressing: 2 of 3 updated replicas are available`, with Argo's "Waiting for rollout to finish: " and trailing dots
 * dropped.
 */
export function healthLine(health: HealthStatus): string {
  const message = health.message.replace(/^Waiting for rollout to finish: /, '').replace(/\.\.\.$/, '');
  return message ? `${health.status}: ${message}` : health.status;
}
