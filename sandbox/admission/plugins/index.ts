/**
 * The admission plugins that read other objects of the cluster (upstream's default plugin chain, in its order):
 * mutating — LimitRanger (defaults), ServiceAccount (the default account, the token volume), RuntimeClass (overhead,
 * scheduling);
 * validating — LimitRanger (min/max), PodSecurity, RuntimeClass (the class exists, overhead), ResourceQuota.
 * The API server calls `mutatingAdmission` after defaulting and `validatingAdmission` after validation; both read
 * the store through `AdmissionLookup`. A refusal is 403 Forbidden, `<resource> "<name>" is forbidden: <why>`, as
 * upstream's `admission.NewForbidden`.
 */
import { forbidden } from '../../api/errors';
import type { ResourceType } from '../../api/resources';
import type { KubeObject } from '../../api/types';
import { jsonEqual } from '../../util/json';
import { podSpecOf } from '../podSpecs';
import { isObj } from '../validation/access';
import { aggregateMessage, applyLimitRangeDefaults, limitRangeViolations } from './limitRanger';
import {
  existingPodWarnings,
  namespacePolicy,
  podSecurityViolations,
  type PodSecurityConfiguration,
} from './podSecurity';
import type { QuotaCharge } from './resourceQuota';
import { checkQuotas } from './resourceQuota';
import { admitServiceAccount, keepServiceAccountFields } from './serviceAccount';
import { admitRuntimeClass, validateRuntimeClass } from './runtimeClass';
import { deprecatedServiceAccount } from '../defaults/podSpec';

export type { QuotaCharge } from './resourceQuota';
export type { PodSecurityConfiguration } from './podSecurity';

export interface AdmissionLookup {
  /** The objects of `kind` (core/v1 kinds: LimitRange, ResourceQuota, ServiceAccount, Namespace…) in `namespace`. */
  list(kind: string, namespace: string): KubeObject[];
  /** `apiVersion` defaults to `v1` (RuntimeClass admission asks for `node.k8s.io/v1`). */
  get(kind: string, namespace: string, name: string, apiVersion?: string): KubeObject | undefined;
}

export interface PluginAttributes {
  operation: 'CREATE' | 'UPDATE';
  resource: ResourceType;
  namespace: string;
  object: KubeObject;
  oldObject?: KubeObject;
  dryRun: boolean;
  warn?: (text: string) => void;
  /** Five random characters for a generated name (the ServiceAccount plugin's `kube-api-access-XXXXX`). */
  randomSuffix: () => string;
  /** The PodSecurity plugin's configuration (defaults and exemptions). */
  podSecurity?: PodSecurityConfiguration;
}

function isCorePod(r: ResourceType): boolean {
  return r.group === '' && r.kind === 'Pod';
}

/** The mutating plugins on pod creation, in upstream's order: LimitRanger's `Admit` (defaults), then ServiceAccount. */
export function mutatingAdmission(a: PluginAttributes, lookup: AdmissionLookup): void {
  if (a.operation === 'CREATE' && isCorePod(a.resource)) {
    applyLimitRangeDefaults(a.object, lookup.list('LimitRange', a.namespace));
    const refusal = admitServiceAccount(a.object, a.namespace, lookup, a.randomSuffix);
    if (refusal !== undefined) throw forbidden(a.resource, a.object.metadata.name ?? '', refusal);
    if (isObj(a.object.spec)) {
      deprecatedServiceAccount(a.object.spec);
      const rc = admitRuntimeClass(a.object.spec, runtimeClasses(lookup));
      if (rc !== undefined) throw forbidden(a.resource, a.object.metadata.name ?? '', rc);
    }
  }
  if (a.operation === 'UPDATE' && isCorePod(a.resource) && isObj(a.object.spec) && isObj(a.oldObject?.spec)) {
    keepServiceAccountFields(a.object.spec, a.oldObject.spec);
    deprecatedServiceAccount(a.object.spec);
  }
}

function runtimeClasses(lookup: AdmissionLookup): (name: string) => KubeObject | undefined {
  return (name) => lookup.get('RuntimeClass', '', name, 'node.k8s.io/v1');
}

/**
 * PodSecurity (admission.go: EvaluatePod, EvaluatePodController): a pod breaking the namespace's `enforce` level is
 * refused; one breaking `warn` gets a warning; a workload's pod template breaking either gets a warning. Pod updates
 * are checked only when the spec changed (`isSignificantPodUpdate`).
 */
function admitPodSecurity(a: PluginAttributes, lookup: AdmissionLookup): void {
  if (a.resource.group === '' && a.resource.kind === 'Namespace') return admitNamespacePodSecurity(a, lookup);
  const at = podSpecOf(a.object);
  if (!at) return;
  const isPod = a.resource.group === '' && a.resource.kind === 'Pod';
  if (isPod && a.operation === 'UPDATE' && a.oldObject && jsonEqual(a.oldObject.spec, a.object.spec)) return;
  // Exemptions (admission.go: exemptNamespace, then the pod's exemptRuntimeClass): admitted, no warning.
  const exempt = a.podSecurity?.exemptions;
  if (exempt?.namespaces?.includes(a.namespace)) return;
  const runtimeClass = at.spec.runtimeClassName;
  if (typeof runtimeClass === 'string' && exempt?.runtimeClasses?.includes(runtimeClass)) return;
  const policy = namespacePolicy(lookup.get('Namespace', '', a.namespace), a.podSecurity);
  if (!policy.enforce && !policy.warn) return;
  const meta = isPod
    ? a.object.metadata
    : isObj(at.template?.metadata)
      ? (at.template.metadata as KubeObject['metadata'])
      : {};
  const enforced = policy.enforce ? podSecurityViolations(policy.enforce, meta, at.spec) : undefined;
  const warned =
    policy.warn === undefined
      ? undefined
      : policy.warn === policy.enforce
        ? enforced
        : podSecurityViolations(policy.warn, meta, at.spec);
  if (isPod) {
    if (enforced !== undefined)
      throw forbidden(
        a.resource,
        a.object.metadata.name ?? '',
        `violates PodSecurity "${policy.enforce}": ${enforced}`,
      );
    // "avoid adding warnings to a request we're already going to reject with an error"
    if (warned !== undefined) a.warn?.(`would violate PodSecurity "${policy.warn}": ${warned}`);
    return;
  }
  if (enforced !== undefined) a.warn?.(`would violate PodSecurity "${policy.enforce}": ${enforced}`);
  if (warned !== undefined && policy.warn !== policy.enforce)
    a.warn?.(`would violate PodSecurity "${policy.warn}": ${warned}`);
}

/**
 * PodSecurity on a namespace (admission.go: ValidateNamespace): an update tightening `enforce` warns about the
 * existing pods that break the new level; exempt namespaces get no such warnings. Labels that do not parse are refused
 * by the validation rule `namespace-pod-security-labels`, before admission, with the same 422.
 */
function admitNamespacePodSecurity(a: PluginAttributes, lookup: AdmissionLookup): void {
  if (a.operation !== 'UPDATE' || !a.oldObject) return;
  const name = a.object.metadata.name ?? '';
  if (a.podSecurity?.exemptions?.namespaces?.includes(name)) return;
  const labels = a.object.metadata.labels ?? {};
  const oldLabels = a.oldObject.metadata.labels ?? {};
  for (const w of existingPodWarnings(name, labels, oldLabels, lookup.list('Pod', name), a.podSecurity)) a.warn?.(w);
}

/**
 * LimitRanger's `Validate`, PodSecurity, then ResourceQuota; throws the first refusal. Returns the quota usage the
 * write charges, for the caller to record once the object is stored.
 */
export function validatingAdmission(a: PluginAttributes, lookup: AdmissionLookup): QuotaCharge[] {
  const name = a.object.metadata.name ?? '';
  // Pods only on create (their containers are immutable); claims on create and update (`SupportsAttributes`).
  const limited =
    a.resource.group === '' &&
    ((a.operation === 'CREATE' && a.resource.kind === 'Pod') || a.resource.kind === 'PersistentVolumeClaim');
  if (limited) {
    const errs = limitRangeViolations(a.object, lookup.list('LimitRange', a.namespace));
    if (errs.length > 0) throw forbidden(a.resource, name, aggregateMessage(errs));
  }
  admitPodSecurity(a, lookup);
  if (a.operation === 'CREATE' && isCorePod(a.resource) && isObj(a.object.spec)) {
    const rc = validateRuntimeClass(a.object.spec, runtimeClasses(lookup));
    if (rc !== undefined) throw forbidden(a.resource, name, rc);
  }
  if (a.operation !== 'CREATE' || !a.resource.namespaced) return [];
  const { charges, refusal } = checkQuotas(
    a.object,
    a.resource.plural,
    a.resource.group,
    lookup.list('ResourceQuota', a.namespace),
  );
  if (refusal !== undefined) throw forbidden(a.resource, name, refusal);
  return charges;
}
