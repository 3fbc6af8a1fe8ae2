// Reads a zip file's central directory (a VSIX is a zip): the name and uncompressed size
// of each entry. Enough for listing a package; it does not extract anything.

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;

/**
 * The entries of a zip archive held in `buf`, in central-directory order.
 * Throws when no end-of-central-directory record is found (not a zip, or a Zip64
 * archive, which a VSIX never is).
 * @param {Buffer} buf
 * @returns {{ name: string, size: number, compressedSize: number }[]}
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
    const compressedSize = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const extraLength = buf.readUInt16LE(at + 30);
    const commentLength = buf.readUInt16LE(at + 32);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLength);
    entries.push({ name, size, compressedSize });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
