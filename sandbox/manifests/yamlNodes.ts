/**
 * The `yaml` package's node predicates and classes, read once. `yaml` is a CommonJS package: in the bundles esbuild
 * reaches each named import of it through a property getter on every use, which the per-node loops of the readers
 * and the schema walk paid on every node (~2% of batch `validate`). The same functions and classes, nothing else.
 */
// eslint-disable-next-line no-restricted-imports -- reads the predicates and node classes below, no writer
import * as yaml from 'yaml';

export const { isAlias, isCollection, isMap, isNode, isPair, isScalar, isSeq } = yaml;
/** The node classes, for `new` and `instanceof` (their types are imported from 'yaml' as usual). */
export const YamlNodes = {
  Alias: yaml.Alias,
  Pair: yaml.Pair,
  Scalar: yaml.Scalar,
  YAMLMap: yaml.YAMLMap,
  YAMLSeq: yaml.YAMLSeq,
} as const;

/**
 * The `yaml` package's node-type tags (upstream yaml/dist/nodes/identity.js: registered symbols, read by its
 * predicates): `nodeType(node) === MAP_TYPE` is `isMap(node)`, and so on. A loop that tells several kinds apart reads
 * the tag once instead of calling one predicate after another (each a lookup on nodes of many shapes).
 */
const NODE_TYPE = Symbol.for('yaml.node.type');
export const ALIAS_TYPE = Symbol.for('yaml.alias');
export const MAP_TYPE = Symbol.for('yaml.map');
export const PAIR_TYPE = Symbol.for('yaml.pair');
export const SCALAR_TYPE = Symbol.for('yaml.scalar');
export const SEQ_TYPE = Symbol.for('yaml.seq');

/** The node-type tag of `node` (one of the `*_TYPE` symbols), or undefined for anything that is not a node. */
export function nodeType(node: unknown): symbol | undefined {
  return typeof node === 'object' && node !== null
    ? (node as Record<symbol, symbol | undefined>)[NODE_TYPE]
    : undefined;
}
