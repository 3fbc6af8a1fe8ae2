/**
 * A self-signed certificate for the HTTP API, made at start-up with no
 * dependency: an ECDSA P-256 key and an X.509 v3 certificate DER-encoded by
 * hand, valid for `127.0.0.1` and `localhost`.
 *
 * Why TLS at all on loopback: client-go (kubectl) reads a kubeconfig's
 * credentials only when the server URL is `https` ("only try to read the auth
 * information if we are secure", clientcmd/client_config.go), so over plain
 * HTTP the bearer token would never be sent. Clients pin this certificate as
 * their certificate authority (`certificate-authority-data`).
 */
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

export interface ServerCertificate {
  /** PEM private key (PKCS#8). */
  key: string;
  /** PEM certificate: also the CA a client trusts. */
  cert: string;
}

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** One DER TLV. */
function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
}

const seq = (...parts: Buffer[]): Buffer => tlv(0x30, ...parts);

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * a + b];
  for (const n of rest) {
    const chunk: number[] = [n & 0x7f];
    for (let v = Math.floor(n / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/**
 * A non-negative INTEGER from unsigned big-endian bytes, in DER's minimal form
 * (X.690 8.3.2): redundant leading zero bytes are dropped, and one zero byte is
 * put back in front when the top bit is set, so the value is not read as
 * negative. OpenSSL refuses anything else ("illegal padding").
 */
export function derInteger(bytes: Uint8Array): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const value = Buffer.from(bytes.subarray(start));
  if (value.length === 0) return tlv(0x02, Buffer.from([0]));
  return tlv(0x02, value[0] & 0x80 ? Buffer.concat([Buffer.from([0]), value]) : value);
}

function name(commonName: string): Buffer {
  return seq(tlv(0x31, seq(oid('2.5.4.3'), tlv(0x0c, Buffer.from(commonName, 'utf8')))));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return seq(oid(id), ...(critical ? [tlv(0x01, Buffer.from([0xff]))] : []), tlv(0x04, value));
}

function pem(label: string, der: Buffer): string {
  const b64 = der.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}

const ECDSA_WITH_SHA256 = seq(oid('1.2.840.10045.4.3.2'));

export interface CertificateOptions {
  commonName?: string;
  /**
   * The serial number as unsigned big-endian bytes (tests force edge cases);
   * by default 127 random bits. RFC 5280 4.1.2.2: positive, at most 20 octets.
   */
  serial?: Uint8Array;
}

/** 127 random bits: positive, and at most 16 octets once encoded. */
function randomSerial(): Buffer {
  for (;;) {
    const serial = randomBytes(16);
    serial[0] &= 0x7f;
    if (serial.some((b) => b !== 0)) return serial;
  }
}

/** A fresh key and self-signed certificate for 127.0.0.1 / localhost, valid 2000–2100 (no wall clock needed). */
export function selfSignedCertificate(options: CertificateOptions = {}): ServerCertificate {
  const commonName = options.commonName ?? 'kube-reconcile';
  const serial = options.serial ?? randomSerial();
  if (!serial.some((b) => b !== 0)) throw new Error('certificate serial number must be positive');
  if (derInteger(serial).length - 2 > 20) throw new Error('certificate serial number must fit in 20 octets');
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const validity = seq(tlv(0x17, Buffer.from('000101000000Z')), tlv(0x18, Buffer.from('21000101000000Z')));
  const altNames = seq(tlv(0x87, Buffer.from([127, 0, 0, 1])), tlv(0x82, Buffer.from('localhost')));
  const extensions = seq(
    extension('2.5.29.17', false, altNames),
    extension('2.5.29.19', true, seq(tlv(0x01, Buffer.from([0xff])))),
    // keyUsage: digitalSignature and keyCertSign (bits 0 and 5).
    extension('2.5.29.15', true, tlv(0x03, Buffer.from([0x02, 0x84]))),
    extension('2.5.29.37', false, seq(oid('1.3.6.1.5.5.7.3.1'))),
  );
  const tbs = seq(
    tlv(0xa0, derInteger(Buffer.from([2]))),
    derInteger(serial),
    ECDSA_WITH_SHA256,
    name(commonName),
    validity,
    name(commonName),
    publicKey.export({ type: 'spki', format: 'der' }),
    tlv(0xa3, extensions),
  );
  // The other INTEGERs (the signature's r and s, the key's) are DER from OpenSSL itself.
  const signature = sign('sha256', tbs, privateKey);
  const cert = seq(tbs, ECDSA_WITH_SHA256, tlv(0x03, Buffer.from([0]), signature));
  return { key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), cert: pem('CERTIFICATE', cert) };
}
