/**
 * What controller syncs ask of every pod they look at — is it active, is it
 * Ready — remembered per stored pod object. Stored objects are frozen, so
 * the answers cannot go stale; a ReplicaSet sync looks at each of its pods
 * many times between two changes of that pod, and walking the conditions
 * again each time dominated large simulations.
 */
import type { Pod, PodCondition } from 'kubernetes-types/core/v1';
import type { OwnerReference } from '../../api/types';
import { controllerRefOf } from './owners';
import { isPodActive, podCondition } from './pods';

export interface PodFacts {
  /** `isPodActive`. */
  readonly active: boolean;
  /** The Ready condition when its status is True (`isPodReady`), else undefined. */
  readonly ready: PodCondition | undefined;
  /** `controllerRefOf`. */
  readonly controllerRef: OwnerReference | undefined;
}

const facts = new WeakMap<object, PodFacts>();

function compute(pod: Pod): PodFacts {
  const ready = podCondition(pod, 'Ready');
  return {
    active: isPodActive(pod),
    ready: ready?.status === 'True' ? ready : undefined,
    controllerRef: controllerRefOf(pod),
  };
}

/** The facts of `pod`; computed once per frozen (stored) object, every time for others. */
export function podFacts(pod: Pod): PodFacts {
  if (!Object.isFrozen(pod)) return compute(pod);
  let f = facts.get(pod);
  if (!f) facts.set(pod, (f = compute(pod)));
  return f;
}
