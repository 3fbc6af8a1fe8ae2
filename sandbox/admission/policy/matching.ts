/**
 * Does a policy (or binding) match a request (upstream: apiserver/pkg/admission/plugin/policy/matching/matching.go
 * and webhook/predicates/rules/rules.go): the namespace selector on the request's namespace (a cluster-scoped
 * object other than a Namespace always passes), the object selector on the object or the old object, no exclude
 * rule, and a resource rule for the operation, group, version, resource (a `*` for any, `pods/status` for a
 * subresource), scope and name. With `matchPolicy: Equivalent` (the default) another version of the same group
 * and resource matches too: the sandbox serves one version of each.
 */
import { labelSelectorMatches } from '../../api/selectors/labelSelector';
import type { ResourceType } from '../../api/resources';
import type { KubeObject } from '../../api/types';
import type { MatchResources, RuleWithOperations } from './types';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface AdmissionAttributes {
  readonly operation: Operation;
  readonly resource: ResourceType;
  readonly subresource: string;
  readonly name: string;
  /** `` for cluster-scoped objects. */
  readonly namespace: string;
  readonly object?: KubeObject;
  readonly oldObject?: KubeObject;
  readonly dryRun: boolean;
}

const has = (list: readonly string[] | undefined, v: string): boolean =>
  !!list && (list.includes('*') || list.includes(v));

function ruleMatches(rule: RuleWithOperations, a: AdmissionAttributes, equivalent: boolean): boolean {
  if (!has(rule.operations, a.operation)) return false;
  if (!has(rule.apiGroups, a.resource.group)) return false;
  if (!equivalent && !has(rule.apiVersions, a.resource.version)) return false;
  const resourceOk = (rule.resources ?? []).some((entry) => {
    const slash = entry.indexOf('/');
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? '' : entry.slice(slash + 1);
    return (res === '*' || res === a.resource.plural) && (sub === '*' || sub === a.subresource);
  });
  if (!resourceOk) return false;
  const scope = rule.scope ?? '*';
  if (scope === 'Cluster' && a.namespace !== '') return false;
  if (scope === 'Namespaced' && a.namespace === '') return false;
  if (rule.resourceNames && rule.resourceNames.length > 0 && !rule.resourceNames.includes(a.name)) return false;
  return true;
}

function anyRule(
  rules: readonly RuleWithOperations[] | undefined,
  a: AdmissionAttributes,
  equivalent: boolean,
): boolean {
  return (rules ?? []).some((r) => ruleMatches(r, a, false) || (equivalent && ruleMatches(r, a, true)));
}

/** `namespaceLabels`: the labels of the request's Namespace (undefined when it has none or is not found). */
export function matchesResources(
  m: MatchResources,
  a: AdmissionAttributes,
  namespaceLabels: (name: string) => Readonly<Record<string, string>> | undefined,
): boolean {
  // Every condition below is a pure test, so their order does not change the answer: the resource rules come first
  // because they are the cheapest and exclude the most (a workspace's policies are tried on every manifest judged).
  const equivalent = (m.matchPolicy ?? 'Equivalent') === 'Equivalent';
  // A binding's matchResources without resourceRules does not constrain resources (a policy's must have some).
  if (m.resourceRules && m.resourceRules.length > 0 && !anyRule(m.resourceRules, a, equivalent)) return false;
  if (anyRule(m.excludeResourceRules, a, equivalent)) return false;
  const nsSelector = m.namespaceSelector ?? {};
  if (a.resource.kind === 'Namespace' && a.resource.group === '') {
    const labels = (a.object ?? a.oldObject)?.metadata.labels;
    if (!labelSelectorMatches(nsSelector, labels)) return false;
  } else if (a.namespace !== '' && !labelSelectorMatches(nsSelector, namespaceLabels(a.namespace))) return false;
  const objSelector = m.objectSelector ?? {};
  const isEverything = Object.keys(objSelector).every((k) => {
    const v = (objSelector as Record<string, unknown>)[k];
    return (
      v === undefined ||
      (Array.isArray(v) ? v.length === 0 : typeof v === 'object' && v !== null && Object.keys(v).length === 0)
    );
  });
  if (
    !isEverything &&
    !labelSelectorMatches(objSelector, a.object?.metadata.labels) &&
    !labelSelectorMatches(objSelector, a.oldObject?.metadata.labels)
  )
    return false;
  return true;
}
