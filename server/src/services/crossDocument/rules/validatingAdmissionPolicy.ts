/**
 * `validating-admission-policy`: a ValidatingAdmissionPolicy of the scope, through its bindings, would refuse a
 * manifest (a Deny binding: an error, with the API server's message) or warn about it (a Warn binding: a warning).
 * The same plugin as the API server's (sandbox/admission/policy), over the documents instead of the store; each
 * manifest is judged as if created, as single-document validation leaves it (defaulted).
 */
import type { KubeObject } from '../../../../../sandbox/api/types';
import {
  checkAgainstPolicies,
  hasPolicies,
  workspacePolicySource,
} from '../../../../../sandbox/admission/policy/index';
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
    const out: FileDiagnostic[] = [];
    for (const { located, obj } of placed) {
      const verdict = checkAgainstPolicies(source, obj);
      const range = located.facts.nameRange;
      if (verdict.denied)
        out.push({ uri: located.file.uri, diagnostic: makeDiagnostic(range, this.code, verdict.denied) });
      for (const w of verdict.warnings)
        out.push({ uri: located.file.uri, diagnostic: makeDiagnostic(range, this.code, w, true) });
    }
    return out;
  },
};
