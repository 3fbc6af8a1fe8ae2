/** Test fixtures: a fresh API server on a virtual clock, and small manifests. */
import { ApiServer } from '../../sandbox/apiserver/apiServer';
import { VirtualClock } from '../../sandbox/clock/virtualClock';
import type { KubeObject, WatchEvent } from '../../sandbox/api/types';
import { aConfigMap, aDeployment, aPod } from '../builders';

export function newApi(seed: number | string = 1): { api: ApiServer; clock: VirtualClock } {
  const clock = new VirtualClock();
  const api = new ApiServer({
    clock,
    random: seed,
    onWatchError: (e) => {
      throw e;
    },
  });
  return { api, clock };
}

export { statusOf } from '../builders';

/** A one-container pod in `default` (or `namespace`); `extra` fields replace the built ones. */
export function pod(
  name: string,
  extra: Partial<KubeObject> & { labels?: Record<string, string>; namespace?: string; nodeName?: string } = {},
): KubeObject {
  const { labels, namespace, nodeName, ...rest } = extra;
  return { ...aPod(name, { labels, namespace, nodeName }), ...rest };
}

export function configMap(name: string, data: Record<string, string> = {}, namespace = 'default'): KubeObject {
  return aConfigMap(name, data, { namespace });
}

export function deployment(name: string, replicas = 3, labels: Record<string, string> = { app: name }): KubeObject {
  return aDeployment(name, { replicas, selector: labels });
}

/** Collects watch events as `TYPE name rv` lines, for whole-list comparisons. */
export function eventLog(): { events: WatchEvent[]; lines: () => string[]; handler: (e: WatchEvent) => void } {
  const events: WatchEvent[] = [];
  return {
    events,
    handler: (e) => events.push(e),
    lines: () => events.map((e) => `${e.type} ${e.object.metadata.name ?? ''} ${e.object.metadata.resourceVersion}`),
  };
}
