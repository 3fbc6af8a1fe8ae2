/**
 * Defaulting of a custom resource from its schema's `default`s: a property that is absent (or `null` where the
 * schema does not allow null) gets a copy of its default; then every present value is defaulted by its own
 * schema, so nested defaults apply inside objects that exist (a default never creates its parent).
 *
 * upstream: apiextensions-apiserver pkg/apiserver/schema/defaulting/algorithm.go (`Default`). Runs after pruning,
 * on the request's version, as the API server's decoder does; in place, on a private copy.
 */
import type { JSONSchemaProps } from './types';
import { additionalSchema, isObject, itemsSchema } from './types';

function copy<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

function isNonNullableNull(v: unknown, s: JSONSchemaProps): boolean {
  return v === null && s.nullable !== true;
}

export function applySchemaDefaults(x: unknown, s: JSONSchemaProps | undefined): void {
  if (s === undefined) return;
  if (Array.isArray(x)) {
    const items = itemsSchema(s);
    if (items === undefined) return;
    for (let i = 0; i < x.length; i++) {
      if (items.default !== undefined && isNonNullableNull(x[i], items)) x[i] = copy(items.default);
      applySchemaDefaults(x[i], items);
    }
    return;
  }
  if (!isObject(x)) return;
  const props = s.properties ?? {};
  for (const [key, prop] of Object.entries(props)) {
    if (prop.default === undefined) continue;
    if (!Object.hasOwn(x, key) || isNonNullableNull(x[key], prop)) x[key] = copy(prop.default);
  }
  const additional = additionalSchema(s);
  for (const key of Object.keys(x)) {
    const child = Object.hasOwn(props, key) ? props[key] : additional;
    if (child === undefined) continue;
    if (child.default !== undefined && isNonNullableNull(x[key], child)) x[key] = copy(child.default);
    applySchemaDefaults(x[key], child);
  }
}

/** Whether any node of the schema has a default (objects of a CRD without defaults need no defaulting pass). */
export function hasDefaults(s: JSONSchemaProps | undefined): boolean {
  if (s === undefined) return false;
  if (s.default !== undefined) return true;
  for (const p of Object.values(s.properties ?? {})) if (hasDefaults(p)) return true;
  const items = itemsSchema(s);
  if (items !== undefined && hasDefaults(items)) return true;
  const additional = additionalSchema(s);
  return additional !== undefined && hasDefaults(additional);
}
