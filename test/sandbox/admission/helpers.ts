import assert from 'node:assert/strict';
import { applyDefaults } from '../../../sandbox/admission/defaults';
import { validateObject } from '../../../sandbox/admission/validation';
import type { FieldError } from '../../../sandbox/admission/validation/fieldError';
import { formatFieldError } from '../../../sandbox/admission/validation/format';
import { resourceFor } from '../../../sandbox/api/resources';
import type { KubeObject } from '../../../sandbox/api/types';

/** Defaults a copy of `obj` (and `old`) the way the API server does, then validates it. */
export function validate(obj: KubeObject, old?: KubeObject): FieldError[] {
  const r = resourceFor(obj.apiVersion, obj.kind);
  assert.ok(r, `${obj.apiVersion} ${obj.kind} is served`);
  const copy = structuredClone(obj);
  applyDefaults(copy, r);
  let oldCopy: KubeObject | undefined;
  if (old) {
    oldCopy = structuredClone(old);
    applyDefaults(oldCopy, r);
  }
  return validateObject(copy, { resource: r, operation: old ? 'UPDATE' : 'CREATE', old: oldCopy });
}

/** `code | field: message` lines, with ` (warning)` for warnings. */
export function lines(errs: FieldError[]): string[] {
  return errs.map((e) => `${e.code} | ${formatFieldError(e)}${e.warning ? ' (warning)' : ''}`);
}

/** Returns a deep copy of `base` changed by `edit`. */
export function variant<T>(base: T, edit: (copy: T) => void): T {
  const copy = structuredClone(base);
  edit(copy);
  return copy;
}
