/** apps/v1 defaults (pkg/apis/apps/v1/defaults.go). Selectors are never defaulted in apps/v1. */
import type { KubeObject } from '../../api/types';
import { isObj, obj, type Obj } from '../validation/access';
import { eachObj, ensureObj } from './setDefault';

export function defaultDeployment(spec: Obj): void {
  spec.replicas ??= 1;
  const strategy = ensureObj(spec, 'strategy');
  if (strategy) {
    strategy.type ??= 'RollingUpdate';
    if (strategy.type === 'RollingUpdate') {
      const ru = ensureObj(strategy, 'rollingUpdate');
      if (ru) {
        ru.maxUnavailable ??= '25%';
        ru.maxSurge ??= '25%';
      }
    }
  }
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
}

export function defaultReplicaSet(spec: Obj): void {
  spec.replicas ??= 1;
}

export function defaultStatefulSet(spec: Obj): void {
  spec.podManagementPolicy ??= 'OrderedReady';
  const us = ensureObj(spec, 'updateStrategy');
  if (us) {
    // SetDefaults_StatefulSet: only an empty type gets `rollingUpdate: {}`; an explicit `type: RollingUpdate` without
    // the block keeps it absent (the controller and `kubectl rollout status` tell the two apart).
    if (us.type === undefined || us.type === null || us.type === '') {
      us.type = 'RollingUpdate';
      ensureObj(us, 'rollingUpdate');
    }
    if (us.type === 'RollingUpdate' && isObj(us.rollingUpdate)) us.rollingUpdate.partition ??= 0;
  }
  const retention = ensureObj(spec, 'persistentVolumeClaimRetentionPolicy');
  if (retention) {
    retention.whenDeleted ??= 'Retain';
    retention.whenScaled ??= 'Retain';
  }
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  eachObj(spec, 'volumeClaimTemplates', (t) => {
    if (isObj(t.spec)) t.spec.volumeMode ??= 'Filesystem';
    t.status ??= { phase: 'Pending' };
  });
}

export function defaultDaemonSet(spec: Obj): void {
  const us = ensureObj(spec, 'updateStrategy');
  if (us) {
    us.type ??= 'RollingUpdate';
    if (us.type === 'RollingUpdate') {
      const ru = ensureObj(us, 'rollingUpdate');
      if (ru) {
        ru.maxUnavailable ??= 1;
        ru.maxSurge ??= 0;
      }
    }
  }
  spec.revisionHistoryLimit ??= 10;
}

/** Job: `SetDefaults_Job`. The Job's labels inherit the template labels when empty. */
export function defaultJob(spec: Obj, job: Obj): void {
  if (
    (spec.completions === undefined || spec.completions === null) &&
    (spec.parallelism === undefined || spec.parallelism === null)
  ) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  spec.parallelism ??= 1;
  spec.backoffLimit ??= spec.backoffLimitPerIndex !== undefined && spec.backoffLimitPerIndex !== null ? 2147483647 : 6;
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  spec.podReplacementPolicy ??= isObj(spec.podFailurePolicy) ? 'Failed' : 'TerminatingOrFailed';
  // A podFailurePolicy rule's onPodConditions pattern matches status "True" unless it says otherwise
  // (upstream: pkg/apis/batch/v1/defaults.go, SetDefaults_Job).
  const rules = isObj(spec.podFailurePolicy) ? spec.podFailurePolicy.rules : undefined;
  for (const rule of Array.isArray(rules) ? rules : []) {
    const patterns = isObj(rule) ? rule.onPodConditions : undefined;
    for (const pattern of Array.isArray(patterns) ? patterns : []) if (isObj(pattern)) pattern.status ??= 'True';
  }
  const templateLabels = obj(obj(spec, 'template'), 'metadata')?.labels;
  const metadata = obj(job, 'metadata');
  const labels = metadata?.labels;
  if (metadata && isObj(templateLabels) && (!isObj(labels) || Object.keys(labels).length === 0))
    metadata.labels = { ...templateLabels };
}

export function defaultCronJob(spec: Obj): void {
  spec.concurrencyPolicy ??= 'Allow';
  spec.suspend ??= false;
  spec.successfulJobsHistoryLimit ??= 3;
  spec.failedJobsHistoryLimit ??= 1;
}

/**
 * ReplicationController: `SetDefaults_ReplicationController`. With template labels, an empty selector and empty
 * object labels take them; replicas default to 1.
 */
export function defaultReplicationController(spec: Obj, rc: KubeObject): void {
  const template = spec.template;
  const labels = isObj(template) && isObj(template.metadata) ? template.metadata.labels : undefined;
  if (isObj(labels)) {
    if (!isObj(spec.selector) || Object.keys(spec.selector).length === 0) spec.selector = { ...labels };
    if (!rc.metadata.labels || Object.keys(rc.metadata.labels).length === 0)
      rc.metadata.labels = { ...(labels as Record<string, string>) };
  }
  spec.replicas ??= 1;
}
