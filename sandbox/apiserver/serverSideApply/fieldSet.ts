/**
 * A set of field paths (structured-merge-diff's fieldpath.Set): a tree keyed
 * by path elements (see pathElement.ts) where a node marked `self` means "this
 * path is in the set". A path can be in the set and have children in it too
 * (a list item and its fields), which FieldsV1 writes as `".": {}`.
 *
 * Sets returned by the operations below are new (they may share untouched
 * subtrees with their inputs); treat a set as read-only once built.
 */
import { compareElements } from './pathElement';

export class FieldSet {
  /** This node's own path is a member. */
  self = false;
  readonly children = new Map<string, FieldSet>();

  /** Adds `path` (a list of path elements); the empty path is ignored. */
  insert(path: readonly string[]): void {
    if (path.length === 0) return;
    let node = this.child(path[0]);
    for (let i = 1; i < path.length; i++) node = node.child(path[i]);
    node.self = true;
  }

  /** The child node for `pe`, created when absent (for building). */
  child(pe: string): FieldSet {
    let c = this.children.get(pe);
    if (c === undefined) {
      c = new FieldSet();
      this.children.set(pe, c);
    }
    return c;
  }

  has(path: readonly string[]): boolean {
    if (path.length === 0) return false;
    let node = this.children.get(path[0]);
    for (let i = 1; node !== undefined && i < path.length; i++) node = node.children.get(path[i]);
    return node?.self ?? false;
  }

  isEmpty(): boolean {
    if (this.self) return false;
    for (const c of this.children.values()) if (!c.isEmpty()) return false;
    return true;
  }

  /**
   * Every member path, in structured-merge-diff's order: a node's member children first, then each child's subtree
   * (both sorted).
   */
  paths(): string[][] {
    const out: string[][] = [];
    const walk = (node: FieldSet, prefix: string[]): void => {
      const keys = [...node.children.keys()].sort(compareElements);
      for (const k of keys) if (node.children.get(k)!.self) out.push([...prefix, k]);
      for (const k of keys) {
        const c = node.children.get(k)!;
        if (c.children.size > 0) walk(c, [...prefix, k]);
      }
    };
    walk(this, []);
    return out;
  }

  union(other: FieldSet): FieldSet {
    return union(this, other);
  }

  /**
   * Members of this set that are not members of `other` (a member of `other` does not remove this set's paths below
   * it).
   */
  difference(other: FieldSet): FieldSet {
    return difference(this, other) ?? new FieldSet();
  }

  intersection(other: FieldSet): FieldSet {
    return intersection(this, other) ?? new FieldSet();
  }

  /** This set without every path at or below a member of `other` (fieldpath's RecursiveDifference). */
  withoutSubtrees(other: FieldSet): FieldSet {
    return withoutSubtrees(this, other) ?? new FieldSet();
  }

  /** Only the paths at or below a member of `mask` (the paths `withoutSubtrees` would remove). */
  onlySubtrees(mask: FieldSet): FieldSet {
    return onlySubtrees(this, mask) ?? new FieldSet();
  }

  /** A set holding exactly these paths. */
  static of(...paths: (readonly string[])[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }
}

function union(a: FieldSet, b: FieldSet): FieldSet {
  if (b.isEmpty()) return a;
  if (a.isEmpty()) return b;
  const out = new FieldSet();
  out.self = a.self || b.self;
  for (const [k, c] of a.children) {
    const d = b.children.get(k);
    out.children.set(k, d === undefined ? c : union(c, d));
  }
  for (const [k, d] of b.children) if (!a.children.has(k)) out.children.set(k, d);
  return out;
}

/** undefined stands for the empty set, so empty nodes never stay in a result. */
function difference(a: FieldSet, b: FieldSet): FieldSet | undefined {
  const out = new FieldSet();
  out.self = a.self && !b.self;
  for (const [k, c] of a.children) {
    const d = b.children.get(k);
    const r = d === undefined ? (c.isEmpty() ? undefined : c) : difference(c, d);
    if (r !== undefined) out.children.set(k, r);
  }
  return out.self || out.children.size > 0 ? out : undefined;
}

function intersection(a: FieldSet, b: FieldSet): FieldSet | undefined {
  const out = new FieldSet();
  out.self = a.self && b.self;
  const [small, large] = a.children.size <= b.children.size ? [a, b] : [b, a];
  for (const [k, c] of small.children) {
    const d = large.children.get(k);
    if (d === undefined) continue;
    const r = intersection(c, d);
    if (r !== undefined) out.children.set(k, r);
  }
  return out.self || out.children.size > 0 ? out : undefined;
}

function withoutSubtrees(a: FieldSet, mask: FieldSet): FieldSet | undefined {
  const out = new FieldSet();
  out.self = a.self;
  for (const [k, c] of a.children) {
    const m = mask.children.get(k);
    if (m?.self) continue;
    const r = m === undefined ? (c.isEmpty() ? undefined : c) : withoutSubtrees(c, m);
    if (r !== undefined) out.children.set(k, r);
  }
  return out.self || out.children.size > 0 ? out : undefined;
}

function onlySubtrees(a: FieldSet, mask: FieldSet): FieldSet | undefined {
  const out = new FieldSet();
  for (const [k, c] of a.children) {
    const m = mask.children.get(k);
    if (m === undefined) continue;
    const r = m.self ? (c.isEmpty() ? undefined : c) : onlySubtrees(c, m);
    if (r !== undefined) out.children.set(k, r);
  }
  return out.children.size > 0 ? out : undefined;
}
