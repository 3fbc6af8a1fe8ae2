/**
 * The schema cursor the strategic merge patch walks with, applying a patch (strategic.ts) and computing kubectl
 * apply's three-way patch (sandbox/operations/apply/strategicThreeWay.ts): a member's type and the list strategy its
 * definition declares (`patchStrategy`, `patchMergeKey`).
 */
import { listStrategy, schemaStep } from '../../schema/listStrategies';
import type { ListStrategy } from '../../schema/listStrategies';
import type { SchemaType } from '../../schema/types';

export interface Field {
  readonly type?: SchemaType;
  readonly strategy?: ListStrategy;
}

/** The member `key` of an object of `type`: its type and, when a definition declares it, its strategy. */
export function fieldOf(type: SchemaType | undefined, key: string): Field {
  if (type === undefined) return {};
  const step = schemaStep(type, key);
  if (step === undefined) return {};
  return { type: step.type, strategy: step.parent === undefined ? undefined : listStrategy(step.parent.name, key) };
}

/** The type of a list's items (`any` stays `any`). */
export function itemType(type: SchemaType | undefined): SchemaType | undefined {
  if (type?.kind === 'array') return type.items;
  return type?.kind === 'any' ? type : undefined;
}

/** The field's patch strategies (`merge`, `retainKeys`, `replace`). */
export function strategies(field: Field): string[] {
  return field.strategy?.patchStrategy?.split(',') ?? [];
}
