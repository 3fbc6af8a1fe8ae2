/**
 * JSON Patch (`application/json-patch+json`) exactly as kube-apiserver applies
 * it: gopkg.in/evanphx/json-patch.v4 v4.12.0 (patch.go), which departs from
 * RFC 6902 in ways clients can see —
 * - pointers are read loosely (see jsonPointer.ts): negative array indices
 *   count from the end (`remove /a/-1`), `01` and `+1` are indices, a `~`
 *   escape other than `~0`/`~1` is kept as written;
 * - `replace` of a missing object member adds it; `add` and `replace` without
 *   a `value` set `null`; `copy` from a missing member copies `null`;
 * - `test` of a missing member passes when the value is `null` or absent;
 * - `move` has no "from is a prefix of path" rule: it removes first, and the
 *   destination is then missing;
 * - the whole document can be replaced or tested (path `""`) but not added to
 *   or removed.
 * Each operation's error keeps the library's words (with `%w` chains as Go
 * prints them). kube-apiserver (handlers/patch.go: applyJSPatch) answers a
 * patch that does not apply with a bare 422 and drops those words; they ride
 * on the error's `cause` instead. Where the library panics (a `test` that
 * compares arrays holding `null`, a `replace`/`test` of the root without a
 * `value`), the server answers 500.
 *
 * Known gap: primitives compare as JSON values, where the library compares
 * their compact JSON text (`1` and `1.0`, `"A"` and `"\u0041"` differ there).
 */
import { isPlainObject } from '../../util/json';
import { cloneValue, deleteMember, getMember, hasMember, setMember } from './jsonMember';
import { goAtoi } from '../../util/goText';
import { splitPointer } from './jsonPointer';
import {
  MAX_JSON_PATCH_OPERATIONS,
  PatchOperationError,
  malformedPatch,
  patchFailed,
  patchPanicked,
  tooManyOperations,
} from './patchErrors';

export interface JsonPatchOperation {
  op: string;
  path: string;
  value?: unknown;
  from?: string;
}

export interface JsonPatchOptions {
  /**
   * The request's `fieldValidation`. Warn (the server's default) and Strict
   * first decode the body into typed operations (kjson.UnmarshalStrict into
   * `[]jsonPatchOp`), so a non-string `op`, `path` or `from` is a 400
   * `error decoding patch: …`; Ignore goes straight to the library's decoder.
   */
  fieldValidation?: 'Strict' | 'Warn' | 'Ignore';
  /**
   * Bytes `copy` operations may add in one patch; 0 for no limit. kube-apiserver
   * sets the library's AccumulatedCopySizeLimit from JSONPatchMaxCopyBytes: 3 MiB.
   */
  copySizeLimit?: number;
}

/** upstream: apiserver server.Config JSONPatchMaxCopyBytes. */
export const JSON_PATCH_MAX_COPY_BYTES = 3 * 1024 * 1024;

type Container = Record<string, unknown> | unknown[];
type Op = Record<string, unknown>;
/** A value or a failure in the library's words. `null` stands for Go's nil node (a missing or null member). */
type Got = { value: unknown } | { error: string };

const MISSING = 'missing value';
const INVALID_INDEX = 'invalid index referenced';
const TEST_FAILED = 'test failed';

function fail(message: string): never {
  throw new PatchOperationError(message);
}

/** Marks where the Go library dereferences a nil node. */
class Panic extends Error {}

function isContainer(v: unknown): v is Container {
  return Array.isArray(v) || isPlainObject(v);
}

/** What Go's decoder calls a JSON value's type in "cannot unmarshal X into …". */
function goJsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'object' ? 'object' : typeof v;
}

/**
 * The operations of a patch body, or 400 as upstream decodes it. Warn/Strict:
 * handlers/patch.go decodes into `[]jsonPatchOp` first (`error decoding patch:
 * …`); then, or with Ignore, jsonpatch.DecodePatch (its error alone). `null`
 * is no operations; a `null` operation is an empty one.
 */
function decodePatch(ops: unknown, fieldValidation: JsonPatchOptions['fieldValidation']): Op[] {
  const typed = fieldValidation !== 'Ignore';
  const wrap = (m: string) => malformedPatch(typed ? `error decoding patch: ${m}` : m);
  if (ops === null) return [];
  if (!Array.isArray(ops)) {
    const type = typed ? '[]handlers.jsonPatchOp' : 'jsonpatch.Patch';
    throw wrap(`json: cannot unmarshal ${goJsonType(ops)} into Go value of type ${type}`);
  }
  for (const op of ops) {
    if (op === null) continue;
    if (!isPlainObject(op)) {
      const type = typed ? 'handlers.jsonPatchOp' : 'jsonpatch.Operation';
      throw wrap(`json: cannot unmarshal ${goJsonType(op)} into Go value of type ${type}`);
    }
    if (!typed) continue;
    for (const [member, v] of Object.entries(op)) {
      if ((member === 'op' || member === 'path' || member === 'from') && v !== null && typeof v !== 'string')
        throw wrap(`json: cannot unmarshal ${goJsonType(v)} into Go struct field jsonPatchOp.${member} of type string`);
    }
  }
  if (ops.length > MAX_JSON_PATCH_OPERATIONS) throw tooManyOperations(ops.length);
  return ops.map((op: Op | null) => op ?? {});
}

// ---- the operation's members (Operation.Kind, Path, From, value) ------------

function kindOf(op: Op): string {
  return typeof op.op === 'string' ? op.op : 'unknown';
}

/** `Path()` / `From()`: the string, or the error the library wraps. */
function pointerOf(op: Op, member: 'path' | 'from'): { pointer: string } | { error: string } {
  const v = getMember(op, member);
  if (v === undefined || v === null)
    return {
      error:
        member === 'path' ? `operation missing path field: ${MISSING}` : `operation, missing from field: ${MISSING}`,
    };
  if (typeof v !== 'string') return { error: `json: cannot unmarshal ${goJsonType(v)} into Go value of type string` };
  return { pointer: v };
}

/** `op.value()`: a private copy of `value`, or undefined when the member is absent (Go's nil node). */
function valueOf(op: Op): unknown {
  return hasMember(op, 'value') ? cloneValue(op.value) : undefined;
}

// ---- containers (partialDoc and partialArray) --------------------------------

function invalidIndex(idx: bigint): string {
  return `Unable to access invalid index: ${idx}: ${INVALID_INDEX}`;
}

function get(con: Container, key: string): Got {
  if (!Array.isArray(con)) return { value: getMember(con, key) ?? null };
  const n = goAtoi(key);
  if ('error' in n) return n;
  let idx = n.value;
  const len = BigInt(con.length);
  if (idx < 0n) {
    if (idx < -len) return { error: invalidIndex(idx) };
    idx += len;
  }
  if (idx >= len) return { error: invalidIndex(idx) };
  return { value: con[Number(idx)] };
}

/** partialArray.set / partialDoc.set, after `get` found the key. */
function set(con: Container, key: string, value: unknown): void {
  if (!Array.isArray(con)) {
    setMember(con, key, value);
    return;
  }
  const n = goAtoi(key);
  if ('error' in n) fail(n.error);
  let idx = n.value;
  if (idx < 0n) idx += BigInt(con.length);
  con[Number(idx)] = value;
}

/** partialArray.add / partialDoc.add: an error message, or undefined when added. */
function add(con: Container, key: string, value: unknown): string | undefined {
  if (!Array.isArray(con)) {
    setMember(con, key, value);
    return undefined;
  }
  if (key === '-') {
    con.push(value);
    return undefined;
  }
  const n = goAtoi(key);
  if ('error' in n) return `value was not a proper array index: '${key}': ${n.error}`;
  let idx = n.value;
  const size = BigInt(con.length + 1);
  if (idx >= size) return invalidIndex(idx);
  if (idx < 0n) {
    if (idx < -size) return invalidIndex(idx);
    idx += size;
  }
  con.splice(Number(idx), 0, value);
  return undefined;
}

/** partialArray.remove / partialDoc.remove: an error message, or undefined when removed. */
function remove(con: Container, key: string): string | undefined {
  if (!Array.isArray(con)) {
    if (!hasMember(con, key)) return `Unable to remove nonexistent key: ${key}: ${MISSING}`;
    deleteMember(con, key);
    return undefined;
  }
  const n = goAtoi(key);
  if ('error' in n) return n.error;
  let idx = n.value;
  const len = BigInt(con.length);
  if (idx >= len) return invalidIndex(idx);
  if (idx < 0n) {
    if (idx < -len) return invalidIndex(idx);
    idx += len;
  }
  con.splice(Number(idx), 1);
  return undefined;
}

/**
 * upstream: findObject — the container of the pointer's last token. Every
 * step must be an object or array: a missing, null or primitive one, or an
 * array token Atoi refuses, means there is none.
 */
function findObject(root: unknown, pointer: string): { con: Container; key: string } | undefined {
  const split = splitPointer(pointer);
  if (!split || !isContainer(root)) return undefined;
  let con: Container = root;
  for (const part of split.parents) {
    const next = get(con, part);
    if ('error' in next || !isContainer(next.value)) return undefined;
    con = next.value;
  }
  return { con, key: split.key };
}

// ---- equality (lazyNode.equal) -----------------------------------------------

/**
 * Structural equality as the library decides it: objects by member (a null
 * member only equals a null one), arrays element by element, primitives by
 * value. An array element that is null on either side is a nil node the
 * library dereferences: it panics.
 */
function goEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      if (a[i] === null || b[i] === null) throw new Panic();
      if (!goEqual(a[i], b[i])) return false;
    }
    return true;
  }
  if (isPlainObject(a)) {
    if (!isPlainObject(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    for (const k of keys) {
      if (!hasMember(b, k)) return false;
      const av = a[k];
      const bv = b[k];
      if ((av === null) !== (bv === null)) return false;
      if (av !== null && !goEqual(av, bv)) return false;
    }
    return true;
  }
  return b !== null && typeof b !== 'object' && a === b;
}

/** The bytes Go's json.Marshal writes for a value (HTML characters and U+2028/9 escaped): the copy size. */
function goJsonSize(value: unknown): number {
  const text = JSON.stringify(value);
  let size = Buffer.byteLength(text, 'utf8');
  for (const c of text) {
    if (c === '<' || c === '>' || c === '&') size += 5;
    else if (c === '\u2028' || c === '\u2029') size += 3;
  }
  return size;
}

// ---- the operations (Patch.add, remove, replace, move, test, copy) ------------

interface State {
  root: unknown;
  copied: number;
  copyLimit: number;
}

function opAdd(s: State, op: Op): void {
  const path = pointerOf(op, 'path');
  if ('error' in path) fail(`add operation failed to decode path: ${MISSING}`);
  const found = findObject(s.root, path.pointer);
  if (!found) fail(`add operation does not apply: doc is missing path: "${path.pointer}": ${MISSING}`);
  const err = add(found.con, found.key, valueOf(op) ?? null);
  if (err) fail(`error in add for path: '${path.pointer}': ${err}`);
}

function opRemove(s: State, op: Op): void {
  const path = pointerOf(op, 'path');
  if ('error' in path) fail(`remove operation failed to decode path: ${MISSING}`);
  const found = findObject(s.root, path.pointer);
  if (!found) fail(`remove operation does not apply: doc is missing path: "${path.pointer}": ${MISSING}`);
  const err = remove(found.con, found.key);
  if (err) fail(`error in remove for path: '${path.pointer}': ${err}`);
}

function opReplace(s: State, op: Op): void {
  const path = pointerOf(op, 'path');
  if ('error' in path) fail(`replace operation failed to decode path: ${path.error}`);
  if (path.pointer === '') {
    const value = valueOf(op);
    if (value === undefined) throw new Panic();
    // Go formats the nil error it wraps here as %!w(<nil>).
    if (!isContainer(value)) fail('replace operation value must be object or array: %!w(<nil>)');
    s.root = value;
    return;
  }
  const found = findObject(s.root, path.pointer);
  if (!found) fail(`replace operation does not apply: doc is missing path: ${path.pointer}: ${MISSING}`);
  if ('error' in get(found.con, found.key))
    fail(`replace operation does not apply: doc is missing key: ${path.pointer}: ${MISSING}`);
  set(found.con, found.key, valueOf(op) ?? null);
}

function opMove(s: State, op: Op): void {
  const from = pointerOf(op, 'from');
  if ('error' in from) fail(`move operation failed to decode from: ${from.error}`);
  const source = findObject(s.root, from.pointer);
  if (!source) fail(`move operation does not apply: doc is missing from path: ${from.pointer}: ${MISSING}`);
  const got = get(source.con, source.key);
  if ('error' in got) fail(`error in move for path: '${source.key}': ${got.error}`);
  const removed = remove(source.con, source.key);
  if (removed) fail(`error in move for path: '${source.key}': ${removed}`);
  const path = pointerOf(op, 'path');
  if ('error' in path) fail(`move operation failed to decode path: ${path.error}`);
  const target = findObject(s.root, path.pointer);
  if (!target) fail(`move operation does not apply: doc is missing destination path: ${path.pointer}: ${MISSING}`);
  const err = add(target.con, target.key, got.value);
  if (err) fail(`error in move for path: '${path.pointer}': ${err}`);
}

function opTest(s: State, op: Op): void {
  const path = pointerOf(op, 'path');
  if ('error' in path) fail(`test operation failed to decode path: ${path.error}`);
  const failed = `testing value ${path.pointer} failed: ${TEST_FAILED}`;
  const expected = valueOf(op);
  if (path.pointer === '') {
    if (expected === undefined) throw new Panic();
    if (!goEqual(s.root, expected)) fail(failed);
    return;
  }
  const found = findObject(s.root, path.pointer);
  if (!found) fail(`test operation does not apply: is missing path: ${path.pointer}: ${MISSING}`);
  const got = get(found.con, found.key);
  if ('error' in got) fail(`error in test for path: '${path.pointer}': ${got.error}`);
  if (got.value === null) {
    if (expected === undefined || expected === null) return;
    fail(failed);
  }
  if (expected === undefined || !goEqual(got.value, expected)) fail(failed);
}

function opCopy(s: State, op: Op): void {
  const from = pointerOf(op, 'from');
  if ('error' in from) fail(`copy operation failed to decode from: ${from.error}`);
  const source = findObject(s.root, from.pointer);
  if (!source) fail(`copy operation does not apply: doc is missing from path: ${from.pointer}: ${MISSING}`);
  const got = get(source.con, source.key);
  if ('error' in got) fail(`error in copy for from: '${from.pointer}': ${got.error}`);
  const path = pointerOf(op, 'path');
  if ('error' in path) fail(`copy operation failed to decode path: ${MISSING}`);
  const target = findObject(s.root, path.pointer);
  if (!target) fail(`copy operation does not apply: doc is missing destination path: ${path.pointer}: ${MISSING}`);
  s.copied += got.value === null ? 0 : goJsonSize(got.value);
  if (s.copyLimit > 0 && s.copied > s.copyLimit)
    fail(
      `Unable to complete the copy, the accumulated size increase of copy is ${s.copied}, exceeding the limit ${s.copyLimit}`,
    );
  const err = add(target.con, target.key, cloneValue(got.value));
  if (err) fail(`error while adding value during copy: ${err}`);
}

const OPERATIONS: Readonly<Record<string, (s: State, op: Op) => void>> = {
  add: opAdd,
  remove: opRemove,
  replace: opReplace,
  move: opMove,
  test: opTest,
  copy: opCopy,
};

/**
 * Applies a JSON patch as kube-apiserver does. Pure: inputs are never mutated
 * (they may be frozen) and the result shares nothing with them. Throws
 * ApiError: 400 when the body does not decode as a patch (see
 * `JsonPatchOptions.fieldValidation`), 413 above 10000 operations, 422 when
 * an operation does not apply (the library's reason on the error's `cause`),
 * 500 where the library panics. All or nothing.
 */
export function applyJsonPatch(target: unknown, ops: unknown, options: JsonPatchOptions = {}): unknown {
  const list = decodePatch(ops, options.fieldValidation);
  const state: State = {
    root: cloneValue(target),
    copied: 0,
    copyLimit: options.copySizeLimit ?? JSON_PATCH_MAX_COPY_BYTES,
  };
  if (!isContainer(state.root))
    throw patchFailed(`json: cannot unmarshal ${goJsonType(state.root)} into Go value of type jsonpatch.partialDoc`);
  for (const op of list) {
    const kind = kindOf(op);
    try {
      const apply = Object.hasOwn(OPERATIONS, kind) ? OPERATIONS[kind] : undefined;
      if (!apply) fail(`Unexpected kind: ${kind}`);
      apply(state, op);
    } catch (e) {
      if (e instanceof PatchOperationError) throw patchFailed(e.message);
      if (e instanceof Panic) throw patchPanicked();
      throw e;
    }
  }
  return state.root;
}
