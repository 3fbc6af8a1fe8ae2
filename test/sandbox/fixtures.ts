/** Test fixtures: a fresh API server on a virtual clock, and small manifests. */
import { ApiServer } from '../../sandbox/apiserver/apiServer';
import { VirtualClock } from '../../sandbox/clock/virtualClock';
import type { KubeObject, WatchEvent } from '../../sandbox/api/types';
import { ApiError } from '../../sandbox/api/errors';
import type { Status } from '../../sandbox/api/errors';

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

export function pod(
  name: string,
  extra: Partial<KubeObject> & { labels?: Record<string, string>; namespace?: string; nodeName?: string } = {},
): KubeObject {
  const { labels, namespace, nodeName, ...rest } = extra;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: namespace ?? 'default', ...(labels ? { labels } : {}) },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...(nodeName ? { nodeName } : {}) },
    ...rest,
  };
}

export function configMap(name: string, data: Record<string, string> = {}, namespace = 'default'): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data };
}

export function deployment(name: string, replicas = 3, labels: Record<string, string> = { app: name }): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
    },
  };
}

/** Runs `fn`, expecting an ApiError; returns its Status. */
export function statusOf(fn: () => unknown): Status {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e.status;
    throw e;
  }
  throw new Error('expected an ApiError, but the call succeeded');
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
