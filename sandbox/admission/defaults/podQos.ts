/** Pod QoS class (pkg/apis/core/helper/qos `GetPodQOS`). */
import { compareQuantity, parseQuantity, type Quantity } from '../../api/quantity';
import type { KubeObject } from '../../api/types';
import { containersOf } from '../podSpecs';
import { isObj, obj } from '../validation/access';

export type QosClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

const QOS_RESOURCES = ['cpu', 'memory'];

function add(sum: Map<string, bigint>, name: string, q: Quantity): void {
  sum.set(name, (sum.get(name) ?? 0n) + q.nanos);
}

function positive(list: unknown, name: string): Quantity | undefined {
  const raw = isObj(list) ? list[name] : undefined;
  const q = typeof raw === 'string' || typeof raw === 'number' ? parseQuantity(raw) : undefined;
  return q && compareQuantity(q, parseQuantity(0)!) > 0 ? q : undefined;
}

/**
 * Guaranteed when every container limits cpu and memory and requests equal
 * limits; BestEffort when nothing requests or limits cpu or memory; otherwise
 * Burstable. Call it after defaulting (requests default to limits).
 */
export function podQosClass(pod: KubeObject): QosClass {
  const spec = isObj(pod.spec) ? pod.spec : {};
  const requests = new Map<string, bigint>();
  const limits = new Map<string, bigint>();
  let guaranteed = true;
  for (const { container } of containersOf(spec, 'spec')) {
    const res = obj(container, 'resources');
    const limitsFound = new Set<string>();
    for (const name of QOS_RESOURCES) {
      const req = positive(res?.requests, name);
      if (req) add(requests, name, req);
      const lim = positive(res?.limits, name);
      if (lim) {
        add(limits, name, lim);
        limitsFound.add(name);
      }
    }
    if (limitsFound.size !== QOS_RESOURCES.length) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) if (limits.get(name) !== req) guaranteed = false;
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
