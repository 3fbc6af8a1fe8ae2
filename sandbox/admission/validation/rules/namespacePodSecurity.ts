/**
 * A namespace's Pod Security labels (upstream: pod-security-admission admission/admission.go `ValidateNamespace`,
 * api/helpers.go `PolicyToEvaluate`): a level other than privileged, baseline or restricted, or a version other than
 * `latest` or `v1.x`, is refused on create, and on update unless the same errors were already there.
 */
import { namespaceLabelErrors } from '../../plugins/podSecurity';
import { invalid } from '../fieldError';
import type { ValidationRule } from '../rule';

export const namespacePodSecurityLabels: ValidationRule = {
  code: 'namespace-pod-security-labels',
  description:
    'pod-security.kubernetes.io/enforce, audit and warn are privileged, baseline or restricted; their -version labels are latest or v1.x.',
  kinds: ['Namespace'],
  validate(o, ctx) {
    const errs = namespaceLabelErrors(o.metadata?.labels);
    if (errs.length === 0) return [];
    if (ctx.operation === 'UPDATE' && ctx.old) {
      // "require valid labels on update if they have changed"
      const old = namespaceLabelErrors(ctx.old.metadata?.labels);
      if (old.length > 0 && JSON.stringify(old) === JSON.stringify(errs)) return [];
    }
    return errs.map((e) => invalid(this.code, e.field, e.value, e.detail));
  },
};
