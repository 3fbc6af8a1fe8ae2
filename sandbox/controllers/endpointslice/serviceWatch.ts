/**
 * Shared wiring of the two endpoints controllers: which Services select a
 * pod, and the informer handlers that enqueue them (a pod change wakes every
 * Service whose selector matched its old or new labels).
 */
import type { Pod, Service } from 'kubernetes-types/core/v1';
import type { KubeObject } from '../../api/types';
import { labelSelectorMatches } from '../../api/selectors/labelSelector';
import { objectKey } from '../../client/cache';
import type { Informer, InformerHandlers } from '../../client/informer';

/** Services in the pod's namespace with a non-empty selector matching its labels. */
export function servicesFor(services: Informer, pod: KubeObject): string[] {
  const out: string[] = [];
  for (const obj of services.cache.list(pod.metadata.namespace ?? '')) {
    const selector = (obj as unknown as Service).spec?.selector;
    if (!selector || Object.keys(selector).length === 0) continue;
    if (labelSelectorMatches({ matchLabels: selector }, pod.metadata.labels ?? {})) out.push(objectKey(obj));
  }
  return out;
}

export function podHandlers(services: Informer, enqueue: (key: string) => void): InformerHandlers<KubeObject> {
  const wake = (pod: KubeObject): void => {
    for (const key of servicesFor(services, pod)) enqueue(key);
  };
  return {
    onAdd: wake,
    onUpdate: (old, cur) => {
      wake(cur);
      if (JSON.stringify(old.metadata.labels ?? {}) !== JSON.stringify(cur.metadata.labels ?? {})) wake(old);
    },
    onDelete: wake,
  };
}

/** Pods in the Service's namespace selected by its selector, sorted by name. */
export function selectedPods(pods: Informer, svc: Service): Pod[] {
  const selector = svc.spec?.selector ?? {};
  return pods.cache
    .list(svc.metadata?.namespace ?? '')
    .filter((p) => labelSelectorMatches({ matchLabels: selector }, p.metadata.labels ?? {}))
    .sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1)) as unknown as Pod[];
}
