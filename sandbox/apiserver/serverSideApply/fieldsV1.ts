/**
 * FieldsV1, the JSON form of a field set in `metadata.managedFields[].fieldsV1`, for example
 * `{"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{}}}}}}`.
 * A key with `{}` is a member; a key with children is a prefix, and also a
 * member when it holds `".": {}`. Keys are written sorted as upstream sorts them.
 */
import { FieldSet } from './fieldSet';
import { PathElementError, canonicalElement, compareElements } from './pathElement';

/** The FieldsV1 object for a set. */
export function toFieldsV1(set: FieldSet): Record<string, unknown> {
  return emit(set, false);
}

function emit(node: FieldSet, includeSelf: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (includeSelf && node.self && node.children.size > 0) out['.'] = {};
  const keys = [...node.children.keys()].sort(compareElements);
  for (const k of keys) {
    const c = node.children.get(k)!;
    if (c.isEmpty()) continue;
    out[k] = c.children.size === 0 ? {} : emit(c, true);
  }
  return out;
}

/** Thrown when a FieldsV1 value cannot be read as a field set. */
export class FieldsV1Error extends Error {}

/** Reads a FieldsV1 value; throws FieldsV1Error for anything that is not one. */
export function fromFieldsV1(value: unknown): FieldSet {
  const set = new FieldSet();
  read(value, set, 0);
  return set;
}

function read(value: unknown, node: FieldSet, depth: number): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new FieldsV1Error('expected an object in FieldsV1');
  if (depth > 100) throw new FieldsV1Error('FieldsV1 nested too deeply');
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    if (key === '.') {
      if (depth > 0) node.self = true;
      continue;
    }
    let pe: string;
    try {
      pe = canonicalElement(key);
    } catch (e) {
      if (e instanceof PathElementError) throw new FieldsV1Error(e.message);
      throw e;
    }
    const c = node.child(pe);
    if (typeof child === 'object' && child !== null && !Array.isArray(child) && Object.keys(child).length === 0)
      c.self = true;
    else read(child, c, depth + 1);
    if (c.isEmpty()) node.children.delete(pe);
  }
}
