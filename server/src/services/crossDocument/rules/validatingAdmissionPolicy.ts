/**
 * `validating-admission-policy`: a ValidatingAdmissionPolicy of the scope, through its bindings, would refuse a
 * manifest (a Deny binding: an error, with the API server's message) or warn about it (a Warn binding: a warning).
 * The same plugin as the API server's (sandbox/admission/policy), over the documents instead of the store; each
 * manifest is judged as if created, as single-document validation leaves it (defaulted).
 */
import type { KubeObject } from '../../../../../sandbox/api/types';
import { resourceFor } from '../../../../../sandbox/api/resources';
import type { ResourceType } from '../../../../../sandbox/api/resources';
import {
  checkAgainstPolicies,
  hasPolicies,
  workspacePolicySource,
} from '../../../../../sandbox/admission/policy/index';
import type { PolicySource } from '../../../../../sandbox/admission/policy/index';
import { makeDiagnostic } from '../../diagnostic';
import type { CrossDocumentContext, CrossDocumentRule, FileDiagnostic } from '../rule';

export const validatingAdmissionPolicy: CrossDocumentRule = {
  code: 'validating-admission-policy',
  check(ctx: CrossDocumentContext): FileDiagnostic[] {
    if (!hasPolicies(ctx.objects.map((o) => o.facts.object))) return [];
    const placed = ctx.objects.map((o) => {
      const obj = o.facts.object;
      const metadata = o.namespace === '' ? obj.metadata : { ...obj.metadata, namespace: o.namespace };
      return { located: o, obj: { ...obj, metadata } as KubeObject };
    });
    const source = workspacePolicySource(placed.map((p) => p.obj));
    const forResource = sourcePerResource(source);
    const out: FileDiagnostic[] = [];
    for (const { located, obj } of placed) {
      const resource = resourceFor(obj.apiVersion, obj.kind);
      const verdict = checkAgainstPolicies(resource === undefined ? source : forResource(resource), obj);
      const range = located.facts.nameRange;
      if (verdict.denied)
        out.push({ uri: located.file.uri, diagnostic: makeDiagnostic(range, this.code, verdict.denied) });
      for (const w of verdict.warnings)
        out.push({ uri: located.file.uri, diagnostic: makeDiagnostic(range, this.code, w, true) });
    }
    return out;
  },
};

/**
 * The source as the plugin sees it for a CREATE of one resource, for cost only (the same verdicts): the policies whose
 * resource rules could match that resource and the bindings naming them, each list sorted by name once. The plugin
 * (dispatch.ts evaluatePolicies) sorts both lists by name on every manifest judged and tries every policy, then every
 * binding, so a folder of P policies cost P log P name comparisons and P rule tests per manifest (`validate` on a
 * 10,000-resource corpus with 225 policies spent a third of its time there). A policy left out is one the plugin would
 * skip without effect: its `matchConstraints` has resource rules, each well formed, and none names CREATE, the
 * resource's group and its plural (or `*`) with no subresource — a superset of upstream's rule match (matching.go
 * Matches / rules.go Matcher), which also checks the version, scope and names. Anything malformed is kept and the
 * plugin decides as before. A policy no binding names is left out too when nothing the plugin does with it could throw
 * ({@link inert}): it only tests its match rules and compiles it, then finds no binding. Filtering keeps the order,
 * and a stable sort of a sorted list leaves it unchanged.
 */
function sourcePerResource(source: PolicySource): (resource: ResourceType) => PolicySource {
  const policies = [...source.policies()].sort(byName);
  const bindings = [...source.bindings()].sort(byName);
  const views = new Map<ResourceType, PolicySource>();
  // The names the bindings give; a policy no binding names is judged for nothing (the plugin loops over its bindings).
  const bound = new Set<string>();
  for (const b of bindings) {
    const policyName = ((b.spec ?? {}) as { policyName?: unknown }).policyName;
    if (typeof policyName === 'string') bound.add(policyName);
  }
  return (resource) => {
    let view = views.get(resource);
    if (view === undefined) {
      const kept = policies.filter(
        (p) => mayMatchCreate(p, resource) && !(inert(p) && !bound.has(p.metadata.name ?? '')),
      );
      const names = new Set(kept.map((p) => p.metadata.name ?? ''));
      // The plugin reads a binding's policy name as `(b.spec ?? {}).policyName` and skips the others.
      const keptBindings = bindings.filter((b) => {
        const policyName = ((b.spec ?? {}) as { policyName?: unknown }).policyName;
        return typeof policyName === 'string' && names.has(policyName);
      });
      view = { ...source, policies: () => kept, bindings: () => keptBindings };
      views.set(resource, view);
    }
    return view;
  };
}

/** dispatch.ts byName: the order the plugin tries policies and bindings in. */
const byName = (x: KubeObject, y: KubeObject): number => (x.metadata.name ?? '').localeCompare(y.metadata.name ?? '');

/** False only when the policy's resource rules, all well formed, surely exclude a CREATE of `resource`. */
function mayMatchCreate(policy: KubeObject, resource: ResourceType): boolean {
  const spec = policy.spec as { matchConstraints?: unknown } | null | undefined;
  if (typeof spec !== 'object' || spec === null) return true;
  const constraints = spec.matchConstraints as { resourceRules?: unknown } | null | undefined;
  if (typeof constraints !== 'object' || constraints === null) return true;
  const rules = constraints.resourceRules;
  if (!Array.isArray(rules) || rules.length === 0) return true;
  return rules.some((rule: unknown) => !wellFormedRule(rule) || ruleMayMatchCreate(rule, resource));
}

interface PlainRule {
  operations?: string[];
  apiGroups?: string[];
  resources?: string[];
}

function stringList(v: unknown): boolean {
  return v === undefined || (Array.isArray(v) && v.every((s) => typeof s === 'string'));
}

function wellFormedRule(rule: unknown): rule is PlainRule {
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) return false;
  const r = rule as Record<string, unknown>;
  return stringList(r.operations) && stringList(r.apiGroups) && stringList(r.resources);
}

/** matching.ts ruleMatches for a CREATE with no subresource, without its version, scope and name tests. */
function ruleMayMatchCreate(rule: PlainRule, resource: ResourceType): boolean {
  const has = (list: string[] | undefined, v: string): boolean => !!list && (list.includes('*') || list.includes(v));
  if (!has(rule.operations, 'CREATE') || !has(rule.apiGroups, resource.group)) return false;
  return (rule.resources ?? []).some((entry) => {
    const slash = entry.indexOf('/');
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? '' : entry.slice(slash + 1);
    return (res === '*' || res === resource.plural) && (sub === '*' || sub === '');
  });
}

/**
 * Whether the plugin's work on this policy without a binding is pure and cannot throw, so leaving it out changes
 * nothing: no match constraints (skipped at once), or constraints of the plain shape — well-formed resource rules, no
 * namespace or object selector beyond `{}`, a string match policy — and validations, match conditions, variables and
 * audit annotations that are lists of objects with string fields (what compilePolicy reads). Anything else is kept.
 */
function inert(policy: KubeObject): boolean {
  const spec = (policy.spec ?? {}) as Record<string, unknown>;
  if (typeof spec !== 'object' || Array.isArray(spec)) return false;
  const m = spec.matchConstraints as Record<string, unknown> | undefined | null;
  if (!m) return true;
  if (typeof m !== 'object' || Array.isArray(m)) return false;
  for (const [key, value] of Object.entries(m)) {
    if (value === undefined) continue;
    if (key === 'resourceRules' || key === 'excludeResourceRules') {
      if (!Array.isArray(value) || !value.every(strictRule)) return false;
    } else if (key === 'namespaceSelector' || key === 'objectSelector') {
      if (!isEmptyObject(value)) return false;
    } else if (key !== 'matchPolicy' || typeof value !== 'string') return false;
  }
  const lists: [string, string[]][] = [
    ['validations', ['expression', 'messageExpression', 'message', 'reason']],
    ['matchConditions', ['name', 'expression']],
    ['variables', ['name', 'expression']],
    ['auditAnnotations', ['key', 'valueExpression']],
  ];
  for (const [list, fields] of lists) {
    const items = spec[list];
    if (items === undefined || items === null) continue;
    if (!Array.isArray(items)) return false;
    for (const item of items as unknown[]) {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) return false;
      for (const f of fields) {
        const v = (item as Record<string, unknown>)[f];
        // Short texts only: a compiler's recursion on a pathological expression is the plugin's to meet.
        if (v !== undefined && (typeof v !== 'string' || v.length > 1000)) return false;
      }
    }
  }
  return true;
}

function isEmptyObject(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
}

/** A resource rule whose every field has the type upstream's decoder gives it. */
function strictRule(rule: unknown): boolean {
  if (!wellFormedRule(rule)) return false;
  const r = rule as Record<string, unknown>;
  return (
    stringList(r.apiVersions) &&
    stringList(r.resourceNames) &&
    (r.scope === undefined || typeof r.scope === 'string') &&
    Object.keys(r).every((k) =>
      ['operations', 'apiGroups', 'apiVersions', 'resources', 'resourceNames', 'scope'].includes(k),
    )
  );
}
