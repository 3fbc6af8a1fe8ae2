/**
 * Text → YAML documents → the Kubernetes manifests among them, with their
 * source ranges. Everything the parser complains about becomes a problem here;
 * later steps only see documents that parsed cleanly and convert to plain
 * JSON. The language server (its diagnostics), save-to-apply and `simulate`
 * all read manifests through this, so "what is a manifest" means the same in
 * squiggles and in the sandbox.
 */
import { fieldRange } from './pathToRange';
// eslint-disable-next-line no-restricted-imports -- a Document over parsed nodes, only read (`toJS`), never written
import { Document, parseAllDocuments } from 'yaml';
import {
  ALIAS_TYPE,
  MAP_TYPE,
  SCALAR_TYPE,
  SEQ_TYPE,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  nodeType,
} from './yamlNodes';
import type { Alias, LineCounter, Scalar, YAMLError, YAMLMap, YAMLSeq } from 'yaml';
import type { KubeObject } from '../api/types';
import { DEFAULT_COPY_LIMITS, copyJson, isPlainObject } from '../util/json';
import { nestingDepth, nestingDepthBound } from './nestingDepth';
import { parseFastYaml } from './fastYaml/parse';
import { lineCounterFor, positionAt, rangeAt } from './ranges';
import type { Range } from './ranges';

/** Texts longer than this (in UTF-16 code units) are declined rather than parsed. */
export const MAX_TEXT_LENGTH = 10 * 1024 * 1024;
/** Texts nesting deeper than this are declined: the recursive composer could exhaust the stack. */
export const MAX_NESTING_DEPTH = 200;
/** Parser complaints reported per text; hostile input can produce thousands. */
export const MAX_PARSE_DIAGNOSTICS = 100;
/** Alias expansions allowed per document when converting to JS (the yaml package's default). */
export const MAX_ALIAS_COUNT = 100;

/** One YAML document that is a Kubernetes object: a map with string `apiVersion` and `kind`. */
export interface ManifestDocument {
  /** 0-based position of the document in the stream. */
  readonly index: number;
  /** The map at the document root, with source ranges. */
  readonly root: YAMLMap;
  readonly apiVersion: string;
  readonly kind: string;
  /** A private plain-JSON copy of the document; callers may change it. */
  readonly object: Record<string, unknown>;
}

/** What the parser reports; the language server shows these as its diagnostic codes. */
export type ManifestProblemCode =
  /** The YAML parser rejected the text (its own message, at its position). */
  | 'yaml-syntax'
  /** The same key twice in one mapping. */
  | 'yaml-duplicate-key'
  /** Too many alias expansions (a "billion laughs" document): not validated. */
  | 'yaml-alias-limit'
  /** Parses as YAML but has no JSON form (`.inf`, `!!binary`, nesting or size over the API server's limits). */
  | 'yaml-not-json'
  /** Nested deeper than the parser can safely handle: not validated. */
  | 'yaml-too-deep'
  /** NUL bytes or invalid UTF-8: not YAML text at all. */
  | 'binary-content'
  /** Larger than we are willing to parse. */
  | 'manifest-too-large'
  /** `metadata` and a `kind` but no `apiVersion` (kubectl: `error validating data: apiVersion not set`). */
  | 'missing-api-version'
  /** `metadata` and an `apiVersion` but no `kind` (kubectl: `error validating data: kind not set`). */
  | 'missing-kind';

export interface ManifestProblem {
  readonly range: Range;
  readonly code: ManifestProblemCode;
  readonly message: string;
  /** An error keeps its document (or the whole text) from being a manifest; a warning (the parser's) does not. */
  readonly severity: 'error' | 'warning';
}

export interface ParsedManifestText {
  /** Offsets → lines for every range in this text. */
  readonly lineCounter: LineCounter;
  /** Problems found while reading the text, in source order. */
  readonly problems: ManifestProblem[];
  readonly manifests: ManifestDocument[];
}

function problem(range: Range, code: ManifestProblemCode, message: string, warning = false): ManifestProblem {
  return { range, code, message, severity: warning ? 'warning' : 'error' };
}

/**
 * Parses a (multi-document) YAML text. Never throws: hostile input (binary
 * data, alias bombs, huge or deeply nested text) becomes a problem, and a
 * document with syntax errors is reported but not offered as a manifest.
 */
export function parseManifestText(text: string): ParsedManifestText {
  const declined = declineReason(text);
  if (declined) {
    const lc = lineCounterFor(text);
    const range = rangeAt(lc, declined.offset, declined.offset + 1);
    return { lineCounter: lc, problems: [problem(range, declined.code, declined.message)], manifests: [] };
  }
  // Counted from the text itself: the parser's own LineCounter misses newlines inside some malformed tokens.
  const lineCounter = lineCounterFor(text);
  const fast = manifestParser.fast ? fastManifests(text, lineCounter) : undefined;
  if (fast !== undefined) return fast;
  const problems: ManifestProblem[] = [];
  const manifests: ManifestDocument[] = [];
  let docs: Document.Parsed[];
  try {
    docs = parseAllDocuments(text, { prettyErrors: false, merge: true, uniqueKeys: true }) as Document.Parsed[];
  } catch (e) {
    const message = `YAML could not be parsed: ${e instanceof Error ? e.message : String(e)}`;
    return { lineCounter, problems: [problem(rangeAt(lineCounter, 0, 0), 'yaml-syntax', message)], manifests: [] };
  }
  docs.forEach((doc, index) => {
    for (const e of doc.errors) problems.push(yamlProblem(e, text, lineCounter, false));
    for (const w of doc.warnings) problems.push(yamlProblem(w, text, lineCounter, true));
    if (doc.errors.length > 0) return;
    const found = toManifest(
      doc.contents,
      () => doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }),
      index,
      text,
      lineCounter,
    );
    if (found === undefined) return;
    if ('problem' in found) problems.push(found.problem);
    else manifests.push(found);
  });
  return { lineCounter, problems: distinct(problems).slice(0, MAX_PARSE_DIAGNOSTICS), manifests };
}

/**
 * The one switch between the readers: with `fast` (the default), a text in the plain subset of YAML that manifests
 * use is read by sandbox/manifests/fastYaml (the same nodes, several times faster) and anything else by the `yaml`
 * package; without it, every text goes to `yaml`. Tests turn it off to compare both.
 */
export const manifestParser = { fast: true };

/**
 * The manifests of a text the fast reader takes whole, when every manifest in it is plain data; otherwise undefined
 * and `yaml` reads the text (so its messages, and the general conversion's, stay the only ones).
 */
function fastManifests(text: string, lineCounter: LineCounter): ParsedManifestText | undefined {
  const docs = parseFastYaml(text);
  if (docs === undefined) return undefined;
  const problems: ManifestProblem[] = [];
  const manifests: ManifestDocument[] = [];
  for (let index = 0; index < docs.length; index++) {
    const root = docs[index].contents;
    // Anchors and aliases take the general conversion, on a Document holding the same nodes as yaml's would.
    const toJS = () => {
      const doc = new Document(null, { merge: true, uniqueKeys: true });
      doc.contents = root;
      return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    };
    const found = toManifest(root, toJS, index, text, lineCounter, docs[index].anchors ? 'fast-anchors' : 'fast');
    if (found === undefined) continue;
    if ('problem' in found) problems.push(found.problem);
    else manifests.push(found);
  }
  return { lineCounter, problems, manifests };
}

/** Where a field's key is in the text: 0-based lines and characters. */
export interface FieldSpan {
  readonly line: number;
  readonly character: number;
  readonly endLine: number;
  readonly endCharacter: number;
}

/** One manifest to apply: the 0-based line its document starts on, the object, and where its fields are. */
export interface ManifestToApply {
  readonly line: number;
  readonly object: KubeObject;
  /** The key of a field (an upstream field path, or its segments) in the text, or the nearest enclosing one. */
  fieldSpan(field: string | readonly (string | number)[]): FieldSpan;
}

/**
 * A text's manifests as objects to apply, each with the 0-based line its document starts on, and the errors (not
 * warnings) that kept documents out, with their 0-based lines, in source order.
 */
export function manifestObjects(text: string): {
  manifests: ManifestToApply[];
  errors: { line: number; message: string }[];
} {
  const parsed = parseManifestText(text);
  return {
    manifests: parsed.manifests.map((m) => ({
      line: positionAt(parsed.lineCounter, m.root.range?.[0] ?? 0).line,
      object: m.object as unknown as KubeObject,
      fieldSpan(field) {
        const { start, end } = fieldRange(m.root, field, parsed.lineCounter, { part: 'key' });
        return { line: start.line, character: start.character, endLine: end.line, endCharacter: end.character };
      },
    })),
    errors: parsed.problems
      .filter((p) => p.severity === 'error')
      .map((p) => ({ line: p.range.start.line, message: p.message })),
  };
}

/** Drops repeats of the same message at the same place (the parser repeats itself on runaway nesting). */
function distinct(ds: ManifestProblem[]): ManifestProblem[] {
  const seen = new Set<string>();
  return ds.filter((d) => {
    const key = JSON.stringify([d.range, d.code, d.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function declineReason(text: string): { offset: number; code: ManifestProblemCode; message: string } | undefined {
  if (text.length > MAX_TEXT_LENGTH) {
    return {
      offset: 0,
      code: 'manifest-too-large',
      message: `File is larger than ${MAX_TEXT_LENGTH} characters; not validated`,
    };
  }
  const bad = firstOf(text, '\u0000', '\uFFFD');
  if (bad >= 0) {
    return {
      offset: bad,
      code: 'binary-content',
      message: 'File contains binary data (a NUL byte or invalid UTF-8); not validated',
    };
  }
  // The exact (line by line) count only when the cheap bound is over the limit: same answer, a fraction of the cost.
  if (nestingDepthBound(text) > MAX_NESTING_DEPTH && nestingDepth(text) > MAX_NESTING_DEPTH) {
    return {
      offset: 0,
      code: 'yaml-too-deep',
      message: `YAML nests deeper than ${MAX_NESTING_DEPTH} levels; not validated`,
    };
  }
  return undefined;
}

/** The first offset of any of `chars`, or -1. */
function firstOf(text: string, ...chars: string[]): number {
  const found = chars.map((c) => text.indexOf(c)).filter((i) => i >= 0);
  return found.length === 0 ? -1 : Math.min(...found);
}

function yamlProblem(e: YAMLError, text: string, lc: LineCounter, warning: boolean): ManifestProblem {
  const start = Math.min(e.pos[0], text.length);
  let end = Math.min(e.pos[1], text.length);
  if (e.code !== 'DUPLICATE_KEY') return problem(rangeAt(lc, start, end), 'yaml-syntax', e.message, warning);
  // The parser marks the key's first character; widen to the whole key so the squiggle reads as "this key".
  const stop = text.slice(start).search(/:(\s|$)|\n/);
  if (stop > 0) end = start + text.slice(start, start + stop).trimEnd().length;
  return problem(rangeAt(lc, start, end), 'yaml-duplicate-key', e.message, warning);
}

function stringField(root: YAMLMap, key: string): string | undefined {
  const node = root.get(key, true);
  return isScalar(node) && typeof node.value === 'string' ? node.value : undefined;
}

/** A document's manifest, if it is one; `toJS` is the document's conversion for what is not plain data. */
function toManifest(
  root: unknown,
  toJS: () => unknown,
  index: number,
  text: string,
  lc: LineCounter,
  reader: PlainReader = 'yaml',
): ManifestDocument | { problem: ManifestProblem } | undefined {
  if (!isMap(root)) return undefined;
  const apiVersionText = stringField(root, 'apiVersion');
  const kindText = stringField(root, 'kind');
  if (apiVersionText === undefined || kindText === undefined)
    return missingTypeMeta(root, apiVersionText, kindText, text, lc);
  // Kept by the cross-document facts (and their `group`), so not as slices of the text.
  const apiVersion = ownString(apiVersionText);
  const kind = ownString(kindText);
  const start = root.range?.[0] ?? 0;
  const lineEnd = text.indexOf('\n', start);
  const firstLine = rangeAt(lc, start, lineEnd < 0 ? text.length : lineEnd);
  const plain = plainJson(root, reader);
  if (plain !== undefined) return { index, root, apiVersion, kind, object: plain };
  let js: unknown;
  try {
    js = toJS();
  } catch {
    const message = `Document expands more than ${MAX_ALIAS_COUNT} aliases; not validated (resource exhaustion guard)`;
    return { problem: problem(firstLine, 'yaml-alias-limit', message) };
  }
  try {
    const object = copyJson(js);
    if (!isPlainObject(object)) return undefined;
    return { index, root, apiVersion, kind, object };
  } catch (e) {
    const message = `Document has no JSON form: ${e instanceof Error ? e.message : String(e)}`;
    return { problem: problem(firstLine, 'yaml-not-json', message) };
  }
}

/**
 * A document that is plainly meant as a manifest — it has `metadata` and one of `apiVersion` / `kind` — but lacks the
 * other: kubectl refuses the file before sending anything (`error validating data: apiVersion not set`, the type-meta
 * check of `validation.ValidateSchema` in k8s.io/kubectl/pkg/validation), so this is an error, not a document silently
 * skipped. Other YAML (a Helm Chart.yaml has `apiVersion` but no `metadata`; values files, CI configs) stays out of it.
 */
function missingTypeMeta(
  root: YAMLMap,
  apiVersion: string | undefined,
  kind: string | undefined,
  text: string,
  lc: LineCounter,
): { problem: ManifestProblem } | undefined {
  if ((apiVersion === undefined) === (kind === undefined) || !isMap(root.get('metadata', true))) return undefined;
  const start = root.range?.[0] ?? 0;
  const lineEnd = text.indexOf('\n', start);
  const firstLine = rangeAt(lc, start, lineEnd < 0 ? text.length : lineEnd);
  return apiVersion === undefined
    ? { problem: problem(firstLine, 'missing-api-version', 'error validating data: apiVersion not set') }
    : { problem: problem(firstLine, 'missing-kind', 'error validating data: kind not set') };
}

/** Thrown inside {@link plainJson} to fall back to the general conversion. */
const NOT_PLAIN = Symbol('not plain');

/** An anchored node met while converting: its JSON, what it weighs, and yaml's alias bookkeeping for it. */
interface Anchored {
  readonly node: unknown;
  /** Its JSON; undefined while its own node is being read. */
  value?: unknown;
  /** copyJson's bytes for one copy of it. */
  bytes: number;
  /** How many levels of objects and arrays it nests (0 for a scalar). */
  height: number;
  /** yaml's `count` (1, plus one per alias resolved so far) and `aliasCount` (0 until first computed). */
  count: number;
  aliasCount: number;
}

/**
 * Who read a document's nodes: `yaml`, or the fast reader (no tags; `fast-anchors`: it defines anchors, so aliases
 * are resolved in {@link plainJson}; `fast`: it defines none, so it has no alias and no node carries an anchor).
 */
type PlainReader = 'yaml' | 'fast' | 'fast-anchors';

interface PlainState {
  /** The fast reader's nodes: none has a tag (it declines them), so none is looked for. */
  readonly fast: boolean;
  bytes: number;
  /** The deepest level an object or array was entered at (-1: none yet). */
  deepest: number;
  /** Anchored nodes by name, when aliases are resolved here; undefined: an alias is not plain. */
  readonly anchors?: Map<string, Anchored>;
}

/**
 * The JSON of a document's root map read straight off the YAML nodes: what `copyJson(doc.toJS())` gives, in one pass
 * and without the intermediate value, for the documents that are plain data — string keys, string, finite number,
 * boolean and null scalars, no merge keys or tagged collections, within copyJson's depth and size limits. For
 * `fast-anchors` (the fast reader's documents with anchors: each defined once, before its aliases, never around
 * them), an alias is a fresh copy of its anchor's JSON, counted against the alias limit exactly as yaml's toJS counts
 * it (Alias.toJS, getAliasCount); over the limit it is left to toJS, which gives the error. Anything else is
 * undefined, and the general conversion (with its own messages) decides.
 */
function plainJson(root: YAMLMap, reader: PlainReader): Record<string, unknown> | undefined {
  const anchors = reader === 'fast-anchors' ? new Map<string, Anchored>() : undefined;
  const state: PlainState = { fast: reader !== 'yaml', bytes: 0, deepest: -1, anchors };
  try {
    const out = plainNode(root, 0, state) as Record<string, unknown>;
    return state.bytes <= DEFAULT_COPY_LIMITS.maxBytes ? out : undefined;
  } catch (e) {
    if (e === NOT_PLAIN) return undefined;
    throw e;
  }
}

/** One node as copyJson would copy what toJS makes of it, counting copyJson's byte budget; throws NOT_PLAIN. */
function plainNode(node: unknown, depth: number, state: PlainState): unknown {
  const anchor = state.anchors !== undefined && node !== null ? (node as { anchor?: string }).anchor : undefined;
  if (anchor === undefined) return plainValue(node, depth, state);
  // yaml's toJS: the anchor's bookkeeping starts when its node is converted (count 1).
  const entry: Anchored = { node, bytes: 0, height: 0, count: 1, aliasCount: 0 };
  state.anchors!.set(anchor, entry);
  const bytes = state.bytes;
  const deepest = state.deepest;
  state.deepest = -1;
  entry.value = plainValue(node, depth, state);
  entry.bytes = state.bytes - bytes;
  entry.height = state.deepest < 0 ? 0 : state.deepest - depth + 1;
  state.deepest = Math.max(deepest, state.deepest);
  return entry.value;
}

/**
 * `s` as a string of its own, for what outlives the parse (the plain objects, the facts the cross-document checks
 * keep for every file). The readers cut scalars out of the text with `slice`, and V8 makes a cut of 13 characters or
 * more a view (a sliced string) that keeps the whole text alive: a batch `validate` then keeps every file's text in
 * memory, and the young-generation collections copy it. Concatenating first makes V8 flatten a copy of just these
 * characters, so the result no longer refers to the text; shorter cuts are copies already. Same characters.
 */
export function ownString(s: string): string {
  return s.length < SLICE_MIN ? s : (s + ' ').slice(0, -1);
}

/** The length from which V8's `slice` returns a view into its string instead of a copy (`SlicedString::kMinLength`). */
const SLICE_MIN = 13;

function plainValue(node: unknown, depth: number, state: PlainState): unknown {
  if (node === null) return null;
  // The node's kind read once (isScalar, isAlias, isMap, isSeq in turn would read it up to four times).
  const type = nodeType(node);
  if (type === SCALAR_TYPE) {
    const v = (node as Scalar).value;
    switch (typeof v) {
      case 'string':
        state.bytes += v.length + 2;
        return ownString(v);
      case 'number':
        if (!Number.isFinite(v)) throw NOT_PLAIN;
        state.bytes += 8;
        return v;
      case 'boolean':
        state.bytes += 5;
        return v;
      default:
        if (v === null) return null;
        throw NOT_PLAIN;
    }
  }
  if (type === ALIAS_TYPE && state.anchors !== undefined) return aliasValue(node as Alias, depth, state);
  if (depth >= DEFAULT_COPY_LIMITS.maxDepth) throw NOT_PLAIN;
  if (depth > state.deepest) state.deepest = depth;
  if (type === MAP_TYPE) {
    const map = node as YAMLMap;
    if (!state.fast && map.tag !== undefined) throw NOT_PLAIN;
    const out: Record<string, unknown> = {};
    for (const pair of map.items) {
      const key = pair.key;
      if (nodeType(key) !== SCALAR_TYPE) throw NOT_PLAIN;
      const k = (key as Scalar).value;
      if (typeof k !== 'string' || k === '<<' || k === '__proto__') throw NOT_PLAIN;
      if ((key as Scalar).anchor !== undefined && state.anchors !== undefined) throw NOT_PLAIN;
      if (pair.value === undefined) throw NOT_PLAIN;
      state.bytes += k.length + 4;
      out[k] = plainNode(pair.value, depth + 1, state);
    }
    return out;
  }
  if (type === SEQ_TYPE) {
    const seq = node as YAMLSeq;
    if (!state.fast && seq.tag !== undefined) throw NOT_PLAIN;
    const items = seq.items;
    const out = new Array<unknown>(items.length);
    for (let i = 0; i < items.length; i++) out[i] = plainNode(items[i], depth + 1, state);
    state.bytes += items.length + 2;
    return out;
  }
  throw NOT_PLAIN;
}

/** An alias at `depth`: a fresh copy of its anchor's JSON, as copyJson copies the value toJS shares. */
function aliasValue(alias: Alias, depth: number, state: PlainState): unknown {
  const entry = state.anchors!.get(alias.source);
  if (entry === undefined || entry.value === undefined) throw NOT_PLAIN;
  entry.count += 1;
  if (entry.aliasCount === 0) entry.aliasCount = aliasCount(entry.node, state.anchors!);
  if (entry.count * entry.aliasCount > MAX_ALIAS_COUNT) throw NOT_PLAIN;
  if (entry.height > 0) {
    if (depth + entry.height - 1 >= DEFAULT_COPY_LIMITS.maxDepth) throw NOT_PLAIN;
    state.deepest = Math.max(state.deepest, depth + entry.height - 1);
  }
  state.bytes += entry.bytes;
  return cloneJsonValue(entry.value);
}

/** yaml's getAliasCount (nodes/Alias.js): the alias weight of a node, from the anchors' counts so far. */
function aliasCount(node: unknown, anchors: Map<string, Anchored>): number {
  if (isAlias(node)) {
    const a = anchors.get(node.source);
    return a === undefined ? 0 : a.count * a.aliasCount;
  }
  if (isMap(node) || isSeq(node)) {
    let count = 0;
    for (const item of node.items as unknown[]) {
      const c = aliasCount(item, anchors);
      if (c > count) count = c;
    }
    return count;
  }
  if (isPair(node)) return Math.max(aliasCount(node.key, anchors), aliasCount(node.value, anchors));
  return 1;
}

/** A deep copy of plain JSON made by {@link plainValue} (no `__proto__` keys). */
function cloneJsonValue(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map(cloneJsonValue);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) out[k] = cloneJsonValue((v as Record<string, unknown>)[k]);
  return out;
}
