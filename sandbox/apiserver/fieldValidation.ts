/**
 * Server-side field validation (`fieldValidation=Strict|Warn|Ignore` on
 * create, update and patch), as kube-apiserver does it when it decodes a body
 * into its Go types: fields the schema does not declare and fields written
 * twice fail the write in Strict mode, are dropped with one warning each in
 * Warn mode (the server's default), and are dropped silently with Ignore. A
 * stored object never keeps them.
 *
 * upstream: apiserver/pkg/endpoints/handlers create.go, update.go (decode,
 * `transformDecodeError`), patch.go (`applyJSPatch`, `applyPatchToObject`,
 * `addStrictDecodingWarnings`); apimachinery runtime `NewStrictDecodingError`.
 * Server-side apply is not here: it refuses unknown fields whatever the mode
 * (structured-merge-diff's "field not declared in schema").
 */
import type { ApiError } from '../api/errors';
import { badRequest, invalidPatch } from '../api/errors';
import { parseApiVersion } from '../api/types';
import type { KubeObject } from '../api/types';
import { definitionOf, strictErrorText, strictFieldErrors } from '../schema/strictFields';
import type { StrictFieldError } from '../schema/strictFields';
import { isPlainObject } from '../util/json';
import { decodeNulls } from './decodeNulls';
import type { FieldValidation, PatchType } from './options';
import { goJson, goPrint } from './goText';

export type { FieldValidation } from './options';

/**
 * How a kind that the generated schema does not describe (a custom resource) is decoded: its unknown fields by
 * its own schema (pruning), and what becomes of its nulls.
 */
export interface SchemaDecoding {
  unknownFields(obj: unknown): StrictFieldError[];
  nulls(obj: Record<string, unknown>): void;
}

export interface FieldValidationOptions {
  /** Default `Warn`, as kube-apiserver's when a request names none. */
  fieldValidation?: FieldValidation;
  /** Receives each warning of Warn mode: `unknown field "spec.foo"`. */
  warn?: (text: string) => void;
}

/** `strict decoding error: unknown field "a", duplicate field "b"` (runtime.NewStrictDecodingError). */
export function strictDecodingError(errors: readonly StrictFieldError[], prefix = ''): string {
  return `strict decoding error: ${errors.map((e) => prefix + strictErrorText(e)).join(', ')}`;
}

/** The upstream paths an error names, attached to it for editors (never sent on the wire). */
function withFields(error: ApiError, errors: readonly StrictFieldError[]): ApiError {
  error.fields = errors.map((e) => e.path);
  return error;
}

/**
 * 400 for a create or update body that does not decode: `Pod in version "v1" cannot be handled as a Pod: <reason>`
 * (transformDecodeError).
 */
export function decodeFailure(obj: { apiVersion: string; kind: string }, reason: string): ApiError {
  return badRequest(
    `${obj.kind} in version "${parseApiVersion(obj.apiVersion).version}" cannot be handled as a ${obj.kind}: ${reason}`,
  );
}

/** Removes the unknown fields among `errors` from `obj`; paths that no longer resolve are left alone. */
export function pruneUnknownFields(obj: unknown, errors: readonly StrictFieldError[]): void {
  for (const e of errors) {
    if (e.kind !== 'unknown') continue;
    let node: unknown = obj;
    for (const seg of e.segments.slice(0, -1))
      node = isPlainObject(node) ? node[seg] : Array.isArray(node) ? (node as unknown[])[Number(seg)] : undefined;
    const last = e.segments[e.segments.length - 1];
    if (isPlainObject(node) && typeof last === 'string') Reflect.deleteProperty(node, last);
  }
}

function warnEach(options: FieldValidationOptions, errors: readonly StrictFieldError[], prefix = ''): void {
  if ((options.fieldValidation ?? 'Warn') !== 'Warn' || options.warn === undefined) return;
  for (const e of errors) options.warn(prefix + strictErrorText(e));
}

/**
 * Field validation of a create or update body. `input` is the body as given (its written key order tells duplicate
 * fields), `body` the server's private copy: unknown fields are removed from it unless the mode is Strict, and its
 * nulls become what Go's decoding makes of them. Returns the Strict failure, which the caller throws after the other
 * decoding checks (a field of the wrong type wins over strictness, as in Go's decoder). `nullMembers` (the copy
 * counted them) limits the null pass of a built-in kind to the top-level members that hold a null (none: no pass);
 * undefined visits the whole body.
 */
export function decodeObjectFields(
  input: unknown,
  body: KubeObject,
  options: FieldValidationOptions,
  custom?: SchemaDecoding,
  nullMembers?: readonly string[],
): ApiError | undefined {
  const def = custom === undefined ? definitionOf(body) : undefined;
  const errors =
    custom !== undefined ? custom.unknownFields(body) : def === undefined ? [] : strictFieldErrors(input, def);
  const strict = settleFieldErrors(body, errors, options);
  if (strict !== undefined) return strict;
  if (custom !== undefined) custom.nulls(body as unknown as Record<string, unknown>);
  else if (nullMembers === undefined || nullMembers.length > 0)
    decodeNulls(body as unknown as Record<string, unknown>, def, nullMembers);
  return undefined;
}

/**
 * What field validation does with the strict errors of a create or update body: Strict returns the failure; Warn and
 * Ignore remove the unknown fields from `body` (Warn tells each). For a body decoded in one pass (decodeBody.ts),
 * whose nulls are already decoded.
 */
export function settleFieldErrors(
  body: KubeObject,
  errors: readonly StrictFieldError[],
  options: FieldValidationOptions,
): ApiError | undefined {
  if (errors.length > 0 && options.fieldValidation === 'Strict')
    return withFields(decodeFailure(body, strictDecodingError(errors)), errors);
  pruneUnknownFields(body, errors);
  warnEach(options, errors);
  return undefined;
}

/**
 * Field validation of a JSON, merge or strategic merge patch: fields written twice in the patch, then unknown fields
 * of the patched object (the stored object has none, so they are the patch's). Strict: 422 ` "" is invalid: patch:
 * Invalid value: "…": strict decoding error: …`, where the value is the patched object's JSON (JSON and merge
 * patches) or Go's `%+v` of the patch (strategic). Otherwise they are removed from `patched` (a private copy).
 */
export function checkPatchFields(
  type: Exclude<PatchType, 'apply'>,
  patch: unknown,
  patched: KubeObject,
  options: FieldValidationOptions,
  custom?: SchemaDecoding,
): void {
  const mode = options.fieldValidation ?? 'Warn';
  const unknownOf = (obj: KubeObject): StrictFieldError[] => {
    if (custom !== undefined) return custom.unknownFields(obj);
    const def = definitionOf(obj);
    return def === undefined ? [] : strictFieldErrors(obj, def);
  };
  if (mode === 'Ignore') {
    pruneUnknownFields(patched, unknownOf(patched));
    return;
  }
  const prefix = type === 'json' ? 'json patch ' : '';
  const inPatch = strictFieldErrors(patch, 'any');
  const inResult = unknownOf(patched);
  if (inPatch.length + inResult.length === 0) return;
  if (mode === 'Strict') {
    const value = type === 'strategic' ? goPrint(patch) : goJson(patched);
    const text = [...inPatch.map((e) => prefix + strictErrorText(e)), ...inResult.map((e) => strictErrorText(e))].join(
      ', ',
    );
    throw withFields(invalidPatch(value, `strict decoding error: ${text}`), inResult);
  }
  warnEach(options, inPatch, prefix);
  warnEach(options, inResult);
  pruneUnknownFields(patched, inResult);
}
