/**
 * Decodes one described message into the plain JSON object Go's
 * `encoding/json` would write for the same struct: fields in struct order,
 * omitempty zero values dropped, pointers kept when set, non-omitempty values
 * and struct values always present, bytes as base64, map keys sorted.
 */
import type { JsonObject, JsonValue } from '../../api/types';
import { unsupportedProtobuf } from './failures';
import type { FieldDescriptor, MessageDescriptor } from './schema';
import { isScalar } from './schema';
import { WELL_KNOWN } from './wellKnown';
import { ProtobufFormatError, WIRE_BYTES, WIRE_VARINT, WireReader } from './wire';

/** Deeper than any Kubernetes object nests (a CronJob's pod affinity terms are ~12 levels). */
export const MAX_DEPTH = 64;
/** JSON values one body may decode to; bounds the work a small hostile body can cause. */
export const MAX_VALUES = 1_000_000;

export interface DecodeContext {
  readonly registry: ReadonlyMap<string, MessageDescriptor>;
  values: number;
}

type Raw = bigint | Uint8Array;

const utf8 = new TextDecoder('utf-8');
const EMPTY = new Uint8Array(0);

function count(ctx: DecodeContext, n = 1): void {
  ctx.values += n;
  if (ctx.values > MAX_VALUES) throw new ProtobufFormatError(`proto: body decodes to more than ${MAX_VALUES} values`);
}

function packageOf(desc: MessageDescriptor): string {
  return desc.fullName.slice(0, desc.fullName.lastIndexOf('.'));
}

function expectWire(f: FieldDescriptor, wire: number, allowed: number): void {
  if (wire !== allowed)
    throw new ProtobufFormatError(`proto: wrong wireType = ${wire} for field ${f.json === '...' ? f.type : f.json}`);
}

function isNumeric(type: string): boolean {
  return type === 'b' || type === 'i32' || type === 'i64';
}

function scalarToJson(type: string, raw: Raw, where: string): JsonValue {
  switch (type) {
    case 's':
      return utf8.decode(raw as Uint8Array);
    case 'y':
      return Buffer.from(raw as Uint8Array).toString('base64');
    case 'b':
      return raw !== 0n;
    case 'i32':
      return Number(BigInt.asIntN(32, raw as bigint));
    default: {
      const v = BigInt.asIntN(64, raw as bigint);
      if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER)) {
        throw unsupportedProtobuf(`the int64 ${v} at ${where}, beyond what this server stores exactly`);
      }
      return Number(v);
    }
  }
}

function isZero(value: JsonValue): boolean {
  return value === '' || value === 0 || value === false;
}

function zeroOf(type: string): JsonValue {
  return type === 's' || type === 'y' ? '' : type === 'b' ? false : 0;
}

/** A message-typed value: well-known, described, or refused. `undefined` stands for Go's `null`. */
function messageToJson(
  type: string,
  buf: Uint8Array,
  owner: MessageDescriptor,
  ctx: DecodeContext,
  path: string,
  depth: number,
): JsonValue | undefined {
  const wellKnown = WELL_KNOWN.get(type);
  if (wellKnown) return wellKnown(buf);
  const desc = ctx.registry.get(type);
  if (!desc) throw unsupportedProtobuf(`${packageOf(owner)}.${type} at ${path || '.'}`);
  return decodeMessage(desc, buf, ctx, path, depth + 1);
}

function concat(chunks: readonly Uint8Array[] | undefined): Uint8Array {
  if (!chunks || chunks.length === 0) return EMPTY;
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}

/** Raw occurrences of each field, in wire order. */
type Collected = Map<FieldDescriptor, Raw[]>;

function collect(desc: MessageDescriptor, buf: Uint8Array, path: string): Collected {
  const seen: Collected = new Map();
  const r = new WireReader(buf);
  while (!r.done) {
    const { field, wire } = r.tag();
    const f = desc.byNumber.get(field);
    if (!f) throw unsupportedProtobuf(`field ${field} of ${desc.fullName} at ${path || '.'}`);
    let list = seen.get(f);
    if (!list) seen.set(f, (list = []));
    if (isNumeric(f.type) && !f.map) {
      if (f.repeated && wire === WIRE_BYTES) {
        const packed = r.sub();
        while (!packed.done) list.push(packed.varint());
      } else {
        expectWire(f, wire, WIRE_VARINT);
        list.push(r.varint());
      }
    } else {
      expectWire(f, wire, WIRE_BYTES);
      list.push(r.bytes());
    }
  }
  return seen;
}

function mapToJson(
  f: FieldDescriptor,
  entries: readonly Raw[],
  owner: MessageDescriptor,
  ctx: DecodeContext,
  path: string,
  depth: number,
): JsonObject {
  const byKey = new Map<string, JsonValue>();
  for (const entry of entries) {
    let key = '';
    let value: Raw | undefined;
    const r = new WireReader(entry as Uint8Array);
    while (!r.done) {
      const { field, wire } = r.tag();
      if (field === 1) {
        expectWire(f, wire, WIRE_BYTES);
        key = utf8.decode(r.bytes());
      } else if (field === 2) {
        const numeric = isNumeric(f.type);
        expectWire(f, wire, numeric ? WIRE_VARINT : WIRE_BYTES);
        value = numeric ? r.varint() : r.bytes();
      } else {
        throw unsupportedProtobuf(`field ${field} in an entry of ${owner.fullName}.${f.json} at ${path || '.'}`);
      }
    }
    // Go fills a missing entry value with the type's zero value.
    const json = isScalar(f.type)
      ? value === undefined
        ? zeroOf(f.type)
        : scalarToJson(f.type, value, `${path}.${f.json}`)
      : messageToJson(
          f.type,
          (value as Uint8Array | undefined) ?? EMPTY,
          owner,
          ctx,
          `${path}.${f.json}[${key}]`,
          depth,
        );
    byKey.set(key, json === undefined ? null : json);
  }
  count(ctx, byKey.size + 1);
  // encoding/json writes map keys sorted by their bytes.
  const keys = [...byKey.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const out: JsonObject = {};
  for (const k of keys) out[k] = byKey.get(k) as JsonValue;
  return out;
}

function fieldToJson(
  f: FieldDescriptor,
  raws: readonly Raw[] | undefined,
  desc: MessageDescriptor,
  ctx: DecodeContext,
  path: string,
  depth: number,
): JsonValue | undefined {
  const here = `${path}.${f.json}`;
  if (f.map) return raws ? mapToJson(f, raws, desc, ctx, path, depth) : undefined;
  if (f.repeated) {
    if (!raws) return undefined;
    count(ctx, raws.length + 1);
    return raws.map((raw, i) => {
      const v = isScalar(f.type)
        ? scalarToJson(f.type, raw, here)
        : messageToJson(f.type, raw as Uint8Array, desc, ctx, `${here}[${i}]`, depth);
      return v === undefined ? null : v;
    });
  }
  if (isScalar(f.type)) {
    if (!raws) return f.presence === 'always' ? zeroOf(f.type) : undefined;
    count(ctx);
    const v = scalarToJson(f.type, raws[raws.length - 1], here); // last one wins
    return f.presence === 'omitempty' && isZero(v) ? undefined : v;
  }
  // A Go pointer left nil stays absent; a struct value is always written.
  if (!raws && f.presence === 'pointer') return undefined;
  count(ctx);
  // Repeated occurrences of one embedded message merge, as their concatenation does.
  return messageToJson(f.type, concat(raws as Uint8Array[] | undefined), desc, ctx, here, depth);
}

/** Decodes `buf` as `desc`; `path` (e.g. `.spec.template`) locates errors. */
export function decodeMessage(
  desc: MessageDescriptor,
  buf: Uint8Array,
  ctx: DecodeContext,
  path: string,
  depth: number,
): JsonObject {
  if (depth > MAX_DEPTH) throw new ProtobufFormatError(`proto: messages nested deeper than ${MAX_DEPTH}`);
  const seen = collect(desc, buf, path);
  const out: JsonObject = {};
  for (const f of desc.fields) {
    const raws = seen.get(f);
    if (f.inline) {
      const inner = messageToJson(f.type, concat(raws as Uint8Array[] | undefined), desc, ctx, path, depth);
      if (inner && typeof inner === 'object' && !Array.isArray(inner)) Object.assign(out, inner);
      continue;
    }
    const v = fieldToJson(f, raws, desc, ctx, path, depth);
    if (v !== undefined) out[f.json] = v;
  }
  return out;
}
