/**
 * `pod-selector-matches-nothing` (warning): a pod (anti-)affinity term or a topology spread constraint whose label
 * selector matches no pod template in its namespace, when that namespace has workloads in scope. The API server
 * accepts it, but the term constrains nothing: an anti-affinity meant to keep replicas apart lets them share a node
 * (the Kubernetes docs' ZooKeeper selecting `app In (zk)` while its pods carry `app.kubernetes.io/name: zk`), a spread
 * constraint counts no pod. Terms that may select other namespaces are not checked.
 */
import { formatLabelSelector, labelSelectorFromObject } from '../../../../../sandbox/api/selectors/labelSelector';
import type { LabelSelector, Selector } from '../../../../../sandbox/api/selectors/labelSelector';
import { makeDiagnostic } from '../../diagnostic';
import type { CrossDocumentContext, CrossDocumentRule, FileDiagnostic } from '../rule';
import { inNamespace, podTemplateIndexByNamespace } from '../rule';
import type { PodTemplateLabels } from '../rule';

/** At most this many distinct labels are listed in a message. */
const MAX_LABELS = 8;

export const podSelectorMatchesNothing: CrossDocumentRule = {
  code: 'pod-selector-matches-nothing',
  check(ctx: CrossDocumentContext): FileDiagnostic[] {
    const podLabels = podTemplateIndexByNamespace(ctx);
    const out: FileDiagnostic[] = [];
    for (const o of ctx.objects) {
      for (const term of o.facts.podSelectorTerms) {
        if (term.otherNamespaces) continue;
        const templates = podLabels.get(o.namespace);
        if (templates === undefined || templates.all.length === 0) continue;
        const selector = term.selector as LabelSelector;
        if (matchesSome(selector, templates)) continue;
        const text = formatLabelSelector(selector);
        if (text === '<error>') continue;
        const message = `${term.what}'s labelSelector ${text} matches no pod template${inNamespace(o.namespace)} in ${ctx.scopeName}, so it constrains nothing; pod templates there are labelled ${templates.listOnce(labelList)}`;
        out.push({
          uri: o.file.uri,
          diagnostic: makeDiagnostic(term.range, podSelectorMatchesNothing.code, message, true),
        });
      }
    }
    return out;
  },
};

/**
 * Whether the selector matches one of the templates. A template without one of its `matchLabels` cannot match, so
 * only those with the first are tried; without `matchLabels`, a template can match an `In` (or `=`) requirement only
 * when it has the key with one of the values, so only those are tried; the selector is compiled once (an invalid one
 * matches nothing).
 */
export function matchesSome(selector: LabelSelector, templates: PodTemplateLabels): boolean {
  let compiled: Selector;
  try {
    compiled = labelSelectorFromObject(selector);
  } catch {
    return false;
  }
  const matchLabels = selector.matchLabels as Readonly<Record<string, unknown>> | null | undefined;
  const first = matchLabels === null || matchLabels === undefined ? undefined : Object.keys(matchLabels)[0];
  const candidates =
    first !== undefined ? templates.withLabel(first, matchLabels?.[first]) : byValueRequirement(compiled, templates);
  return candidates.some((labels) => compiled.matches(labels));
}

/** The templates holding the key of the selector's first `In`/`=`/`==` requirement with one of its values, else all. */
function byValueRequirement(
  compiled: Selector,
  templates: PodTemplateLabels,
): readonly Readonly<Record<string, string>>[] {
  const req = compiled.requirements.find(
    (r) => r.operator === 'In' || r.operator === 'Equals' || r.operator === 'DoubleEquals',
  );
  if (req === undefined) return templates.all;
  // A template has one value per key, so the lists of distinct values are disjoint.
  if (req.values.length === 1) return templates.withLabel(req.key, req.values[0]);
  return [...new Set(req.values)].flatMap((v) => templates.withLabel(req.key, v));
}

/** `app.kubernetes.io/name=zk, tier=db`: the distinct labels of the templates, or `(no labels)`. */
function labelList(templates: readonly Readonly<Record<string, string>>[]): string {
  const seen = new Set<string>();
  for (const labels of templates) for (const [k, v] of Object.entries(labels)) seen.add(`${k}=${v}`);
  if (seen.size === 0) return '(no labels)';
  const all = [...seen].sort();
  const shown = all.slice(0, MAX_LABELS).join(', ');
  return all.length > MAX_LABELS ? `${shown} and ${all.length - MAX_LABELS} more` : shown;
}
