/**
 * Health of the apps/v1 workloads, as Argo CD judges them (gitops-engine
 * `health_deployment.go`, `health_replicaset.go`, `health_statefulset.go`,
 * `health_daemonset.go`, themselves borrowed from `kubectl rollout status`).
 * Absent status numbers count as 0, as Go's zero values do.
 */
import type { DaemonSet, Deployment, ReplicaSet, StatefulSet } from 'kubernetes-types/apps/v1';
import { health, type HealthStatus } from './types';

const n = (v: number | undefined): number => v ?? 0;

export function deploymentHealth(d: Deployment): HealthStatus {
  const spec = d.spec ?? { selector: {}, template: {} };
  const status = d.status ?? {};
  if (spec.paused) return health('Suspended', 'Deployment is paused');
  if (n(d.metadata?.generation) > n(status.observedGeneration)) {
    return health(
      'Progressing',
      'Waiting for rollout to finish: observed deployment generation less then desired generation',
    );
  }
  const progressing = status.conditions?.find((c) => c.type === 'Progressing');
  const updated = n(status.updatedReplicas);
  if (progressing?.reason === 'ProgressDeadlineExceeded') {
    return health('Degraded', `Deployment "${d.metadata?.name ?? ''}" exceeded its progress deadline`);
  }
  if (spec.replicas !== undefined && updated < spec.replicas) {
    return health(
      'Progressing',
      `Waiting for rollout to finish: ${updated} out of ${spec.replicas} new replicas have been updated...`,
    );
  }
  if (n(status.replicas) > updated) {
    return health(
      'Progressing',
      `Waiting for rollout to finish: ${n(status.replicas) - updated} old replicas are pending termination...`,
    );
  }
  if (n(status.availableReplicas) < updated) {
    return health(
      'Progressing',
      `Waiting for rollout to finish: ${n(status.availableReplicas)} of ${updated} updated replicas are available...`,
    );
  }
  return health('Healthy');
}

export function replicaSetHealth(rs: ReplicaSet): HealthStatus {
  const status = rs.status ?? { replicas: 0 };
  if (n(rs.metadata?.generation) > n(status.observedGeneration)) {
    return health(
      'Progressing',
      'Waiting for rollout to finish: observed replica set generation less then desired generation',
    );
  }
  const failure = status.conditions?.find((c) => c.type === 'ReplicaFailure');
  if (failure?.status === 'True') return health('Degraded', failure.message ?? '');
  const want = rs.spec?.replicas;
  if (want !== undefined && n(status.availableReplicas) < want) {
    return health(
      'Progressing',
      `Waiting for rollout to finish: ${n(status.availableReplicas)} out of ${want} new replicas are available...`,
    );
  }
  return health('Healthy');
}

export function statefulSetHealth(sts: StatefulSet): HealthStatus {
  const status = sts.status ?? { replicas: 0 };
  const observed = n(status.observedGeneration);
  if (observed === 0 || n(sts.metadata?.generation) > observed) {
    return health('Progressing', 'Waiting for statefulset spec update to be observed...');
  }
  const want = sts.spec?.replicas;
  const ready = n(status.readyReplicas);
  if (want !== undefined && ready < want)
    return health('Progressing', `Waiting for ${want - ready} pods to be ready...`);
  const strategy = sts.spec?.updateStrategy;
  const updated = n(status.updatedReplicas);
  if (strategy?.type === 'RollingUpdate' && strategy.rollingUpdate) {
    const partition = strategy.rollingUpdate.partition;
    if (want !== undefined && partition !== undefined && updated < want - partition) {
      return health(
        'Progressing',
        `Waiting for partitioned roll out to finish: ${updated} out of ${want - partition} new pods have been updated...`,
      );
    }
    return health('Healthy', `partitioned roll out complete: ${updated} new pods have been updated...`);
  }
  if (strategy?.type === 'OnDelete') return health('Healthy', `statefulset has ${ready} ready pods`);
  if (status.updateRevision !== status.currentRevision) {
    return health(
      'Progressing',
      `waiting for statefulset rolling update to complete ${updated} pods at revision ${status.updateRevision ?? ''}...`,
    );
  }
  return health(
    'Healthy',
    `statefulset rolling update complete ${n(status.currentReplicas)} pods at revision ${status.currentRevision ?? ''}...`,
  );
}

export function daemonSetHealth(ds: DaemonSet): HealthStatus {
  const status = ds.status ?? {
    currentNumberScheduled: 0,
    desiredNumberScheduled: 0,
    numberMisscheduled: 0,
    numberReady: 0,
  };
  if (n(ds.metadata?.generation) > n(status.observedGeneration)) {
    return health(
      'Progressing',
      'Waiting for rollout to finish: observed daemon set generation less then desired generation',
    );
  }
  const desired = n(status.desiredNumberScheduled);
  const updated = n(status.updatedNumberScheduled);
  if (ds.spec?.updateStrategy?.type === 'OnDelete')
    return health('Healthy', `daemon set ${updated} out of ${desired} new pods have been updated`);
  const name = ds.metadata?.name ?? '';
  if (updated < desired) {
    return health(
      'Progressing',
      `Waiting for daemon set "${name}" rollout to finish: ${updated} out of ${desired} new pods have been updated...`,
    );
  }
  if (n(status.numberAvailable) < desired) {
    return health(
      'Progressing',
      `Waiting for daemon set "${name}" rollout to finish: ${n(status.numberAvailable)} of ${desired} updated pods are available...`,
    );
  }
  return health('Healthy');
}
