/**
 * LIST and the watch predicate: label and field selectors, and paging with
 * `limit` / `continue` (the token carries the last key returned).
 */
import { badRequest } from '../api/errors';
import type { ResourceType } from '../api/resources';
import { apiVersionOf } from '../api/resources';
import { customFieldLabels, fieldLabelsFor } from '../api/selectors/fieldLabels';
import type { KindFieldLabels } from '../api/selectors/fieldLabels';

/** A custom resource's own field labels (its selectable fields); undefined for built-in kinds. */
function ownLabels(r: ResourceType): KindFieldLabels | undefined {
  return r.custom === undefined ? undefined : customFieldLabels(r.custom.selectableFields);
}
import { parseFieldSelector } from '../api/selectors/fieldSelector';
import { parseLabelSelector } from '../api/selectors/labelSelector';
import type { KubeList, KubeObject } from '../api/types';
import type { WatchRoute } from '../store/watchHub';
import type { ListOptions, WatchOptions } from './options';

/** One predicate for a request's label and field selectors; undefined when it selects everything. */
export function watchPredicate(
  r: ResourceType,
  options: ListOptions | WatchOptions,
): ((obj: KubeObject) => boolean) | undefined {
  const labels = options.labelSelector ? parseLabelSelector(options.labelSelector) : undefined;
  const fields = options.fieldSelector ? parseFieldSelector(options.fieldSelector, r.kind, ownLabels(r)) : undefined;
  const useLabels = labels && !labels.empty ? labels : undefined;
  const useFields = fields && !fields.empty ? fields : undefined;
  if (!useLabels && !useFields) return undefined;
  return (obj) => (!useLabels || useLabels.matches(obj.metadata.labels)) && (!useFields || useFields.matches(obj));
}

/** The first equality term of the field selector, for the watch hub to route changes by (see `WatchRoute`). */
export function watchRoute(r: ResourceType, options: WatchOptions): WatchRoute | undefined {
  if (!options.fieldSelector) return undefined;
  const labels = ownLabels(r) ?? fieldLabelsFor(r.kind);
  const term = parseFieldSelector(options.fieldSelector, r.kind, labels).requirements.find((t) => t.op === '=');
  const get = term && labels.getters.get(term.field);
  return term && get ? { field: term.field, value: term.value, get } : undefined;
}

function keyOf(obj: KubeObject): string {
  return `${obj.metadata.namespace ?? ''}/${obj.metadata.name}`;
}

function encodeContinue(key: string, revision: number): string {
  return Buffer.from(JSON.stringify({ v: 1, rv: revision, start: key })).toString('base64url');
}

function decodeContinue(token: string): string {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { v?: number; start?: unknown };
    if (parsed.v === 1 && typeof parsed.start === 'string') return parsed.start;
  } catch {
    // fall through to the error below
  }
  throw badRequest('continue key is not valid: the token was not produced by this server');
}

/** Filters and pages `all` (already in key order) into a `<Kind>List`. */
export function listObjects(r: ResourceType, all: KubeObject[], options: ListOptions, revision: number): KubeList {
  const predicate = watchPredicate(r, options);
  let items = predicate ? all.filter(predicate) : all;
  const metadata: KubeList['metadata'] = { resourceVersion: String(revision) };
  if (options.continue) {
    const after = decodeContinue(options.continue);
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (keyOf(items[mid]) <= after) lo = mid + 1;
      else hi = mid;
    }
    items = items.slice(lo);
  }
  if (options.limit !== undefined && options.limit > 0 && items.length > options.limit) {
    const remaining = items.length - options.limit;
    items = items.slice(0, options.limit);
    metadata.continue = encodeContinue(keyOf(items[items.length - 1]), revision);
    metadata.remainingItemCount = remaining;
  }
  return { apiVersion: apiVersionOf(r), kind: `${r.kind}List`, metadata, items };
}
