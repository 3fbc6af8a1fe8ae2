/**
 * `kubectl rollout status` (kubectl pkg/polymorphichelpers/rollout_status.go: `DeploymentStatusViewer`,
 * `DaemonSetStatusViewer`, `StatefulSetStatusViewer`): one look at the workload's status, with kubectl's line (without
 * its trailing newline) and whether the rollout is done. A strategy kubectl cannot follow is an error with its message.
 */
import type { DaemonSet, Deployment, StatefulSet } from 'kubernetes-types/apps/v1';
import type { ApiServer, ResourceRef } from '../apiserver/apiServer';
import { qualifiedKind } from '../api/resources';
import type { KubeObject } from '../api/types';

export interface RolloutStatus {
  message: string;
  done: boolean;
}

const n = (v: number | undefined): number => v ?? 0;

/** `DeploymentStatusViewer.Status`. */
export function deploymentRolloutStatus(d: Deployment & KubeObject): RolloutStatus {
  const name = d.metadata.name ?? '';
  const s = d.status ?? {};
  if (n(d.metadata.generation) > n(s.observedGeneration))
    return { message: 'Waiting for deployment spec update to be observed...', done: false };
  const progressing = s.conditions?.find((c) => c.type === 'Progressing');
  if (progressing?.reason === 'ProgressDeadlineExceeded')
    throw new Error(`deployment "${name}" exceeded its progress deadline`);
  const want = d.spec?.replicas;
  const updated = n(s.updatedReplicas);
  if (want !== undefined && updated < want)
    return {
      message: `Waiting for deployment "${name}" rollout to finish: ${updated} out of ${want} new replicas have been updated...`,
      done: false,
    };
  if (n(s.replicas) > updated)
    return {
      message: `Waiting for deployment "${name}" rollout to finish: ${n(s.replicas) - updated} old replicas are pending termination...`,
      done: false,
    };
  if (n(s.availableReplicas) < updated)
    return {
      message: `Waiting for deployment "${name}" rollout to finish: ${n(s.availableReplicas)} of ${updated} updated replicas are available...`,
      done: false,
    };
  return { message: `deployment "${name}" successfully rolled out`, done: true };
}

/** `DaemonSetStatusViewer.Status` (its OnDelete error names the StatefulSet constant, which reads the same). */
export function daemonSetRolloutStatus(ds: DaemonSet & KubeObject): RolloutStatus {
  if ((ds.spec?.updateStrategy?.type ?? 'RollingUpdate') !== 'RollingUpdate')
    throw new Error('rollout status is only available for RollingUpdate strategy type');
  const name = ds.metadata.name ?? '';
  const s = ds.status;
  if (n(ds.metadata.generation) > n(s?.observedGeneration))
    return { message: 'Waiting for daemon set spec update to be observed...', done: false };
  const desired = n(s?.desiredNumberScheduled);
  if (n(s?.updatedNumberScheduled) < desired)
    return {
      message: `Waiting for daemon set "${name}" rollout to finish: ${n(s?.updatedNumberScheduled)} out of ${desired} new pods have been updated...`,
      done: false,
    };
  if (n(s?.numberAvailable) < desired)
    return {
      message: `Waiting for daemon set "${name}" rollout to finish: ${n(s?.numberAvailable)} of ${desired} updated pods are available...`,
      done: false,
    };
  return { message: `daemon set "${name}" successfully rolled out`, done: true };
}

/** `StatefulSetStatusViewer.Status`: a non-nil `rollingUpdate` (the defaulted case) reports a partitioned roll out. */
export function statefulSetRolloutStatus(sts: StatefulSet & KubeObject): RolloutStatus {
  const strategy = sts.spec?.updateStrategy;
  if ((strategy?.type ?? 'RollingUpdate') !== 'RollingUpdate')
    throw new Error('rollout status is only available for RollingUpdate strategy type');
  const s = sts.status;
  if (n(s?.observedGeneration) === 0 || n(sts.metadata.generation) > n(s?.observedGeneration))
    return { message: 'Waiting for statefulset spec update to be observed...', done: false };
  const want = sts.spec?.replicas;
  if (want !== undefined && n(s?.readyReplicas) < want)
    return { message: `Waiting for ${want - n(s?.readyReplicas)} pods to be ready...`, done: false };
  const updated = n(s?.updatedReplicas);
  if (strategy?.rollingUpdate) {
    const partition = strategy.rollingUpdate.partition;
    if (want !== undefined && partition !== undefined && updated < want - partition)
      return {
        message: `Waiting for partitioned roll out to finish: ${updated} out of ${want - partition} new pods have been updated...`,
        done: false,
      };
    return { message: `partitioned roll out complete: ${updated} new pods have been updated...`, done: true };
  }
  if (s?.updateRevision !== s?.currentRevision)
    return {
      message: `waiting for statefulset rolling update to complete ${updated} pods at revision ${s?.updateRevision ?? ''}...`,
      done: false,
    };
  return {
    message: `statefulset rolling update complete ${n(s?.currentReplicas)} pods at revision ${s?.currentRevision ?? ''}...`,
    done: true,
  };
}

/** `kubectl rollout status TYPE/NAME` (one look, `--watch=false`). */
export function rolloutStatus(
  api: ApiServer,
  resource: ResourceRef,
  namespace: string | undefined,
  name: string,
): RolloutStatus {
  const r = api.resolve(resource);
  if (r.group === 'apps' && r.kind === 'Deployment')
    return deploymentRolloutStatus(api.get('deployments', namespace, name));
  if (r.group === 'apps' && r.kind === 'DaemonSet')
    return daemonSetRolloutStatus(api.get('daemonsets', namespace, name));
  if (r.group === 'apps' && r.kind === 'StatefulSet')
    return statefulSetRolloutStatus(api.get('statefulsets', namespace, name));
  throw new Error(`no status viewer has been implemented for ${qualifiedKind(r)}`);
}
