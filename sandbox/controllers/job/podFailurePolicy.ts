/**
 * `spec.podFailurePolicy` (upstream: pkg/controller/job/pod_failure_policy.go,
 * `matchPodFailurePolicy`): the first rule that matches a failed pod decides
 * what its failure means — `FailJob` fails the whole Job at once (with a
 * message naming the container and exit code, or the pod condition),
 * `Ignore` does not count it against `backoffLimit`, `Count` counts it as
 * usual, `FailIndex` fails its completion index (with `backoffLimitPerIndex`).
 * A pod no rule matches counts as usual.
 */
import type { Job, PodFailurePolicy, PodFailurePolicyOnExitCodesRequirement } from 'kubernetes-types/batch/v1';
import type { ContainerStatus, Pod, PodCondition } from 'kubernetes-types/core/v1';

export type PodFailurePolicyAction = 'FailJob' | 'FailIndex' | 'Ignore' | 'Count';

export interface PodFailurePolicyMatch {
  /** Set when a `FailJob` rule matched: the message of the Job's `PodFailurePolicy` condition. */
  failJobMessage: string | undefined;
  /** Whether the failure counts against `backoffLimit` / `backoffLimitPerIndex` (false only for `Ignore`). */
  countFailed: boolean;
  /** The action of the matching rule, if any rule matched. */
  action: PodFailurePolicyAction | undefined;
}

const NO_MATCH: PodFailurePolicyMatch = { failJobMessage: undefined, countFailed: true, action: undefined };

/** What the Job's pod failure policy makes of a failed pod (`matchPodFailurePolicy`). */
export function matchPodFailurePolicy(policy: PodFailurePolicy | undefined, pod: Pod): PodFailurePolicyMatch {
  if (!policy) return NO_MATCH;
  const rules = policy.rules ?? [];
  for (let index = 0; index < rules.length; index++) {
    const rule = rules[index];
    const action = rule.action as PodFailurePolicyAction;
    if (rule.onExitCodes) {
      const container = matchOnExitCodes(pod, rule.onExitCodes);
      if (!container) continue;
      const matched = decide(action, () => {
        const code = container.state!.terminated!.exitCode;
        return `Container ${container.name} for pod ${podRef(pod)} failed with exit code ${code} matching ${action} rule at index ${index}`;
      });
      if (matched) return matched;
    } else if (rule.onPodConditions) {
      const condition = matchOnPodConditions(pod, rule.onPodConditions);
      if (!condition) continue;
      const matched = decide(
        action,
        () => `Pod ${podRef(pod)} has condition ${condition.type} matching ${action} rule at index ${index}`,
      );
      if (matched) return matched;
    }
  }
  return NO_MATCH;
}

/** The outcome of a matching rule; undefined for an action this release does not know (the next rule is tried). */
function decide(action: PodFailurePolicyAction, message: () => string): PodFailurePolicyMatch | undefined {
  switch (action) {
    case 'Ignore':
      return { failJobMessage: undefined, countFailed: false, action };
    case 'FailIndex':
    case 'Count':
      return { failJobMessage: undefined, countFailed: true, action };
    case 'FailJob':
      return { failJobMessage: message(), countFailed: true, action };
    default:
      return undefined;
  }
}

function podRef(pod: Pod): string {
  return `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
}

/** A terminated container with a non-zero exit code the requirement matches: regular containers first, then init. */
function matchOnExitCodes(pod: Pod, req: PodFailurePolicyOnExitCodesRequirement): ContainerStatus | undefined {
  return (
    matchingContainer(pod.status?.containerStatuses ?? [], req) ??
    matchingContainer(pod.status?.initContainerStatuses ?? [], req)
  );
}

function matchingContainer(
  statuses: readonly ContainerStatus[],
  req: PodFailurePolicyOnExitCodesRequirement,
): ContainerStatus | undefined {
  for (const s of statuses) {
    const terminated = s.state?.terminated;
    // A container still terminating has no exit code to match.
    if (!terminated) continue;
    if (req.containerName !== undefined && req.containerName !== null && req.containerName !== s.name) continue;
    if (terminated.exitCode !== 0 && exitCodeMatches(terminated.exitCode, req)) return s;
  }
  return undefined;
}

function exitCodeMatches(code: number, req: PodFailurePolicyOnExitCodesRequirement): boolean {
  const values = req.values ?? [];
  if (req.operator === 'In') return values.includes(code);
  if (req.operator === 'NotIn') return !values.includes(code);
  return false;
}

function matchOnPodConditions(
  pod: Pod,
  patterns: readonly { type: string; status?: string }[],
): PodCondition | undefined {
  for (const c of pod.status?.conditions ?? []) {
    // `status` defaults to True (SetDefaults_Job).
    for (const p of patterns) if (c.type === p.type && c.status === (p.status ?? 'True')) return c;
  }
  return undefined;
}

/** The message of the first failed pod a `FailJob` rule matches (`getFailJobMessage`). */
export function failJobMessage(job: Job, failedPods: Iterable<Pod>): string | undefined {
  const policy = job.spec?.podFailurePolicy;
  if (!policy) return undefined;
  for (const p of failedPods) {
    const m = matchPodFailurePolicy(policy, p).failJobMessage;
    if (m !== undefined) return m;
  }
  return undefined;
}
