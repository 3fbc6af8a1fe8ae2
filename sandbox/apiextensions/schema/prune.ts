/**
 * Pruning: what the API server removes from a custom resource before anything else looks at it — fields the
 * schema does not specify (unless `x-kubernetes-preserve-unknown-fields`), and `null` where the schema neither
 * allows it (`nullable`) nor has a default to put there. At the root, and in embedded resources, `apiVersion`,
 * `kind` and `metadata` are kept (metadata is ObjectMeta's to check).
 *
 * upstream: apiextensions-apiserver pkg/apiserver/schema/pruning/algorithm.go (`PruneWithOptions`, with
 * `ReturnPruned` for field validation) and pkg/apiserver/schema/defaulting/prunenulls.go
 * (`PruneNonNullableNullsWithoutDefaults`). Pure: works on a private copy the caller owns.
 */
import type { JSONSchemaProps } from './types';
import { additionalSchema, isObject, itemsSchema } from './types';
import type { Segment } from './path';
import { pathText } from './path';

/** One removed field: `spec.foo`, with the keys and indices that lead to it. */
export interface PrunedField {
  path: string;
  segments: Segment[];
}

const RESOURCE_META = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * Removes from `obj` (in place) what `schema` does not specify; returns the removed fields in document order.
 * `isResourceRoot`: `obj` is a whole object (its apiVersion, kind and metadata stay).
 */
export function prune(obj: unknown, schema: JSONSchemaProps | undefined, isResourceRoot = true): PrunedField[] {
  const out: PrunedField[] = [];
  walk(obj, schema, isResourceRoot, [], out);
  return out;
}

function walk(x: unknown, s: JSONSchemaProps | undefined, embedded: boolean, at: Segment[], out: PrunedField[]): void {
  if (Array.isArray(x)) {
    const items = s === undefined ? undefined : itemsSchema(s);
    if (s !== undefined && items === undefined && s['x-kubernetes-preserve-unknown-fields'] === true) return;
    x.forEach((v, i) => walk(v, items, items?.['x-kubernetes-embedded-resource'] === true, [...at, i], out));
    return;
  }
  if (!isObject(x)) return;
  const preserve = s?.['x-kubernetes-preserve-unknown-fields'] === true;
  const props = s?.properties ?? {};
  const additional = s === undefined ? undefined : additionalSchema(s);
  for (const key of Object.keys(x)) {
    if (embedded && RESOURCE_META.has(key)) continue;
    const prop = Object.hasOwn(props, key) ? props[key] : undefined;
    const child = prop ?? additional;
    if (child === undefined) {
      if (preserve) continue;
      Reflect.deleteProperty(x, key);
      out.push({ path: pathText([...at, key]), segments: [...at, key] });
      continue;
    }
    walk(x[key], child, child['x-kubernetes-embedded-resource'] === true, [...at, key], out);
  }
}

/**
 * Removes `null` values where the schema does not allow them and has no default (a default replaces them later):
 * `PruneNonNullableNullsWithoutDefaults`.
 */
export function pruneNonNullableNulls(x: unknown, s: JSONSchemaProps | undefined): void {
  if (s === undefined) return;
  if (Array.isArray(x)) {
    const items = itemsSchema(s);
    if (items !== undefined) for (const v of x) pruneNonNullableNulls(v, items);
    return;
  }
  if (!isObject(x)) return;
  const props = s.properties ?? {};
  const additional = additionalSchema(s);
  for (const key of Object.keys(x)) {
    const child = Object.hasOwn(props, key) ? props[key] : additional;
    if (child === undefined) continue;
    if (x[key] === null) {
      if (child.nullable !== true && child.default === undefined) Reflect.deleteProperty(x, key);
      continue;
    }
    pruneNonNullableNulls(x[key], child);
  }
}
