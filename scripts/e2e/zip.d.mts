// Types of what scripts/e2e/zip.mjs exports, for the unit tests (test/scripts/kubectl.test.ts).

export interface ZipEntry {
  name: string;
  size: number;
  compressedSize: number;
  method: number;
  crc32: number;
  mode: number;
  offset: number;
}
/** The entries of the zip archive in `buf`, in central-directory order. */
export function readZipEntries(buf: Buffer): ZipEntry[];
/** CRC-32 of `bytes`, as zip records it. */
export function crc32(bytes: Uint8Array): number;
/** The uncompressed bytes of `entry`, checked against its recorded size and CRC-32. */
export function extractZipEntry(buf: Buffer, entry: ZipEntry): Buffer;
