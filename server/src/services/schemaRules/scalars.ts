/**
 * What a YAML scalar is once kubectl has turned the manifest into JSON.
 * kubectl reads YAML with sigs.k8s.io/yaml, i.e. go-yaml v2 and YAML 1.1
 * rules, while the `yaml` package here follows YAML 1.2: the one difference
 * that matters in practice is that 1.1 reads plain `yes`, `no`, `on`, `off`,
 * `y`, `n` (in their usual capitalisations) as booleans, so `value: yes`
 * reaches the API server as `true`.
 */
import type { Node, Scalar } from 'yaml';
import { rangeAt } from '../ranges';
import type { LineCounter } from 'yaml';
import type { Range } from 'vscode-languageserver-types';

export type ScalarKind = 'null' | 'string' | 'integer' | 'number' | 'boolean';

const YAML11_BOOLEANS = new Set(
  ['y', 'yes', 'on', 'true', 'n', 'no', 'off', 'false'].flatMap((w) => [
    w,
    w.toUpperCase(),
    w[0].toUpperCase() + w.slice(1),
  ]),
);

/** The JSON type kubectl sends for this scalar. */
export function scalarKind(s: Scalar): ScalarKind {
  const v = s.value;
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'bigint') return 'integer';
  // Every YAML 1.1 boolean word is at most 5 letters: a longer string is not looked up (nor hashed) at all.
  if (typeof v === 'string')
    return s.type === 'PLAIN' && v.length <= 5 && YAML11_BOOLEANS.has(v) ? 'boolean' : 'string';
  return 'string';
}

/** The scalar's source text (`1.0`, `yes`), for messages and quoting hints. */
export function scalarSource(s: Scalar): string {
  return s.source ?? String(s.value);
}

/** The LSP range of a node's value (without trailing comments). */
export function nodeRange(node: Node, lc: LineCounter): Range {
  const [start, end] = node.range ?? [0, 0];
  return rangeAt(lc, start, end);
}
