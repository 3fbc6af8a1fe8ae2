/**
 * `hpa-target-missing` (warning): a HorizontalPodAutoscaler whose
 * `scaleTargetRef` names an object that no document in scope defines in its
 * namespace. The API server accepts it; the autoscaler then reports
 * `FailedGetScale` and never scales anything.
 */
import { parseApiVersion } from '../../../../../sandbox/api/types';
import { makeDiagnostic } from '../../diagnostic';
import type { CrossDocumentContext, CrossDocumentRule, FileDiagnostic } from '../rule';
import { inNamespace, objectKey } from '../rule';

export const hpaTargetMissing: CrossDocumentRule = {
  code: 'hpa-target-missing',
  check(ctx: CrossDocumentContext): FileDiagnostic[] {
    const defined = new Set<string>();
    for (const o of ctx.objects) {
      if (o.facts.name !== undefined) defined.add(objectKey(o.facts.group, o.facts.kind, o.namespace, o.facts.name));
    }
    const out: FileDiagnostic[] = [];
    for (const o of ctx.objects) {
      const target = o.facts.scaleTarget;
      if (target === undefined) continue;
      if (defined.has(objectKey(parseApiVersion(target.apiVersion).group, target.kind, o.namespace, target.name)))
        continue;
      const message = `The scale target ${target.kind} "${target.name}" is not defined${inNamespace(o.namespace)} in ${ctx.scopeName}; the autoscaler would scale nothing`;
      out.push({ uri: o.file.uri, diagnostic: makeDiagnostic(target.range, hpaTargetMissing.code, message, true) });
    }
    return out;
  },
};
