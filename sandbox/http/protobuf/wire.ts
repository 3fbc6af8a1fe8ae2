/**
 * The protocol-buffers wire format, read defensively: every varint, length and
 * tag is checked against the bytes that remain, so a truncated or hostile body
 * ends in a `ProtobufFormatError` (a 400 once wrapped), never in a read past
 * the end, a huge allocation or a silent misreading.
 */

/** A body that is not well-formed protobuf; the message follows gogo-protobuf's wording. */
export class ProtobufFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtobufFormatError';
  }
}

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_BYTES = 2;
export const WIRE_FIXED32 = 5;

/** The largest field number protobuf allows (2^29 - 1). */
const MAX_FIELD_NUMBER = 0x1fffffff;

export interface Tag {
  field: number;
  wire: number;
}

/** A cursor over one message's bytes (a sub-reader per embedded message). */
export class WireReader {
  private pos: number;

  constructor(
    private readonly buf: Uint8Array,
    start = 0,
    private readonly end = buf.length,
  ) {
    this.pos = start;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** An unsigned varint of at most 10 bytes, as a bigint (int64 values need all 64 bits). */
  varint(): bigint {
    let result = 0n;
    for (let shift = 0n, i = 0; i < 10; i++, shift += 7n) {
      if (this.pos >= this.end) throw new ProtobufFormatError('unexpected EOF');
      const b = this.buf[this.pos++];
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return BigInt.asUintN(64, result);
    }
    throw new ProtobufFormatError('proto: integer overflow');
  }

  /** A varint that must fit a JavaScript number (lengths and tags). */
  private smallVarint(what: string): number {
    const v = this.varint();
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new ProtobufFormatError(`proto: ${what} too large`);
    return Number(v);
  }

  tag(): Tag {
    const key = this.smallVarint('tag');
    const field = Math.floor(key / 8);
    const wire = key % 8;
    if (field <= 0 || field > MAX_FIELD_NUMBER)
      throw new ProtobufFormatError(`proto: illegal tag ${field} (wire type ${wire})`);
    return { field, wire };
  }

  /** The [start, end) of a length-delimited value, checked against the message end. */
  lengthDelimited(): { start: number; end: number } {
    const length = this.smallVarint('length');
    if (length > this.end - this.pos) throw new ProtobufFormatError('unexpected EOF');
    const start = this.pos;
    this.pos += length;
    return { start, end: this.pos };
  }

  bytes(): Uint8Array {
    const { start, end } = this.lengthDelimited();
    return this.buf.subarray(start, end);
  }

  /** A reader over the next length-delimited value (an embedded message or packed list). */
  sub(): WireReader {
    const { start, end } = this.lengthDelimited();
    return new WireReader(this.buf, start, end);
  }

  /** Skips one value of `wire` type; groups (3, 4) and unknown wire types are errors, as in gogo. */
  skip(wire: number): void {
    switch (wire) {
      case WIRE_VARINT:
        this.varint();
        return;
      case WIRE_FIXED64:
        this.advance(8);
        return;
      case WIRE_BYTES:
        this.lengthDelimited();
        return;
      case WIRE_FIXED32:
        this.advance(4);
        return;
      default:
        throw new ProtobufFormatError(`proto: illegal wireType ${wire}`);
    }
  }

  private advance(n: number): void {
    if (n > this.end - this.pos) throw new ProtobufFormatError('unexpected EOF');
    this.pos += n;
  }
}
