/**
 * `custom-resource-validation`: a custom resource of a kind a CustomResourceDefinition of the scope serves, which
 * the API server would refuse once that CRD is established — its version's schema or its `x-kubernetes-validations`
 * rules (an error at the object's name, with the API server's field message). The same checks as the API server's
 * (sandbox/apiextensions/workspace.ts over sandbox/apiextensions/schema), over the documents instead of the store.
 */
import { formatFieldError } from '../../../../../sandbox/admission/validation/format';
import { workspaceCrds } from '../../../../../sandbox/apiextensions/workspace';
import { makeDiagnostic } from '../../diagnostic';
import type { CrossDocumentContext, CrossDocumentRule, FileDiagnostic } from '../rule';

export const customResourceValidation: CrossDocumentRule = {
  code: 'custom-resource-validation',
  check(ctx: CrossDocumentContext): FileDiagnostic[] {
    const crds = workspaceCrds(ctx.objects.map((o) => o.facts.object));
    if (crds.empty) return [];
    const out: FileDiagnostic[] = [];
    for (const located of ctx.objects) {
      const obj = located.facts.object;
      const metadata = located.namespace === '' ? obj.metadata : { ...obj.metadata, namespace: located.namespace };
      const errors = crds.check({ ...obj, metadata }) ?? [];
      // As the API server's 422 names the object: `Widget.example.com "w" is invalid: spec.replicas: …`.
      const prefix = `${located.facts.kind}.${located.facts.group} "${located.facts.name ?? ''}" is invalid: `;
      for (const e of errors)
        out.push({
          uri: located.file.uri,
          diagnostic: makeDiagnostic(located.facts.nameRange, this.code, prefix + formatFieldError(e)),
        });
    }
    return out;
  },
};
