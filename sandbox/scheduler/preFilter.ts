/**
 * PreFilter for one cycle (upstream `RunPreFilterPlugins`): the state
 * PodTopologySpread and InterPodAffinity filter against, computed from the
 * cache's nodes and pods.
 */
import type { CycleState } from './filters';
import type { NamespaceLabels } from './podAffinity';
import { interPodPreFilter } from './podAffinity';
import type { PodInfo } from './podInfo';
import type { SchedulerCache } from './schedulerCache';
import { spreadPreFilter } from './topologySpread';

export function preFilter(pod: PodInfo, cache: SchedulerCache, nsLabels: NamespaceLabels): CycleState {
  const nodes = cache.nodeList;
  const anti = [...cache.withAntiAffinity].map((e) => ({ node: e.node, pod: e }));
  return {
    spread: spreadPreFilter(pod, nodes),
    interPod: interPodPreFilter(pod, nodes, anti, nsLabels),
    nsLabels,
  };
}
