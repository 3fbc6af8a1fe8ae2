/** The shape every validation rule has; collected in ./index. */
import type { KubeObject } from '../../api/types';
import type { ResourceType } from '../../api/resources';
import type { FieldError } from './fieldError';

export interface ValidationContext {
  resource: ResourceType;
  operation: 'CREATE' | 'UPDATE';
  /** The stored object, for UPDATE. */
  old?: KubeObject;
}

export interface ValidationRule {
  /** Stable kebab-case identifier, also set on every FieldError the rule returns. */
  code: string;
  description: string;
  /** `Kind` names the rule applies to, or '*' for every kind. */
  kinds: readonly string[] | '*';
  /** A pure function of the object (and `ctx.old`): the errors found, empty when valid. */
  validate(obj: KubeObject, ctx: ValidationContext): FieldError[];
}
