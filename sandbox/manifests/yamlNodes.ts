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
