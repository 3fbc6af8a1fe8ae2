// Draws media/icon.png (128×128, the marketplace icon) with no dependencies:
// a dark rounded square, a white reconciliation loop with an arrowhead, and
// three pods inside it. Run: node media/make-icon.mjs
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const SIZE = 128;
const SAMPLES = 4; // supersampling per axis, for smooth edges

const BACKGROUND = [27, 42, 71];
const LOOP = [255, 255, 255];
const POD = [80, 200, 120];

function inRoundedSquare(x, y) {
  const r = 24;
  const cx = Math.min(Math.max(x, r), SIZE - r);
  const cy = Math.min(Math.max(y, r), SIZE - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

function inLoop(x, y) {
  const d = Math.hypot(x - 64, y - 64);
  const angle = Math.atan2(y - 64, x - 64);
  // The ring leaves a gap near the top right, where the arrowhead sits.
  const inRing = d >= 38 && d <= 46 && !(angle > -1.35 && angle < -0.65);
  return inRing || inArrowhead(x, y);
}

function inArrowhead(x, y) {
  // A triangle pointing clockwise at the end of the ring.
  const a = [64 + 42 * Math.cos(-0.7) + 12, 64 + 42 * Math.sin(-0.7) - 8];
  const b = [64 + 42 * Math.cos(-0.7) - 10, 64 + 42 * Math.sin(-0.7) - 14];
  const c = [64 + 42 * Math.cos(-0.55) + 2, 64 + 42 * Math.sin(-0.55) + 12];
  const sign = (p, q, r) => (p[0] - r[0]) * (q[1] - r[1]) - (q[0] - r[0]) * (p[1] - r[1]);
  const d1 = sign([x, y], a, b);
  const d2 = sign([x, y], b, c);
  const d3 = sign([x, y], c, a);
  return !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0));
}

function inPod(x, y) {
  const pods = [
    [50, 52],
    [78, 52],
    [64, 76],
  ];
  return pods.some(([px, py]) => Math.abs(x - px) <= 9 && Math.abs(y - py) <= 9);
}

function colorAt(x, y) {
  if (!inRoundedSquare(x, y)) return undefined;
  if (inPod(x, y)) return POD;
  if (inLoop(x, y)) return LOOP;
  return BACKGROUND;
}

function pixel(px, py) {
  const sum = [0, 0, 0, 0];
  for (let i = 0; i < SAMPLES; i++) {
    for (let j = 0; j < SAMPLES; j++) {
      const c = colorAt(px + (i + 0.5) / SAMPLES, py + (j + 0.5) / SAMPLES);
      if (!c) continue;
      sum[0] += c[0];
      sum[1] += c[1];
      sum[2] += c[2];
      sum[3] += 255;
    }
  }
  const n = SAMPLES * SAMPLES;
  const covered = sum[3] / 255;
  return covered === 0
    ? [0, 0, 0, 0]
    : [sum[0] / covered, sum[1] / covered, sum[2] / covered, sum[3] / n].map(Math.round);
}

function crc32(buf) {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

const raw = Buffer.alloc(SIZE * (1 + SIZE * 4));
for (let y = 0; y < SIZE; y++) {
  raw[y * (1 + SIZE * 4)] = 0; // filter: none
  for (let x = 0; x < SIZE; x++) Buffer.from(pixel(x, y)).copy(raw, y * (1 + SIZE * 4) + 1 + x * 4);
}
const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(new URL('./icon.png', import.meta.url), png);
console.log(`media/icon.png: ${SIZE}×${SIZE}, ${png.length} bytes`);
