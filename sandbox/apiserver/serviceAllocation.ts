/**
 * Gives Services their ClusterIP and NodePorts on create, keeps them on
 * update, and frees them on delete — as the upstream service REST storage
 * does. Failures are field errors, reported as 422 like validation.
 */
import type { KubeObject } from '../api/types';
import type { FieldError } from '../admission/validation/fieldError';
import type { ServiceAllocators } from './allocators';

interface ServicePort {
  nodePort?: number;
  [k: string]: unknown;
}
interface ServiceSpec {
  type?: string;
  clusterIP?: string;
  clusterIPs?: string[];
  ports?: ServicePort[];
  [k: string]: unknown;
}

function specOf(svc: KubeObject): ServiceSpec {
  if (typeof svc.spec !== 'object' || svc.spec === null) svc.spec = {};
  return svc.spec as ServiceSpec;
}

const needsNodePorts = (type: string | undefined) => type === 'NodePort' || type === 'LoadBalancer';

/** Allocates what `svc` (a private copy) still lacks; `old` is the stored object on update. */
export function allocateServiceAddresses(svc: KubeObject, alloc: ServiceAllocators, old?: KubeObject): FieldError[] {
  const spec = specOf(svc);
  const oldSpec = old ? specOf({ ...old, spec: old.spec }) : undefined;
  const errors: FieldError[] = [];
  const code = 'service-allocation';
  if (spec.type !== 'ExternalName') {
    if (oldSpec?.clusterIP && (spec.clusterIP === undefined || spec.clusterIP === ''))
      spec.clusterIP = oldSpec.clusterIP;
    const ip = spec.clusterIP;
    if (ip === undefined || ip === '') {
      spec.clusterIP = alloc.allocateIp();
    } else if (ip !== 'None' && ip !== oldSpec?.clusterIP) {
      if (!alloc.inServiceRange(ip)) {
        errors.push({
          code,
          type: 'FieldValueInvalid',
          field: 'spec.clusterIPs',
          value: [ip],
          detail: `failed to allocate IP ${ip}: the provided IP (${ip}) is not in the valid range. The range of valid IPs is 10.96.0.0/12`,
        });
      } else if (alloc.isIpTaken(ip)) {
        errors.push({
          code,
          type: 'FieldValueInvalid',
          field: 'spec.clusterIPs',
          value: [ip],
          detail: `failed to allocate IP ${ip}: provided IP is already allocated`,
        });
      }
    }
    if (errors.length === 0) spec.clusterIPs = [spec.clusterIP!];
  }
  if (needsNodePorts(spec.type)) {
    const picked = new Set<number>();
    (spec.ports ?? []).forEach((port, i) => {
      const kept = oldSpec?.ports?.[i]?.nodePort;
      if (port.nodePort === undefined && kept !== undefined) port.nodePort = kept;
      if (port.nodePort === undefined) {
        let p = alloc.allocatePort();
        for (let tries = 0; picked.has(p) && tries < 100; tries++) p = alloc.allocatePort();
        port.nodePort = p;
      } else if (port.nodePort !== kept && alloc.isPortTaken(port.nodePort)) {
        errors.push({
          code,
          type: 'FieldValueInvalid',
          field: `spec.ports[${i}].nodePort`,
          value: port.nodePort,
          detail: 'provided port is already allocated',
        });
      }
      picked.add(port.nodePort);
    });
  }
  return errors;
}

/** Marks the addresses of a stored Service as taken (after create, update, or restore). */
export function reserveServiceAddresses(svc: KubeObject, alloc: ServiceAllocators): void {
  const spec = (svc.spec ?? {}) as ServiceSpec;
  if (spec.clusterIP && spec.clusterIP !== 'None') alloc.reserveIp(spec.clusterIP);
  for (const p of spec.ports ?? []) if (typeof p.nodePort === 'number') alloc.reservePort(p.nodePort);
}

/** Frees the addresses of a Service that is gone, or that an update no longer uses. */
export function releaseServiceAddresses(svc: KubeObject, alloc: ServiceAllocators, keep?: KubeObject): void {
  const spec = (svc.spec ?? {}) as ServiceSpec;
  const keepSpec = (keep?.spec ?? {}) as ServiceSpec;
  if (spec.clusterIP !== keepSpec.clusterIP) alloc.releaseIp(spec.clusterIP === 'None' ? undefined : spec.clusterIP);
  const kept = new Set((keepSpec.ports ?? []).map((p) => p.nodePort));
  for (const p of spec.ports ?? []) if (!kept.has(p.nodePort)) alloc.releasePort(p.nodePort);
}
