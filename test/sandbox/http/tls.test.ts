/**
 * The hand-made certificate is valid DER whatever its serial number: OpenSSL
 * refuses a non-minimal INTEGER ("illegal padding"), which a random serial
 * whose top bit was masked produced about once in 256 start-ups.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { createServer, request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createSecureContext } from 'node:tls';
import { derInteger, selfSignedCertificate } from '../../../sandbox/http/tls';
import type { ServerCertificate } from '../../../sandbox/http/tls';

const tail = Array.from({ length: 14 }, (_, i) => 0x10 + i);

/** A TLS handshake with a client that trusts only this certificate, then one request. */
async function handshake(certificate: ServerCertificate): Promise<string> {
  const server = createServer({ key: certificate.key, cert: certificate.cert }, (_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/', ca: certificate.cert, agent: false }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      req.end();
    });
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe('derInteger: minimal DER (X.690 8.3.2)', () => {
  const cases: Array<[string, number[], string]> = [
    ['a small value', [0x05], '020105'],
    ['zero', [0x00], '020100'],
    ['no bytes at all is zero', [], '020100'],
    ['a top bit set gets a leading zero', [0x80, 0x05], '0203008005'],
    ['a redundant leading zero is dropped', [0x00, 0x05], '020105'],
    ['several redundant zeros are dropped', [0x00, 0x00, 0x00, 0x7f], '02017f'],
    ['a needed leading zero is kept', [0x00, 0x80], '02020080'],
    ['zeros before a needed zero collapse to one', [0x00, 0x00, 0xff, 0x01], '020300ff01'],
  ];
  for (const [title, bytes, hex] of cases) {
    test(title, () => assert.equal(derInteger(Uint8Array.from(bytes)).toString('hex'), hex));
  }
});

describe('selfSignedCertificate with forced serial numbers', () => {
  const serials: Array<[string, number[]]> = [
    ['80 05 …', [0x80, 0x05, ...tail]],
    ['00 05 …', [0x00, 0x05, ...tail]],
    ['00 80 …', [0x00, 0x80, ...tail]],
    ['00 00 01', [0x00, 0x00, 0x01]],
  ];
  for (const [title, serial] of serials) {
    test(`${title}: X509Certificate parses it and a TLS client accepts it`, async () => {
      const certificate = selfSignedCertificate({ serial: Uint8Array.from(serial) });
      const x509 = new X509Certificate(certificate.cert);
      assert.equal(BigInt(`0x${x509.serialNumber}`), BigInt(`0x${Buffer.from(serial).toString('hex')}`));
      assert.ok(x509.ca);
      assert.equal(x509.checkIP('127.0.0.1'), '127.0.0.1');
      assert.equal(x509.checkHost('localhost'), 'localhost');
      assert.ok(x509.verify(x509.publicKey), 'self-signed: its own key verifies it');
      assert.ok(x509.checkPrivateKey(createPrivateKey(certificate.key)));
      assert.equal(await handshake(certificate), 'ok');
    });
  }

  test('a zero or over-long serial number is refused', () => {
    assert.throws(() => selfSignedCertificate({ serial: Uint8Array.from([0, 0]) }), /must be positive/);
    assert.throws(() => selfSignedCertificate({ serial: new Uint8Array(21).fill(1) }), /20 octets/);
    assert.doesNotThrow(() => selfSignedCertificate({ serial: new Uint8Array(20).fill(1) }));
  });
});

test('400 generated certificates all parse and load into a TLS context', () => {
  const serials = new Set<string>();
  for (let i = 0; i < 400; i++) {
    const certificate = selfSignedCertificate();
    const x509 = new X509Certificate(certificate.cert);
    createSecureContext({ key: certificate.key, cert: certificate.cert });
    serials.add(x509.serialNumber);
  }
  assert.equal(serials.size, 400, 'every certificate has its own serial');
});
