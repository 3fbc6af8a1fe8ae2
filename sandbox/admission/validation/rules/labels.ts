/** Label and annotation maps (apimachinery `ValidateLabels`, `ValidateAnnotations`). */
import { about, invalid, tooLong, type FieldError } from '../fieldError';
import { isQualifiedName, isValidLabelValue } from '../../../api/names';
import { utf8Length } from '../access';

/**
 * Errors for a label map at `path`: each bad key or value, reported at the map itself as upstream does (the source
 * hint names the entry and which part of it is at fault).
 */
export function validateLabels(code: string, labels: Record<string, string> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    for (const msg of isQualifiedName(k)) errs.push(about(invalid(code, path, k, msg), { entry: k, part: 'key' }));
    for (const msg of isValidLabelValue(v)) errs.push(about(invalid(code, path, v, msg), { entry: k }));
  }
  return errs;
}

export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/** Errors for an annotation map: qualified-name keys and a 256 KiB total. */
export function validateAnnotations(
  code: string,
  annotations: Record<string, string> | undefined,
  path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    for (const msg of isQualifiedName(k.toLowerCase()))
      errs.push(about(invalid(code, path, k, msg), { entry: k, part: 'key' }));
    total += utf8Length(k) + utf8Length(v);
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) errs.push(tooLong(code, path, TOTAL_ANNOTATION_SIZE_LIMIT));
  return errs;
}
