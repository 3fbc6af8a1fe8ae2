/**
 * Plain-words summary of what has not converged, for a run that hit its time
 * limit (and for the extension's status): rollouts in progress, pods that are
 * not Running and Ready, nodes that are not Ready.
 */
import type { ApiServer } from '../apiserver/apiServer';
import type { Deployment } from 'kubernetes-types/apps/v1';
import type { Node, Pod } from 'kubernetes-types/core/v1';
import type { KubeObject } from '../api/types';
import { podReadyText, podStatusText } from '../printers/podStatus';
import { isPodReady } from '../controllers/util/pods';
import { unsettledAutoscalers } from '../controllers/podautoscaler/unsettled';
import { unsettledClaims } from '../controllers/volume/unsettled';

function ref(obj: KubeObject): string {
  return obj.metadata.namespace ? `${obj.metadata.namespace}/${obj.metadata.name}` : obj.metadata.name!;
}

function deploymentLine(d: Deployment & KubeObject): string | undefined {
  const want = d.spec?.replicas ?? 1;
  const s = d.status ?? {};
  if ((s.observedGeneration ?? 0) < (d.metadata.generation ?? 0))
    return `deployment ${ref(d)}: waiting for the spec update to be observed`;
  if ((s.updatedReplicas ?? 0) < want)
    return `deployment ${ref(d)}: ${s.updatedReplicas ?? 0} out of ${want} new replicas have been updated`;
  if ((s.replicas ?? 0) > (s.updatedReplicas ?? 0))
    return `deployment ${ref(d)}: ${(s.replicas ?? 0) - (s.updatedReplicas ?? 0)} old replicas are pending termination`;
  if ((s.availableReplicas ?? 0) < want)
    return `deployment ${ref(d)}: ${s.availableReplicas ?? 0} of ${want} updated replicas are available`;
  return undefined;
}

/** One line per object that is not where it should be; empty when everything has converged. */
export function describeUnsettled(api: ApiServer, _now: number): string[] {
  const lines: string[] = [];
  for (const d of api.list('deployments').items) {
    const line = deploymentLine(d as Deployment & KubeObject);
    if (line) lines.push(line);
  }
  for (const p of api.list('pods').items) {
    const pod = p as Pod & KubeObject;
    const status = podStatusText(pod);
    if (status === 'Completed' || (status === 'Running' && isPodReady(pod))) continue;
    lines.push(`pod ${ref(p)}: ${status} (${podReadyText(pod)} ready)`);
  }
  for (const n of api.list('nodes').items) {
    const ready = (n as Node & KubeObject).status?.conditions?.find((c) => c.type === 'Ready');
    if (ready?.status !== 'True')
      lines.push(`node ${ref(n)}: ${ready ? `Ready=${ready.status} (${ready.reason ?? ''})` : 'no Ready condition'}`);
  }
  lines.push(...unsettledAutoscalers(api));
  lines.push(...unsettledClaims(api));
  return lines;
}
