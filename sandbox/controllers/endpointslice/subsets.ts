/**
 * The legacy `v1 Endpoints` subsets (pkg/controller/endpoint +
 * `endpoints.RepackSubsets`): addresses that serve the same set of ports
 * share a subset; ready pods go to `addresses`, others to
 * `notReadyAddresses` (all are ready with `publishNotReadyAddresses`).
 */
import type { EndpointAddress, EndpointPort, EndpointSubset, Pod, Service } from 'kubernetes-types/core/v1';
import { isPodReady } from '../util/pods';
import { endpointPorts, shouldPodBeInEndpoints } from './podEndpoint';

function address(pod: Pod, svc: Service): EndpointAddress {
  const a: EndpointAddress = {
    ip: pod.status!.podIP!,
    targetRef: { kind: 'Pod', namespace: pod.metadata?.namespace, name: pod.metadata?.name, uid: pod.metadata?.uid },
  };
  if (pod.spec?.nodeName) a.nodeName = pod.spec.nodeName;
  if (pod.spec?.hostname && pod.spec.subdomain === svc.metadata?.name) a.hostname = pod.spec.hostname;
  return a;
}

function v1Ports(svc: Service, pod: Pod): EndpointPort[] {
  return endpointPorts(svc, pod)
    .map(({ name, port, protocol, appProtocol }) => ({
      ...(name ? { name } : {}),
      port: port!,
      protocol,
      ...(appProtocol ? { appProtocol } : {}),
    }))
    .sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '') || a.port - b.port);
}

const byIP = (a: EndpointAddress, b: EndpointAddress): number =>
  a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : (a.targetRef?.uid ?? '') < (b.targetRef?.uid ?? '') ? -1 : 1;

/** The subsets for `svc` given the pods its selector matches. */
export function endpointSubsets(svc: Service, pods: readonly Pod[]): EndpointSubset[] {
  const tolerateUnready = svc.spec?.publishNotReadyAddresses === true;
  const headless = svc.spec?.clusterIP === 'None' && (svc.spec.ports ?? []).length === 0;
  const groups = new Map<string, EndpointSubset>();
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, tolerateUnready)) continue;
    const ports = headless ? [] : v1Ports(svc, pod);
    if (!headless && ports.length === 0) continue;
    const key = JSON.stringify(ports);
    let subset = groups.get(key);
    if (!subset) groups.set(key, (subset = ports.length > 0 ? { ports } : {}));
    const list = tolerateUnready || isPodReady(pod) ? (subset.addresses ??= []) : (subset.notReadyAddresses ??= []);
    list.push(address(pod, svc));
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, s]) => {
      s.addresses?.sort(byIP);
      s.notReadyAddresses?.sort(byIP);
      return s;
    });
}
