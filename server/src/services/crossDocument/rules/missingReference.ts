/**
 * `missing-reference` (warning): a pod spec names a ConfigMap, Secret,
 * PersistentVolumeClaim or ServiceAccount that no document in scope defines
 * in the pod's namespace. The API server accepts the workload, but its pods
 * cannot run as intended until the object exists. References marked
 * `optional: true` are not checked (see podReferences).
 */
import { makeDiagnostic } from '../../diagnostic';
import type { ReferencedKind } from '../facts';
import type { CrossDocumentContext, CrossDocumentRule, FileDiagnostic } from '../rule';
import { objectKey } from '../rule';

/** What happens to the pods when the referenced object is missing. */
const CONSEQUENCE: Readonly<Record<ReferencedKind, string>> = {
  ConfigMap: 'its pods cannot start until it exists (mark the reference "optional: true" if it may be absent)',
  Secret: 'its pods cannot start until it exists (mark the reference "optional: true" if it may be absent)',
  PersistentVolumeClaim: 'its pods stay Pending until it exists',
  ServiceAccount: 'the API server rejects its pods until it exists',
};
const IMAGE_PULL_CONSEQUENCE = 'image pulls that need it will fail';

export const missingReference: CrossDocumentRule = {
  code: 'missing-reference',
  check(ctx: CrossDocumentContext): FileDiagnostic[] {
    const defined = new Set<string>();
    for (const o of ctx.objects) {
      if (o.facts.group === '' && o.facts.name !== undefined)
        defined.add(objectKey('', o.facts.kind, o.namespace, o.facts.name));
    }
    const out: FileDiagnostic[] = [];
    for (const o of ctx.objects) {
      for (const ref of o.facts.references) {
        if (defined.has(objectKey('', ref.kind, o.namespace, ref.name))) continue;
        const consequence = ref.field.includes('imagePullSecrets[') ? IMAGE_PULL_CONSEQUENCE : CONSEQUENCE[ref.kind];
        const message = `${ref.kind} "${ref.name}" is not defined in namespace "${o.namespace}" in ${ctx.scopeName}; ${consequence}`;
        out.push({ uri: o.file.uri, diagnostic: makeDiagnostic(ref.range, missingReference.code, message, true) });
      }
    }
    return out;
  },
};
