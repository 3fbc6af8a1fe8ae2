/**
 * Shared wiring of the two endpoints controllers: a pod change wakes every
 * Service whose selector matched its old or new labels, and a sync reads the
 * pods a Service selects.
 */
import type { Pod, Service } from 'kubernetes-types/core/v1';
import type { ObjectsByResource } from '../../api/resourceObjects';
import type { LabelSelector } from '../../api/selectors/labelSelector';
import { labelSelectorMatches } from '../../api/selectors/labelSelector';
import type { Informer } from '../../client/informer';
import type { EventHandler } from '../framework/handlers';
import { enqueueSelecting } from '../framework/handlers';

/**
 * The label selector of each frozen `spec.selector` (a cached Service's), made once: a frozen selector object is
 * compiled once (labelSelector.ts), where a new one per pod was parsed again for every pod and Service.
 */
const asSelector = new WeakMap<Readonly<Record<string, string>>, LabelSelector>();

function matchLabels(selector: Readonly<Record<string, string>>): LabelSelector {
  if (!Object.isFrozen(selector)) return { matchLabels: selector };
  let sel = asSelector.get(selector);
  if (!sel) {
    sel = Object.freeze({ matchLabels: selector });
    asSelector.set(selector, sel);
  }
  return sel;
}

/** A Service's `spec.selector` as a label selector (a Service without one selects no pods). */
function serviceSelector(svc: Service): LabelSelector | undefined {
  const selector = svc.spec?.selector;
  return selector ? matchLabels(selector) : undefined;
}

/** Pod events → the Services (in `services`) whose non-empty selector matches the pod. */
export function servicesSelecting(
  services: Informer<ObjectsByResource['services']>,
): EventHandler<ObjectsByResource['pods']> {
  return enqueueSelecting(services, serviceSelector);
}

/** Pods in the Service's namespace selected by its selector, sorted by name. */
export function selectedPods(pods: Informer<ObjectsByResource['pods']>, svc: Service): Pod[] {
  const selector = matchLabels(svc.spec?.selector ?? {});
  return pods.cache
    .list(svc.metadata?.namespace ?? '')
    .filter((p) => labelSelectorMatches(selector, p.metadata.labels ?? {}))
    .sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));
}
