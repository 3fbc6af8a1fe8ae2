/** Label and annotation maps (apimachinery `ValidateLabels`, `ValidateAnnotations`). */
import { about, invalid, tooLong, type FieldError } from '../fieldError';
import { isQualifiedName, isValidLabelValue } from '../../../api/names';
import { utf8Length } from '../access';

/**
 * Texts known to pass a check. `isQualifiedName` and `isValidLabelValue` are pure in the text, and the same few keys
 * and values (`app`, `app.kubernetes.io/name`) recur in every object's labels, selectors and templates, so a text
 * found valid once is not checked again; a text with errors is checked every time (its messages are built fresh).
 * Bounded: past the limit, new texts are checked every time as before.
 */
const KNOWN_VALID_LIMIT = 4096;
const NO_ERRORS: readonly string[] = Object.freeze([]);
const validQualifiedNames = new Set<string>();
const validLabelValues = new Set<string>();

/** `isQualifiedName(text)`, remembering the texts that pass. */
export function qualifiedNameErrors(text: string): readonly string[] {
  if (validQualifiedNames.has(text)) return NO_ERRORS;
  const errs = isQualifiedName(text);
  if (errs.length === 0 && validQualifiedNames.size < KNOWN_VALID_LIMIT) validQualifiedNames.add(text);
  return errs;
}

/** `isValidLabelValue(text)`, remembering the texts that pass. */
export function labelValueErrors(text: string): readonly string[] {
  if (validLabelValues.has(text)) return NO_ERRORS;
  const errs = isValidLabelValue(text);
  if (errs.length === 0 && validLabelValues.size < KNOWN_VALID_LIMIT) validLabelValues.add(text);
  return errs;
}

/**
 * Errors for a label map at `path`: each bad key or value, reported at the map itself as upstream does (the source
 * hint names the entry and which part of it is at fault).
 */
export function validateLabels(code: string, labels: Record<string, string> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    for (const msg of qualifiedNameErrors(k)) errs.push(about(invalid(code, path, k, msg), { entry: k, part: 'key' }));
    for (const msg of labelValueErrors(v)) errs.push(about(invalid(code, path, v, msg), { entry: k }));
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
    for (const msg of qualifiedNameErrors(k.toLowerCase()))
      errs.push(about(invalid(code, path, k, msg), { entry: k, part: 'key' }));
    total += utf8Length(k) + utf8Length(v);
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) errs.push(tooLong(code, path, TOTAL_ANNOTATION_SIZE_LIMIT));
  return errs;
}
