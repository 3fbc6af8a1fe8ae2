/** Builds rules that check every pod spec an object holds (Pod, templates, CronJob). */
import type { KubeObject } from '../../api/types';
import { POD_SPEC_KINDS, podSpecOf, type PodSpecAt } from '../podSpecs';
import type { FieldError } from './fieldError';
import type { ValidationContext, ValidationRule } from './rule';

export function podSpecRule(
  code: string,
  description: string,
  check: (at: PodSpecAt, ctx: ValidationContext, obj: KubeObject) => FieldError[],
): ValidationRule {
  return {
    code,
    description,
    kinds: POD_SPEC_KINDS,
    validate(obj, ctx) {
      const at = podSpecOf(obj);
      return at ? check(at, ctx, obj) : [];
    },
  };
}
