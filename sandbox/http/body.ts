/**
 * Request bodies: read with a size limit (413 past it, as upstream's
 * limitedReadBody), then decoded by Content-Type — JSON, or YAML for objects
 * and server-side apply — into plain JSON values. A body that does not decode
 * is 400 with the parser's reason; an unknown Content-Type is 415.
 */
import type { IncomingMessage } from 'node:http';
import { parseAllDocuments } from 'yaml';
import { badRequest, tooLarge, unsupportedMediaType } from '../api/errors';
import { patchTypeFromContentType } from '../api/patch/index';
import type { PatchType } from '../apiserver/options';
import { recordDuplicateKeys } from './duplicateKeys';
import { mediaTypeOf } from './negotiate';
import { PROTOBUF_MEDIA_TYPE, decodeProtobufBody } from './protobuf/index';

/** Upstream's default `--max-request-body-bytes`-style limit for one object: 3 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 3 * 1024 * 1024;

const OBJECT_MEDIA_TYPES: readonly string[] = ['application/json', 'application/yaml', PROTOBUF_MEDIA_TYPE];
const PATCH_MEDIA_TYPES: readonly string[] = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];

/** Reads the whole body; 413 `Request entity too large: limit is N` as soon as it passes `limit`. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      reject(tooLarge(`Request entity too large: limit is ${limit}`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        chunks.length = 0;
        reject(tooLarge(`Request entity too large: limit is ${limit}`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (e) => {
      if (!failed) reject(badRequest(`error reading the request body: ${e.message}`));
      failed = true;
    });
  });
}

/** `summarizeData`: the first 30 bytes, for decode errors. */
function summary(text: string): string {
  if (text.length === 0) return '<empty>';
  return text.length > 30 ? `${text.slice(0, 30)} ...` : text;
}

/** JSON, with the keys of objects that repeat one recorded for field validation's `duplicate field` errors. */
function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
  recordDuplicateKeys(text, value);
  return { ok: true, value };
}

function parseYaml(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs)) return { ok: true, value: null };
  const real = docs.filter((d) => d.contents !== null || d.errors.length > 0);
  if (real.length > 1)
    return { ok: false, message: 'the body holds more than one YAML document; send one object per request' };
  const doc = real[0] ?? docs[0];
  if (!doc) return { ok: true, value: null };
  if (doc.errors.length > 0) return { ok: false, message: `error converting YAML to JSON: ${doc.errors[0].message}` };
  try {
    return { ok: true, value: doc.toJS({ maxAliasCount: 100 }) as unknown };
  } catch (e) {
    return { ok: false, message: `error converting YAML to JSON: ${(e as Error).message}` };
  }
}

/**
 * Decodes an object body (create, update, subresources). JSON when the
 * Content-Type is absent, as upstream defaults; YAML; Kubernetes protobuf (what
 * kubectl's typed clients send, e.g. for `kubectl create deployment`).
 * `expectedKind` names the type in the 400 message, as upstream's
 * `transformDecodeError` does.
 */
export function decodeObjectBody(body: Buffer, contentType: string | undefined, expectedKind: string): unknown {
  const mediaType = mediaTypeOf(contentType);
  if (mediaType === PROTOBUF_MEDIA_TYPE) return decodeProtobufBody(body, expectedKind);
  const text = body.toString('utf8');
  let parsed;
  if (mediaType === '' || mediaType === 'application/json') parsed = parseJson(text);
  else if (mediaType === 'application/yaml') parsed = parseYaml(text);
  else throw unsupportedMediaType(OBJECT_MEDIA_TYPES);
  if (!parsed.ok) {
    const what = mediaType === 'application/yaml' ? 'yaml parse error' : 'json parse error';
    throw badRequest(
      `the object provided is unrecognized (must be of type ${expectedKind}): couldn't get version/kind; ${what}: ${parsed.message} (${summary(text)})`,
    );
  }
  if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) {
    throw badRequest(
      `the object provided is unrecognized (must be of type ${expectedKind}): couldn't get version/kind; json parse error: the body is not a JSON object (${summary(text)})`,
    );
  }
  return parsed.value;
}

/** Decodes a PATCH body by its Content-Type; 415 for anything but the four patch types. */
export function decodePatchBody(body: Buffer, contentType: string | undefined): { type: PatchType; patch: unknown } {
  const type = patchTypeFromContentType(contentType ?? '');
  if (type === undefined || mediaTypeOf(contentType) === 'application/apply-patch+cbor')
    throw unsupportedMediaType(PATCH_MEDIA_TYPES);
  const text = body.toString('utf8');
  const parsed = type === 'apply' ? parseYaml(text) : parseJson(text);
  if (!parsed.ok) throw badRequest(type === 'apply' ? parsed.message : `error decoding patch: ${parsed.message}`);
  return { type, patch: parsed.value };
}

/** Decodes an optional DeleteOptions body (JSON, YAML or protobuf); undefined when empty. */
export function decodeOptionsBody(body: Buffer, contentType: string | undefined): Record<string, unknown> | undefined {
  if (body.length === 0 || body.toString('utf8').trim() === '') return undefined;
  const value = decodeObjectBody(body, contentType, 'DeleteOptions');
  return value as Record<string, unknown>;
}
