/**
 * `spec.successPolicy` of Indexed Jobs (upstream: pkg/controller/job/success_policy.go, `matchSuccessPolicy`): the
 * Job succeeds as soon as one rule holds — every index of `succeededIndexes` succeeded (or at least `succeededCount`
 * of them), or, without `succeededIndexes`, at least `succeededCount` indexes succeeded. The message names the rule:
 * `Matched rules at index 0`.
 */
import type { SuccessPolicy } from 'kubernetes-types/batch/v1';
import { parseIndexes } from './indexed';

/** The `SuccessCriteriaMet` message of the first rule that holds, or undefined. */
export function matchSuccessPolicy(
  policy: SuccessPolicy | undefined,
  completions: number,
  succeeded: ReadonlySet<number>,
): string | undefined {
  if (!policy || succeeded.size === 0) return undefined;
  const rules = policy.rules ?? [];
  for (let index = 0; index < rules.length; index++) {
    const rule = rules[index];
    const count = rule.succeededCount;
    if (rule.succeededIndexes !== undefined && rule.succeededIndexes !== null) {
      const required = parseIndexes(rule.succeededIndexes, completions);
      // A rule whose indexes cannot be read (or all lie past `completions`) never holds.
      if (required.size === 0) continue;
      let contained = 0;
      for (const i of required) if (succeeded.has(i)) contained++;
      if (contained === required.size || (count !== undefined && count !== null && contained >= count))
        return `Matched rules at index ${index}`;
    } else if (count !== undefined && count !== null && succeeded.size >= count) {
      return `Matched rules at index ${index}`;
    }
  }
  return undefined;
}
