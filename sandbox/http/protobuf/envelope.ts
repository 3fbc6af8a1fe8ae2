/**
 * The Kubernetes protobuf envelope: the 4-byte magic `k8s\0`, then a
 * runtime.Unknown { typeMeta{apiVersion, kind}, raw, contentEncoding,
 * contentType } whose `raw` is the object's own message.
 */
import { unsupportedProtobuf } from './failures';
import { ProtobufFormatError, WIRE_BYTES, WireReader } from './wire';

const MAGIC = [0x6b, 0x38, 0x73, 0x00];

export interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
  contentEncoding: string;
  contentType: string;
}

const utf8 = new TextDecoder('utf-8');

function strictFields(buf: Uint8Array, type: string, onField: (field: number, value: Uint8Array) => void): void {
  const r = new WireReader(buf);
  while (!r.done) {
    const { field, wire } = r.tag();
    if (wire !== WIRE_BYTES)
      throw new ProtobufFormatError(`proto: wrong wireType = ${wire} for field ${field} of ${type}`);
    onField(field, r.bytes());
  }
}

/** Splits a body into its type and raw object bytes; 400 without the magic, 415 for unknown envelope fields. */
export function readEnvelope(body: Uint8Array): Envelope {
  if (body.length < MAGIC.length || MAGIC.some((b, i) => body[i] !== b)) {
    throw new ProtobufFormatError(
      `provided data does not appear to be a protobuf message, expected prefix [${MAGIC.join(' ')}]`,
    );
  }
  const env: Envelope = { apiVersion: '', kind: '', raw: new Uint8Array(0), contentEncoding: '', contentType: '' };
  strictFields(body.subarray(MAGIC.length), 'runtime.Unknown', (field, value) => {
    if (field === 1) {
      strictFields(value, 'runtime.TypeMeta', (f, v) => {
        if (f === 1) env.apiVersion = utf8.decode(v);
        else if (f === 2) env.kind = utf8.decode(v);
        else throw unsupportedProtobuf(`field ${f} of the envelope's runtime.TypeMeta`);
      });
    } else if (field === 2) env.raw = value;
    else if (field === 3) env.contentEncoding = utf8.decode(value);
    else if (field === 4) env.contentType = utf8.decode(value);
    else throw unsupportedProtobuf(`field ${field} of the envelope (runtime.Unknown)`);
  });
  return env;
}
