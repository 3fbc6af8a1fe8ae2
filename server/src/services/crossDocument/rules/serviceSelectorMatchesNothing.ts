/**
 * `service-selector-matches-nothing` (warning): a Service whose selector
 * matches the labels of no pod template in its namespace. The API server
 * accepts it, but the Service has no endpoints, so traffic to it goes
 * nowhere. Pod templates come from Deployments, ReplicaSets, StatefulSets,
 * DaemonSets, Jobs, CronJobs, ReplicationControllers and bare Pods.
 */
import { makeDiagnostic } from '../../diagnostic';
import type { CrossDocumentContext, CrossDocumentRule, FileDiagnostic } from '../rule';
import { inNamespace, podTemplateIndexByNamespace } from '../rule';
import type { PodTemplateLabels } from '../rule';

export const serviceSelectorMatchesNothing: CrossDocumentRule = {
  code: 'service-selector-matches-nothing',
  check(ctx: CrossDocumentContext): FileDiagnostic[] {
    const podLabels = podTemplateIndexByNamespace(ctx);
    const out: FileDiagnostic[] = [];
    for (const o of ctx.objects) {
      const selector = o.facts.serviceSelector;
      if (selector === undefined) continue;
      if (selectsSome(selector.labels, podLabels.get(o.namespace))) continue;
      const message = `Service selector ${formatSelector(selector.labels)} matches no pod template${inNamespace(o.namespace)} in ${ctx.scopeName}; the Service would have no endpoints`;
      out.push({
        uri: o.file.uri,
        diagnostic: makeDiagnostic(selector.range, serviceSelectorMatchesNothing.code, message, true),
      });
    }
    return out;
  },
};

/** True when the selector selects one of the templates (only those with its first label can match). */
function selectsSome(selector: Readonly<Record<string, string>>, templates: PodTemplateLabels | undefined): boolean {
  if (templates === undefined) return false;
  const first = Object.keys(selector)[0];
  const candidates = first === undefined ? templates.all : templates.withLabel(first, selector[first]);
  return candidates.some((labels) => selects(selector, labels));
}

/** True when every `key=value` of the selector is among the labels. */
function selects(selector: Readonly<Record<string, string>>, labels: Readonly<Record<string, string>>): boolean {
  return Object.entries(selector).every(([k, v]) => Object.hasOwn(labels, k) && labels[k] === v);
}

/** `app=web,tier=frontend`, as kubectl prints a selector. */
function formatSelector(labels: Readonly<Record<string, string>>): string {
  return Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}
