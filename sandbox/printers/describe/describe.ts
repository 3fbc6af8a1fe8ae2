/**
 * `kubectl describe` for pods, deployments, replicasets, statefulsets, daemonsets, horizontalpodautoscalers,
 * nodes and services,
 * section by section as kubectl 1.32 prints them
 * (upstream: staging/src/k8s.io/kubectl/pkg/describe/describe.go — describePod,
 * describeContainers, DescribePodTemplate, describeReplicaSet,
 * DeploymentDescriber, describeStatefulSet, describeDaemonSet,
 * describeHorizontalPodAutoscalerV2, describeNode, describeNodeResource, describeService,
 * DescribeEvents), aligned by Go's tabwriter. It reads what a client would
 * have listed — the object, its events, the pods, ReplicaSets, EndpointSlices
 * and Lease it refers to — through `DescribeInputs`, so that the extension
 * describes from its mirror cache exactly what kubectl would from the API.
 */
import type { KubeObject } from '../../api/types';
import { asResource } from '../../api/resourceObjects';
import { hpaToV2 } from '../../apiserver/conversion';
import { describeEvents } from './events';
import { describeHpa } from './hpa';
import type { DescribeInputs } from './inputs';
import { describeNode } from './node';
import { describePod } from './pod';
import { describeService } from './service';
import { describeDaemonSet, describeDeployment, describeReplicaSet, describeStatefulSet } from './workloads';
import { PrefixWriter } from './writer';

export type { DescribeInputs } from './inputs';
export { describeProbe } from './containers';
export { podRequestsAndLimits } from './node';

/** The kinds with a describer here. */
export const DESCRIBED_KINDS: readonly string[] = [
  'Pod',
  'Deployment',
  'ReplicaSet',
  'StatefulSet',
  'DaemonSet',
  'HorizontalPodAutoscaler',
  'Node',
  'Service',
];

/** kubectl's describe text, or undefined for a kind without a describer here. `now` is the clock for ages. */
export function describeObject(obj: KubeObject, inputs: DescribeInputs, now: number): string | undefined {
  const w = new PrefixWriter();
  switch (obj.kind) {
    case 'Pod':
      describePod(w, asResource('pods', obj), now);
      break;
    case 'ReplicaSet':
      describeReplicaSet(w, asResource('replicasets', obj), inputs, now);
      break;
    case 'Deployment':
      describeDeployment(w, asResource('deployments', obj), inputs);
      break;
    case 'StatefulSet':
      describeStatefulSet(w, asResource('statefulsets', obj), inputs);
      break;
    case 'DaemonSet':
      describeDaemonSet(w, asResource('daemonsets', obj), inputs);
      break;
    case 'HorizontalPodAutoscaler':
      describeHpa(w, asResource('horizontalpodautoscalers', obj.apiVersion === 'autoscaling/v1' ? hpaToV2(obj) : obj));
      break;
    case 'Node':
      describeNode(w, asResource('nodes', obj), inputs, now);
      break;
    case 'Service':
      describeService(w, asResource('services', obj), inputs);
      break;
    default:
      return undefined;
  }
  describeEvents(w, inputs.events, now);
  return w.text();
}
