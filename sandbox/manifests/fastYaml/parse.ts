/**
 * A hand-written reader for the plain subset of YAML that Kubernetes manifests use: block maps and sequences, plain,
 * single-quoted scalars on one line, double-quoted ones (over lines too, indented past their parent) and plain ones
 * (folding over lines), literal and folded block scalars
 * (chomping indicators, no indentation indicator), comments, `---` / `...` documents and one-line flow sequences of
 * scalars (`[]`, `[a, "b"]`) and the empty flow map `{}`.
 *
 * It builds the same nodes the `yaml` package composes (YAMLMap, YAMLSeq, Pair, Scalar) with the same `range[0]`,
 * `range[1]`, `type`, `value` (YAML 1.2 core schema), `source`, `format` and `minFractionDigits`, and the scalars' own
 * `range[2]`; a collection's `range[2]` (which in `yaml` also covers comments after its last item) is its `range[1]`,
 * and comments are not kept: nothing downstream reads them. Anything outside the subset — anchors, aliases, tags,
 * merge keys, explicit or non-string keys, duplicate keys, directives, tabs or CR outside block scalars, multi-line
 * single-quoted scalars, double-quoted ones over lines as keys or not indented past their parent, flow maps with
 * entries, any error — makes the whole text undefined, and the caller parses it with `yaml`
 * as before, so every error and its message stays `yaml`'s. test/sandbox/manifests/fastYaml.test.ts compares
 * both on every example and fixture manifest and on generated and mutated YAML.
 */
import type { Alias, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { YamlNodes } from '../yamlNodes';

const { Alias: AliasNode, Pair: PairNode, Scalar: ScalarNode, YAMLMap: MapNode, YAMLSeq: SeqNode } = YamlNodes;

/**
 * Nodes are made without their classes' constructors, which define the node-type symbol (and a collection's
 * `schema`) on every instance with `Object.defineProperty` — ~1 µs a node, a third of the reader's time. Each kind
 * gets one prototype that holds those same non-enumerable properties and inherits the class's prototype, so the
 * nodes are `instanceof` their class, pass yaml's `isScalar`/`isMap`/… (which read the symbol), have the same methods
 * and the same own enumerable properties in the same order (`value`, `items`, `key` then `value`…).
 */
function prototypeLike(sample: object): object {
  const proto: object = Object.create(Object.getPrototypeOf(sample) as object);
  for (const key of Reflect.ownKeys(sample)) {
    const d = Object.getOwnPropertyDescriptor(sample, key)!;
    if (!d.enumerable) Object.defineProperty(proto, key, d);
  }
  return proto;
}
const SCALAR_PROTO = prototypeLike(new ScalarNode(null));
const MAP_PROTO = prototypeLike(new MapNode());
const SEQ_PROTO = prototypeLike(new SeqNode());
const PAIR_PROTO = prototypeLike(new PairNode(null));

function newScalar(value: unknown): Scalar {
  const node = Object.create(SCALAR_PROTO) as Scalar;
  node.value = value;
  return node;
}
function newMap(): YAMLMap {
  const node = Object.create(MAP_PROTO) as YAMLMap;
  node.items = [];
  return node;
}
function newSeq(): YAMLSeq {
  const node = Object.create(SEQ_PROTO) as YAMLSeq;
  node.items = [];
  return node;
}
function newPair(key: unknown, value: unknown): Pair {
  const node = Object.create(PAIR_PROTO) as Pair;
  node.key = key;
  node.value = value;
  return node;
}

/** One document of the stream: its root node (a null Scalar when the document is empty). */
export interface FastDocument {
  readonly contents: Node;
  /** Whether the document defines an anchor (without one it holds no alias either: the reader declines those). */
  readonly anchors: boolean;
}

/** The nodes the reader makes. */
export type Node = YAMLMap | YAMLSeq | Scalar | Alias;

/** Thrown inside the reader when the text leaves the subset. */
const BAIL = Symbol('outside the plain subset');
/** When set (by tests), where the reader last gave up: the stack of the decision. */
export const declineTrace: { enabled: boolean; last?: string } = { enabled: false };

function bail(): unknown {
  if (declineTrace.enabled) declineTrace.last = new Error('declined').stack;
  return BAIL;
}

/**
 * The documents of `text` as the `yaml` package composes them (see the module comment), or undefined when the text
 * leaves the subset the reader handles; never throws.
 */
export function parseFastYaml(text: string): FastDocument[] | undefined {
  if (text.includes('\r') || text.includes('\uFEFF')) return undefined;
  try {
    return new Reader(text).stream();
  } catch {
    // BAIL, or anything unforeseen (a stack overflow on deep nesting): yaml decides.
    return undefined;
  }
}

const SPACE = 32;
const NL = 10;
const TAB = 9;
const HASH = 35;
const COLON = 58;
const DASH = 45;
const AMP = 38;
const STAR = 42;

interface CommentLine {
  /** Its indent. */
  readonly col: number;
  /** The offset after its newline. */
  readonly end: number;
}
const NO_COMMENTS: CommentLine[] = [];

function isBlockCollection(node: Node): boolean {
  // The reader's own nodes: a map or sequence is one made from MAP_PROTO or SEQ_PROTO (as `instanceof` would find,
  // without walking a scalar's whole prototype chain twice).
  const proto: unknown = Object.getPrototypeOf(node);
  return (proto === MAP_PROTO || proto === SEQ_PROTO) && (node as YAMLMap | YAMLSeq).flow !== true;
}

/** Maps up to this many keys find a duplicate key by comparing their keys; larger ones keep a set. */
const SMALL_MAP = 8;

/** A sentinel indent for "end of document" (a `---` / `...` line or the end of the text). */
const END = -1;

class Reader {
  private pos = 0;
  /** Where {@link skipBlank} last stopped, and the indent of that line. */
  private contentAt = -1;
  private contentIndent = 0;
  /** The anchors defined so far in the document being read. */
  private anchors = new Set<string>();
  /** Comment lines after the last item of the collection being read (see afterItem). */
  private gap: CommentLine[] = NO_COMMENTS;
  /** Comment lines a collection that just ended left to its parent. */
  private passedUp: CommentLine[] = NO_COMMENTS;
  private readonly len: number;
  /** Where {@link keyAhead} last looked for a plain key, and the `:` it found there (-1: none). */
  private keyAt = -1;
  private keyColon = -1;

  constructor(private readonly text: string) {
    this.len = text.length;
  }

  stream(): FastDocument[] {
    const docs: FastDocument[] = [];
    const t = this.text;
    for (;;) {
      const ind = this.skipBlank();
      if (ind === END) {
        if (this.pos >= this.len) break;
        if (!this.isMarker('-')) throw bail(); // `...` without a document
      }
      let contents: Node;
      this.anchors = new Set();
      if (ind === END) {
        let afterMarker = this.pos + 3;
        while (t.charCodeAt(afterMarker) === SPACE) afterMarker++;
        this.pos = afterMarker;
        this.restOfLine(false);
        const next = this.skipBlank();
        if (next === END) contents = emptyScalar(afterMarker, afterMarker);
        else contents = this.blockNode(-1, next);
      } else {
        if (t.charCodeAt(this.pos) === 37 /* % */) throw bail();
        contents = this.blockNode(-1, ind);
      }
      docs.push({ contents, anchors: this.anchors.size > 0 });
      const after = this.skipBlank();
      if (after !== END) throw bail();
      if (this.pos < this.len && this.isMarker('.')) {
        this.pos += 3;
        this.restOfLine(false);
      }
    }
    return docs;
  }

  /** `---` or `...` at the current line start, followed by white space or the end. */
  private isMarker(c: '-' | '.'): boolean {
    const t = this.text;
    const p = this.pos;
    if (t[p] !== c || t[p + 1] !== c || t[p + 2] !== c) return false;
    const n = t.charCodeAt(p + 3);
    return p + 3 >= this.len || n === NL || n === SPACE || n === TAB;
  }

  /**
   * From a line start, skips empty, blank and comment lines; leaves `pos` at the start of the next content line and
   * returns its indent, or END at the end of the text or a document marker.
   */
  private skipBlank(): number {
    const t = this.text;
    // Called again where a nested node stopped: `pos` is already at that line's content.
    if (this.pos === this.contentAt) return this.contentIndent;
    for (;;) {
      const start = this.pos;
      if (start >= this.len) return END;
      let p = start;
      while (t.charCodeAt(p) === SPACE) p++;
      const c = t.charCodeAt(p);
      if (p >= this.len) {
        this.pos = p;
        return END;
      }
      if (c === NL) {
        this.pos = p + 1;
        continue;
      }
      if (c === HASH) {
        const nl = t.indexOf('\n', p);
        this.pos = nl < 0 ? this.len : nl + 1;
        continue;
      }
      if (c === TAB) throw bail();
      if (p === start && (this.isMarker('-') || this.isMarker('.'))) return END;
      this.pos = this.contentAt = p;
      return (this.contentIndent = p - start);
    }
  }

  /**
   * After a value: spaces, an optional comment (after a space), then the end of the line. Returns the offset after
   * the newline (or the end of the text); anything else on the line is outside the subset.
   */
  private restOfLine(needSpace: boolean): number {
    const t = this.text;
    let p = this.pos;
    const from = p;
    while (t.charCodeAt(p) === SPACE) p++;
    if (p < this.len && t.charCodeAt(p) === HASH) {
      if (needSpace && p === from) throw bail();
      const nl = t.indexOf('\n', p);
      p = nl < 0 ? this.len : nl;
    }
    if (p >= this.len) return (this.pos = this.len);
    if (t.charCodeAt(p) !== NL) throw bail();
    return (this.pos = p + 1);
  }

  private column(p: number): number {
    return p - (this.text.lastIndexOf('\n', p - 1) + 1);
  }

  /** A node starting at `pos` (the first content of a line, at indent `ind`), inside a parent at `parentIndent`. */
  private blockNode(parentIndent: number, ind: number): Node {
    const t = this.text;
    const c = t.charCodeAt(this.pos);
    if (ind <= parentIndent) throw bail();
    if (c === DASH && this.dashIndicator(this.pos)) return this.blockSeq(ind);
    if (this.keyAhead()) return this.blockMap(ind);
    if (c === 124 /* | */ || c === 62 /* > */) throw bail();
    return this.inlineValue(parentIndent);
  }

  /** `-` followed by white space or the end of the line. */
  private dashIndicator(p: number): boolean {
    const n = this.text.charCodeAt(p + 1);
    return p + 1 >= this.len || n === SPACE || n === NL;
  }

  /** Whether the line at `pos` starts with an implicit key (`key:` followed by white space or the end). */
  private keyAhead(): boolean {
    const t = this.text;
    const p = this.pos;
    const c = t.charCodeAt(p);
    if (c === 34 /* " */ || c === 39 /* ' */) {
      // Over lines (inlineValue checks the indent): as a key, yaml reports MULTILINE_IMPLICIT_KEY.
      const end = this.quotedEnd(p, 1);
      let q = end;
      while (t.charCodeAt(q) === SPACE) q++;
      const colon = t.charCodeAt(q) === COLON && this.colonIndicator(q);
      if (colon && t.lastIndexOf('\n', end) > p) throw bail();
      return colon;
    }
    if (c === 91 || c === 123) return false; // a flow collection (as a key: left to yaml)
    const colon = this.plainKeyEnd(p);
    this.keyAt = p;
    this.keyColon = colon;
    return colon >= 0;
  }

  private colonIndicator(q: number): boolean {
    const n = this.text.charCodeAt(q + 1);
    return q + 1 >= this.len || n === SPACE || n === NL;
  }

  /** The offset of the `:` ending a plain key that starts at `p` on this line, or -1. */
  private plainKeyEnd(p: number): number {
    const t = this.text;
    for (let q = p; q < this.len; q++) {
      const c = t.charCodeAt(q);
      if (c === NL) return -1;
      if (c === TAB) throw bail();
      if (c === COLON && this.colonIndicator(q)) return q;
      if (c === HASH && q > p && t.charCodeAt(q - 1) === SPACE) return -1;
    }
    return -1;
  }

  /**
   * The offset after the closing quote of the quoted scalar at `p`: on one line, or — for a double-quoted scalar when
   * `minIndent` > 0 — over lines, each line after the first (its closing quote's too) blank or indented by at least
   * `minIndent` spaces. That is the `yaml` lexer's `continueScalar` (upstream yaml/dist/parse/lexer.js): a line
   * indented less than the block's `indentNext` ends the scalar without its closing quote, an error; declined here.
   */
  private quotedEnd(p: number, minIndent = 0): number {
    const t = this.text;
    const quote = t.charCodeAt(p);
    for (let q = p + 1; q < this.len; q++) {
      const c = t.charCodeAt(q);
      if (c === TAB) throw bail();
      if (c === NL) {
        if (quote !== 34 || minIndent <= 0) throw bail();
        let r = q + 1;
        while (t.charCodeAt(r) === SPACE) r++;
        if (r < this.len && t.charCodeAt(r) !== NL && r - (q + 1) < minIndent) throw bail();
        continue;
      }
      if (quote === 34) {
        if (c === 92 /* \ */) {
          q++;
          if (t.charCodeAt(q) === NL) {
            if (minIndent <= 0) throw bail();
            q--; // the newline is checked as any other
          }
          continue;
        }
        if (c === 34) return q + 1;
      } else if (c === 39) {
        if (t.charCodeAt(q + 1) === 39) {
          q++;
          continue;
        }
        return q + 1;
      }
    }
    throw bail();
  }

  private blockMap(indent: number): YAMLMap {
    const t = this.text;
    const map = newMap();
    const start = this.pos;
    // Duplicate keys: the map's own keys compared while it is small (most are), a set of them past that.
    let seen: Set<string> | undefined;
    for (;;) {
      const key = this.key();
      const text = key.value as string;
      const items = map.items;
      if (seen !== undefined) {
        if (seen.has(text)) throw bail();
        seen.add(text);
      } else if (items.length < SMALL_MAP) {
        for (let i = 0; i < items.length; i++) if ((items[i].key as Scalar).value === text) throw bail();
      } else {
        seen = new Set<string>();
        for (let i = 0; i < items.length; i++) seen.add((items[i].key as Scalar).value as string);
        if (seen.has(text)) throw bail();
        seen.add(text);
      }
      const value = this.mapValue(indent);
      map.items.push(newPair(key, value));
      const ind = this.afterItem(value, indent);
      if (ind === END || ind < indent) return this.finish(map, start, value, indent);
      if (ind > indent) throw bail();
      if (t.charCodeAt(this.pos) === DASH && this.dashIndicator(this.pos)) throw bail();
      if (!this.keyAhead()) throw bail();
    }
  }

  /**
   * After an item of a collection at `indent`: finds the next content line (returns its indent) and sorts the comment
   * lines between as the `yaml` package's parser does: those indented deeper than the collection right after a scalar
   * or flow collection extend that node (its `range[2]`); the rest are left in {@link gap} for {@link finish}.
   */
  private afterItem(value: Node, indent: number): number {
    if (isBlockCollection(value)) {
      const ind = this.skipBlank();
      this.gap = this.passedUp;
      return ind;
    }
    const from = this.pos;
    const ind = this.skipBlank();
    const comments = this.commentLines(from, this.pos);
    let i = 0;
    const type = Object.getPrototypeOf(value) === SCALAR_PROTO ? (value as Scalar).type : undefined;
    if (type === 'PLAIN' && (value as Scalar).source === '') {
      if (comments.length > 0) throw bail(); // comments after an empty value: yaml's ranges there are irregular
    } else if (type !== 'BLOCK_LITERAL' && type !== 'BLOCK_FOLDED') {
      // Only scalars and flow collections have an end in yaml's syntax tree to take these comments.
      while (i < comments.length && comments[i].col > indent) value.range![2] = comments[i++].end;
    }
    this.gap = i === 0 ? comments : comments.slice(i);
    return ind;
  }

  /**
   * Ends a block collection: its range runs to the end of its last item, and on to the next content when it keeps the
   * comment lines after that item (some indented at least as deep as it, and it is not at column 0); otherwise they
   * pass to its parent.
   */
  private finish<T extends YAMLMap | YAMLSeq>(node: T, start: number, last: { range?: unknown }, indent: number): T {
    const end = (last.range as number[])[2];
    const gap = this.gap;
    if (gap.length > 0 && indent > 0 && gap.some((c) => c.col >= indent)) {
      node.range = [start, end, this.pos];
      this.passedUp = NO_COMMENTS;
    } else {
      node.range = [start, end, end];
      this.passedUp = gap;
    }
    return node;
  }

  /** Whether the last non-blank line before the line of `p` is a comment line. */
  private commentAbove(p: number): boolean {
    const t = this.text;
    let lineStart = t.lastIndexOf('\n', p - 1) + 1;
    while (lineStart > 0) {
      // The line before starts after the newline before its own (at 0 for the first line). `lastIndexOf` clamps a
      // negative start to 0, so with lineStart 1 it would find the newline at 0 again and never move.
      const prevStart = lineStart >= 2 ? t.lastIndexOf('\n', lineStart - 2) + 1 : 0;
      let q = prevStart;
      while (t.charCodeAt(q) === SPACE) q++;
      const c = t.charCodeAt(q);
      if (c === HASH) return true;
      if (c !== NL) return false;
      lineStart = prevStart;
    }
    return false;
  }

  /** The comment lines between `from` (a line start) and `to`. */
  private commentLines(from: number, to: number): CommentLine[] {
    const t = this.text;
    let out: CommentLine[] = NO_COMMENTS;
    let p = from;
    while (p < to) {
      let q = p;
      while (t.charCodeAt(q) === SPACE) q++;
      const nl = t.indexOf('\n', q);
      const next = nl < 0 ? this.len : nl + 1;
      if (t.charCodeAt(q) === HASH) {
        if (out === NO_COMMENTS) out = [];
        out.push({ col: q - p, end: next });
      }
      p = next;
    }
    return out;
  }

  /** A key at `pos` (known to be followed by `:`); leaves `pos` after the `:`. */
  private key(): Scalar {
    const t = this.text;
    const p = this.pos;
    const c = t.charCodeAt(p);
    let node: Scalar;
    let colon: number;
    if (c === 34 || c === 39) {
      node = this.quoted(p);
      colon = node.range![1];
      while (t.charCodeAt(colon) === SPACE) colon++;
    } else {
      // keyAhead has just found it for this key (the text does not change): read again only otherwise.
      colon = this.keyAt === p ? this.keyColon : this.plainKeyEnd(p);
      let e = colon;
      while (t.charCodeAt(e - 1) === SPACE) e--;
      if (e <= p) throw bail();
      const src = t.slice(p, e);
      if (!plainStart(src)) throw bail();
      node = plainScalar(src, p, e, e);
    }
    if (typeof node.value !== 'string' || (node.value === '<<' && node.type === 'PLAIN')) throw bail();
    if (colon - p > 1024) throw bail();
    this.pos = colon + 1;
    return node;
  }

  /** The value after a key's `:` of a map at `indent`. */
  private mapValue(indent: number): Node {
    const t = this.text;
    let p = this.pos;
    while (t.charCodeAt(p) === SPACE) p++;
    const c = t.charCodeAt(p);
    if (p >= this.len || c === NL || c === HASH) {
      this.pos = p;
      const lineEnd = this.restOfLine(false);
      const ind = this.skipBlank();
      if (ind !== END && ind > indent) return this.blockNode(indent, ind);
      if (ind === indent && t.charCodeAt(this.pos) === DASH && this.dashIndicator(this.pos)) return this.blockSeq(ind);
      // An empty value; with a comment after it, yaml's range for it takes in part of the next line: left to yaml.
      if (c === HASH) throw bail();
      const empty = emptyScalar(p, p);
      this.pos = lineEnd;
      this.contentAt = -1;
      return empty;
    }
    if (c === TAB) throw bail();
    if (c === DASH && this.dashIndicator(p)) throw bail();
    if (c === AMP) return this.anchored(p, indent, true);
    this.pos = p;
    return this.inlineValue(indent);
  }

  /** `&name` and the node it names: on the same line, or a block node on the next lines. */
  private anchored(p: number, indent: number, mapValue: boolean): Node {
    const t = this.text;
    const end = this.nameEnd(p + 1);
    const name = t.slice(p + 1, end);
    let q = end;
    while (t.charCodeAt(q) === SPACE) q++;
    const c = t.charCodeAt(q);
    let node: Node;
    if (q >= this.len || c === NL || c === HASH) {
      this.pos = end;
      this.restOfLine(true);
      const ind = this.skipBlank();
      if (ind !== END && ind > indent) node = this.blockNode(indent, ind);
      else if (mapValue && ind === indent && t.charCodeAt(this.pos) === DASH && this.dashIndicator(this.pos))
        node = this.blockSeq(ind);
      else throw bail();
    } else {
      if (q === end || c === AMP || c === STAR || c === 33 /* ! */ || c === TAB) throw bail();
      this.pos = q;
      if (this.keyAhead()) throw bail(); // an anchor on a key
      node = this.inlineValue(indent);
    }
    // Defined once, after its node (an alias inside the node it names is left to yaml).
    if (this.anchors.has(name)) throw bail();
    this.anchors.add(name);
    node.anchor = name;
    return node;
  }

  /** The end of an anchor or alias name starting at `p`; an empty or ambiguous name is outside the subset. */
  private nameEnd(p: number): number {
    const t = this.text;
    let q = p;
    for (; q < this.len; q++) {
      const c = t.charCodeAt(q);
      if (c === SPACE || c === NL || c === TAB || c === 44 || c === 91 || c === 93 || c === 123 || c === 125) break;
    }
    if (q === p || t.charCodeAt(q - 1) === COLON) throw bail();
    return q;
  }

  /** `*name`, naming an anchor defined before it in the document. */
  private alias(p: number): Alias {
    const end = this.nameEnd(p + 1);
    const name = this.text.slice(p + 1, end);
    if (!this.anchors.has(name)) throw bail();
    const node = new AliasNode(name);
    this.pos = end;
    node.range = [p, end, this.restOfLine(true)];
    return node;
  }

  private blockSeq(indent: number): YAMLSeq {
    const t = this.text;
    const seq = newSeq();
    const start = this.pos;
    for (;;) {
      const dash = this.pos;
      let p = dash + 1;
      while (t.charCodeAt(p) === SPACE) p++;
      const c = t.charCodeAt(p);
      let item: Node;
      if (p >= this.len || c === NL || c === HASH) {
        this.pos = p;
        const lineEnd = this.restOfLine(false);
        const ind = this.skipBlank();
        if (ind !== END && ind > indent) item = this.blockNode(indent, ind);
        else {
          // As for an empty map value; and a comment before it becomes the empty node's, with an irregular end.
          if (c === HASH || this.commentAbove(dash)) throw bail();
          item = emptyScalar(p, p);
          this.pos = lineEnd;
          this.contentAt = -1;
        }
      } else {
        if (c === TAB) throw bail();
        this.pos = p;
        const col = this.column(p);
        if (c === AMP) item = this.anchored(p, indent, false);
        else if (c === DASH && this.dashIndicator(p)) item = this.blockSeq(col);
        else if (this.keyAhead()) item = this.blockMap(col);
        else item = this.inlineValue(indent);
      }
      seq.items.push(item);
      const ind = this.afterItem(item, indent);
      if (ind === END || ind < indent || ind > indent) {
        if (ind > indent) throw bail();
        return this.finish(seq, start, item, indent);
      }
      if (!(t.charCodeAt(this.pos) === DASH && this.dashIndicator(this.pos)))
        return this.finish(seq, start, item, indent);
    }
  }

  /** A scalar or flow collection starting at `pos` on this line, inside a parent at `parentIndent`. */
  private inlineValue(parentIndent: number): Node {
    const t = this.text;
    const p = this.pos;
    const c = t.charCodeAt(p);
    if (c === 34 || c === 39) {
      // A double-quoted value may go on over lines indented past its parent's indent (yaml's `indentNext`).
      const node = this.quoted(p, parentIndent + 1);
      this.pos = node.range![1];
      node.range![2] = this.restOfLine(true);
      return node;
    }
    if (c === STAR) return this.alias(p);
    if (c === 124 || c === 62) return this.blockScalar(parentIndent);
    if (c === 91 /* [ */ || c === 123 /* { */) return this.flow(parentIndent);
    return this.plainValue(parentIndent);
  }

  /** The quoted scalar at `p`; a double-quoted one may go on over lines when `minIndent` > 0 (see quotedEnd). */
  private quoted(p: number, minIndent = 0): Scalar {
    const end = this.quotedEnd(p, minIndent);
    const t = this.text;
    const raw = t.slice(p + 1, end - 1);
    let value: string;
    let type: Scalar.Type;
    if (t.charCodeAt(p) === 39) {
      value = raw.includes("''") ? raw.replace(/''/g, "'") : raw;
      type = 'QUOTE_SINGLE';
    } else {
      value = raw.includes('\n') ? unfoldDouble(raw) : raw.includes('\\') ? unescapeDouble(raw) : raw;
      type = 'QUOTE_DOUBLE';
    }
    const node = newScalar(value);
    node.range = [p, end, end];
    node.source = value;
    node.type = type;
    return node;
  }

  /** A plain scalar at `pos`, folded over more-indented lines; leaves `pos` at the next line. */
  private plainValue(parentIndent: number): Scalar {
    const t = this.text;
    const start = this.pos;
    if (!plainStartAt(t, start)) throw bail();
    let e = this.plainLineEnd(start);
    let value = t.slice(start, e);
    let p = e;
    while (t.charCodeAt(p) === SPACE) p++;
    // Continuation lines: only when the first line ends without a comment.
    if (p >= this.len || t.charCodeAt(p) === NL) {
      let q = p + 1;
      let breaks = 0;
      while (q < this.len) {
        const lineStart = q;
        while (t.charCodeAt(q) === SPACE) q++;
        const c = t.charCodeAt(q);
        if (q >= this.len) break;
        if (c === NL) {
          breaks++;
          q++;
          continue;
        }
        if (q - lineStart <= parentIndent) break;
        if (q === lineStart && (t.startsWith('---', q) || t.startsWith('...', q))) break;
        if (c === HASH) break; // a comment ends the scalar
        const lineEnd = this.plainLineEnd(q);
        const line = t.slice(q, lineEnd);
        if (!plainContinuation(line)) throw bail();
        let r = lineEnd;
        while (t.charCodeAt(r) === SPACE) r++;
        if (r < this.len && t.charCodeAt(r) !== NL) throw bail();
        value += breaks === 0 ? ' ' + line : '\n'.repeat(breaks) + line;
        e = lineEnd;
        breaks = 0;
        q = r + 1;
      }
    }
    this.pos = e;
    const node = plainScalar(value, start, e, 0);
    node.range![2] = this.restOfLine(true);
    return node;
  }

  /** The end of a plain scalar's text on the line at `p` (before trailing spaces and a comment). */
  private plainLineEnd(p: number): number {
    const t = this.text;
    let q = p;
    let end = p;
    for (; q < this.len; q++) {
      const c = t.charCodeAt(q);
      if (c === NL) break;
      if (c === TAB) throw bail();
      if (c === SPACE) continue;
      if (c === HASH && t.charCodeAt(q - 1) === SPACE) break;
      if (c === COLON && this.colonIndicator(q)) throw bail();
      end = q + 1;
    }
    return end;
  }

  private blockScalar(parentIndent: number): Scalar {
    const t = this.text;
    const start = this.pos;
    const folded = t.charCodeAt(start) === 62;
    let p = start + 1;
    let chomp: 'clip' | 'strip' | 'keep' = 'clip';
    const ch = t.charCodeAt(p);
    if (ch === DASH) chomp = 'strip';
    else if (ch === 43 /* + */) chomp = 'keep';
    // Keep chomping (`|+`) is left to yaml: its range and trailing newlines at the end of the text.
    if (chomp === 'keep') throw bail();
    if (chomp !== 'clip') p++;
    this.pos = p;
    const c = t.charCodeAt(p);
    if (p < this.len && c !== SPACE && c !== NL) throw bail(); // an indentation indicator, or junk
    const headerEnd = this.restOfLine(true);
    if (headerEnd >= this.len) throw bail();
    // The lines, up to the first non-blank line indented no more than the parent.
    const lines: string[] = [];
    let indent = -1;
    let q = headerEnd;
    let contentEnd = headerEnd; // after the last non-blank line (and its newline)
    let leadingMax = 0;
    while (q < this.len) {
      const lineStart = q;
      while (t.charCodeAt(q) === SPACE) q++;
      const spaces = q - lineStart;
      const nl = t.indexOf('\n', q);
      const lineEnd = nl < 0 ? this.len : nl;
      const next = nl < 0 ? this.len : nl + 1;
      if (q >= lineEnd) {
        // blank line
        if (indent < 0) leadingMax = Math.max(leadingMax, spaces);
        else if (spaces > indent) throw bail();
        lines.push('');
        q = next;
        continue;
      }
      if (indent < 0) {
        if (spaces <= parentIndent || spaces === 0) break;
        if (leadingMax > spaces) throw bail();
        indent = spaces;
      }
      if (spaces < indent) break;
      if (spaces === 0 && (t.startsWith('---', q) || t.startsWith('...', q))) break;
      lines.push(t.slice(lineStart + indent, lineEnd));
      contentEnd = next;
      q = next;
    }
    if (indent < 0) throw bail(); // empty block scalar
    // Trailing blank lines are not content.
    let last = lines.length;
    while (last > 0 && lines[last - 1] === '') last--;
    const body = lines.slice(0, last);
    let value = folded ? fold(body) : body.join('\n');
    if (chomp === 'clip') value += '\n';
    const end = contentEnd;
    this.pos = contentEnd;
    const node = newScalar(value);
    node.range = [start, end, end];
    node.source = value;
    node.type = folded ? 'BLOCK_FOLDED' : 'BLOCK_LITERAL';
    return node;
  }

  /** A flow collection as a block value: `[…]` or `{…}`, over one line or several, then the rest of its line. */
  private flow(parentIndent: number): YAMLMap | YAMLSeq {
    const node = this.flowNode(this.pos, parentIndent);
    this.pos = node.range![1];
    node.range![2] = this.restOfLine(true);
    return node;
  }

  /**
   * Skips white space inside a flow collection, across lines: each new line must be indented deeper than the block
   * around the collection, unless it starts with a closing bracket; tabs, and comments elsewhere than after an
   * opening bracket or a comma, are left to yaml.
   */
  private flowSpace(p: number, parentIndent: number, commentOk = false): number {
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === SPACE) p++;
      else if (c === HASH && commentOk && (t.charCodeAt(p - 1) === SPACE || t.charCodeAt(p - 1) === NL)) {
        // After an opening bracket or a comma a comment changes no range.
        const nl = t.indexOf('\n', p);
        if (nl < 0) throw bail();
        p = nl;
      } else if (c === NL) {
        const lineStart = ++p;
        while (t.charCodeAt(p) === SPACE) p++;
        const d = t.charCodeAt(p);
        const closer = d === 93 || d === 125;
        if (p - lineStart <= parentIndent && !(closer && p - lineStart === parentIndent) && d !== NL) throw bail();
        if (p === lineStart && (t.startsWith('---', p) || t.startsWith('...', p))) throw bail();
      } else if (c === HASH || c === TAB || p >= this.len) throw bail();
      else return p;
    }
  }

  /** The flow collection at `p`, its range ending after its closing bracket. */
  private flowNode(p: number, parentIndent: number): YAMLMap | YAMLSeq {
    const t = this.text;
    const start = p;
    const isMap = t.charCodeAt(p) === 123;
    const close = isMap ? 125 : 93;
    const node = isMap ? newMap() : newSeq();
    node.flow = true;
    const seen = isMap ? new Set<string>() : undefined;
    p = this.flowSpace(p + 1, parentIndent, true);
    while (t.charCodeAt(p) !== close) {
      let key: Scalar | undefined;
      if (isMap) {
        key = this.flowKey(p);
        if (seen!.has(key.value as string)) throw bail();
        seen!.add(key.value as string);
        p = this.flowSpace(key.range![1] + 1, parentIndent);
      }
      const value = this.flowItem(p, parentIndent);
      p = this.flowSpace(value.range![1], parentIndent);
      // An item's end runs to the next token; a map value's stops after the first line break (as yaml's do).
      // (Searched only up to the next token: a long one-line flow map must not cost a scan to the end per value.)
      let end = p;
      if (key !== undefined) {
        for (let q = value.range![1]; q < p; q++) {
          if (t.charCodeAt(q) === NL) {
            end = q + 1;
            break;
          }
        }
      }
      value.range![2] = end;
      if (key !== undefined) (node as YAMLMap).items.push(newPair(key, value));
      else (node as YAMLSeq).items.push(value);
      const c = t.charCodeAt(p);
      if (c === 44) p = this.flowSpace(p + 1, parentIndent, true);
      else if (c !== close) throw bail();
    }
    node.range = [start, p + 1, p + 1];
    return node;
  }

  /** A key of a flow map: a quoted or plain scalar right before its `:`. */
  private flowKey(p: number): Scalar {
    const t = this.text;
    const c = t.charCodeAt(p);
    let key: Scalar;
    if (c === 34 || c === 39) {
      key = this.quoted(p);
      if (t.charCodeAt(key.range![1]) !== COLON) throw bail();
    } else {
      let e = p;
      for (; e < this.len; e++) {
        const d = t.charCodeAt(e);
        if (d === COLON) break;
        if (
          d === NL ||
          d === TAB ||
          d === SPACE ||
          d === HASH ||
          d === 44 ||
          d === 91 ||
          d === 93 ||
          d === 123 ||
          d === 125
        )
          throw bail();
      }
      const n = t.charCodeAt(e + 1);
      if (e === p || !(n === SPACE || n === NL)) throw bail();
      const src = t.slice(p, e);
      if (!plainStart(src)) throw bail();
      key = plainScalar(src, p, e, e);
    }
    if (typeof key.value !== 'string' || (key.value === '<<' && key.type === 'PLAIN')) throw bail();
    return key;
  }

  /** An item of a flow collection (or a flow map's value): a one-line scalar or a nested flow collection. */
  private flowItem(p: number, parentIndent: number): Scalar | YAMLMap | YAMLSeq {
    const t = this.text;
    const c = t.charCodeAt(p);
    // Over lines, as flowSpace asks of every line in the collection (never at column 0, where `---` would end it).
    if (c === 34 || c === 39) return this.quoted(p, Math.max(1, parentIndent + 1));
    if (c === 91 || c === 123) return this.flowNode(p, parentIndent);
    let e = p;
    let end = p;
    for (; e < this.len; e++) {
      const d = t.charCodeAt(e);
      if (d === 44 || d === 93 || d === 125 || d === NL) break;
      if (d === 91 || d === 123 || d === HASH || d === TAB) throw bail();
      if (d === COLON) {
        const n = t.charCodeAt(e + 1);
        if (n === SPACE || n === NL || n === 44 || n === 91 || n === 93 || n === 123 || n === 125) throw bail();
      }
      if (d !== SPACE) end = e + 1;
    }
    if (end === p) throw bail(); // an empty item or value
    const src = t.slice(p, end);
    if (!plainStart(src)) throw bail();
    return plainScalar(src, p, end, end);
  }
}

/** What `yaml` makes of an empty value: a null plain scalar. */
function emptyScalar(offset: number, end: number): Scalar {
  const node = newScalar(null);
  node.range = [offset, offset, end];
  node.source = '';
  node.type = 'PLAIN';
  return node;
}

/** Whether `s` may start a plain scalar here (no indicator the reader leaves to `yaml`). */
function plainStart(s: string): boolean {
  return plainStartAt(s, 0);
}

/** {@link plainStart} of the text at `p` (reads `t` at `p` and `p + 1` only: no substring per scalar). */
function plainStartAt(t: string, p: number): boolean {
  const c = t.charCodeAt(p);
  switch (c) {
    case 33: // !
    case 38: // &
    case 42: // *
    case 37: // %
    case 64: // @
    case 96: // `
    case 44: // ,
    case 91: // [
    case 93: // ]
    case 123: // {
    case 125: // }
    case 35: // #
    case 124: // |
    case 62: // >
    case 34: // "
    case 39: // '
      return false;
    case 63: // ?
    case 58: // :
    case DASH: {
      const n = t.charCodeAt(p + 1);
      return !(n === SPACE || n === NL || Number.isNaN(n));
    }
    default:
      return true;
  }
}

/** A continuation line of a plain scalar the reader is sure `yaml` folds the same way. */
function plainContinuation(line: string): boolean {
  if (line.includes(':') || line.includes('#')) return false;
  return plainStart(line) && line.charCodeAt(0) !== DASH;
}

/** Folds a folded block scalar's lines (indentation removed, no trailing blank lines). */
function fold(lines: string[]): string {
  let out = '';
  let blanks = 0;
  let prev: string | undefined;
  for (const line of lines) {
    if (line === '') {
      blanks++;
      continue;
    }
    if (prev === undefined) out += '\n'.repeat(blanks);
    else if (!moreIndented(prev) && !moreIndented(line)) out += blanks === 0 ? ' ' : '\n'.repeat(blanks);
    else out += '\n' + '\n'.repeat(blanks);
    out += line;
    prev = line;
    blanks = 0;
  }
  return out;
}

function moreIndented(line: string): boolean {
  const c = line.charCodeAt(0);
  return c === SPACE || c === TAB;
}

const DOUBLE_ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
};

/**
 * The value of a double-quoted scalar's text over lines (no tabs or CR: the reader declines them), as yaml's
 * `doubleQuotedValue` and `foldNewline` (upstream yaml/dist/compose/resolve-flow-scalar.js) read it: spaces before a
 * line break are dropped, a break and the spaces and blank lines after it fold to one space or to one newline per
 * blank line, an escaped break (`\` at the end of a line) is dropped with the next line's leading spaces; escapes as
 * in {@link unescapeDouble}.
 */
function unfoldDouble(raw: string): string {
  let out = '';
  let from = 0; // the start of the text not yet copied
  const n = raw.length;
  for (let i = 0; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c === 92 /* \ */) {
      if (raw.charCodeAt(i + 1) !== NL) {
        i++; // an escape on the line: unescapeDouble reads it with the rest
        continue;
      }
      out += unescapeDouble(raw.slice(from, i));
      i += 2;
      while (raw.charCodeAt(i) === SPACE) i++;
      from = i;
      i--;
    } else if (c === NL) {
      let e = i;
      while (e > from && raw.charCodeAt(e - 1) === SPACE && !escapedAt(raw, from, e - 1)) e--;
      out += unescapeDouble(raw.slice(from, e));
      let breaks = 0;
      let j = i;
      while (j < n && (raw.charCodeAt(j) === SPACE || raw.charCodeAt(j) === NL)) {
        if (raw.charCodeAt(j) === NL) breaks++;
        j++;
      }
      out += breaks === 1 ? ' ' : '\n'.repeat(breaks - 1);
      from = j;
      i = j - 1;
    }
  }
  return out + unescapeDouble(raw.slice(from));
}

/** Whether the character at `at` is escaped: an odd run of backslashes right before it, counted from `from`. */
function escapedAt(raw: string, from: number, at: number): boolean {
  let k = at;
  while (k > from && raw.charCodeAt(k - 1) === 92) k--;
  return (at - k) % 2 === 1;
}

/** The value of a one-line double-quoted scalar's text; unusual escapes are left to `yaml`. */
function unescapeDouble(raw: string): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = raw[++i];
    const simple = DOUBLE_ESCAPES[e];
    if (simple !== undefined) {
      out += simple;
      continue;
    }
    const digits = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
    if (digits === 0) throw bail();
    const hex = raw.slice(i + 1, i + 1 + digits);
    if (hex.length !== digits || !/^[0-9a-fA-F]+$/.test(hex)) throw bail();
    const code = parseInt(hex, 16);
    if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) throw bail();
    out += String.fromCodePoint(code);
    i += digits;
  }
  return out;
}

/** A plain scalar `src` at [start, end) resolved as the YAML 1.2 core schema does (the `yaml` package's order). */
function plainScalar(src: string, start: number, end: number, nodeEnd: number): Scalar {
  const node = newScalar(src);
  resolveCore(node, src);
  node.range = [start, end, nodeEnd];
  node.source = src;
  node.type = 'PLAIN';
  return node;
}

const NULL_RE = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL_RE = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const OCT_RE = /^0o[0-7]+$/;
const INT_RE = /^[-+]?[0-9]+$/;
const HEX_RE = /^0x[0-9a-fA-F]+$/;
const NAN_RE = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const EXP_RE = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT_RE = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/**
 * Whether every character of `src` is one a number that starts with a digit may hold in the core schema (OCT_RE,
 * INT_RE, HEX_RE, EXP_RE, FLOAT_RE: digits, `.`, `+`, `-`, `e`/`E`, `o`, `x` and the hex letters); a digit-led text
 * with any other character is none of the tags below (null, bool and the NaN forms do not start with a digit).
 */
function numberChars(src: string): boolean {
  for (let i = 1; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (c >= 48 && c <= 57) continue; // 0-9
    if (c === 46 || c === 43 || c === 45) continue; // . + -
    if ((c >= 97 && c <= 102) || (c >= 65 && c <= 70)) continue; // a-f A-F (e, E among them)
    if (c === 111 || c === 120) continue; // o x
    return false;
  }
  return true;
}

/** Sets `value` (and `format`, `minFractionDigits`) as the core schema's tags resolve `src`, in their order. */
function resolveCore(node: Scalar, src: string): void {
  const c = src.charCodeAt(0);
  // Letters other than n, t, f start no core-schema value but a string.
  if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) {
    if (c !== 110 && c !== 78 && c !== 116 && c !== 84 && c !== 102 && c !== 70) return;
    // n, t or f: of the tags below only null (`null`, 4 letters) and bool (`true`, `false`) match a letter first.
    const n = src.length;
    if (n !== 4 && n !== 5) return;
  } else if (c >= 48 && c <= 57 && !numberChars(src)) return; // `100m`, `128Mi`, `1.25-alpine`: a string
  if (NULL_RE.test(src)) node.value = null;
  else if (BOOL_RE.test(src)) node.value = c === 116 || c === 84;
  else if (OCT_RE.test(src)) {
    node.value = parseInt(src.substring(2), 8);
    node.format = 'OCT';
  } else if (INT_RE.test(src)) node.value = parseInt(src, 10);
  else if (HEX_RE.test(src)) {
    node.value = parseInt(src.substring(2), 16);
    node.format = 'HEX';
  } else if (NAN_RE.test(src)) {
    node.value =
      src.slice(-3).toLowerCase() === 'nan'
        ? NaN
        : src[0] === '-'
          ? Number.NEGATIVE_INFINITY
          : Number.POSITIVE_INFINITY;
  } else if (EXP_RE.test(src)) {
    node.value = parseFloat(src);
    node.format = 'EXP';
  } else if (FLOAT_RE.test(src)) {
    node.value = parseFloat(src);
    const dot = src.indexOf('.');
    if (dot !== -1 && src[src.length - 1] === '0') node.minFractionDigits = src.length - dot - 1;
  }
}
