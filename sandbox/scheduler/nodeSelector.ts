/**
 * Node selector terms compiled once per pod
 * (`component-helpers/scheduling/corev1/nodeaffinity`): terms are ORed, the
 * requirements of a term ANDed; a term with no requirements, or with an
 * invalid one, matches no node. `matchFields` supports `metadata.name` only.
 */
import type { NodeSelectorRequirement, NodeSelectorTerm } from 'kubernetes-types/core/v1';

/** The node facts a selector looks at. */
export interface SelectableNode {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
}

export type NodeMatcher = (node: SelectableNode) => boolean;

const NEVER: NodeMatcher = () => false;
const INTEGER = /^[+-]?\d+$/;

function labelRequirement(r: NodeSelectorRequirement): NodeMatcher {
  const key = r.key;
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In': {
      if (values.length === 0) return NEVER;
      const set = new Set(values);
      return (n) => Object.hasOwn(n.labels, key) && set.has(n.labels[key]);
    }
    case 'NotIn': {
      if (values.length === 0) return NEVER;
      const set = new Set(values);
      return (n) => !Object.hasOwn(n.labels, key) || !set.has(n.labels[key]);
    }
    case 'Exists':
      return values.length === 0 ? (n) => Object.hasOwn(n.labels, key) : NEVER;
    case 'DoesNotExist':
      return values.length === 0 ? (n) => !Object.hasOwn(n.labels, key) : NEVER;
    case 'Gt':
    case 'Lt': {
      if (values.length !== 1 || !INTEGER.test(values[0])) return NEVER;
      const bound = Number(values[0]);
      const greater = r.operator === 'Gt';
      return (n) => {
        const v = n.labels[key];
        if (v === undefined || !Object.hasOwn(n.labels, key) || !INTEGER.test(v)) return false;
        return greater ? Number(v) > bound : Number(v) < bound;
      };
    }
    default:
      return NEVER;
  }
}

function fieldRequirement(r: NodeSelectorRequirement): NodeMatcher {
  const values = r.values ?? [];
  if (r.key !== 'metadata.name' || values.length !== 1) return NEVER;
  const name = values[0];
  if (r.operator === 'In') return (n) => n.name === name;
  if (r.operator === 'NotIn') return (n) => n.name !== name;
  return NEVER;
}

/** One term: every requirement must match; an empty term matches nothing. */
export function compileTerm(term: NodeSelectorTerm | undefined): NodeMatcher {
  const parts = [
    ...(term?.matchExpressions ?? []).map(labelRequirement),
    ...(term?.matchFields ?? []).map(fieldRequirement),
  ];
  if (parts.length === 0) return NEVER;
  if (parts.length === 1) return parts[0];
  return (n) => {
    for (const p of parts) if (!p(n)) return false;
    return true;
  };
}

/** `requiredDuringSchedulingIgnoredDuringExecution`: any term may match. */
export function compileTerms(terms: readonly NodeSelectorTerm[]): NodeMatcher {
  const compiled = terms.map(compileTerm);
  if (compiled.length === 1) return compiled[0];
  return (n) => {
    for (const t of compiled) if (t(n)) return true;
    return false;
  };
}
