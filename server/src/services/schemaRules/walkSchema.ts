/**
 * Walks a document's YAML AST (not its JS value, so that every finding has a
 * node to point at) alongside the schema, and tells a visitor what the schema
 * expects at each node. Descends only where node and schema agree (a map
 * against a definition or a map type, a list against a list type), so a
 * visitor sees each mismatch once, at its top.
 *
 * Not followed: aliases (the anchor is validated where it is defined, and an
 * alias bomb cannot make the walk explode) and free-form JSON (`any`). Merge
 * keys (`<<`) are reported to the visitor as present but not descended into.
 *
 * The path handed to the visitor is one shared stack, valid only during the
 * call: copy it (`[...path]`) to keep it. No allocation per node otherwise.
 */
import { MAP_TYPE, SCALAR_TYPE, SEQ_TYPE, isScalar, nodeType } from '../../../../sandbox/manifests/yamlNodes';
import type { Node, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { resolveRef } from '../../schema/schema';
import type { Definition, SchemaType } from '../../schema/types';

export interface SchemaVisitor {
  /**
   * Every non-alias value node with the type the schema expects there. `key`
   * is the key whose value it is (absent for list items and the root).
   */
  value?(node: Node, type: SchemaType, key: Scalar | undefined, path: readonly (string | number)[]): void;
  /** A map node checked against a definition, after `value` and before its entries. */
  object?(map: YAMLMap, def: Definition, key: Scalar | undefined, path: readonly (string | number)[]): void;
}

/** The text of a plain key (`ports`, `80`), or undefined for complex keys. */
export function keyText(pair: Pair): string | undefined {
  const k = pair.key;
  if (!isScalar(k)) return undefined;
  const v = k.value;
  if (typeof v === 'string') return v;
  return typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' ? String(v) : undefined;
}

/** True for a YAML merge key (`<<: *defaults`; with merging on, the parser gives it a symbol value). */
export function isMergeKey(pair: Pair): boolean {
  return (
    isScalar(pair.key) && (typeof pair.key.value === 'symbol' || (pair.key.value === '<<' && pair.key.type === 'PLAIN'))
  );
}

/** Visits `root` (the document's root map) as an instance of `def`. */
export function walkSchema(root: YAMLMap, def: Definition, visitor: SchemaVisitor): void {
  const path: (string | number)[] = [];
  walkNode(root, { kind: 'ref', name: def.name }, undefined, path, visitor);
}

function walkNode(
  node: unknown,
  type: SchemaType,
  key: Scalar | undefined,
  path: (string | number)[],
  v: SchemaVisitor,
): void {
  // The node's kind read once (see nodeType).
  const nt = nodeType(node);
  if (nt !== MAP_TYPE && nt !== SEQ_TYPE && nt !== SCALAR_TYPE) return;
  v.value?.(node as Node, type, key, path);
  if (nt !== SCALAR_TYPE) walkChildren(node as YAMLMap | YAMLSeq, nt === MAP_TYPE, type, key, path, v);
}

function walkChildren(
  node: YAMLMap | YAMLSeq,
  map: boolean,
  type: SchemaType,
  key: Scalar | undefined,
  path: (string | number)[],
  v: SchemaVisitor,
): void {
  if (type.kind === 'ref' && map) {
    const def = resolveRef(type);
    if (def !== undefined) walkObject(node as YAMLMap, def, key, path, v);
  } else if (type.kind === 'map' && map) {
    for (const pair of (node as YAMLMap).items) {
      const k = keyText(pair);
      if (k === undefined || isMergeKey(pair)) continue;
      path.push(k);
      walkNode(pair.value, type.values, pair.key as Scalar, path, v);
      path.pop();
    }
  } else if (type.kind === 'array' && !map) {
    const items = (node as YAMLSeq).items;
    for (let i = 0; i < items.length; i++) {
      path.push(i);
      walkNode(items[i], type.items, undefined, path, v);
      path.pop();
    }
  }
}

function walkObject(
  node: YAMLMap,
  def: Definition,
  key: Scalar | undefined,
  path: (string | number)[],
  v: SchemaVisitor,
): void {
  v.object?.(node, def, key, path);
  for (const pair of node.items) {
    const k = keyText(pair);
    if (k === undefined || !Object.hasOwn(def.properties, k)) continue;
    path.push(k);
    walkNode(pair.value, def.properties[k].type, pair.key as Scalar, path, v);
    path.pop();
  }
}
