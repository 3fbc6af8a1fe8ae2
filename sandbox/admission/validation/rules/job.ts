/** Job-specific rules (batch validation `validateJobSpec`, `ValidateJobUpdate`). */
import { jsonEqual } from '../../../util/json';
import { obj } from '../access';
import { invalid, notSupported, required, type FieldError } from '../fieldError';
import type { ValidationRule } from '../rule';

export const jobCompletionMode: ValidationRule = {
  code: 'job-completion-mode',
  description: 'completionMode is NonIndexed or Indexed; Indexed Jobs need completions.',
  kinds: ['Job'],
  validate(o) {
    const spec = obj(o, 'spec');
    const mode = spec?.completionMode;
    if (mode === undefined || mode === null) return [];
    const errs: FieldError[] = [];
    if (mode !== 'NonIndexed' && mode !== 'Indexed')
      errs.push(notSupported(this.code, 'spec.completionMode', mode, ['NonIndexed', 'Indexed']));
    if (mode === 'Indexed' && (spec?.completions === undefined || spec.completions === null)) {
      errs.push(required(this.code, 'spec.completions', 'when completion mode is Indexed'));
    }
    return errs;
  },
};

export const jobTemplateImmutable: ValidationRule = {
  code: 'job-template-immutable',
  description: "A Job's pod template cannot change after creation.",
  kinds: ['Job'],
  validate(o, ctx) {
    if (ctx.operation !== 'UPDATE' || !ctx.old) return [];
    const now = obj(o.spec, 'template');
    if (jsonEqual(now ?? null, obj(ctx.old.spec, 'template') ?? null)) return [];
    return [invalid(this.code, 'spec.template', now ?? null, 'field is immutable')];
  },
};
