/**
 * What the naming and establishing controllers of the apiextensions server decide for a CRD: which of its names
 * are accepted (not already in use in its group by another CRD's accepted names), the `NamesAccepted` and
 * `Established` conditions, and, for protected groups, `KubernetesAPIApprovalPolicyConformant`. With one API
 * server the establishing controller acts at once, so a CRD whose names are accepted is established in the same
 * step.
 *
 * upstream: apiextensions-apiserver pkg/controller/status/naming_controller.go (`calculateNamesAndConditions`,
 * `getAcceptedNamesForGroup`), pkg/controller/establish/establishing_controller.go, and
 * pkg/controller/apiapproval/apiapproval_controller.go (`calculateCondition`).
 */
import { API_APPROVAL_ANNOTATION, isProtectedGroup } from './crdValidation';
import type { CrdCondition, CrdNames, CrdStatus, CustomResourceDefinition } from './types';
import { conditionOf } from './types';

interface Taken {
  resources: Set<string>;
  kinds: Set<string>;
}

/** The names other CRDs of the same group have been granted (upstream: getAcceptedNamesForGroup). */
function takenNames(crd: CustomResourceDefinition, all: readonly CustomResourceDefinition[]): Taken {
  const taken: Taken = { resources: new Set(), kinds: new Set() };
  for (const other of all) {
    if (other.metadata.name === crd.metadata.name || other.spec?.group !== crd.spec?.group) continue;
    const n = other.status?.acceptedNames ?? {};
    for (const r of [n.plural, n.singular, ...(n.shortNames ?? [])]) if (r) taken.resources.add(r);
    for (const k of [n.kind, n.listKind]) if (k) taken.kinds.add(k);
  }
  return taken;
}

function condition(type: string, status: CrdCondition['status'], reason: string, message: string): CrdCondition {
  return { type, status, reason, message };
}

/** The accepted names and NamesAccepted condition (upstream: calculateNamesAndConditions). */
function namesAndCondition(
  crd: CustomResourceDefinition,
  all: readonly CustomResourceDefinition[],
): { names: CrdNames; cond: CrdCondition } {
  const { resources, kinds } = takenNames(crd, all);
  const requested = crd.spec?.names ?? {};
  const accepted: CrdNames = { ...(crd.status?.acceptedNames ?? {}) };
  let cond: CrdCondition | undefined;
  const conflict = (reason: string, name: string) => {
    cond ??= condition('NamesAccepted', 'False', reason, `${JSON.stringify(name)} is already in use`);
  };
  if (requested.plural && resources.has(requested.plural)) conflict('PluralConflict', requested.plural);
  else accepted.plural = requested.plural;
  if (requested.singular && resources.has(requested.singular)) conflict('SingularConflict', requested.singular);
  else accepted.singular = requested.singular;
  const clash = (requested.shortNames ?? []).find((s) => resources.has(s));
  if (clash !== undefined) conflict('ShortNamesConflict', clash);
  else accepted.shortNames = requested.shortNames;
  if (requested.kind && kinds.has(requested.kind)) conflict('KindConflict', requested.kind);
  else accepted.kind = requested.kind;
  if (requested.listKind && kinds.has(requested.listKind)) conflict('ListKindConflict', requested.listKind);
  else accepted.listKind = requested.listKind;
  accepted.categories = requested.categories;
  // In the order upstream's type declares them.
  const ordered: CrdNames = {};
  for (const key of ['plural', 'singular', 'shortNames', 'kind', 'listKind', 'categories'] as const)
    if (accepted[key] !== undefined) (ordered as Record<string, unknown>)[key] = accepted[key];
  return { names: ordered, cond: cond ?? condition('NamesAccepted', 'True', 'NoConflicts', 'no conflicts found') };
}

/** upstream: apiapproval_controller.go calculateCondition. */
function approvalCondition(crd: CustomResourceDefinition): CrdCondition | undefined {
  if (!isProtectedGroup(crd.spec?.group ?? '')) return undefined;
  const type = 'KubernetesAPIApprovalPolicyConformant';
  const value = crd.metadata.annotations?.[API_APPROVAL_ANNOTATION] ?? '';
  if (value === '')
    return condition(
      type,
      'False',
      'MissingAnnotation',
      `protected groups must have approval annotation "${API_APPROVAL_ANNOTATION}", see https://github.com/kubernetes/enhancements/pull/1111`,
    );
  if (value.startsWith('unapproved'))
    return condition(type, 'False', 'UnapprovedAnnotation', `not approved: ${JSON.stringify(value)}`);
  if (/^https?:\/\//.test(value)) return condition(type, 'True', 'ApprovedAnnotation', `approved in ${value}`);
  return condition(
    type,
    'False',
    'InvalidAnnotation',
    `protected groups must have approval annotation "${API_APPROVAL_ANNOTATION}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
  );
}

/** Keeps lastTransitionTime when a condition's status does not change (upstream: SetCRDCondition). */
function setCondition(list: CrdCondition[], next: CrdCondition, now: string): void {
  const i = list.findIndex((c) => c.type === next.type);
  if (i < 0) {
    list.push({ ...next, lastTransitionTime: now });
    return;
  }
  const old = list[i];
  list[i] = { ...next, lastTransitionTime: old.status === next.status ? (old.lastTransitionTime ?? now) : now };
}

/**
 * The status the naming, establishing and API-approval controllers give `crd` among `all` CRDs (the stored ones),
 * or undefined when it would not change. A terminating CRD keeps its status (the cleanup sets `Terminating`).
 */
export function reconcileCrdStatus(
  crd: CustomResourceDefinition,
  all: readonly CustomResourceDefinition[],
  now: string,
): CrdStatus | undefined {
  const { names, cond } = namesAndCondition(crd, all);
  const conditions = [...(crd.status?.conditions ?? [])];
  setCondition(conditions, cond, now);
  const established = conditionOf(crd, 'Established');
  if (established?.status !== 'True') {
    if (cond.status === 'True')
      setCondition(
        conditions,
        condition('Established', 'True', 'InitialNamesAccepted', 'the initial names have been accepted'),
        now,
      );
    else setCondition(conditions, condition('Established', 'False', 'NotAccepted', 'not all names are accepted'), now);
  }
  const approval = approvalCondition(crd);
  if (approval !== undefined) setCondition(conditions, approval, now);
  const next: CrdStatus = { ...(crd.status ?? {}), acceptedNames: names, conditions };
  return JSON.stringify(next) === JSON.stringify(crd.status ?? {}) ? undefined : next;
}
