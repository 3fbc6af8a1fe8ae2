/**
 * Job test fixtures: a Job manifest and a stand-in kubelet that writes pod
 * status (phase, Ready, container state) the way the real one would.
 */
import type { Pod } from 'kubernetes-types/core/v1';
import type { ApiServer } from '../../../../sandbox/apiserver/apiServer';
import type { KubeObject } from '../../../../sandbox/api/types';
import { formatTimestamp } from '../../../../sandbox/clock/clock';

export function jobManifest(name: string, spec: Record<string, unknown> = {}, restartPolicy = 'Never'): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default' },
    spec: {
      ...spec,
      template: {
        metadata: { labels: { app: name } },
        spec: { restartPolicy, containers: [{ name: 'main', image: 'busybox' }] },
      },
    },
  };
}

export function podsOf(api: ApiServer, job: string): Pod[] {
  return api.list('pods', { namespace: 'default', labelSelector: `batch.kubernetes.io/job-name=${job}` }).items;
}

export function podNames(api: ApiServer, job: string): string[] {
  return podsOf(api, job)
    .map((p) => p.metadata!.name!)
    .sort();
}

interface StatusOptions {
  ready?: boolean;
  restartCount?: number;
  exitCode?: number;
}

/** Writes the status a kubelet would for `phase` at `now` (ms). */
export function setPodPhase(
  api: ApiServer,
  name: string,
  phase: 'Running' | 'Succeeded' | 'Failed',
  now: number,
  opts: StatusOptions = {},
): void {
  const pod = api.get('pods', 'default', name);
  const at = formatTimestamp(now);
  const terminal = phase !== 'Running';
  const ready = !terminal && opts.ready !== false;
  const state = terminal
    ? {
        terminated: {
          exitCode: opts.exitCode ?? (phase === 'Succeeded' ? 0 : 1),
          reason: phase === 'Succeeded' ? 'Completed' : 'Error',
          startedAt: at,
          finishedAt: at,
        },
      }
    : { running: { startedAt: at } };
  const status = {
    phase,
    conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: at }],
    containerStatuses: [
      {
        name: 'main',
        image: 'busybox',
        imageID: '',
        ready,
        started: !terminal,
        restartCount: opts.restartCount ?? 0,
        state,
      },
    ],
  };
  api.updateStatus({ ...pod, status });
}
