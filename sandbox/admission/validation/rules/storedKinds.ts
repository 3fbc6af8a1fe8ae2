/**
 * Validation of kinds the sandbox stores without a controller acting on them, with upstream's paths and words:
 * RBAC rules and role references (pkg/apis/rbac/validation), admission webhooks
 * (pkg/apis/admissionregistration/validation `validateWebhook`), StorageClass (pkg/apis/storage/validation),
 * PriorityClass (pkg/apis/scheduling/validation), RuntimeClass (pkg/apis/node/validation), IngressClass
 * (pkg/apis/networking/validation), APIService (kube-aggregator pkg/apis/apiregistration/validation).
 */
import { isDns1035Label, isDns1123Label, isDns1123Subdomain, isValidPortNum } from '../../../api/names';
import { arr, isObj, num, obj, str } from '../access';
import { invalid, notSupported, required, type FieldError } from '../fieldError';
import type { ValidationRule } from '../rule';
import { pathSegmentName } from './metadata';

export const rbacRules: ValidationRule = {
  code: 'rbac-rules',
  description: 'Every policy rule names its verbs, and resources with apiGroups or nonResourceURLs.',
  kinds: ['Role', 'ClusterRole'],
  validate(o) {
    const errs: FieldError[] = [];
    arr(o, 'rules').forEach((r, i) => {
      const at = `rules[${i}]`;
      if (arr(r, 'verbs').length === 0)
        errs.push(required(this.code, `${at}.verbs`, 'verbs must contain at least one value'));
      const urls = arr(r, 'nonResourceURLs');
      if (urls.length > 0) {
        if (o.kind === 'Role')
          errs.push(
            invalid(this.code, `${at}.nonResourceURLs`, urls, 'namespaced rules cannot apply to non-resource URLs'),
          );
        if (arr(r, 'apiGroups').length > 0 || arr(r, 'resources').length > 0)
          errs.push(
            invalid(
              this.code,
              `${at}.nonResourceURLs`,
              urls,
              'rules cannot apply to both regular resources and non-resource URLs',
            ),
          );
        return;
      }
      if (arr(r, 'apiGroups').length === 0)
        errs.push(required(this.code, `${at}.apiGroups`, 'resource rules must supply at least one api group'));
      if (arr(r, 'resources').length === 0)
        errs.push(required(this.code, `${at}.resources`, 'resource rules must supply at least one resource'));
    });
    return errs;
  },
};

export const rbacRoleRef: ValidationRule = {
  code: 'rbac-role-ref',
  description:
    'A binding refers to a Role or ClusterRole of rbac.authorization.k8s.io by name; subjects have a kind and name.',
  kinds: ['RoleBinding', 'ClusterRoleBinding'],
  validate(o) {
    const errs: FieldError[] = [];
    const ref = obj(o, 'roleRef');
    const group = str(ref, 'apiGroup') ?? '';
    if (group !== 'rbac.authorization.k8s.io')
      errs.push(notSupported(this.code, 'roleRef.apiGroup', group, ['rbac.authorization.k8s.io']));
    const kinds = o.kind === 'RoleBinding' ? ['Role', 'ClusterRole'] : ['ClusterRole'];
    const kind = str(ref, 'kind') ?? '';
    if (!kinds.includes(kind)) errs.push(notSupported(this.code, 'roleRef.kind', kind, kinds));
    if ((str(ref, 'name') ?? '') === '') errs.push(required(this.code, 'roleRef.name'));
    arr(o, 'subjects').forEach((s, i) => {
      const at = `subjects[${i}]`;
      if ((str(s, 'name') ?? '') === '') errs.push(required(this.code, `${at}.name`));
      const k = str(s, 'kind') ?? '';
      if (!['ServiceAccount', 'User', 'Group'].includes(k))
        errs.push(notSupported(this.code, `${at}.kind`, k, ['ServiceAccount', 'User', 'Group']));
      if (k === 'ServiceAccount' && o.kind === 'ClusterRoleBinding' && (str(s, 'namespace') ?? '') === '')
        errs.push(required(this.code, `${at}.namespace`));
    });
    return errs;
  },
};

const SIDE_EFFECTS = ['None', 'NoneOnDryRun'];

export const webhookConfiguration: ValidationRule = {
  code: 'admission-webhooks',
  description: 'Each webhook has a unique qualified name, sideEffects, admissionReviewVersions and one client config.',
  kinds: ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration'],
  validate(o) {
    const errs: FieldError[] = [];
    const seen = new Set<string>();
    arr(o, 'webhooks').forEach((h, i) => {
      const at = `webhooks[${i}]`;
      const name = str(h, 'name') ?? '';
      if (name === '') errs.push(required(this.code, `${at}.name`));
      else {
        const parts = name.split('.');
        const sub = isDns1123Subdomain(name);
        if (sub.length > 0) errs.push(invalid(this.code, `${at}.name`, name, sub.join(', ')));
        else if (parts.length < 3)
          errs.push(
            invalid(this.code, `${at}.name`, name, 'should be a domain with at least three segments separated by dots'),
          );
        if (seen.has(name))
          errs.push({ code: this.code, type: 'FieldValueDuplicate', field: `${at}.name`, value: name });
        seen.add(name);
      }
      const se = str(h, 'sideEffects');
      if (se === undefined || !SIDE_EFFECTS.includes(se))
        errs.push(notSupported(this.code, `${at}.sideEffects`, se ?? '', SIDE_EFFECTS));
      const versions = arr(h, 'admissionReviewVersions');
      if (versions.length === 0)
        errs.push(required(this.code, `${at}.admissionReviewVersions`, 'must specify one of v1, v1beta1'));
      else if (!versions.some((v) => v === 'v1' || v === 'v1beta1'))
        errs.push(
          invalid(this.code, `${at}.admissionReviewVersions`, versions, 'must include at least one of v1, v1beta1'),
        );
      const cc = obj(h, 'clientConfig');
      const hasUrl = (str(cc, 'url') ?? '') !== '';
      const hasService = isObj(cc?.service);
      if (hasUrl === hasService)
        errs.push(required(this.code, `${at}.clientConfig`, 'exactly one of url or service is required'));
      const timeout = h !== null && typeof h === 'object' ? (h as Record<string, unknown>).timeoutSeconds : undefined;
      if (typeof timeout === 'number' && (timeout < 1 || timeout > 30))
        errs.push(
          invalid(this.code, `${at}.timeoutSeconds`, timeout, 'the timeout value must be between 1 and 30 seconds'),
        );
    });
    return errs;
  },
};

export const storageClass: ValidationRule = {
  code: 'storage-class',
  description: 'A StorageClass names its provisioner; reclaimPolicy and volumeBindingMode are known values.',
  kinds: ['StorageClass'],
  validate(o) {
    const errs: FieldError[] = [];
    const provisioner = str(o, 'provisioner') ?? '';
    if (provisioner === '') errs.push(required(this.code, 'provisioner'));
    const reclaim = str(o, 'reclaimPolicy');
    if (reclaim !== undefined && reclaim !== 'Delete' && reclaim !== 'Retain')
      errs.push(notSupported(this.code, 'reclaimPolicy', reclaim, ['Delete', 'Retain']));
    const mode = str(o, 'volumeBindingMode');
    if (mode !== undefined && mode !== 'Immediate' && mode !== 'WaitForFirstConsumer')
      errs.push(notSupported(this.code, 'volumeBindingMode', mode, ['Immediate', 'WaitForFirstConsumer']));
    return errs;
  },
};

export const priorityClass: ValidationRule = {
  code: 'priority-class',
  description: 'User PriorityClasses stay below one billion; preemptionPolicy is known; system- names are reserved.',
  kinds: ['PriorityClass'],
  validate(o) {
    const errs: FieldError[] = [];
    const name = o.metadata?.name ?? '';
    const value = (o as { value?: unknown }).value;
    const system = name === 'system-node-critical' || name === 'system-cluster-critical';
    if (name.startsWith('system-') && !system)
      errs.push({
        code: this.code,
        type: 'FieldValueForbidden',
        field: 'metadata.name',
        detail: `priority class names with 'system-' prefix are reserved for system use only`,
      });
    if (!system && typeof value === 'number' && value > 1_000_000_000)
      errs.push(invalid(this.code, 'value', value, 'maximum allowed value of a user defined priority is 1000000000'));
    const policy = str(o, 'preemptionPolicy');
    if (policy !== undefined && policy !== 'PreemptLowerPriority' && policy !== 'Never')
      errs.push(notSupported(this.code, 'preemptionPolicy', policy, ['Never', 'PreemptLowerPriority']));
    return errs;
  },
};

export const runtimeClass: ValidationRule = {
  code: 'runtime-class',
  description: 'A RuntimeClass handler is a DNS label.',
  kinds: ['RuntimeClass'],
  validate(o) {
    const handler = str(o, 'handler') ?? '';
    if (handler === '') return [required(this.code, 'handler')];
    return isDns1123Label(handler).map((m) => invalid(this.code, 'handler', handler, m));
  },
};

export const ingressClass: ValidationRule = {
  code: 'ingress-class',
  description: 'An IngressClass names its controller.',
  kinds: ['IngressClass'],
  validate(o) {
    const controller = str(obj(o, 'spec'), 'controller') ?? '';
    return controller === '' ? [required(this.code, 'spec.controller')] : [];
  },
};

/**
 * upstream: kube-aggregator pkg/apis/apiregistration/validation `ValidateAPIService` — the name is `version.group`,
 * the priorities are in range, and an APIService served by a Service names the Service's namespace and name (a
 * local one, without `service`, may have neither caBundle nor insecureSkipTLSVerify). metrics-server's
 * `manifests/base/apiservice.yaml` applied without kustomize leaves out `spec.service.namespace`: refused.
 */
export const apiService: ValidationRule = {
  code: 'api-service',
  description: 'An APIService is named version.group and names the namespace and name of the Service serving it.',
  kinds: ['APIService'],
  validate(o) {
    const errs: FieldError[] = [];
    const spec = obj(o, 'spec');
    const group = str(spec, 'group') ?? '';
    const version = str(spec, 'version') ?? '';
    const name = o.metadata?.name ?? '';
    const requiredName = `${version}.${group}`;
    if (name !== '' && pathSegmentName(name, false).length === 0 && name !== requiredName)
      errs.push(
        invalid(this.code, 'metadata.name', name, `must be \`spec.version+"."+spec.group\`: "${requiredName}"`),
      );
    if (group === '' && version !== 'v1')
      errs.push(required(this.code, 'spec.group', 'only v1 may have an empty group and it better be legacy kube'));
    if (group !== '') for (const m of isDns1123Subdomain(group)) errs.push(invalid(this.code, 'spec.group', group, m));
    for (const m of isDns1035Label(version)) errs.push(invalid(this.code, 'spec.version', version, m));
    const groupPriority = num(spec, 'groupPriorityMinimum') ?? 0;
    if (groupPriority <= 0 || groupPriority > 20000)
      errs.push(invalid(this.code, 'spec.groupPriorityMinimum', groupPriority, 'must be positive and less than 20000'));
    const versionPriority = num(spec, 'versionPriority') ?? 0;
    if (versionPriority <= 0 || versionPriority > 1000)
      errs.push(invalid(this.code, 'spec.versionPriority', versionPriority, 'must be positive and less than 1000'));
    const caBundle = str(spec, 'caBundle') ?? '';
    const insecure = spec?.insecureSkipTLSVerify === true;
    const service = obj(spec, 'service');
    if (service === undefined) {
      // Go holds caBundle as the decoded bytes: base64 of n bytes is 4·ceil(n/3) characters less its padding.
      if (caBundle !== '') {
        const bytes = (caBundle.length / 4) * 3 - (caBundle.endsWith('==') ? 2 : caBundle.endsWith('=') ? 1 : 0);
        errs.push(
          invalid(
            this.code,
            'spec.caBundle',
            `${Math.floor(bytes)} bytes`,
            'local APIServices may not have a caBundle',
          ),
        );
      }
      if (insecure)
        errs.push(
          invalid(
            this.code,
            'spec.insecureSkipTLSVerify',
            true,
            'local APIServices may not have insecureSkipTLSVerify',
          ),
        );
      return errs;
    }
    if ((str(service, 'namespace') ?? '') === '') errs.push(required(this.code, 'spec.service.namespace'));
    if ((str(service, 'name') ?? '') === '') errs.push(required(this.code, 'spec.service.name'));
    const port = num(service, 'port');
    if (port !== undefined) {
      const bad = isValidPortNum(port);
      if (bad.length > 0)
        errs.push(invalid(this.code, 'spec.service.port', port, `port is not valid: ${bad.join(', ')}`));
    }
    if (insecure && caBundle !== '')
      errs.push(invalid(this.code, 'spec.insecureSkipTLSVerify', true, 'may not be true if caBundle is present'));
    return errs;
  },
};
