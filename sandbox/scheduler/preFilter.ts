/**
 * PreFilter for one cycle (upstream `RunPreFilterPlugins`): the state
 * PodTopologySpread and InterPodAffinity filter against, computed from the
 * cache's nodes and pods.
 */
import type { CycleState } from './filters';
import type { NamespaceLabels } from './podAffinity';
import { interPodPreFilter, interPodScores } from './podAffinity';
import type { Nominator } from './nominator';
import type { PodInfo } from './podInfo';
import type { SchedulerCache } from './schedulerCache';
import { INTER_POD_SCORE, SCORE_STRIDE, SPREAD_SCORE } from './scores';
import type { Selector } from '../api/selectors/labelSelector';
import type { SoftConstraint } from './topologySpread';
import { defaultConstraints, spreadPreFilter, spreadScores } from './topologySpread';

/**
 * `defaultSelector` (only asked when the pod declares no spread constraints): the selector of the Services and the
 * controller selecting it, for the cluster default constraints.
 */
export function preFilter(
  pod: PodInfo,
  cache: SchedulerCache,
  nsLabels: NamespaceLabels,
  defaultSelector?: () => Selector | undefined,
  nominator?: Nominator,
): CycleState {
  const nodes = cache.nodeList;
  const byLabel = (ns: string, sel: Selector) => cache.candidates(ns, sel);
  return {
    spread: spreadPreFilter(pod, nodes, byLabel),
    interPod: interPodPreFilter(pod, nodes, cache.antiAffinityTerms.values(), nsLabels, byLabel),
    nsLabels,
    ...(nominator && !nominator.empty ? { nominated: (node: string) => nominator.on(node) } : {}),
    score: (feasible, out) => {
      const soft = pod.ownConstraints ? pod.softConstraints : defaultConstraints(defaultSelector?.());
      const matching = (c: SoftConstraint) => cache.spreadMatching(pod.namespace, c.selector);
      spreadScores(pod, soft, feasible, matching, out, SCORE_STRIDE, SPREAD_SCORE);
      const withAffinity = [...cache.withScoredTerms].map((e) => ({
        node: e.node,
        pod: {
          ...e,
          requiredAffinity: e.requiredAffinity ?? [],
          preferredAffinity: e.preferredAffinity ?? [],
          preferredAntiAffinity: e.preferredAntiAffinity ?? [],
        },
      }));
      interPodScores(pod, feasible, cache.nodeList, withAffinity, nsLabels, out, SCORE_STRIDE, INTER_POD_SCORE);
    },
  };
}
