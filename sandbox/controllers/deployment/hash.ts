/**
 * `pod-template-hash` values (upstream `controller.ComputeHash`).
 *
 * Upstream hashes Go's spew dump of the PodTemplateSpec with FNV-32a, adds
 * the collision count as 8 little-endian bytes, and makes the decimal hash
 * safe with `rand.SafeEncodeString`. A Go object dump cannot be reproduced
 * byte for byte here, so we hash a canonical JSON text (keys sorted) of the
 * template instead: our hashes differ from a real cluster's for the same
 * template, but they have the same form (at most 10 characters of
 * `bcdfghjklmnpqrstvwxz2456789`, e.g. `7d9f8b6c4d`) and the same properties
 * (deterministic, changed by any template change or by the collision count).
 */
import { boundedMemo } from '../../util/memo';

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** Upstream `rand.SafeEncodeString`'s alphabet: no vowels, no 0/1/3, so no words and no look-alikes. */
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

/** The hash a ReplicaSet of this template gets, given the Deployment's `status.collisionCount`. */
export function computeHash(template: unknown, collisionCount?: number): string {
  let h = fnv32a(FNV_OFFSET, utf8(canonicalJson(template)));
  if (collisionCount !== undefined) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv32a(h, bytes);
  }
  return safeEncodeString(String(h));
}

/** Upstream `rand.SafeEncodeString`: maps each character to the safe alphabet by its code point. */
export function safeEncodeString(s: string): string {
  let out = '';
  for (const ch of s) out += ALPHANUMS[ch.codePointAt(0)! % ALPHANUMS.length];
  return out;
}

/** FNV-1a, 32 bits, continuing from `hash`. */
export function fnv32a(hash: number, bytes: Uint8Array): number {
  let h = hash >>> 0;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], FNV_PRIME) >>> 0;
  return h;
}

/**
 * JSON with object keys sorted at every level (members whose value is `undefined` left out, as `JSON.stringify`
 * does; `undefined` array items as `null`), so equal values give equal text. Built by appending to one string: this
 * runs on the whole template of every new ReplicaSet.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      // A hole stays empty, as `map` then `join` left it.
      if (i in value) out += canonicalJson((value[i] as unknown) ?? null);
    }
    return out + ']';
  }
  if (typeof value === 'object' && value !== null) {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj).sort();
    let out = '{';
    let first = true;
    for (const k of keys) {
      const v = obj[k];
      if (v === undefined) continue;
      out += first ? quotedKey(k) : ',' + quotedKey(k);
      out += ':' + canonicalJson(v);
      first = false;
    }
    return out + '}';
  }
  return JSON.stringify(value);
}

/** Keys quoted as `JSON.stringify` quotes them, each once (templates repeat the same few keys). */
const quotedKey = boundedMemo(
  10_000,
  (k: string) => k,
  (k: string) => JSON.stringify(k),
);

const encoder = new TextEncoder();

function utf8(s: string): Uint8Array {
  return encoder.encode(s);
}
