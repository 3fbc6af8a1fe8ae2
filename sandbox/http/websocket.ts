/**
 * Just enough of WebSocket (RFC 6455), server side, for the Kubernetes
 * streaming protocols (`v5.channel.k8s.io`…): the handshake answer and
 * binary frames whose first byte is the channel. No dependency: the accept
 * key is SHA-1 of the client's key and the RFC's GUID.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** True for a WebSocket upgrade request. */
export function isWebSocketUpgrade(req: IncomingMessage): boolean {
  return (
    (req.headers.upgrade ?? '').toLowerCase() === 'websocket' && typeof req.headers['sec-websocket-key'] === 'string'
  );
}

/** The subprotocols the client offers (`Sec-WebSocket-Protocol`), in its order of preference. */
export function offeredProtocols(req: IncomingMessage): string[] {
  return (req.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/** The `101 Switching Protocols` response accepting `key` with `protocol`. */
export function handshakeResponse(key: string, protocol: string): string {
  const accept = createHash('sha1')
    .update(key + GUID)
    .digest('base64');
  return [
    'HTTP/1.1 101 Switching Protocols',
    'Upgrade: websocket',
    'Connection: Upgrade',
    `Sec-WebSocket-Accept: ${accept}`,
    `Sec-WebSocket-Protocol: ${protocol}`,
    '',
    '',
  ].join('\r\n');
}

/** One unmasked server frame (FIN set). */
export function frame(opcode: number, payload: Buffer): Buffer {
  const n = payload.length;
  const header = n < 126 ? Buffer.alloc(2) : n < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  header[0] = 0x80 | opcode;
  if (n < 126) header[1] = n;
  else if (n < 65536) {
    header[1] = 126;
    header.writeUInt16BE(n, 2);
  } else {
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(n), 2);
  }
  return Buffer.concat([header, payload]);
}

/** A binary frame carrying `data` on `channel` (1 stdout, 2 stderr, 3 error). */
export function channelFrame(channel: number, data: string | Buffer): Buffer {
  return frame(
    0x2,
    Buffer.concat([Buffer.from([channel]), typeof data === 'string' ? Buffer.from(data, 'utf8') : data]),
  );
}

/** A close frame with a status code (1000: normal closure). */
export function closeFrame(code = 1000): Buffer {
  const payload = Buffer.alloc(2);
  payload.writeUInt16BE(code, 0);
  return frame(0x8, payload);
}
