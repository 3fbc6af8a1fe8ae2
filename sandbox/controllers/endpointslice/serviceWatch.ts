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

/** A Service's `spec.selector` as a label selector (a Service without one selects no pods). */
function serviceSelector(svc: Service): LabelSelector | undefined {
  const selector = svc.spec?.selector;
  return selector ? { matchLabels: selector } : undefined;
}

/** Pod events → the Services (in `services`) whose non-empty selector matches the pod. */
export function servicesSelecting(
  services: Informer<ObjectsByResource['services']>,
): EventHandler<ObjectsByResource['pods']> {
  return enqueueSelecting(services, serviceSelector);
}

/** Pods in the Service's namespace selected by its selector, sorted by name. */
export function selectedPods(pods: Informer<ObjectsByResource['pods']>, svc: Service): Pod[] {
  const selector = svc.spec?.selector ?? {};
  return pods.cache
    .list(svc.metadata?.namespace ?? '')
    .filter((p) => labelSelectorMatches({ matchLabels: selector }, p.metadata.labels ?? {}))
    .sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));
}
