/** Container defaults (pkg/apis/core/v1/defaults.go `SetDefaults_Container` and friends). */
import { formatQuantity, parseQuantity } from '../../api/quantity';
import { boundedMemo } from '../../util/memo';
import { isObj, obj, type Obj } from '../validation/access';
import { eachObj } from './setDefault';

/** Always for `:latest` or an untagged image, IfNotPresent for other tags and digests. */
export function defaultPullPolicy(image: string): 'Always' | 'IfNotPresent' {
  // Upstream cannot parse an empty or digest reference into a tag, so it falls back to IfNotPresent.
  if (image.trim() === '' || image.includes('@')) return 'IfNotPresent';
  const lastSlash = image.lastIndexOf('/');
  const colon = image.indexOf(':', lastSlash + 1);
  const tag = colon < 0 ? '' : image.slice(colon + 1);
  return tag === '' || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultProbe(probe: Obj | undefined): void {
  if (!probe) return;
  probe.timeoutSeconds ??= 1;
  probe.periodSeconds ??= 10;
  probe.successThreshold ??= 1;
  probe.failureThreshold ??= 3;
  const http = obj(probe, 'httpGet');
  if (http) {
    http.path ??= '/';
    http.scheme ??= 'HTTP';
  }
}

function defaultHandler(handler: Obj | undefined): void {
  const http = obj(handler, 'httpGet');
  if (http) {
    http.path ??= '/';
    http.scheme ??= 'HTTP';
  }
}

/**
 * The canonical text of a quantity written as `text` (null when it does not parse): parse then format is pure in the
 * text, and a manifest's few distinct quantities (`100m`, `128Mi`) recur in every container, so each text is formatted
 * once (formatting works in BigInt). Bounded: past the limit a new text is parsed and formatted every time as before.
 */
const canonicalText = boundedMemo(
  4096,
  (text: string) => text,
  (text: string): string | null => {
    const q = parseQuantity(text);
    return q ? formatQuantity(q) : null;
  },
);

function canonicalQuantity(v: string | number): string | undefined {
  if (typeof v === 'number') {
    const q = parseQuantity(v);
    return q ? formatQuantity(q) : undefined;
  }
  return canonicalText(v) ?? undefined;
}

/** Rewrites valid quantities in canonical form, as the API server's round trip through resource.Quantity does. */
export function canonicalizeQuantities(list: Obj | undefined): void {
  if (!list) return;
  for (const [k, v] of Object.entries(list)) {
    if (typeof v !== 'string' && typeof v !== 'number') continue;
    const text = canonicalQuantity(v);
    if (text !== undefined) list[k] = text;
  }
}

/** Applies the defaults every container (and init container) gets. */
export function defaultContainer(c: Obj): void {
  c.imagePullPolicy ??= defaultPullPolicy(typeof c.image === 'string' ? c.image : '');
  c.terminationMessagePath ??= '/dev/termination-log';
  c.terminationMessagePolicy ??= 'File';
  c.resources ??= {};
  const res = obj(c, 'resources');
  canonicalizeQuantities(obj(res, 'limits'));
  canonicalizeQuantities(obj(res, 'requests'));
  eachObj(c, 'ports', (p) => {
    p.protocol ??= 'TCP';
  });
  eachObj(c, 'env', (e) => {
    const fieldRef = obj(obj(e, 'valueFrom'), 'fieldRef');
    if (fieldRef) fieldRef.apiVersion ??= 'v1';
  });
  for (const p of ['livenessProbe', 'readinessProbe', 'startupProbe']) defaultProbe(obj(c, p));
  const lifecycle = obj(c, 'lifecycle');
  defaultHandler(obj(lifecycle, 'postStart'));
  defaultHandler(obj(lifecycle, 'preStop'));
}

/** Pod-only (not templates): requests default to limits for resources without a request. */
export function defaultRequestsFromLimits(c: Obj): void {
  const res = obj(c, 'resources');
  const limits = obj(res, 'limits');
  if (!res || !limits) return;
  if (!isObj(res.requests)) res.requests = {};
  const requests = res.requests as Obj;
  for (const [k, v] of Object.entries(limits)) if (requests[k] === undefined) requests[k] = v;
}
