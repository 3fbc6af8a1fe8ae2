/**
 * The pod controllers: ReplicaSets, Deployments (their old and new ReplicaSets), StatefulSets (their claim
 * templates) and DaemonSets (upstream: staging/src/k8s.io/kubectl/pkg/describe/describe.go — describeReplicaSet,
 * DeploymentDescriber, describeStatefulSet, describeDaemonSet, getPodStatusForController).
 */
import type { DaemonSet, Deployment, ReplicaSet, StatefulSet } from 'kubernetes-types/apps/v1';
import type { KubeObject, Typed } from '../../api/types';
import { asResource } from '../../api/resourceObjects';
import { controllerOf, formatLabels, formatSelector, matchesSelector, quantityText, rfc1123z } from './format';
import type { DescribeInputs } from './inputs';
import { annotationsMultiline, indentedLabels, labelsMultiline } from './metadata';
import { describePodTemplate } from './pod';
import { L0, L1 } from './writer';
import type { PrefixWriter } from './writer';

/** getPodStatusForController: pods the controller owns, by phase. */
function podsStatus(pods: readonly KubeObject[], owner: KubeObject): string {
  const uid = owner.metadata.uid;
  const selector = (owner.spec as { selector?: { matchLabels?: Record<string, string> } } | undefined)?.selector;
  const counts = { Running: 0, Pending: 0, Succeeded: 0, Failed: 0 };
  for (const p of pods) {
    if (!matchesSelector(p.metadata.labels, selector)) continue;
    const ref = p.metadata.ownerReferences?.find((r) => r.controller);
    if (!ref || ref.uid !== uid) continue;
    const phase = asResource('pods', p).status?.phase as keyof typeof counts | undefined;
    if (phase && phase in counts) counts[phase]++;
  }
  return `${counts.Running} Running / ${counts.Pending} Waiting / ${counts.Succeeded} Succeeded / ${counts.Failed} Failed`;
}

export function describeReplicaSet(w: PrefixWriter, rs: Typed<ReplicaSet>, inputs: DescribeInputs, _now: number): void {
  const obj: KubeObject = rs;
  w.write(L0, `Name:\t${rs.metadata?.name}\n`);
  w.write(L0, `Namespace:\t${rs.metadata?.namespace}\n`);
  w.write(L0, `Selector:\t${formatSelector(rs.spec?.selector)}\n`);
  labelsMultiline(w, 'Labels', rs.metadata?.labels);
  annotationsMultiline(w, 'Annotations', rs.metadata?.annotations);
  const controlledBy = controllerOf(obj);
  if (controlledBy) w.write(L0, `Controlled By:\t${controlledBy}\n`);
  w.write(L0, `Replicas:\t${rs.status?.replicas ?? 0} current / ${rs.spec?.replicas ?? 1} desired\n`);
  w.write(L0, 'Pods Status:\t');
  w.write(L0, `${podsStatus(inputs.pods ?? [], obj)}\n`);
  describePodTemplate(w, rs.spec?.template);
  if ((rs.status?.conditions ?? []).length > 0) {
    w.write(L0, 'Conditions:\n  Type\tStatus\tReason\n');
    w.write(L1, '----\t------\t------\n');
    for (const c of rs.status!.conditions!) w.write(L1, `${c.type} \t${c.status}\t${c.reason ?? ''}\n`);
  }
}

const REVISION = 'deployment.kubernetes.io/revision';

/** printReplicaSetsByLabels. */
function replicaSetsText(list: readonly ReplicaSet[]): string {
  const text = list
    .map((rs) => `${rs.metadata?.name} (${rs.status?.replicas ?? 0}/${rs.spec?.replicas ?? 1} replicas created)`)
    .join(', ');
  return text === '' ? '<none>' : text;
}

export function describeDeployment(w: PrefixWriter, d: Deployment, inputs: DescribeInputs): void {
  const meta = d.metadata ?? {};
  const spec = d.spec ?? { selector: {}, template: {} };
  const status = d.status ?? {};
  w.write(L0, `Name:\t${meta.name}\n`);
  w.write(L0, `Namespace:\t${meta.namespace}\n`);
  w.write(L0, `CreationTimestamp:\t${rfc1123z(meta.creationTimestamp)}\n`);
  labelsMultiline(w, 'Labels', meta.labels);
  annotationsMultiline(w, 'Annotations', meta.annotations);
  w.write(L0, `Selector:\t${formatSelector(spec.selector)}\n`);
  w.write(
    L0,
    `Replicas:\t${spec.replicas ?? 1} desired | ${status.updatedReplicas ?? 0} updated | ${status.replicas ?? 0} total | ${status.availableReplicas ?? 0} available | ${status.unavailableReplicas ?? 0} unavailable\n`,
  );
  w.write(L0, `StrategyType:\t${spec.strategy?.type ?? ''}\n`);
  w.write(L0, `MinReadySeconds:\t${spec.minReadySeconds ?? 0}\n`);
  const ru = spec.strategy?.rollingUpdate;
  if (ru)
    w.write(
      L0,
      `RollingUpdateStrategy:\t${String(ru.maxUnavailable ?? '')} max unavailable, ${String(ru.maxSurge ?? '')} max surge\n`,
    );
  describePodTemplate(w, spec.template);
  if ((status.conditions ?? []).length > 0) {
    w.write(L0, 'Conditions:\n  Type\tStatus\tReason\n');
    w.write(L1, '----\t------\t------\n');
    for (const c of status.conditions!) w.write(L1, `${c.type} \t${c.status}\t${c.reason ?? ''}\n`);
  }
  // upstream: deploymentutil.GetAllReplicaSetsInChunks — the new one is the current revision; old ones with replicas.
  const owned = (inputs.replicaSets ?? [])
    .map((r) => asResource('replicasets', r))
    .filter((r) => r.metadata?.ownerReferences?.some((o) => o.controller && o.uid === meta.uid));
  const revision = meta.annotations?.[REVISION];
  const isNew = (r: ReplicaSet) => revision !== undefined && r.metadata?.annotations?.[REVISION] === revision;
  const old = owned.filter((r) => !isNew(r) && (r.spec?.replicas ?? 1) !== 0);
  w.write(L0, `OldReplicaSets:\t${replicaSetsText(old)}\n`);
  w.write(L0, `NewReplicaSet:\t${replicaSetsText(owned.filter(isNew))}\n`);
}

/** upstream: describeStatefulSet and describeVolumeClaimTemplates. */
export function describeStatefulSet(w: PrefixWriter, sts: Typed<StatefulSet>, inputs: DescribeInputs): void {
  const meta = sts.metadata;
  const spec = sts.spec;
  w.write(L0, `Name:\t${meta.name}\n`);
  w.write(L0, `Namespace:\t${meta.namespace}\n`);
  w.write(L0, `CreationTimestamp:\t${rfc1123z(meta.creationTimestamp)}\n`);
  w.write(L0, `Selector:\t${formatSelector(spec?.selector)}\n`);
  labelsMultiline(w, 'Labels', meta.labels);
  annotationsMultiline(w, 'Annotations', meta.annotations);
  w.write(L0, `Replicas:\t${spec?.replicas ?? 1} desired | ${sts.status?.replicas ?? 0} total\n`);
  w.write(L0, `Update Strategy:\t${spec?.updateStrategy?.type ?? ''}\n`);
  const ru = spec?.updateStrategy?.rollingUpdate;
  if (ru?.partition !== undefined) {
    w.write(L1, `Partition:\t${ru.partition}\n`);
    if (ru.maxUnavailable !== undefined) w.write(L1, `MaxUnavailable:\t${String(ru.maxUnavailable)}\n`);
  }
  w.write(L0, `Pods Status:\t${podsStatus(inputs.pods ?? [], sts)}\n`);
  describePodTemplate(w, spec?.template);
  const templates = spec?.volumeClaimTemplates ?? [];
  if (templates.length === 0) return w.write(L0, 'Volume Claims:\t<none>\n');
  w.write(L0, 'Volume Claims:\n');
  for (const pvc of templates) {
    w.write(L1, `Name:\t${pvc.metadata?.name ?? ''}\n`);
    // storageutil.GetPersistentVolumeClaimClass: the beta annotation first, then spec.storageClassName.
    const cls = pvc.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? pvc.spec?.storageClassName;
    w.write(L1, `StorageClass:\t${cls ?? ''}\n`);
    indentedLabels(w, 'Labels', pvc.metadata?.labels);
    indentedLabels(w, 'Annotations', pvc.metadata?.annotations);
    const capacity = pvc.spec?.resources?.requests?.storage;
    w.write(L1, `Capacity:\t${capacity === undefined ? '<default>' : quantityText(capacity)}\n`);
    // Go's %s of a []PersistentVolumeAccessMode.
    w.write(L1, `Access Modes:\t[${(pvc.spec?.accessModes ?? []).join(' ')}]\n`);
  }
}

/** upstream: describeDaemonSet. */
export function describeDaemonSet(w: PrefixWriter, ds: Typed<DaemonSet>, inputs: DescribeInputs): void {
  const status = ds.status;
  w.write(L0, `Name:\t${ds.metadata.name}\n`);
  w.write(L0, `Namespace:\t${ds.metadata.namespace}\n`);
  w.write(L0, `Selector:\t${formatSelector(ds.spec?.selector)}\n`);
  w.write(L0, `Node-Selector:\t${formatLabels(ds.spec?.template.spec?.nodeSelector)}\n`);
  labelsMultiline(w, 'Labels', ds.metadata.labels);
  annotationsMultiline(w, 'Annotations', ds.metadata.annotations);
  w.write(L0, `Desired Number of Nodes Scheduled: ${status?.desiredNumberScheduled ?? 0}\n`);
  w.write(L0, `Current Number of Nodes Scheduled: ${status?.currentNumberScheduled ?? 0}\n`);
  w.write(L0, `Number of Nodes Scheduled with Up-to-date Pods: ${status?.updatedNumberScheduled ?? 0}\n`);
  w.write(L0, `Number of Nodes Scheduled with Available Pods: ${status?.numberAvailable ?? 0}\n`);
  w.write(L0, `Number of Nodes Misscheduled: ${status?.numberMisscheduled ?? 0}\n`);
  w.write(L0, `Pods Status:\t${podsStatus(inputs.pods ?? [], ds)}\n`);
  describePodTemplate(w, ds.spec?.template);
}
