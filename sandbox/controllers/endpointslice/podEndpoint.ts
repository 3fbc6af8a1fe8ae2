/**
 * From a pod to an endpoint (staging/src/k8s.io/endpointslice/utils.go and
 * pkg/api/v1/pod FindPort): which pods back a Service, the endpoint's
 * conditions, and each Service port resolved against the pod's containers.
 */
import type { Endpoint, EndpointPort } from 'kubernetes-types/discovery/v1';
import type { Node, Pod, Service, ServicePort } from 'kubernetes-types/core/v1';
import { isPodReady } from '../util/pods';

export const ZONE_LABEL = 'topology.kubernetes.io/zone';

/**
 * A pod backs a Service when it has an IP, is not terminal, and (unless terminating pods are wanted) is not being
 * deleted.
 */
export function shouldPodBeInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  if (!pod.status?.podIP) return false;
  return includeTerminating || !pod.metadata?.deletionTimestamp;
}

/** The port a container serves `sp.targetPort` on (`FindPort`), or undefined when a named port is not found. */
export function findPort(pod: Pod, sp: ServicePort): number | undefined {
  const target = sp.targetPort ?? sp.port;
  if (typeof target === 'number') return target;
  if (/^[0-9]+$/.test(target)) return Number(target);
  const protocol = sp.protocol ?? 'TCP';
  for (const c of pod.spec?.containers ?? []) {
    for (const p of c.ports ?? []) if (p.name === target && (p.protocol ?? 'TCP') === protocol) return p.containerPort;
  }
  return undefined;
}

/** The Service's ports as this pod serves them (ports it cannot resolve are left out). */
export function endpointPorts(svc: Service, pod: Pod): EndpointPort[] {
  const out: EndpointPort[] = [];
  for (const sp of svc.spec?.ports ?? []) {
    const port = findPort(pod, sp);
    if (port === undefined) continue;
    const ep: EndpointPort = { name: sp.name ?? '', port, protocol: sp.protocol ?? 'TCP' };
    if (sp.appProtocol) ep.appProtocol = sp.appProtocol;
    out.push(ep);
  }
  return out;
}

/** `podToEndpoint`: ready = (Ready and not terminating) or publishNotReadyAddresses; serving = Ready. */
export function podToEndpoint(pod: Pod, node: Node | undefined, svc: Service): Endpoint {
  const serving = isPodReady(pod);
  const terminating = pod.metadata?.deletionTimestamp !== undefined;
  const ready = svc.spec?.publishNotReadyAddresses === true || (serving && !terminating);
  const ep: Endpoint = {
    addresses: [pod.status!.podIP!],
    conditions: { ready, serving, terminating },
    targetRef: { kind: 'Pod', namespace: pod.metadata?.namespace, name: pod.metadata?.name, uid: pod.metadata?.uid },
  };
  if (pod.spec?.nodeName) ep.nodeName = pod.spec.nodeName;
  const zone = node?.metadata?.labels?.[ZONE_LABEL];
  if (zone) ep.zone = zone;
  if (
    pod.spec?.hostname &&
    pod.spec.subdomain === svc.metadata?.name &&
    pod.metadata?.namespace === svc.metadata?.namespace
  )
    ep.hostname = pod.spec.hostname;
  return ep;
}
