/**
 * Server-side field validation (`?fieldValidation=Strict|Warn|Ignore`): fields
 * the schema does not know are an error (Strict: 400 `strict decoding error:
 * unknown field "spec.replicass"`), a `Warning` header (Warn, the default) or
 * nothing (Ignore). In the last two cases they are dropped, as decoding into
 * upstream's typed structs drops them.
 */
import { badRequest } from '../api/errors';
import type { ApiError } from '../api/errors';
import type { KubeObject } from '../api/types';
import { unknownFields } from './openapi/index';
import type { FieldValidation } from './query';

/** `.spec.template.spec.containers[0].imagee` → `spec.template.spec.containers[0].imagee`, as upstream prints it. */
function printable(path: string): string {
  return path.startsWith('.') ? path.slice(1) : path;
}

/** Removes the fields at `paths` from `obj` (a private copy); paths that do not resolve are left alone. */
export function pruneFields(obj: unknown, paths: readonly string[]): void {
  for (const p of paths) removePath(obj, p);
}

function removePath(obj: unknown, path: string): void {
  const tokens: (string | number)[] = [];
  for (const m of printable(path).matchAll(/([^.[\]]+)|\[(\d+)\]/g))
    tokens.push(m[2] !== undefined ? Number(m[2]) : m[1]);
  let node: unknown = obj;
  for (let i = 0; i < tokens.length - 1; i++) {
    if (node === null || typeof node !== 'object') return;
    node = (node as Record<string | number, unknown>)[tokens[i]];
  }
  const last = tokens[tokens.length - 1];
  if (node !== null && typeof node === 'object' && !Array.isArray(node) && typeof last === 'string')
    Reflect.deleteProperty(node, last);
}

/** `strict decoding error: unknown field "a", unknown field "b"`. */
export function strictDecodingError(paths: readonly string[]): string {
  return `strict decoding error: ${paths.map((p) => `unknown field "${printable(p)}"`).join(', ')}`;
}

/**
 * How the body of a create or update names the failure: `Deployment in version "v1" cannot be handled as a Deployment:
 * …`.
 */
export function decodeFailure(obj: KubeObject, reason: string): ApiError {
  const slash = obj.apiVersion.indexOf('/');
  const version = slash < 0 ? obj.apiVersion : obj.apiVersion.slice(slash + 1);
  return badRequest(`${obj.kind} in version "${version}" cannot be handled as a ${obj.kind}: ${reason}`);
}

/**
 * Applies the field validation directive to `obj` (a private, mutable copy).
 * Returns the warnings to send; throws `strict(message)` in Strict mode.
 */
export function validateFields(
  obj: KubeObject,
  mode: FieldValidation,
  strict: (message: string) => ApiError,
): string[] {
  const paths = unknownFields(obj);
  if (paths.length === 0) return [];
  if (mode === 'Strict') throw strict(strictDecodingError(paths));
  pruneFields(obj, paths);
  return mode === 'Warn' ? unknownFieldWarnings(paths) : [];
}

/** `unknown field "spec.replicass"`, one per path: the Warning texts of Warn mode. */
export function unknownFieldWarnings(paths: readonly string[]): string[] {
  return paths.map((p) => `unknown field "${printable(p)}"`);
}
