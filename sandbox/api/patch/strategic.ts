/**
 * Strategic merge patch (`application/strategic-merge-patch+json`), the
 * default of `kubectl patch` and what client-side `kubectl apply`, `kubectl
 * set image`, `cordon`, `label` and `annotate` send. Like a JSON merge patch,
 * but lists merge by the field's strategy (sandbox/schema/listStrategies.ts):
 * containers by `name`, ports by `containerPort`, finalizers as a set. Lists
 * without a strategy are replaced; fields the schema does not know merge as in
 * a JSON merge patch.
 *
 * Directives, as k8s.io/apimachinery/pkg/util/strategicpatch applies them:
 * - `null` deletes a member;
 * - `$patch: replace` (a map replaces the live one; in a list, the other
 *   elements replace the list), `$patch: delete` (a map becomes `{}`; a list
 *   element removes the live element with its merge key);
 * - `$retainKeys: [...]` drops the live members it does not name (Deployment
 *   `spec.strategy`, pod volumes);
 * - `$deleteFromPrimitiveList/<field>: [...]` removes values from a set-like list;
 * - `$setElementOrder/<field>: [...]` orders the merged list (kubectl apply sends it).
 *
 * Merged lists are ordered as upstream orders them: the patch's order for the
 * elements it names, the live order for the rest, and an element new to the
 * list goes in front of the live elements that follow the patch elements
 * before it (at the front when the patch names nothing else).
 */
import { copyJson, cloneJson, isPlainObject, JsonCopyError } from '../../util/json';
import type { ApiError } from '../errors';
import { badRequest } from '../errors';
import { kindEntry } from '../../schema/schema';
import type { SchemaType } from '../../schema/types';
import { fieldOf, itemType, strategies } from './schemaCursor';
import type { Field } from './schemaCursor';
import { deleteMember, getMember, hasMember, setMember } from './jsonMember';
import { patchFailed } from './patchErrors';

type JsonMap = Record<string, unknown>;

const DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';
const SET_ELEMENT_ORDER = '$setElementOrder';

// ---- errors (upstream's texts: k8s.io/apimachinery/pkg/util/mergepatch, strategicpatch) ----

const BAD_PRIMITIVE_LIST = 'invalid patch format of primitive list';
const BAD_RETAIN_KEYS = 'invalid patch format of retainKeys';
const BAD_SET_ELEMENT_ORDER = 'invalid patch format of setElementOrder list';

/** 422 as kube-apiserver answers the errors it treats as invalid content (lists of lists, `$retainKeys` mismatch). */
function unprocessable(message: string): ApiError {
  return patchFailed(message);
}

function noMergeKey(m: JsonMap, key: string): ApiError {
  return badRequest(`map: ${goText(m)} does not contain declared merge key: ${key}`);
}

function unknownPatchType(directive: unknown, m: JsonMap): ApiError {
  return badRequest(`unknown patch type: ${goText(directive)} in map: ${goText(m)}`);
}

/** A JSON value as Go's `%v` prints the decoded form (`map[image:nginx name:web]`), so messages read as upstream's. */
function goText(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goText).join(' ')}]`;
  if (isPlainObject(v)) {
    const keys = Object.keys(v).sort();
    return `map[${keys.map((k) => `${k}:${goText(v[k])}`).join(' ')}]`;
  }
  return String(v);
}

/** A JSON value's type as the merge compares them (Go's decoded types: map, slice, string, number, bool). */
function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

// ---- maps ----

/**
 * Merges `patch` into `original`. Both are private copies (the entry point
 * copies its inputs) and may be changed; returns the merged map.
 */
function mergeMap(original: JsonMap, patch: JsonMap, type: SchemaType | undefined): JsonMap {
  if (hasMember(patch, DIRECTIVE)) {
    const directive = patch[DIRECTIVE];
    if (directive === 'replace') {
      deleteMember(patch, DIRECTIVE);
      return mergeMap({}, patch, type);
    }
    if (directive === 'delete') return {};
    throw unknownPatchType(directive, patch);
  }
  applyRetainKeys(original, patch);
  applySetElementOrders(original, patch, type);

  for (const key of Object.keys(patch)) {
    const value = patch[key];
    if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
      const k = directiveTarget(key, DELETE_FROM_PRIMITIVE_LIST, BAD_PRIMITIVE_LIST);
      const live = getMember(original, k);
      if (!Array.isArray(value)) throw badRequest(BAD_PRIMITIVE_LIST);
      if (Array.isArray(live)) setMember(original, k, deleteFromList(live, value));
      continue;
    }
    if (value === null) {
      deleteMember(original, key);
      continue;
    }
    const field = fieldOf(type, key);
    const live = getMember(original, key);
    if (live === undefined || live === null || jsonType(live) !== jsonType(value)) {
      const fresh = freshValue(value, field);
      if (fresh === undefined) deleteMember(original, key);
      else setMember(original, key, fresh);
    } else if (isPlainObject(live)) {
      const replace = strategies(field).includes('replace');
      const merged = replace ? freshValue(value, field) : mergeMap(live, value as JsonMap, field.type);
      setMember(original, key, merged ?? {});
    } else if (Array.isArray(live)) {
      setMember(
        original,
        key,
        strategies(field).includes('merge') ? mergeList(live, value as unknown[], field) : freshValue(value, field),
      );
    } else {
      setMember(original, key, value);
    }
  }
  return original;
}

/** The field a `$deleteFromPrimitiveList/<field>` or `$setElementOrder/<field>` key names. */
function directiveTarget(key: string, prefix: string, error: string): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) throw badRequest(error);
  return key.slice(slash + 1);
}

/**
 * A patch value for a member the live object does not have (or has with
 * another type): nulls dropped, directives applied against nothing.
 * `undefined` when nothing is left (`{"$patch": "delete"}`).
 */
function freshValue(value: unknown, field: Field): unknown {
  if (value === null) return undefined;
  if (Array.isArray(value)) {
    const merging = strategies(field).includes('merge');
    if (merging) elementType(value);
    const items: unknown[] = [];
    const elementField = { type: itemType(field.type) };
    for (const item of value) {
      // In a merging list an element with `$patch` is a directive about the list, never an element.
      if (merging && isPlainObject(item) && hasMember(item, DIRECTIVE)) {
        checkListDirective(item);
        continue;
      }
      const fresh = item === null ? null : freshValue(item, elementField);
      if (fresh !== undefined) items.push(fresh);
    }
    return items;
  }
  if (isPlainObject(value)) {
    if (getMember(value, DIRECTIVE) === 'delete') return undefined;
    return mergeMap({}, value, field.type);
  }
  return value;
}

/**
 * `$retainKeys`: live members it does not name are dropped. Every member the
 * patch sets must be named (else 422, as upstream).
 */
function applyRetainKeys(original: JsonMap, patch: JsonMap): void {
  if (!hasMember(patch, RETAIN_KEYS)) return;
  const keys = patch[RETAIN_KEYS];
  deleteMember(patch, RETAIN_KEYS);
  if (!Array.isArray(keys)) throw badRequest(BAD_RETAIN_KEYS);
  const retained = new Set<unknown>(keys);
  for (const k of Object.keys(patch)) {
    if (patch[k] === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST) || k.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!retained.has(k)) throw unprocessable("patch content doesn't match retainKeys list");
  }
  for (const k of Object.keys(original)) if (!retained.has(k)) deleteMember(original, k);
}

// ---- lists ----

/** The one type of a list's elements (maps, strings, numbers…); lists of lists are refused. */
function elementType(...lists: readonly unknown[][]): string | undefined {
  let seen: string | undefined;
  for (const list of lists) {
    for (const item of list) {
      const t = jsonType(item);
      if (t === 'array') throw unprocessable('lists of lists are not supported');
      if (seen === undefined) seen = t;
      else if (seen !== t) throw badRequest(`list element types are not identical: ${goText(lists)}`);
    }
  }
  return seen;
}

/** Merges a list whose field has the merge strategy: by merge key for maps, as a set for scalars. */
function mergeList(original: unknown[], patch: unknown[], field: Field): unknown[] {
  if (original.length === 0 && patch.length === 0) return [];
  const kind = elementType(original, patch);
  const mergeKey = field.strategy?.patchMergeKey ?? '';
  if (kind !== 'object') {
    const merged = [...new Set([...original, ...patch])];
    return orderMerged(merged, patch, original, '');
  }
  if (mergeKey === '') throw badRequest(`cannot merge lists without merge key for ${goText(patch)}`);
  const elements = itemType(field.type);
  const special = applyListDirectives(original as JsonMap[], patch as JsonMap[], mergeKey, elements);
  if (special.replaced) return special.original;
  const live = special.original;
  const merged = [...live];
  for (const item of special.patch) {
    if (!hasMember(item, mergeKey)) throw noMergeKey(item, mergeKey);
    const at = merged.findIndex((e) => isPlainObject(e) && hasMember(e, mergeKey) && e[mergeKey] === item[mergeKey]);
    if (at >= 0) merged[at] = mergeMap(merged[at], item, elements);
    else merged.push(mergeMap({}, item, elements));
  }
  return orderMerged(merged, special.patch, live, mergeKey);
}

/**
 * List elements carrying `$patch`: `delete` removes the live elements with
 * that merge key, `replace` makes the other patch elements the whole list.
 */
function applyListDirectives(
  original: JsonMap[],
  patch: JsonMap[],
  mergeKey: string,
  elements: SchemaType | undefined,
): { original: JsonMap[]; patch: JsonMap[]; replaced: boolean } {
  let live = original;
  const rest: JsonMap[] = [];
  let replaced = false;
  for (const item of patch) {
    if (!hasMember(item, DIRECTIVE)) {
      rest.push(item);
      continue;
    }
    const directive = checkListDirective(item);
    if (directive === 'delete') {
      if (!hasMember(item, mergeKey)) throw noMergeKey(item, mergeKey);
      live = live.filter((e) => !(hasMember(e, mergeKey) && e[mergeKey] === item[mergeKey]));
    } else {
      replaced = true;
    }
  }
  if (replaced) return { original: rest.map((item) => mergeMap({}, item, elements)), patch: [], replaced };
  return { original: live, patch: rest, replaced };
}

/** The `$patch` of a list element: `delete` or `replace`; anything else is 400. */
function checkListDirective(item: JsonMap): 'delete' | 'replace' {
  const directive = item[DIRECTIVE];
  if (directive === 'delete' || directive === 'replace') return directive;
  if (directive === 'merge') throw badRequest('merging lists cannot yet be specified in the patch');
  throw unknownPatchType(directive, item);
}

/** Removes `$deleteFromPrimitiveList` values from a list of scalars. */
function deleteFromList(live: unknown[], values: unknown[]): unknown[] {
  if (values.some((v) => typeof v === 'object' && v !== null)) throw badRequest(BAD_PRIMITIVE_LIST);
  const drop = new Set(values);
  return live.filter((v) => !drop.has(v));
}

/** What identifies a list element: its merge key's value, or the scalar itself. */
function identity(item: unknown, mergeKey: string): unknown {
  if (mergeKey === '') return item;
  return isPlainObject(item) ? getMember(item, mergeKey) : undefined;
}

function requireMergeKey(items: readonly unknown[], mergeKey: string): void {
  if (mergeKey === '') return;
  for (const item of items) {
    if (!isPlainObject(item)) throw badRequest(`expected a map, but received ${goText(item)}`);
    if (!hasMember(item, mergeKey)) throw noMergeKey(item, mergeKey);
  }
}

/**
 * Orders a merged list as upstream does: the elements named in `order`
 * follow it, the others keep their live order, and the two are interleaved
 * by their live positions (an element new to the list goes before the live
 * elements after it).
 */
function orderMerged(
  merged: unknown[],
  order: readonly unknown[],
  live: readonly unknown[],
  mergeKey: string,
): unknown[] {
  requireMergeKey(merged, mergeKey);
  requireMergeKey(order, mergeKey);
  requireMergeKey(live, mergeKey);
  const orderIds = new Set(order.map((o) => identity(o, mergeKey)));
  const named = merged.filter((m) => orderIds.has(identity(m, mergeKey)));
  const others = merged.filter((m) => !orderIds.has(identity(m, mergeKey)));
  const indexIn = (list: readonly unknown[]) => {
    const at = new Map<unknown, number>();
    list.forEach((x, i) => {
      const id = identity(x, mergeKey);
      if (!at.has(id)) at.set(id, i);
    });
    return at;
  };
  const orderAt = indexIn(order);
  const liveAt = indexIn(live);
  const byIndex = (at: Map<unknown, number>) => (a: unknown, b: unknown) => {
    const ia = at.get(identity(a, mergeKey));
    const ib = at.get(identity(b, mergeKey));
    return ia !== undefined && ib !== undefined ? ia - ib : 0;
  };
  named.sort(byIndex(orderAt));
  others.sort(byIndex(liveAt));
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < others.length || j < named.length) {
    if (j >= named.length) out.push(others[i++]);
    else if (i >= others.length) out.push(named[j++]);
    else {
      const li = liveAt.get(identity(others[i], mergeKey));
      const ri = liveAt.get(identity(named[j], mergeKey));
      if (li !== undefined && ri !== undefined && li < ri) out.push(others[i++]);
      else out.push(named[j++]);
    }
  }
  return out;
}

/**
 * `$setElementOrder/<field>`: merges the field's list now (with the patch's
 * elements, which must appear in the order list in the same relative order)
 * and orders the result by the order list.
 */
function applySetElementOrders(original: JsonMap, patch: JsonMap, type: SchemaType | undefined): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER)) continue;
    const order = patch[key];
    deleteMember(patch, key);
    if (!Array.isArray(order)) throw badRequest(BAD_SET_ELEMENT_ORDER);
    const k = directiveTarget(key, SET_ELEMENT_ORDER, BAD_SET_ELEMENT_ORDER);
    const live = getMember(original, k);
    const patched = getMember(patch, k);
    if (live !== undefined && !Array.isArray(live)) throw badRequest(BAD_SET_ELEMENT_ORDER);
    if (patched !== undefined && !Array.isArray(patched)) throw badRequest(BAD_SET_ELEMENT_ORDER);
    if (live === undefined && patched === undefined) continue;
    const field = fieldOf(type, k);
    const merge = strategies(field).includes('merge');
    const mergeKey = merge ? (field.strategy?.patchMergeKey ?? '') : '';
    if (patched !== undefined) checkOrder(patched, order, mergeKey);
    let merged: unknown[];
    if (patched === undefined) merged = live as unknown[];
    else if (live === undefined || !merge) merged = freshValue(patched, field) as unknown[];
    else merged = mergeList(live, patched, field);
    deleteMember(patch, k);
    const kind = elementType(merged);
    // Only lists that merge can be ordered by identity; a replaced list of maps keeps the patch's order.
    if (kind !== undefined && (kind !== 'object' || mergeKey !== ''))
      merged = orderMerged(merged, order, live ?? [], mergeKey);
    setMember(original, k, merged);
  }
}

/** The patch list's elements (deletions aside) must appear in the order list, in the same relative order. */
function checkOrder(patched: unknown[], order: unknown[], mergeKey: string): void {
  if (order.length === 0 || patched.length === 0) return;
  const items = patched.filter((p) => !(isPlainObject(p) && getMember(p, DIRECTIVE) === 'delete'));
  requireMergeKey(order, mergeKey);
  let i = 0;
  let j = 0;
  while (i < items.length && j < order.length) {
    if (isPlainObject(items[i]) && hasMember(items[i] as JsonMap, DIRECTIVE)) {
      i++;
      continue;
    }
    requireMergeKey([items[i]], mergeKey);
    if (identity(items[i], mergeKey) === identity(order[j], mergeKey)) i++;
    j++;
  }
  if (i < items.length)
    throw badRequest(
      `The order in patch list:\n${goText(patched)}\n doesn't match ${SET_ELEMENT_ORDER} list:\n${goText(order)}`,
    );
}

// ---- entry point ----

/**
 * Applies a strategic merge patch to a whole object (`target` carries
 * apiVersion and kind, which pick the field strategies). Pure: the inputs
 * (stored objects are frozen) are never changed and the result shares
 * nothing with them. A malformed patch (a directive with an unknown value, a
 * list element without its merge key, a directive of the wrong type…) is 400
 * BadRequest with upstream's message; a list of lists or a `$retainKeys`
 * that leaves out a member the patch sets is 422.
 */
export function applyStrategicMergePatch(target: unknown, patch: Record<string, unknown>): unknown {
  let body: JsonMap;
  try {
    body = copyJson(patch);
  } catch (e) {
    if (e instanceof JsonCopyError) throw badRequest(e.message);
    throw e;
  }
  const doc: JsonMap = isPlainObject(target) ? cloneJson(target) : {};
  const apiVersion = doc.apiVersion;
  const kind = doc.kind;
  const entry = typeof apiVersion === 'string' && typeof kind === 'string' ? kindEntry(apiVersion, kind) : undefined;
  const type: SchemaType | undefined = entry === undefined ? undefined : { kind: 'ref', name: entry.definition };
  return mergeMap(doc, body, type);
}
