/**
 * apimachinery types whose JSON form is not their message shape: Time (a
 * Timestamp → RFC 3339 string, whole seconds), Quantity (→ its string),
 * IntOrString (→ a number or a string), FieldsV1 (raw bytes → the JSON they hold).
 * Each returns `undefined` where Go's JSON would write `null` (a zero Time, a
 * FieldsV1 without bytes), which callers omit as the API server would.
 */
import type { JsonValue } from '../../api/types';
import { unsupportedProtobuf } from './failures';
import { ProtobufFormatError, WIRE_BYTES, WIRE_VARINT, WireReader } from './wire';

type FieldValue = bigint | Uint8Array;

/** Reads a small fixed message: each field's last value, checked against `wires`. */
function readFields(buf: Uint8Array, type: string, wires: Readonly<Record<number, number>>): Map<number, FieldValue> {
  const out = new Map<number, FieldValue>();
  const r = new WireReader(buf);
  while (!r.done) {
    const { field, wire } = r.tag();
    const expected = wires[field];
    if (expected === undefined) throw unsupportedProtobuf(`field ${field} of ${type}`);
    if (wire !== expected)
      throw new ProtobufFormatError(`proto: wrong wireType = ${wire} for field ${field} of ${type}`);
    out.set(field, wire === WIRE_VARINT ? r.varint() : r.bytes());
  }
  return out;
}

const utf8 = new TextDecoder('utf-8');

function text(v: FieldValue | undefined): string {
  return v instanceof Uint8Array ? utf8.decode(v) : '';
}

function int(v: FieldValue | undefined, bits: 32 | 64): bigint {
  return typeof v === 'bigint' ? BigInt.asIntN(bits, v) : 0n;
}

/** Seconds of 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z: Go's JSON refuses years outside. */
const MIN_SECONDS = -62167219200n;
const MAX_SECONDS = 253402300799n;

function time(buf: Uint8Array): string | undefined {
  // metav1.Time marshals the zero time as an empty message, and reads one back as zero.
  if (buf.length === 0) return undefined;
  const f = readFields(buf, 'Time', { 1: WIRE_VARINT, 2: WIRE_VARINT });
  const nanos = int(f.get(2), 32);
  // time.Unix normalises nanoseconds outside [0, 1e9) into the seconds.
  const carry = nanos >= 0n ? nanos / 1_000_000_000n : -((-nanos + 999_999_999n) / 1_000_000_000n);
  const seconds = int(f.get(1), 64) + carry;
  if (seconds < MIN_SECONDS || seconds > MAX_SECONDS) {
    throw new ProtobufFormatError('Time.MarshalJSON: year outside of range [0,9999]');
  }
  // RFC 3339 in UTC, whole seconds: metav1.Time drops the nanoseconds in JSON.
  return `${new Date(Number(seconds) * 1000).toISOString().slice(0, 19)}Z`;
}

function quantity(buf: Uint8Array): string {
  const f = readFields(buf, 'Quantity', { 1: WIRE_BYTES });
  // A zero Quantity is written as "0" (and an absent one materialises as zero).
  return f.has(1) ? text(f.get(1)) : '0';
}

function intOrString(buf: Uint8Array): number | string {
  const f = readFields(buf, 'IntOrString', { 1: WIRE_VARINT, 2: WIRE_VARINT, 3: WIRE_BYTES });
  const type = int(f.get(1), 64);
  if (type === 0n) return Number(int(f.get(2), 32));
  if (type === 1n) return text(f.get(3));
  throw new ProtobufFormatError('impossible IntOrString.Type');
}

function fieldsV1(buf: Uint8Array): JsonValue | undefined {
  const f = readFields(buf, 'FieldsV1', { 1: WIRE_BYTES });
  if (!f.has(1)) return undefined;
  try {
    return JSON.parse(text(f.get(1))) as JsonValue;
  } catch (e) {
    throw new ProtobufFormatError(`FieldsV1 does not hold JSON: ${(e as Error).message}`);
  }
}

type WellKnown = (buf: Uint8Array) => JsonValue | undefined;

/** Decoders by the message name the tables use. */
export const WELL_KNOWN: ReadonlyMap<string, WellKnown> = new Map<string, WellKnown>([
  ['Time', time],
  ['Quantity', quantity],
  ['IntOrString', intOrString],
  ['FieldsV1', fieldsV1],
]);
