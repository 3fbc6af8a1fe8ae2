/**
 * Flattens a JSON value into its leaves keyed by a readable path:
 * `spec.replicas`, `spec.template.spec.containers[0].image`,
 * `metadata.annotations["deployment.kubernetes.io/revision"]`. Empty objects
 * and arrays are leaves of their own so that `securityContext: {}` is seen.
 */
import type { JsonValue } from '../../../sandbox/api/types';

export type PathSegment = string | number;

export interface Leaf {
  path: string;
  segments: PathSegment[];
  value: JsonValue;
}

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

/** The printed form of a path: dots for plain keys, `["…"]` for keys with dots or slashes, `[i]` for indexes. */
export function formatPath(segments: readonly PathSegment[]): string {
  let out = '';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (IDENTIFIER.test(s)) out += out === '' ? s : `.${s}`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

/** Leaves of `value` in document order; `undefined` members are skipped. */
export function flatten(value: unknown, prefix: PathSegment[] = []): Leaf[] {
  const out: Leaf[] = [];
  walk(value, prefix, out);
  return out;
}

function walk(value: unknown, segments: PathSegment[], out: Leaf[]): void {
  if (value === undefined) return;
  if (Array.isArray(value)) {
    if (value.length === 0 && segments.length > 0) out.push({ path: formatPath(segments), segments, value: [] });
    value.forEach((v, i) => walk(v, [...segments, i], out));
    return;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0 && segments.length > 0) out.push({ path: formatPath(segments), segments, value: {} });
    for (const [k, v] of entries) walk(v, [...segments, k], out);
    return;
  }
  out.push({ path: formatPath(segments), segments, value: value as JsonValue });
}
