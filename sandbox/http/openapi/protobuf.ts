/**
 * The Swagger 2.0 document in the protobuf encoding of gnostic's
 * `openapi.v2.Document` (github.com/google/gnostic-models, OpenAPIv2.proto):
 * the only form client-go downloads `/openapi/v2` in. kubectl falls back to
 * it to validate what v3 cannot vouch for (a `kind: List` file) and to explain
 * with `--output plaintext-openapiv2`.
 *
 * Only the parts of Swagger our documents use are encoded; anything else is a
 * programming error and throws, so a document never loses information
 * silently. Vendor extensions and enum values travel as YAML text (`Any.yaml`);
 * JSON is valid YAML, so they are written as JSON.
 */
import type { JsonSchema } from './schemas';

type Part = { varint: number } | { text: string; length: number } | { message: Message; length: number };

function varintSize(n: number): number {
  let size = 1;
  for (let v = n; v > 0x7f; v = Math.floor(v / 128)) size++;
  return size;
}

/**
 * A protobuf message under construction: its fields in order. Sizes are known
 * as parts are added (a nested message is complete when attached), so the
 * whole document is written once into a single buffer.
 */
class Message {
  private readonly parts: Part[] = [];
  private length = 0;

  private varint(n: number): void {
    this.parts.push({ varint: n });
    this.length += varintSize(n);
  }

  private key(field: number, wireType: number): void {
    this.varint(field * 8 + wireType);
  }

  size(): number {
    return this.length;
  }

  string(field: number, value: string | undefined): this {
    if (value === undefined || value === '') return this;
    const length = Buffer.byteLength(value, 'utf8');
    this.key(field, 2);
    this.varint(length);
    this.parts.push({ text: value, length });
    this.length += length;
    return this;
  }

  strings(field: number, values: readonly string[] | undefined): this {
    // Repeated strings are never packed; an empty one is still an element.
    for (const v of values ?? []) {
      const length = Buffer.byteLength(v, 'utf8');
      this.key(field, 2);
      this.varint(length);
      this.parts.push({ text: v, length });
      this.length += length;
    }
    return this;
  }

  bool(field: number, value: boolean | undefined): this {
    if (value !== true) return this;
    this.key(field, 0);
    this.varint(1);
    return this;
  }

  message(field: number, value: Message | undefined): this {
    if (value === undefined) return this;
    const length = value.size();
    this.key(field, 2);
    this.varint(length);
    this.parts.push({ message: value, length });
    this.length += length;
    return this;
  }

  messages(field: number, values: readonly Message[]): this {
    for (const v of values) this.message(field, v);
    return this;
  }

  private writeTo(buf: Buffer, start: number): number {
    let at = start;
    for (const part of this.parts) {
      if ('varint' in part) {
        let v = part.varint;
        while (v > 0x7f) {
          buf[at++] = (v & 0x7f) | 0x80;
          v = Math.floor(v / 128);
        }
        buf[at++] = v;
      } else if ('text' in part) {
        at += buf.write(part.text, at, part.length, 'utf8');
      } else {
        at = part.message.writeTo(buf, at);
      }
    }
    return at;
  }

  bytes(): Buffer {
    const buf = Buffer.allocUnsafe(this.length);
    this.writeTo(buf, 0);
    return buf;
  }
}

type Json = Record<string, unknown>;

function fail(where: string, key: string): never {
  throw new Error(`openapi/v2 protobuf: ${where} has "${key}", which the encoder does not know`);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function strs(v: unknown): string[] | undefined {
  return Array.isArray(v) ? v.map(String) : undefined;
}

/** `Any{yaml}`: a JSON value written as YAML (JSON is YAML). */
function anyValue(value: unknown): Message {
  return new Message().string(2, JSON.stringify(value));
}

/** `x-…` keys as `repeated NamedAny`. */
function vendorExtensions(obj: Json): Message[] {
  return Object.entries(obj)
    .filter(([k]) => k.startsWith('x-'))
    .map(([k, v]) => new Message().string(1, k).message(2, anyValue(v)));
}

/** `Schema` (field numbers of OpenAPIv2.proto). */
function schema(s: Json): Message {
  const m = new Message();
  for (const key of Object.keys(s)) {
    if (!key.startsWith('x-') && !SCHEMA_KEYS.has(key)) fail('a schema', key);
  }
  m.string(1, str(s.$ref));
  m.string(2, str(s.format));
  m.string(4, str(s.description));
  m.strings(19, strs(s.required));
  if (Array.isArray(s.enum)) m.messages(20, s.enum.map(anyValue));
  if (s.additionalProperties !== undefined) {
    const ap = s.additionalProperties;
    m.message(21, typeof ap === 'boolean' ? new Message().bool(2, ap) : new Message().message(1, schema(ap as Json)));
  }
  if (typeof s.type === 'string') m.message(22, new Message().strings(1, [s.type]));
  if (s.items !== undefined) m.message(23, new Message().message(1, schema(s.items as Json)));
  if (s.properties !== undefined) {
    const named = Object.entries(s.properties as Record<string, Json>).map(([name, p]) =>
      new Message().string(1, name).message(2, schema(p)),
    );
    m.message(25, new Message().messages(1, named));
  }
  m.messages(31, vendorExtensions(s));
  return m;
}
const SCHEMA_KEYS = new Set([
  '$ref',
  'format',
  'description',
  'required',
  'enum',
  'additionalProperties',
  'type',
  'items',
  'properties',
]);

/** `ParametersItem` → `Parameter` → body, query or path parameter. */
function parameter(p: Json): Message {
  let param: Message;
  if (p.in === 'body') {
    param = new Message().message(
      1,
      new Message()
        .string(1, str(p.description))
        .string(2, str(p.name))
        .string(3, 'body')
        .bool(4, p.required === true)
        .message(5, schema(p.schema as Json)),
    );
  } else if (p.in === 'query') {
    const sub = new Message()
      .bool(1, p.required === true)
      .string(2, 'query')
      .string(3, str(p.description))
      .string(4, str(p.name))
      .string(6, str(p.type))
      .bool(20, p.uniqueItems === true);
    param = new Message().message(2, new Message().message(3, sub));
  } else if (p.in === 'path') {
    const sub = new Message()
      .bool(1, p.required === true)
      .string(2, 'path')
      .string(3, str(p.description))
      .string(4, str(p.name))
      .string(5, str(p.type))
      .bool(19, p.uniqueItems === true);
    param = new Message().message(2, new Message().message(4, sub));
  } else {
    fail('a parameter', `in: ${String(p.in)}`);
  }
  return new Message().message(1, param);
}

/** `Operation`. */
function operation(op: Json): Message {
  const responses = Object.entries(op.responses as Record<string, Json>).map(([code, r]) => {
    const response = new Message().string(1, str(r.description));
    if (r.schema !== undefined) response.message(2, new Message().message(1, schema(r.schema as Json)));
    return new Message().string(1, code).message(2, new Message().message(1, response));
  });
  return new Message()
    .strings(1, strs(op.tags))
    .string(3, str(op.description))
    .string(5, str(op.operationId))
    .strings(6, strs(op.produces))
    .strings(7, strs(op.consumes))
    .messages(8, ((op.parameters as Json[] | undefined) ?? []).map(parameter))
    .message(9, new Message().messages(1, responses))
    .strings(10, strs(op.schemes))
    .messages(13, vendorExtensions(op));
}

const PATH_ITEM_FIELDS: Record<string, number> = { get: 2, put: 3, post: 4, delete: 5, patch: 8 };

/** `PathItem`. */
function pathItem(item: Json): Message {
  const m = new Message();
  for (const method of ['get', 'put', 'post', 'delete', 'patch']) {
    if (item[method] !== undefined) m.message(PATH_ITEM_FIELDS[method], operation(item[method] as Json));
  }
  for (const key of Object.keys(item)) if (!(key in PATH_ITEM_FIELDS) && key !== 'parameters') fail('a path', key);
  return m.messages(9, ((item.parameters as Json[] | undefined) ?? []).map(parameter));
}

/** The Swagger 2.0 document (as v2.ts builds it) as a protobuf `openapi.v2.Document`. */
export function swaggerToProtobuf(doc: JsonSchema): Buffer {
  const info = doc.info as Json;
  const paths = Object.entries(doc.paths as Record<string, Json>).map(([name, item]) =>
    new Message().string(1, name).message(2, pathItem(item)),
  );
  const definitions = Object.entries(doc.definitions as Record<string, Json>).map(([name, s]) =>
    new Message().string(1, name).message(2, schema(s)),
  );
  const security = ((doc.security as Record<string, string[]>[] | undefined) ?? []).map((req) =>
    new Message().messages(
      1,
      Object.entries(req).map(([name, scopes]) =>
        new Message().string(1, name).message(2, new Message().strings(1, scopes)),
      ),
    ),
  );
  const securityDefinitions = Object.entries((doc.securityDefinitions as Record<string, Json> | undefined) ?? {}).map(
    ([name, d]) => {
      if (d.type !== 'apiKey') fail('a security definition', `type: ${String(d.type)}`);
      const apiKey = new Message()
        .string(1, 'apiKey')
        .string(2, str(d.name))
        .string(3, str(d.in))
        .string(4, str(d.description));
      return new Message().string(1, name).message(2, new Message().message(2, apiKey));
    },
  );
  return new Message()
    .string(1, str(doc.swagger))
    .message(2, new Message().string(1, str(info.title)).string(2, str(info.version)))
    .message(8, new Message().messages(2, paths))
    .message(9, new Message().messages(1, definitions))
    .messages(12, security)
    .message(13, new Message().messages(1, securityDefinitions))
    .bytes();
}
