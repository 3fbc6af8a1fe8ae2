/**
 * What decoding JSON into upstream's Go types makes of `null` (encoding/json:
 * null sets a pointer, slice or map to nil and leaves any other value at its
 * zero value), so that a stored object never keeps a null a real API server
 * would not store:
 * - a struct field set to null is absent (`livenessProbe: null`,
 *   `creationTimestamp: null`, `metadata: null`), except a timestamp outside
 *   ObjectMeta: a zero `metav1.Time` encodes as null (`lastProbeTime: null`,
 *   `eventTime: null`), and the schema does not say which are pointers;
 * - a null map value or list item is its type's zero value
 *   (`labels: {app: null}` → `app: ""`, `cpu: null` → `"0"`, a null container → `{}`);
 * - free-form JSON (RawExtension, JSON) keeps its nulls.
 * Kinds the schema does not know lose every null member, as a structural
 * schema's pruning drops non-nullable nulls.
 */
import type { Definition, SchemaType } from '../schema/types';
import { definition } from '../schema/schema';
import { isPlainObject } from '../util/json';

/**
 * Rewrites the nulls of `obj` (a private, mutable copy) read as an instance of `root` (undefined: unknown kind).
 * `members`: the only top-level members that hold a null (the copy counted them), the others are not visited.
 */
export function decodeNulls(
  obj: Record<string, unknown>,
  root: Definition | undefined,
  members?: readonly string[],
): void {
  if (members === undefined) {
    if (root === undefined) dropNullMembers(obj);
    else struct(obj, root);
    return;
  }
  for (const k of members) {
    if (!Object.hasOwn(obj, k)) continue;
    if (root === undefined) {
      if (obj[k] === null) Reflect.deleteProperty(obj, k);
      else dropNullMembers(obj[k]);
    } else member(obj, k, root);
  }
}

function dropNullMembers(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) dropNullMembers(item);
    return;
  }
  if (!isPlainObject(value)) return;
  for (const k of Object.keys(value)) {
    if (value[k] === null) Reflect.deleteProperty(value, k);
    else dropNullMembers(value[k]);
  }
}

export const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

function struct(obj: Record<string, unknown>, def: Definition): void {
  for (const k of Object.keys(obj)) member(obj, k, def);
}

function member(obj: Record<string, unknown>, k: string, def: Definition): void {
  const v = obj[k];
  const type = Object.hasOwn(def.properties, k) ? def.properties[k].type : undefined;
  if (v !== null) {
    if (type !== undefined) visit(v, type);
  } else if (type?.kind !== 'string' || type.format !== 'date-time' || def.name === OBJECT_META) {
    Reflect.deleteProperty(obj, k);
  }
}

/** Rewrites the nulls inside `value` (a private, mutable copy) read as `type` (a null `value` is the caller's). */
export function decodeNullsAs(value: unknown, type: SchemaType): void {
  visit(value, type);
}

function visit(value: unknown, type: SchemaType): void {
  if (type.kind === 'array' && Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (value[i] === null) value[i] = zeroValue(type.items);
      else visit(value[i], type.items);
    }
    return;
  }
  if (!isPlainObject(value)) return;
  if (type.kind === 'map') {
    for (const k of Object.keys(value)) {
      if (value[k] === null) value[k] = zeroValue(type.values);
      else visit(value[k], type.values);
    }
    return;
  }
  const def = type.kind === 'ref' ? definition(type.name) : undefined;
  if (def !== undefined) struct(value, def);
}

/** The JSON of a Go zero value of `type`, as upstream encodes it (a zero Time and free-form JSON encode as null). */
export function zeroValue(type: SchemaType): unknown {
  switch (type.kind) {
    case 'string':
      return type.format === 'date-time' ? null : '';
    case 'integer':
    case 'number':
    case 'intOrString':
      return 0;
    case 'boolean':
      return false;
    case 'quantity':
      return '0';
    case 'array':
      return [];
    case 'map':
    case 'ref':
      return {};
    case 'any':
      return null;
  }
}
