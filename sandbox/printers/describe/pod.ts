/**
 * Pods and pod templates (upstream: staging/src/k8s.io/kubectl/pkg/describe/describe.go — describePod,
 * DescribePodTemplate).
 */
import type { Pod } from 'kubernetes-types/core/v1';
import type { Typed } from '../../api/types';
import { podQosClass } from '../../admission/defaults/podQos';
import { describeContainers } from './containers';
import { controllerOf, rfc1123z, since } from './format';
import { annotationsMultiline, labelsMultiline, tolerationsMultiline } from './metadata';
import { describeVolumes } from './volumes';
import { L0, L1 } from './writer';
import type { PrefixWriter } from './writer';

export function describePod(w: PrefixWriter, pod: Typed<Pod>, now: number): void {
  const meta = pod.metadata ?? {};
  const spec = pod.spec ?? { containers: [] };
  const status = pod.status ?? {};
  w.write(L0, `Name:\t${meta.name}\n`);
  w.write(L0, `Namespace:\t${meta.namespace}\n`);
  if (spec.priority !== undefined) w.write(L0, `Priority:\t${spec.priority}\n`);
  if (spec.priorityClassName) w.write(L0, `Priority Class Name:\t${spec.priorityClassName}\n`);
  if (spec.runtimeClassName) w.write(L0, `Runtime Class Name:\t${spec.runtimeClassName}\n`);
  if (spec.serviceAccountName) w.write(L0, `Service Account:\t${spec.serviceAccountName}\n`);
  w.write(L0, spec.nodeName ? `Node:\t${spec.nodeName}/${status.hostIP ?? ''}\n` : 'Node:\t<none>\n');
  if (status.startTime) w.write(L0, `Start Time:\t${rfc1123z(status.startTime)}\n`);
  labelsMultiline(w, 'Labels', meta.labels);
  annotationsMultiline(w, 'Annotations', meta.annotations);
  if (meta.deletionTimestamp && status.phase !== 'Failed' && status.phase !== 'Succeeded') {
    w.write(L0, `Status:\tTerminating (lasts ${since(meta.deletionTimestamp, now)})\n`);
    w.write(L0, `Termination Grace Period:\t${meta.deletionGracePeriodSeconds ?? 0}s\n`);
  } else w.write(L0, `Status:\t${status.phase ?? ''}\n`);
  if (status.reason) w.write(L0, `Reason:\t${status.reason}\n`);
  if (status.message) w.write(L0, `Message:\t${status.message}\n`);
  w.write(L0, `IP:\t${status.podIP ?? ''}\n`);
  const ips = status.podIPs ?? [];
  if (ips.length === 0) w.write(L0, 'IPs:\t<none>\n');
  else {
    w.write(L0, 'IPs:\n');
    for (const ip of ips) w.write(L1, `IP:\t${ip.ip}\n`);
  }
  const controlledBy = controllerOf(pod);
  if (controlledBy) w.write(L0, `Controlled By:\t${controlledBy}\n`);
  if (status.nominatedNodeName) w.write(L0, `NominatedNodeName:\t${status.nominatedNodeName}\n`);
  if ((spec.initContainers ?? []).length > 0)
    describeContainers(w, 'Init Containers', spec.initContainers!, status.initContainerStatuses, '');
  describeContainers(w, 'Containers', spec.containers ?? [], status.containerStatuses, '');
  if ((status.conditions ?? []).length > 0) {
    w.write(L0, 'Conditions:\n  Type\tStatus\n');
    for (const c of status.conditions!) w.write(L1, `${c.type} \t${c.status} \n`);
  }
  describeVolumes(w, spec.volumes, '');
  w.write(L0, `QoS Class:\t${status.qosClass || podQosClass(pod)}\n`);
  labelsMultiline(w, 'Node-Selectors', spec.nodeSelector);
  tolerationsMultiline(w, 'Tolerations', spec.tolerations);
}

/** DescribePodTemplate. */
export function describePodTemplate(
  w: PrefixWriter,
  template:
    | { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: Pod['spec'] }
    | undefined,
): void {
  w.write(L0, 'Pod Template:\n');
  if (!template) return w.write(L1, '<unset>');
  labelsMultiline(w, '  Labels', template.metadata?.labels);
  if (Object.keys(template.metadata?.annotations ?? {}).length > 0)
    annotationsMultiline(w, '  Annotations', template.metadata?.annotations);
  const spec = template.spec ?? { containers: [] };
  if (spec.serviceAccountName) w.write(L1, `Service Account:\t${spec.serviceAccountName}\n`);
  if ((spec.initContainers ?? []).length > 0)
    describeContainers(w, 'Init Containers', spec.initContainers!, undefined, '  ');
  describeContainers(w, 'Containers', spec.containers ?? [], undefined, '  ');
  describeVolumes(w, spec.volumes, '  ');
  if (spec.priorityClassName) w.write(L1, `Priority Class Name:\t${spec.priorityClassName}\n`);
  labelsMultiline(w, '  Node-Selectors', spec.nodeSelector);
  tolerationsMultiline(w, '  Tolerations', spec.tolerations);
}
