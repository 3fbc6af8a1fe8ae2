/**
 * Seeded randomness (sfc32 seeded through a string hash). Every random choice
 * in the sandbox — UIDs, generated names, delays, tie-breaks — comes from one
 * of these, so the same seed gives the same history.
 */

/** The alphabet upstream uses for generateName suffixes (no vowels, no confusable characters). */
export const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

export class SeededRandom {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private readonly seedText: string;

  constructor(seed: number | string = 1) {
    this.seedText = String(seed);
    const h = hashSeed(this.seedText);
    this.a = h[0];
    this.b = h[1];
    this.c = h[2];
    this.d = h[3];
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  /** A uniformly distributed 32-bit unsigned integer. */
  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer in [min, max] inclusive. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  /** `n` characters from `alphabet`. */
  string(n: number, alphabet: string = NAME_ALPHABET): string {
    const out = new Array<string>(n);
    for (let i = 0; i < n; i++) out[i] = alphabet[this.int(alphabet.length)];
    // Joined, not appended: `+=` leaves a chain of one cons string per character (32 bytes each) that a stored
    // container ID or uid keeps alive for as long as it is stored.
    return out.join('');
  }

  /** A version-4 UUID string. */
  uuid(): string {
    // Four 32-bit draws as 32 hex digits; digit 12 becomes the version (4), digit 16 the variant (8–b).
    const a = this.nextUint32();
    const b = this.nextUint32();
    const c = this.nextUint32();
    const d = this.nextUint32();
    const variant = HEX[((c >>> 28) & 0x3) | 0x8];
    // One flat string (a template literal would be a tree of cons strings, kept as long as the uid is stored).
    return [
      hex8(a),
      hex4(b >>> 16),
      `4${hex4(b & 0xffff).slice(1)}`,
      `${variant}${hex4(c >>> 16).slice(1)}`,
      hex4(c & 0xffff) + hex8(d),
    ].join('-');
  }

  /** The generator's state, for snapshots. */
  getState(): [number, number, number, number] {
    return [this.a, this.b, this.c, this.d];
  }

  setState(state: readonly number[]): void {
    if (state.length !== 4 || state.some((n) => !Number.isInteger(n)))
      throw new TypeError('random state must be four integers');
    [this.a, this.b, this.c, this.d] = state.map((n) => n | 0);
  }

  /**
   * An independent generator derived from this one's seed and a label (one
   * per kubelet, say). It does not depend on how much this one has been used,
   * so adding a consumer does not shift the others' sequences.
   */
  fork(label: string): SeededRandom {
    return new SeededRandom(`${this.seedText}/${label}`);
  }
}

function hashSeed(text: string): [number, number, number, number] {
  let h = 1779033703 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  const out: number[] = [];
  for (let i = 0; i < 4; i++) {
    h = Math.imul(h ^ (h >>> 16), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    h ^= h >>> 16;
    out.push(h >>> 0);
  }
  return out as [number, number, number, number];
}

const HEX = '0123456789abcdef';
/** Two hex digits for each byte value. */
const BYTE_HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => HEX[i >> 4] + HEX[i & 15]);

function hex4(n: number): string {
  return BYTE_HEX[(n >>> 8) & 0xff] + BYTE_HEX[n & 0xff];
}

function hex8(n: number): string {
  return hex4(n >>> 16) + hex4(n & 0xffff);
}
