/**
 * The strategic three-way patch behind client-side `kubectl apply` for the
 * built-in kinds (custom resources keep the JSON merge flavour of
 * threeWayMerge.ts). Lists merge by their field's strategy
 * (sandbox/schema/listStrategies.ts): containers by `name`, env by `name`,
 * finalizers as a set; so what other writers added to a list element (a
 * LimitRange's default `resources`, a `kubectl set env` variable) survives a
 * re-apply, as upstream.
 *
 * upstream: staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/patch.go: CreateThreeWayMergePatch
 * (deltaMap = diffMaps(current → modified, IgnoreDeletions, SetElementOrder); deletionsMap = diffMaps(original →
 * modified, IgnoreChangesAndAdditions, SetElementOrder); patch = mergeMap(deletionsMap, deltaMap)). kubectl passes
 * overwrite=true, so no conflict check is made.
 */
import { kindEntry } from '../../schema/schema';
import type { SchemaType } from '../../schema/types';
import { fieldOf, itemType, strategies } from '../../api/patch/schemaCursor';
import type { Field } from '../../api/patch/schemaCursor';
import { isPlainObject, jsonEqual } from '../../util/json';

type Obj = Record<string, unknown>;

const DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList/';
const SET_ELEMENT_ORDER = '$setElementOrder/';

interface DiffOptions {
  readonly ignoreDeletions: boolean;
  readonly ignoreChangesAndAdditions: boolean;
  readonly buildRetainKeys: boolean;
}

/** Go's decoded JSON types, as `reflect.TypeOf` tells them apart. */
function jsonType(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** A merge key's value as upstream compares them (`fmt.Sprintf("%v")`). */
function keyText(v: unknown): string {
  return typeof v === 'string' ? v : (JSON.stringify(v) ?? '');
}

function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// upstream: strategicpatch/patch.go: diffMaps
function diffMaps(original: Obj, modified: Obj, type: SchemaType | undefined, options: DiffOptions): Obj {
  const patch: Obj = {};
  const retainKeys: string[] = [];
  for (const key of Object.keys(modified)) {
    const mod = modified[key];
    if (mod === undefined) continue;
    if (options.buildRetainKeys && mod !== null) retainKeys.push(key);
    if (!Object.hasOwn(original, key) || original[key] === undefined) {
      if (!options.ignoreChangesAndAdditions) patch[key] = mod;
      continue;
    }
    const orig = original[key];
    if (key === DIRECTIVE) {
      // upstream: handleDirectiveMarker — a `$patch` that changed is sent as is.
      if (!jsonEqual(orig, mod) && !options.ignoreChangesAndAdditions) patch[key] = mod;
      continue;
    }
    if (jsonType(orig) !== jsonType(mod)) {
      if (!options.ignoreChangesAndAdditions) patch[key] = mod;
      continue;
    }
    const field = fieldOf(type, key);
    if (isPlainObject(orig) && isPlainObject(mod)) diffMapField(key, orig, mod, field, patch, options);
    else if (Array.isArray(orig) && Array.isArray(mod)) diffSliceField(key, orig, mod, field, patch, options);
    else replaceIfNotEqual(key, orig, mod, patch, options);
  }
  // upstream: updatePatchIfMissing
  if (!options.ignoreDeletions) {
    for (const key of Object.keys(original)) {
      if (original[key] !== undefined && (!Object.hasOwn(modified, key) || modified[key] === undefined))
        patch[key] = null;
    }
  }
  if (retainKeys.length > 0 && (Object.keys(patch).length > 0 || hasAdditionalNewField(original, modified)))
    patch[RETAIN_KEYS] = [...retainKeys].sort(byText);
  return patch;
}

function hasAdditionalNewField(original: Obj, modified: Obj): boolean {
  return Object.keys(original).some(
    (k) =>
      original[k] !== null && original[k] !== undefined && (!Object.hasOwn(modified, k) || modified[k] === undefined),
  );
}

function replaceIfNotEqual(key: string, orig: unknown, mod: unknown, patch: Obj, options: DiffOptions): void {
  if (options.ignoreChangesAndAdditions || jsonEqual(orig, mod)) return;
  patch[key] = mod;
}

// upstream: strategicpatch/patch.go: handleMapDiff
function diffMapField(key: string, orig: Obj, mod: Obj, field: Field, patch: Obj, options: DiffOptions): void {
  const s = strategies(field);
  if (s.includes('replace')) {
    replaceIfNotEqual(key, orig, mod, patch, options);
    return;
  }
  const nested = diffMaps(orig, mod, field.type, { ...options, buildRetainKeys: s.includes('retainKeys') });
  if (Object.keys(nested).length > 0) patch[key] = nested;
}

// upstream: strategicpatch/patch.go: handleSliceDiff
function diffSliceField(key: string, orig: unknown[], mod: unknown[], field: Field, patch: Obj, options: DiffOptions) {
  const s = strategies(field);
  if (!s.includes('merge')) {
    replaceIfNotEqual(key, orig, mod, patch, options);
    return;
  }
  const mergeKey = field.strategy?.patchMergeKey ?? '';
  const { add, del, order } = diffLists(orig, mod, itemType(field.type), mergeKey, {
    ...options,
    buildRetainKeys: s.includes('retainKeys'),
  });
  if (add.length > 0) patch[key] = add;
  if (del.length > 0) patch[`${DELETE_FROM_PRIMITIVE_LIST}${key}`] = del;
  if (order.length > 0) patch[`${SET_ELEMENT_ORDER}${key}`] = order;
}

// upstream: strategicpatch/patch.go: diffLists
function diffLists(
  orig: unknown[],
  mod: unknown[],
  elements: SchemaType | undefined,
  mergeKey: string,
  options: DiffOptions,
): { add: unknown[]; del: unknown[]; order: unknown[] } {
  const none = { add: [], del: [], order: [] };
  if (orig.length === 0) {
    if (mod.length === 0 || options.ignoreChangesAndAdditions) return none;
    return { add: mod, del: [], order: [] };
  }
  const first = [...orig, ...mod].find((v) => v !== null);
  if (isPlainObject(first) && mergeKey !== '' && [...orig, ...mod].every(isPlainObject)) {
    const { patch, deletions } = diffListsOfMaps(orig as Obj[], mod as Obj[], elements, mergeKey, options);
    const position = new Map(mod.map((m, i) => [keyText((m as Obj)[mergeKey]), i]));
    patch.sort((a, b) => (position.get(keyText(a[mergeKey])) ?? 0) - (position.get(keyText(b[mergeKey])) ?? 0));
    const add = [...patch, ...deletions];
    const orderSame =
      orig.length === mod.length && orig.every((o, i) => jsonEqual((o as Obj)[mergeKey], (mod[i] as Obj)[mergeKey]));
    const wantOrder =
      (!options.ignoreChangesAndAdditions && (add.length > 0 || !orderSame)) ||
      (!options.ignoreDeletions && add.length > 0);
    const order = wantOrder ? mod.map((m) => ({ [mergeKey]: (m as Obj)[mergeKey] })) : [];
    return { add, del: [], order };
  }
  if (!isPlainObject(first) && !Array.isArray(first)) {
    const { add, del } = diffListsOfScalars(orig, mod, options);
    const position = new Map(mod.map((m, i) => [keyText(m), i]));
    add.sort((a, b) => (position.get(keyText(a)) ?? 0) - (position.get(keyText(b)) ?? 0));
    const wantOrder =
      (!options.ignoreDeletions && del.length > 0) || (!options.ignoreChangesAndAdditions && !jsonEqual(orig, mod));
    return { add, del, order: wantOrder ? mod : [] };
  }
  // Lists of lists, mixed lists or maps without their merge key: the API server refuses them; replace the list.
  if (options.ignoreChangesAndAdditions || jsonEqual(orig, mod)) return none;
  return { add: mod, del: [], order: [] };
}

// upstream: strategicpatch/patch.go: diffListsOfMaps (both lists sorted by merge key, walked together)
function diffListsOfMaps(
  orig: Obj[],
  mod: Obj[],
  elements: SchemaType | undefined,
  mergeKey: string,
  options: DiffOptions,
): { patch: Obj[]; deletions: Obj[] } {
  const sort = (list: Obj[]) => [...list].sort((a, b) => byText(keyText(a[mergeKey]), keyText(b[mergeKey])));
  const o = sort(orig);
  const m = sort(mod);
  const patch: Obj[] = [];
  const deletions: Obj[] = [];
  let i = 0;
  let j = 0;
  while (i < o.length || j < m.length) {
    const ok = i < o.length ? keyText(o[i][mergeKey]) : undefined;
    const mk = j < m.length ? keyText(m[j][mergeKey]) : undefined;
    if (ok !== undefined && mk !== undefined && ok === mk) {
      const nested = diffMaps(o[i], m[j], elements, options);
      if (Object.keys(nested).length > 0) patch.push({ ...nested, [mergeKey]: m[j][mergeKey] });
      i++;
      j++;
    } else if (ok === undefined || (mk !== undefined && ok > mk)) {
      if (!options.ignoreChangesAndAdditions) patch.push(m[j]);
      j++;
    } else {
      if (!options.ignoreDeletions) deletions.push({ [DIRECTIVE]: 'delete', [mergeKey]: o[i][mergeKey] });
      i++;
    }
  }
  return { patch, deletions };
}

// upstream: strategicpatch/patch.go: diffListsOfScalars
function diffListsOfScalars(orig: unknown[], mod: unknown[], options: DiffOptions): { add: unknown[]; del: unknown[] } {
  const sort = (list: unknown[]) => [...list].sort((a, b) => byText(keyText(a), keyText(b)));
  const o = sort(orig);
  const m = sort(mod);
  const add: unknown[] = [];
  const del: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < o.length || j < m.length) {
    const ot = i < o.length ? keyText(o[i]) : undefined;
    const mt = j < m.length ? keyText(m[j]) : undefined;
    if (ot !== undefined && mt !== undefined && ot === mt) {
      i++;
      j++;
    } else if (ot === undefined || (mt !== undefined && ot > mt)) {
      if (!options.ignoreChangesAndAdditions) add.push(m[j]);
      j++;
    } else {
      if (!options.ignoreDeletions) del.push(o[i]);
      i++;
    }
  }
  return { add, del };
}

/**
 * Merges the additive delta into the deletions (upstream merges them with mergeMap and MergeOptions{}, keeping the
 * directives): maps recursively, merging lists element by element by their merge key (deletion directives stay),
 * `$setElementOrder` and `$retainKeys` (computed from the same manifest on both sides) taken from the delta.
 */
function mergePatches(deletions: Obj, delta: Obj, type: SchemaType | undefined): Obj {
  const out: Obj = { ...deletions };
  for (const key of Object.keys(delta)) {
    const a = out[key];
    const b = delta[key];
    const field = key.startsWith('$') ? {} : fieldOf(type, key);
    if (isPlainObject(a) && isPlainObject(b)) out[key] = mergePatches(a, b, field.type);
    else if (Array.isArray(a) && Array.isArray(b) && strategies(field).includes('merge'))
      out[key] = mergeLists(a, b, field);
    else out[key] = b;
  }
  return out;
}

function mergeLists(deletions: unknown[], delta: unknown[], field: Field): unknown[] {
  const mergeKey = field.strategy?.patchMergeKey ?? '';
  if (mergeKey === '') return [...delta, ...deletions.filter((d) => !delta.some((x) => jsonEqual(x, d)))];
  const elements = itemType(field.type);
  const out: unknown[] = [];
  const used = new Set<number>();
  for (const item of delta) {
    const at = deletions.findIndex(
      (d, i) => !used.has(i) && isPlainObject(d) && isPlainObject(item) && jsonEqual(d[mergeKey], item[mergeKey]),
    );
    if (at >= 0 && isPlainObject(item)) {
      used.add(at);
      out.push(mergePatches(deletions[at] as Obj, item, elements));
    } else out.push(item);
  }
  deletions.forEach((d, i) => {
    if (!used.has(i)) out.push(d);
  });
  return out;
}

/** The schema type of an object's kind; undefined for kinds the schema does not know. */
export function kindType(obj: Obj): SchemaType | undefined {
  const { apiVersion, kind } = obj;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return undefined;
  const entry = kindEntry(apiVersion, kind);
  return entry === undefined ? undefined : { kind: 'ref', name: entry.definition };
}

/**
 * The strategic merge patch that moves `live` to `desired`, given the `lastApplied` manifest (undefined when there is
 * none), for objects of `type` (kindType). `{}` means nothing to do.
 */
export function threeWayStrategicPatch(
  lastApplied: Obj | undefined,
  desired: Obj,
  live: Obj,
  type: SchemaType | undefined,
): Obj {
  const delta = diffMaps(live, desired, type, {
    ignoreDeletions: true,
    ignoreChangesAndAdditions: false,
    buildRetainKeys: false,
  });
  const deletions = diffMaps(lastApplied ?? {}, desired, type, {
    ignoreDeletions: false,
    ignoreChangesAndAdditions: true,
    buildRetainKeys: false,
  });
  return mergePatches(deletions, delta, type);
}
