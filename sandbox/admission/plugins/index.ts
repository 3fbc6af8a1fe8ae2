/**
 * The admission plugins that read other objects of the cluster (upstream's default plugin chain, in its order):
 * mutating — LimitRanger (defaults), ServiceAccount; validating — LimitRanger (min/max), PodSecurity, ResourceQuota.
 * The API server calls `mutatingAdmission` after defaulting and `validatingAdmission` after validation; both read
 * the store through `AdmissionLookup`. A refusal is 403 Forbidden, `<resource> "<name>" is forbidden: <why>`, as
 * upstream's `admission.NewForbidden`.
 */
import { forbidden } from '../../api/errors';
import type { ResourceType } from '../../api/resources';
import type { KubeObject } from '../../api/types';
import { aggregateMessage, applyLimitRangeDefaults, limitRangeViolations } from './limitRanger';

export interface AdmissionLookup {
  /** The objects of `kind` (core/v1 kinds: LimitRange, ResourceQuota, ServiceAccount, Namespace…) in `namespace`. */
  list(kind: string, namespace: string): KubeObject[];
  get(kind: string, namespace: string, name: string): KubeObject | undefined;
}

export interface PluginAttributes {
  operation: 'CREATE' | 'UPDATE';
  resource: ResourceType;
  namespace: string;
  object: KubeObject;
  oldObject?: KubeObject;
  dryRun: boolean;
  warn?: (text: string) => void;
}

function isCorePod(r: ResourceType): boolean {
  return r.group === '' && r.kind === 'Pod';
}

/** LimitRanger's `Admit` (defaults on pod creation). */
export function mutatingAdmission(a: PluginAttributes, lookup: AdmissionLookup): void {
  if (a.operation === 'CREATE' && isCorePod(a.resource)) {
    applyLimitRangeDefaults(a.object, lookup.list('LimitRange', a.namespace));
  }
}

/** LimitRanger's `Validate`; throws the first refusal. */
export function validatingAdmission(a: PluginAttributes, lookup: AdmissionLookup): void {
  const name = a.object.metadata.name ?? '';
  // Pods only on create (their containers are immutable); claims on create and update (`SupportsAttributes`).
  const limited =
    a.resource.group === '' &&
    ((a.operation === 'CREATE' && a.resource.kind === 'Pod') || a.resource.kind === 'PersistentVolumeClaim');
  if (limited) {
    const errs = limitRangeViolations(a.object, lookup.list('LimitRange', a.namespace));
    if (errs.length > 0) throw forbidden(a.resource, name, aggregateMessage(errs));
  }
}
