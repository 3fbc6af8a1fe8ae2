/**
 * The values describe prints inline: timestamps (RFC1123Z, ages), label maps and selectors, the controller
 * reference, resource names in kubectl's order and quantities in canonical form
 * (upstream: staging/src/k8s.io/kubectl/pkg/describe/describe.go and apimachinery's labels and metav1 helpers).
 */
import type { KubeObject } from '../../api/types';
import { parseQuantity } from '../../api/quantity';
import { parseTimestamp } from '../../clock/clock';
import { humanDuration } from '../duration';

const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Go's `time.RFC1123Z` in UTC; Go's zero time for an absent timestamp. */
export function rfc1123z(timestamp: string | undefined): string {
  const ms = timestamp ? parseTimestamp(timestamp) : NaN;
  if (!Number.isFinite(ms)) return 'Mon, 01 Jan 0001 00:00:00 +0000';
  const d = new Date(ms);
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${DAY_NAMES[d.getUTCDay()]}, ${p(d.getUTCDate())} ${MONTH_NAMES[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

/** translateTimestampSince. */
export function since(timestamp: string | undefined, now: number): string {
  const ms = timestamp ? parseTimestamp(timestamp) : NaN;
  return Number.isFinite(ms) ? humanDuration(now - ms) : '<unknown>';
}

export function sortedKeys(m: Readonly<Record<string, string>> | undefined): string[] {
  return Object.keys(m ?? {}).sort();
}

export function controllerOf(obj: KubeObject): string {
  const ref = obj.metadata.ownerReferences?.find((r) => r.controller);
  return ref ? `${ref.kind}/${ref.name}` : '';
}

/** metav1.FormatLabelSelector. */
export function formatSelector(
  selector:
    | {
        matchLabels?: Record<string, string>;
        matchExpressions?: { key: string; operator: string; values?: string[] }[];
      }
    | undefined,
): string {
  if (!selector) return '<none>';
  const parts = sortedKeys(selector.matchLabels).map((k) => `${k}=${selector.matchLabels![k]}`);
  for (const e of selector.matchExpressions ?? []) {
    const values = [...(e.values ?? [])].sort().join(',');
    if (e.operator === 'In') parts.push(`${e.key} in (${values})`);
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${values})`);
    else if (e.operator === 'Exists') parts.push(e.key);
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`);
  }
  return parts.length === 0 ? '<none>' : parts.join(',');
}

export function matchesSelector(
  labels: Record<string, string> | undefined,
  selector: { matchLabels?: Record<string, string> } | undefined,
): boolean {
  if (!selector) return false;
  return Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels?.[k] === v);
}

const RESOURCE_ORDER = ['cpu', 'memory', 'ephemeral-storage'];

/** SortedResourceNames: cpu, memory and storage first, then the rest by name. */
export function sortedResources(list: Record<string, unknown> | undefined): string[] {
  return Object.keys(list ?? {}).sort((a, b) => {
    const ia = RESOURCE_ORDER.indexOf(a);
    const ib = RESOURCE_ORDER.indexOf(b);
    if (ia >= 0 || ib >= 0) return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
    return a < b ? -1 : a > b ? 1 : 0;
  });
}

export function quantityText(value: unknown): string {
  const q = typeof value === 'string' || typeof value === 'number' ? parseQuantity(value) : undefined;
  return q ? q.toString() : String(value);
}

/** labels.FormatLabels: sorted k=v pairs, `<none>` when empty. */
export function formatLabels(labels: Readonly<Record<string, string>> | undefined): string {
  const keys = sortedKeys(labels);
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${labels![k]}`).join(',');
}
