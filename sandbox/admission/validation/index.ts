/**
 * Every validation rule, in a stable order, and the entry point the API
 * server and the language server call. Rules are pure: the same object (and
 * old object, for updates) always yields the same errors.
 */
import type { KubeObject } from '../../api/types';
import type { FieldError } from './fieldError';
import type { ValidationContext, ValidationRule } from './rule';
import { readingPodSpecsOf } from '../podSpecs';
import {
  metadataAnnotations,
  metadataFinalizers,
  metadataLabels,
  metadataName,
  metadataNamespace,
  metadataOwnerReferences,
} from './rules/metadata';
import {
  containerImagePullPolicy,
  containerImageRequired,
  containerName,
  podContainersRequired,
} from './rules/containers';
import { containerPortName, containerPortNumber, containerPortProtocol } from './rules/containerPorts';
import { containerEnvName, containerEnvValueFrom } from './rules/containerEnv';
import { containerResources, memoryFractionalBytes } from './rules/containerResources';
import { containerVolumeMounts, podVolumeName, podVolumeSource } from './rules/volumes';
import {
  podActiveDeadlineSeconds,
  podDnsPolicy,
  podNodeSelector,
  podRestartPolicy,
  podTerminationGracePeriod,
} from './rules/podPolicies';
import { podTolerations } from './rules/tolerations';
import { podSpecUpdate } from './rules/podUpdate';
import { containerProbes } from './rules/probes';
import {
  jobSelector,
  podTemplateMetadata,
  workloadSelector,
  workloadSelectorImmutable,
  workloadSelectorMatchesTemplate,
} from './rules/workloadSelector';
import { workloadRestartPolicy } from './rules/workloadRestartPolicy';
import { workloadCounts } from './rules/workloadCounts';
import { deploymentProgressDeadline, deploymentStrategy } from './rules/deployment';
import { statefulSetPolicies, statefulSetSpecUpdate } from './rules/statefulSet';
import { daemonSetUpdateStrategy } from './rules/daemonSet';
import { jobCompletionMode, jobTemplateImmutable } from './rules/job';
import { cronJobConcurrencyPolicy, cronJobName, cronJobSchedule } from './rules/cronJob';
import {
  serviceClusterIPImmutable,
  serviceNodePorts,
  servicePorts,
  serviceSelector,
  serviceType,
} from './rules/service';
import { configMapData, immutableData, secretData, secretTypeImmutable } from './rules/configData';
import { hpaReplicas, hpaScaleTargetRef } from './rules/hpa';
import { pdbSpec } from './rules/pdb';
import { pvcSpec } from './rules/pvc';
import { priorityClassSpec } from './rules/priorityClass';
import { ingressSpec } from './rules/ingress';
import { networkPolicySpec } from './rules/networkPolicy';
import {
  apiService,
  ingressClass,
  priorityClass,
  rbacRoleRef,
  rbacRules,
  runtimeClass,
  storageClass,
  webhookConfiguration,
} from './rules/storedKinds';
import { validatingAdmissionPolicySpec } from '../policy/validatePolicy';
import { namespacePodSecurityLabels } from './rules/namespacePodSecurity';
import { limitRangeSpec } from './rules/limitRange';

export type { ValidationContext, ValidationRule } from './rule';

/** All rules in a stable order: metadata, pod spec, workloads, then other kinds. */
export const VALIDATION_RULES: readonly ValidationRule[] = Object.freeze([
  metadataName,
  metadataNamespace,
  metadataLabels,
  metadataAnnotations,
  metadataFinalizers,
  metadataOwnerReferences,
  workloadSelector,
  jobSelector,
  workloadSelectorMatchesTemplate,
  workloadSelectorImmutable,
  podTemplateMetadata,
  podContainersRequired,
  containerName,
  containerImageRequired,
  containerImagePullPolicy,
  containerPortNumber,
  containerPortProtocol,
  containerPortName,
  containerEnvName,
  containerEnvValueFrom,
  containerResources,
  memoryFractionalBytes,
  containerProbes,
  podVolumeName,
  podVolumeSource,
  containerVolumeMounts,
  podRestartPolicy,
  podDnsPolicy,
  podTerminationGracePeriod,
  podActiveDeadlineSeconds,
  podNodeSelector,
  podTolerations,
  podSpecUpdate,
  workloadRestartPolicy,
  workloadCounts,
  deploymentStrategy,
  deploymentProgressDeadline,
  statefulSetPolicies,
  statefulSetSpecUpdate,
  daemonSetUpdateStrategy,
  jobCompletionMode,
  jobTemplateImmutable,
  cronJobSchedule,
  cronJobConcurrencyPolicy,
  cronJobName,
  serviceType,
  servicePorts,
  serviceNodePorts,
  serviceSelector,
  serviceClusterIPImmutable,
  configMapData,
  secretData,
  secretTypeImmutable,
  immutableData,
  hpaReplicas,
  hpaScaleTargetRef,
  pdbSpec,
  pvcSpec,
  priorityClassSpec,
  ingressSpec,
  networkPolicySpec,
  rbacRules,
  rbacRoleRef,
  webhookConfiguration,
  storageClass,
  priorityClass,
  runtimeClass,
  ingressClass,
  apiService,
  validatingAdmissionPolicySpec,
  namespacePodSecurityLabels,
  limitRangeSpec,
]);

// The rule list is frozen, so each kind's selection is computed once (every API write asks).
const RULES_BY_KIND = new Map<string, readonly ValidationRule[]>();

function cachedRulesForKind(kind: string): readonly ValidationRule[] {
  let rules = RULES_BY_KIND.get(kind);
  if (rules) return rules;
  rules = Object.freeze(VALIDATION_RULES.filter((r) => r.kinds === '*' || r.kinds.includes(kind)));
  // Documents may name any kind; only a bounded number are remembered.
  if (RULES_BY_KIND.size < 256) RULES_BY_KIND.set(kind, rules);
  return rules;
}

/** The rules that apply to a kind. */
export function rulesForKind(kind: string): ValidationRule[] {
  return [...cachedRulesForKind(kind)];
}

/**
 * Runs every rule that applies to the object's kind. Returns errors, and
 * warnings flagged `warning: true`; the object is only read.
 */
export function validateObject(obj: KubeObject, ctx: ValidationContext): FieldError[] {
  // The rules only read the object, so its pod spec and containers are found once for all of them.
  return readingPodSpecsOf(obj, () => {
    const out: FieldError[] = [];
    for (const rule of cachedRulesForKind(obj.kind)) {
      const found = rule.validate(obj, ctx);
      for (let i = 0; i < found.length; i++) out.push(found[i]);
    }
    return out;
  });
}
