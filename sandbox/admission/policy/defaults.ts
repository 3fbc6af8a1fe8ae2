/**
 * Defaults of ValidatingAdmissionPolicy and its binding (upstream: pkg/apis/admissionregistration/v1/defaults.go:
 * SetDefaults_ValidatingAdmissionPolicySpec, SetDefaults_MatchResources, SetDefaults_NamedRuleWithOperations).
 */
type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function defaultMatchResources(m: unknown): void {
  if (!isObj(m)) return;
  m.matchPolicy ??= 'Equivalent';
  m.namespaceSelector ??= {};
  m.objectSelector ??= {};
  for (const list of [m.resourceRules, m.excludeResourceRules])
    if (Array.isArray(list)) for (const r of list) if (isObj(r)) r.scope ??= '*';
}

export function defaultPolicySpec(spec: Obj): void {
  spec.failurePolicy ??= 'Fail';
  defaultMatchResources(spec.matchConstraints);
}

export function defaultBindingSpec(spec: Obj): void {
  defaultMatchResources(spec.matchResources);
}
