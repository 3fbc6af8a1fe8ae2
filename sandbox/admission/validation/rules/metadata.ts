/** ObjectMeta rules every kind shares (apimachinery `ValidateObjectMeta`). */
import type { KubeObject } from '../../../api/types';
import { arr, isObj, str, strMap } from '../access';
import { invalid, required, type FieldError } from '../fieldError';
import { isDns1035Label, isDns1123Label, isDns1123Subdomain, isQualifiedName, nameCheck } from '../../../api/names';
import type { ValidationRule } from '../rule';
import { validateAnnotations, validateLabels } from './labels';

/** Upstream `ValidatePathSegmentName`, used for RBAC and APIService object names. */
export function pathSegmentName(name: string, prefix: boolean): string[] {
  if (!prefix && (name === '.' || name === '..')) return [`may not be '${name}'`];
  const errs: string[] = [];
  for (const bad of ['/', '%']) if (name.includes(bad)) errs.push(`may not contain '${bad}'`);
  return errs;
}

const RBAC_KINDS = new Set(['Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding']);

/** The name check upstream applies to each kind. */
export function nameValidatorFor(kind: string): (name: string, prefix: boolean) => string[] {
  if (kind === 'Namespace') return nameCheck(isDns1123Label);
  if (kind === 'Service') return nameCheck(isDns1035Label);
  if (RBAC_KINDS.has(kind)) return pathSegmentName;
  // kube-aggregator ValidateAPIService: a path segment, which must also be `version.group` (rules/storedKinds.ts).
  if (kind === 'APIService') return pathSegmentName;
  return nameCheck(isDns1123Subdomain);
}

function meta(obj: KubeObject): Record<string, unknown> {
  return isObj(obj.metadata) ? obj.metadata : {};
}

export const metadataName: ValidationRule = {
  code: 'metadata-name',
  description: 'name or generateName is required, and both follow the naming rule of the kind.',
  kinds: '*',
  validate(obj) {
    const code = this.code;
    const m = meta(obj);
    const check = nameValidatorFor(obj.kind);
    const errs: FieldError[] = [];
    const generateName = str(m, 'generateName') ?? '';
    const name = str(m, 'name') ?? '';
    if (generateName !== '')
      for (const msg of check(generateName, true)) errs.push(invalid(code, 'metadata.generateName', generateName, msg));
    if (name === '') {
      if (generateName === '') errs.push(required(code, 'metadata.name', 'name or generateName is required'));
    } else {
      for (const msg of check(name, false)) errs.push(invalid(code, 'metadata.name', name, msg));
    }
    return errs;
  },
};

export const metadataNamespace: ValidationRule = {
  code: 'metadata-namespace',
  description: 'metadata.namespace, when set, is a DNS-1123 label.',
  kinds: '*',
  validate(obj) {
    const ns = str(meta(obj), 'namespace') ?? '';
    return ns === '' ? [] : isDns1123Label(ns).map((msg) => invalid(this.code, 'metadata.namespace', ns, msg));
  },
};

export const metadataLabels: ValidationRule = {
  code: 'metadata-labels',
  description: 'Label keys are qualified names and values are valid label values.',
  kinds: '*',
  validate(obj) {
    return validateLabels(this.code, strMap(meta(obj), 'labels'), 'metadata.labels');
  },
};

export const metadataAnnotations: ValidationRule = {
  code: 'metadata-annotations',
  description: 'Annotation keys are qualified names and all annotations total at most 256 KiB.',
  kinds: '*',
  validate(obj) {
    return validateAnnotations(this.code, strMap(meta(obj), 'annotations'), 'metadata.annotations');
  },
};

const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

export const metadataFinalizers: ValidationRule = {
  code: 'metadata-finalizers',
  description:
    'Finalizers are qualified names; unprefixed ones must be standard (kubernetes, orphan, foregroundDeletion).',
  kinds: '*',
  validate(obj) {
    const errs: FieldError[] = [];
    for (const f of arr(meta(obj), 'finalizers')) {
      if (typeof f !== 'string') continue;
      const msgs = isQualifiedName(f);
      for (const msg of msgs) errs.push(invalid(this.code, 'metadata.finalizers', f, msg));
      if (msgs.length === 0 && !f.includes('/') && !STANDARD_FINALIZERS.has(f)) {
        errs.push(
          invalid(
            this.code,
            'metadata.finalizers',
            f,
            'name is neither a standard finalizer name nor is it fully qualified',
          ),
        );
      }
    }
    return errs;
  },
};

export const metadataOwnerReferences: ValidationRule = {
  code: 'metadata-owner-references',
  description: 'Owner references have apiVersion, kind, name and uid, and at most one is the controller.',
  kinds: '*',
  validate(obj) {
    const code = this.code;
    const errs: FieldError[] = [];
    let firstController = '';
    arr(meta(obj), 'ownerReferences').forEach((ref, i) => {
      if (!isObj(ref)) return;
      const p = `metadata.ownerReferences[${i}]`;
      const apiVersion = str(ref, 'apiVersion') ?? '';
      const version = apiVersion.includes('/') ? apiVersion.slice(apiVersion.indexOf('/') + 1) : apiVersion;
      if (version === '') errs.push(invalid(code, `${p}.apiVersion`, apiVersion, 'version must not be empty'));
      for (const [f, what] of [
        ['kind', 'kind'],
        ['name', 'name'],
        ['uid', 'uid'],
      ] as const) {
        const v = str(ref, f) ?? '';
        if (v === '') errs.push(invalid(code, `${p}.${f}`, v, `${what} must not be empty`));
      }
      if (ref.controller === true) {
        const current = `${str(ref, 'kind') ?? ''}/${str(ref, 'name') ?? ''}`;
        if (firstController === '') firstController = current;
        else {
          errs.push(
            invalid(
              code,
              'metadata.ownerReferences',
              `${firstController}, ${current}`,
              `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`,
            ),
          );
        }
      }
    });
    return errs;
  },
};
