/**
 * RFC 6902 JSON Patch (`application/json-patch+json`): add, remove, replace,
 * move, copy and test, addressed with RFC 6901 pointers (`-` appends to an
 * array). All-or-nothing: operations run on a private copy of the target and
 * the first failure throws.
 */
import { isPlainObject, jsonEqual } from '../../util/json';
import { cloneValue, deleteMember, getMember, hasMember, setMember } from './jsonMember';
import { arrayIndex, parsePointer } from './jsonPointer';
import {
  MAX_JSON_PATCH_OPERATIONS,
  PatchOperationError,
  malformedPatch,
  patchFailed,
  tooManyOperations,
} from './patchErrors';

export interface JsonPatchOperation {
  op: string;
  path: string;
  value?: unknown;
  from?: string;
}

type Container = Record<string, unknown> | unknown[];

function fail(message: string): never {
  throw new PatchOperationError(message);
}

/** What Go's decoder calls a JSON value's type in "cannot unmarshal X into …". */
function goJsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'object' ? 'object' : typeof v;
}

/** The operations of a patch document; throws 400 when it is not an array of objects. */
function decodePatch(ops: unknown): Record<string, unknown>[] {
  if (ops === null) return [];
  if (!Array.isArray(ops))
    throw malformedPatch(`json: cannot unmarshal ${goJsonType(ops)} into Go value of type jsonpatch.Patch`);
  for (const op of ops) {
    if (op !== null && !isPlainObject(op))
      throw malformedPatch(`json: cannot unmarshal ${goJsonType(op)} into Go value of type jsonpatch.Operation`);
  }
  if (ops.length > MAX_JSON_PATCH_OPERATIONS) throw tooManyOperations(ops.length);
  return ops.map((op: Record<string, unknown> | null) => op ?? {});
}

/** The container holding the last token of `tokens`, or undefined when any step is missing. */
function parentOf(doc: unknown, tokens: readonly string[]): Container | undefined {
  let cur = doc;
  for (let i = 0; i < tokens.length - 1; i++) cur = child(cur, tokens[i]);
  return Array.isArray(cur) || isPlainObject(cur) ? cur : undefined;
}

function child(cur: unknown, token: string): unknown {
  if (Array.isArray(cur)) {
    const idx = arrayIndex(token);
    return idx !== undefined && idx < cur.length ? cur[idx] : undefined;
  }
  return isPlainObject(cur) ? getMember(cur, token) : undefined;
}

function valueAt(doc: unknown, tokens: readonly string[]): unknown {
  let cur = doc;
  for (const t of tokens) cur = child(cur, t);
  return cur;
}

function add(doc: unknown, tokens: readonly string[], path: string, value: unknown): unknown {
  if (tokens.length === 0) return value;
  const parent = parentOf(doc, tokens);
  if (!parent) fail(`add operation does not apply: doc is missing path: "${path}": missing value`);
  const key = tokens[tokens.length - 1];
  if (!Array.isArray(parent)) {
    setMember(parent, key, value);
    return doc;
  }
  const idx = key === '-' ? parent.length : arrayIndex(key);
  if (idx === undefined || idx > parent.length)
    fail(`error in add for path: '${path}': Unable to access invalid index: ${key}: invalid index referenced`);
  parent.splice(idx, 0, value);
  return doc;
}

function remove(doc: unknown, tokens: readonly string[], path: string): unknown {
  const parent = tokens.length === 0 ? undefined : parentOf(doc, tokens);
  if (!parent) fail(`remove operation does not apply: doc is missing path: "${path}": missing value`);
  const key = tokens[tokens.length - 1];
  if (Array.isArray(parent)) {
    const idx = arrayIndex(key);
    if (idx === undefined || idx >= parent.length)
      fail(`error in remove for path: '${path}': Unable to access invalid index: ${key}: invalid index referenced`);
    return parent.splice(idx, 1)[0];
  }
  if (!hasMember(parent, key))
    fail(`error in remove for path: '${path}': Unable to remove nonexistent key: ${key}: missing value`);
  const removed = parent[key];
  deleteMember(parent, key);
  return removed;
}

function replace(doc: unknown, tokens: readonly string[], path: string, value: unknown): unknown {
  if (tokens.length === 0) return value;
  const parent = parentOf(doc, tokens);
  if (!parent) fail(`replace operation does not apply: doc is missing path: ${path}: missing value`);
  const key = tokens[tokens.length - 1];
  if (Array.isArray(parent)) {
    const idx = arrayIndex(key);
    if (idx === undefined || idx >= parent.length)
      fail(`replace operation does not apply: doc is missing key: ${path}: missing value`);
    parent[idx] = value;
  } else {
    if (!hasMember(parent, key)) fail(`replace operation does not apply: doc is missing key: ${path}: missing value`);
    setMember(parent, key, value);
  }
  return doc;
}

function isProperPrefix(prefix: readonly string[], tokens: readonly string[]): boolean {
  return prefix.length < tokens.length && prefix.every((t, i) => t === tokens[i]);
}

function pointerOf(
  op: Record<string, unknown>,
  member: 'path' | 'from',
  kind: string,
): { tokens: string[]; text: string } {
  const text = op[member];
  const tokens = typeof text === 'string' ? parsePointer(text) : undefined;
  if (typeof text !== 'string' || !tokens)
    fail(`${kind} operation failed to decode ${member}: ${JSON.stringify(text ?? null)}: missing value`);
  return { tokens, text };
}

function valueOf(op: Record<string, unknown>, kind: string, path: string): unknown {
  if (!hasMember(op, 'value')) fail(`${kind} operation does not apply: missing value for path: ${path}`);
  return cloneValue(op.value);
}

/** Applies one operation to the working document and returns the (possibly new) document. */
function applyOperation(doc: unknown, op: Record<string, unknown>): unknown {
  const kind = typeof op.op === 'string' ? op.op : 'unknown';
  if (!['add', 'remove', 'replace', 'move', 'copy', 'test'].includes(kind))
    fail(`Unexpected kind: ${kind}: unknown object type`);
  const { tokens, text: path } = pointerOf(op, 'path', kind);
  switch (kind) {
    case 'add':
      return add(doc, tokens, path, valueOf(op, kind, path));
    case 'remove':
      remove(doc, tokens, path);
      return doc;
    case 'replace':
      return replace(doc, tokens, path, valueOf(op, kind, path));
    case 'test': {
      const expected = valueOf(op, kind, path);
      const actual = valueAt(doc, tokens);
      if (actual === undefined) fail(`test operation does not apply: is missing path: ${path}: missing value`);
      if (!jsonEqual(actual, expected)) fail(`testing value ${path} failed: test failed`);
      return doc;
    }
    default:
      return moveOrCopy(doc, op, kind, tokens, path);
  }
}

function moveOrCopy(doc: unknown, op: Record<string, unknown>, kind: string, tokens: string[], path: string): unknown {
  const from = pointerOf(op, 'from', kind);
  const value = valueAt(doc, from.tokens);
  if (value === undefined)
    fail(`${kind} operation does not apply: doc is missing from path: ${from.text}: missing value`);
  if (kind === 'copy') return add(doc, tokens, path, cloneValue(value));
  if (isProperPrefix(from.tokens, tokens))
    fail(`move operation does not apply: from ${from.text} is a prefix of path ${path}`);
  // The root is a prefix of every other path, so from here on `from` names a member or element.
  if (from.text === path) return doc;
  remove(doc, from.tokens, from.text);
  return add(doc, tokens, path, value);
}

/**
 * Applies an RFC 6902 patch. Pure: inputs are never mutated (they may be
 * frozen) and the result shares nothing with them. Throws ApiError:
 * 400 when `ops` is not an array of objects (null counts as no operations),
 * 413 above 10000 operations, and 422 Invalid (upstream's generic message, the
 * reason in `details.causes[0].message`) for an unknown op, a missing or
 * malformed path/from/value, a missing target, a bad array index, or a failed test.
 */
export function applyJsonPatch(target: unknown, ops: unknown): unknown {
  const list = decodePatch(ops);
  let doc = cloneValue(target);
  for (const op of list) {
    try {
      doc = applyOperation(doc, op);
    } catch (e) {
      if (e instanceof PatchOperationError) throw patchFailed(e.message);
      throw e;
    }
  }
  return doc;
}
