/**
 * Request bodies: read with a size limit (413 past it, as upstream's
 * limitedReadBody), then decoded by Content-Type — JSON, or YAML for objects
 * and server-side apply — into plain JSON values. A body that does not decode
 * is 400 with the parser's reason, and so is one nested too deeply (past
 * upstream's limit in upstream's words, past the sandbox's in its own); an
 * unknown Content-Type is 415.
 */
import type { IncomingMessage } from 'node:http';
import { Lexer, Parser, parseAllDocuments } from 'yaml';
import type { CST } from 'yaml';
import { badRequest, tooLarge, unsupportedMediaType } from '../api/errors';
import type { ApiError } from '../api/errors';
import { patchTypeFromContentType } from '../api/patch/index';
import type { PatchType } from '../apiserver/options';
import { DEFAULT_COPY_LIMITS, GO_JSON_MAX_DEPTH, jsonNesting, nestsDeeperThan } from '../util/json';
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

/** go-yaml's limits on flow nesting and on block indentation (scannerc.go: `max_flow_level`, `max_indents`). */
const GO_YAML_MAX_DEPTH = 10_000;

/**
 * The deepest a body may nest here: the store's own limit. kube-apiserver
 * decodes up to 10000 levels, but no built-in kind nests anywhere near 100,
 * so deeper data can only sit in fields a real server drops; the sandbox's
 * recursive walks (defaults, validation, patches) are not made for it, so the
 * body is refused, saying so, rather than answered with a stack overflow.
 */
export const MAX_BODY_DEPTH = DEFAULT_COPY_LIMITS.maxDepth;

const SANDBOX_TOO_DEEP = `the body nests objects and arrays more than ${MAX_BODY_DEPTH} levels deep, which this sandbox does not decode (kube-apiserver decodes up to ${GO_JSON_MAX_DEPTH})`;

/**
 * Why a body did not decode: a syntax error in the parser's words, upstream's
 * own nesting limit in Go's words (`json` from encoding/json, `yaml` from
 * go-yaml), or the sandbox's nesting limit.
 */
type Parsed =
  | { ok: true; value: unknown }
  | { ok: false; reason: 'syntax' | 'json-depth' | 'yaml-depth'; message: string }
  | { ok: false; reason: 'sandbox-depth'; message: string };

function tooDeepHere(): Parsed {
  return { ok: false, reason: 'sandbox-depth', message: SANDBOX_TOO_DEEP };
}

function parseJson(text: string): Parsed {
  // Measured before parsing, as Go's scanner meets the limit before anything else.
  const nesting = jsonNesting(text, GO_JSON_MAX_DEPTH);
  if (nesting.overflow)
    return {
      ok: false,
      reason: 'json-depth',
      message: `invalid character '${nesting.overflow.bracket}' exceeded max depth`,
    };
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (e) {
    return { ok: false, reason: 'syntax', message: (e as Error).message };
  }
  if (nesting.deepest > MAX_BODY_DEPTH) return tooDeepHere();
  // The keys of objects that repeat one are recorded for field validation's `duplicate field` errors.
  recordDuplicateKeys(text, value);
  return { ok: true, value };
}

/** go-yaml's message for a scanner error at 0-based `line` (parser.fail: the first line has no prefix). */
function goYamlTooDeep(line: number): Parsed {
  const where = line > 0 ? `line ${line + 1}: ` : '';
  return { ok: false, reason: 'yaml-depth', message: `yaml: ${where}exceeded max depth of ${GO_YAML_MAX_DEPTH}` };
}

function lineAt(text: string, offset: number): number {
  let line = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * Refuses YAML nested too deeply before the yaml package composes it (which
 * recurses, and overflows the stack a few hundred levels down), in upstream's
 * order: go-yaml's scanner refuses more than 10000 flow levels (counted by the
 * lexer, which stops there) or block indentation levels (counted on the CST,
 * one level per block collection); then the JSON that YAMLToJSON writes meets
 * encoding/json's limit; then the sandbox's own. Nothing here recurses.
 */
function yamlNesting(text: string): Parsed | undefined {
  let flow = 0;
  let line = 0;
  for (const lexeme of new Lexer().lex(text)) {
    if (lexeme === '[' || lexeme === '{') {
      if (++flow > GO_YAML_MAX_DEPTH) return goYamlTooDeep(line);
    } else if (lexeme === ']' || lexeme === '}') {
      if (flow > 0) flow--;
    } else {
      for (let i = lexeme.indexOf('\n'); i >= 0; i = lexeme.indexOf('\n', i + 1)) line++;
    }
  }
  let deepest = 0;
  let blockOverflow: number | undefined;
  let jsonOverflow: '[' | '{' | undefined;
  const stack: Array<[CST.Token | null | undefined, number, number]> = [];
  const documents = [...new Parser().parse(text)];
  for (let i = documents.length - 1; i >= 0; i--) stack.push([documents[i], 0, 0]);
  // Depth first in document order, as the text is read.
  while (stack.length > 0) {
    const [token, depth, block] = stack.pop()!;
    if (!token) continue;
    if (token.type === 'document') stack.push([token.value, depth, block]);
    else if (token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection') {
      const level = depth + 1;
      const blockLevel = token.type === 'flow-collection' ? block : block + 1;
      if (blockLevel > GO_YAML_MAX_DEPTH && blockOverflow === undefined) blockOverflow = token.offset;
      if (level > GO_JSON_MAX_DEPTH && jsonOverflow === undefined) {
        const seq = token.type === 'block-seq' || (token.type === 'flow-collection' && token.start.source === '[');
        jsonOverflow = seq ? '[' : '{';
      }
      if (level > deepest) deepest = level;
      for (let i = token.items.length - 1; i >= 0; i--) {
        const item = token.items[i];
        stack.push([item.value, level, blockLevel]);
        if ('key' in item) stack.push([item.key, level, blockLevel]);
      }
    }
  }
  if (blockOverflow !== undefined) return goYamlTooDeep(lineAt(text, blockOverflow));
  if (jsonOverflow !== undefined)
    return { ok: false, reason: 'json-depth', message: `invalid character '${jsonOverflow}' exceeded max depth` };
  return deepest > MAX_BODY_DEPTH ? tooDeepHere() : undefined;
}

function parseYaml(text: string): Parsed {
  const tooDeep = yamlNesting(text);
  if (tooDeep) return tooDeep;
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs)) return { ok: true, value: null };
  const real = docs.filter((d) => d.contents !== null || d.errors.length > 0);
  if (real.length > 1)
    return {
      ok: false,
      reason: 'syntax',
      message: 'the body holds more than one YAML document; send one object per request',
    };
  const doc = real[0] ?? docs[0];
  if (!doc) return { ok: true, value: null };
  if (doc.errors.length > 0)
    return { ok: false, reason: 'syntax', message: `error converting YAML to JSON: ${doc.errors[0].message}` };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 }) as unknown;
  } catch (e) {
    return { ok: false, reason: 'syntax', message: `error converting YAML to JSON: ${(e as Error).message}` };
  }
  // Aliases can nest an anchored collection inside another (or inside itself).
  return nestsDeeperThan(value, MAX_BODY_DEPTH) ? tooDeepHere() : { ok: true, value };
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
  const unrecognized = (why: string, text: string): ApiError =>
    badRequest(`the object provided is unrecognized (must be of type ${expectedKind}): ${why} (${summary(text)})`);
  if (mediaType === PROTOBUF_MEDIA_TYPE) {
    const value = decodeProtobufBody(body, expectedKind);
    // Messages nest only as deep as their types; FieldsV1 carries JSON of its own.
    if (nestsDeeperThan(value, MAX_BODY_DEPTH)) {
      const version = value.apiVersion.slice(value.apiVersion.indexOf('/') + 1);
      throw badRequest(
        `${value.kind} in version "${version}" cannot be handled as a ${expectedKind}: ${SANDBOX_TOO_DEEP}`,
      );
    }
    return value;
  }
  const text = body.toString('utf8');
  let parsed;
  if (mediaType === '' || mediaType === 'application/json') parsed = parseJson(text);
  else if (mediaType === 'application/yaml') parsed = parseYaml(text);
  else throw unsupportedMediaType(OBJECT_MEDIA_TYPES);
  if (!parsed.ok) {
    // upstream: runtime/serializer/json: Serializer.Decode (YAMLToJSON, then SimpleMetaFactory.Interpret),
    // then handlers: transformDecodeError.
    if (parsed.reason === 'yaml-depth' || parsed.reason === 'sandbox-depth') throw unrecognized(parsed.message, text);
    const what =
      mediaType === 'application/yaml' && parsed.reason === 'syntax' ? 'yaml parse error' : 'json parse error';
    throw unrecognized(`couldn't get version/kind; ${what}: ${parsed.message}`, text);
  }
  if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) {
    throw unrecognized("couldn't get version/kind; json parse error: the body is not a JSON object", text);
  }
  return parsed.value;
}

/**
 * Decodes a PATCH body by its Content-Type; 415 for anything but the four
 * patch types. 400 when it does not decode, worded as upstream's patch
 * handler words it (handlers/patch.go: `error decoding patch: …` for JSON and
 * merge patches, the decoder's error alone for strategic merge patches,
 * `error decoding YAML: …` for apply).
 */
export function decodePatchBody(body: Buffer, contentType: string | undefined): { type: PatchType; patch: unknown } {
  const type = patchTypeFromContentType(contentType ?? '');
  if (type === undefined || mediaTypeOf(contentType) === 'application/apply-patch+cbor')
    throw unsupportedMediaType(PATCH_MEDIA_TYPES);
  const text = body.toString('utf8');
  const parsed = type === 'apply' ? parseYaml(text) : parseJson(text);
  if (!parsed.ok) {
    if (type === 'apply') {
      // upstream: util/yaml.Unmarshal → sigs.k8s.io/yaml.Unmarshal, which wraps go-yaml's errors and then
      // encoding/json's (yaml.go: unmarshal, jsonUnmarshal).
      const why =
        parsed.reason === 'yaml-depth'
          ? `error converting YAML to JSON: ${parsed.message}`
          : parsed.reason === 'json-depth'
            ? `error unmarshaling JSON: while decoding JSON: ${parsed.message}`
            : parsed.message;
      throw badRequest(`error decoding YAML: ${why}`);
    }
    throw badRequest(type === 'strategic' ? parsed.message : `error decoding patch: ${parsed.message}`);
  }
  return { type, patch: parsed.value };
}

/** Decodes an optional DeleteOptions body (JSON, YAML or protobuf); undefined when empty. */
export function decodeOptionsBody(body: Buffer, contentType: string | undefined): Record<string, unknown> | undefined {
  if (body.length === 0 || body.toString('utf8').trim() === '') return undefined;
  const value = decodeObjectBody(body, contentType, 'DeleteOptions');
  return value as Record<string, unknown>;
}
