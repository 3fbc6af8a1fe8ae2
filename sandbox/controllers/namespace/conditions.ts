/**
 * The deletion conditions a terminating Namespace reports
 * (pkg/controller/namespace/deletion/status_condition_utils.go): each known
 * type is True with a failure reason while it applies, otherwise False with
 * its "ok" reason; unchanged conditions keep their transition time.
 */
import type { NamespaceCondition } from 'kubernetes-types/core/v1';
import { formatTimestamp } from '../../clock/clock';

export const CONDITION_TYPES = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
] as const;

export type NamespaceConditionType = (typeof CONDITION_TYPES)[number];

const OK: Record<NamespaceConditionType, [reason: string, message: string]> = {
  NamespaceDeletionDiscoveryFailure: ['ResourcesDiscovered', 'All resources successfully discovered'],
  NamespaceDeletionGroupVersionParsingFailure: ['ParsedGroupVersions', 'All legacy kube types successfully parsed'],
  NamespaceDeletionContentFailure: [
    'ContentDeleted',
    'All content successfully deleted, may be waiting on finalization',
  ],
  NamespaceContentRemaining: ['ContentRemoved', 'All content successfully removed'],
  NamespaceFinalizersRemaining: ['ContentHasNoFinalizers', 'All content-preserving finalizers finished'],
};

/** What one deletion pass found. */
export interface DeletionOutcome {
  /** `pods.` / `deployments.apps` → instances still present. */
  remaining: Map<string, number>;
  /** finalizer → instances still carrying it. */
  finalizers: Map<string, number>;
  /** Messages of failed deletions. */
  errors: string[];
}

function failing(outcome: DeletionOutcome): Partial<Record<NamespaceConditionType, [string, string]>> {
  const out: Partial<Record<NamespaceConditionType, [string, string]>> = {};
  if (outcome.errors.length > 0)
    out.NamespaceDeletionContentFailure = [
      'ContentDeletionFailed',
      `Failed to delete all resource types, ${outcome.errors.length} remaining: ${outcome.errors.join(', ')}`,
    ];
  if (outcome.remaining.size > 0) {
    const parts = [...outcome.remaining].map(([r, n]) => `${r} has ${n} resource instances`).sort();
    out.NamespaceContentRemaining = ['SomeResourcesRemain', `Some resources are remaining: ${parts.join(', ')}`];
  }
  if (outcome.finalizers.size > 0) {
    const parts = [...outcome.finalizers].map(([f, n]) => `${f} in ${n} resource instances`).sort();
    out.NamespaceFinalizersRemaining = [
      'SomeFinalizersRemain',
      `Some content in the namespace has finalizers remaining: ${parts.join(', ')}`,
    ];
  }
  return out;
}

/** The namespace's conditions after `outcome`, keeping conditions of other types and unchanged ones as they were. */
export function updatedConditions(
  current: readonly NamespaceCondition[],
  outcome: DeletionOutcome,
  now: number,
): NamespaceCondition[] {
  const known = new Set<string>(CONDITION_TYPES);
  const next = current.filter((c) => !known.has(c.type));
  const fails = failing(outcome);
  for (const type of CONDITION_TYPES) {
    const fail = fails[type];
    const [reason, message] = fail ?? OK[type];
    const status = fail ? 'True' : 'False';
    const old = current.find((c) => c.type === type);
    if (old && old.status === status && old.reason === reason && old.message === message) next.push(old);
    else next.push({ type, status, lastTransitionTime: formatTimestamp(now), reason, message });
  }
  return next;
}
