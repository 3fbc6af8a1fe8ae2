/**
 * ControllerRevisions as upstream's controller history keeps them
 * (pkg/controller/history/controller_history.go): a revision's name is
 * `<owner>-<hash>`, the hash is FNV-32 (not 32a) of the revision's raw data
 * with the collision count written after it in decimal, made safe by
 * `rand.SafeEncodeString`; revisions sort by number, then creation time,
 * then name; two revisions are equal when their data is byte-for-byte equal.
 *
 * The data of a StatefulSet or DaemonSet revision is the strategic merge
 * patch that puts its pod template back (`getPatch`): upstream marshals the
 * object, reads it into a `map[string]interface{}` and marshals that again,
 * so its bytes are compact JSON with every key sorted — `goJson` writes the
 * same bytes from the same value.
 */
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import { parseTimestamp } from '../../clock/clock';
import { revisionBytes } from '../../operations/revisionPatch';
import { safeEncodeString } from '../deployment/hash';

export { revisionBytes, templateOfRevision, templatePatch } from '../../operations/revisionPatch';

/** `ControllerRevisionHashLabel`: the hash label upstream puts on every revision it names. */
export const CONTROLLER_REVISION_HASH_LABEL = 'controller.kubernetes.io/hash';

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1 (multiply, then xor), 32 bits: Go's `fnv.New32`. */
function fnv32(hash: number, bytes: Uint8Array): number {
  let h = hash >>> 0;
  for (const b of bytes) {
    h = Math.imul(h, FNV_PRIME) >>> 0;
    h = (h ^ b) >>> 0;
  }
  return h;
}

/** `HashControllerRevision`: the safe-encoded FNV-32 of the data, then the probe (collision count) in decimal. */
export function hashControllerRevision(data: unknown, probe?: number): string {
  const encoder = new TextEncoder();
  let h = fnv32(FNV_OFFSET, encoder.encode(revisionBytes(data)));
  if (probe !== undefined) h = fnv32(h, encoder.encode(String(probe)));
  return safeEncodeString(String(h));
}

/** `ControllerRevisionName`: `<prefix>-<hash>`, the prefix cut to 223 bytes. */
export function controllerRevisionName(prefix: string, hash: string): string {
  return `${prefix.length > 223 ? prefix.slice(0, 223) : prefix}-${hash}`;
}

/** `EqualRevision`: the same data bytes (the hash labels, being safe-encoded, never parse as numbers). */
export function equalRevision(a: ControllerRevision | undefined, b: ControllerRevision | undefined): boolean {
  if (!a || !b) return a === b;
  return revisionBytes(a.data ?? null) === revisionBytes(b.data ?? null);
}

function createdAt(r: ControllerRevision): number {
  const t = r.metadata?.creationTimestamp;
  return t ? parseTimestamp(t) : 0;
}

/** `byRevision.Less`: by revision number, then creation time, then name. */
export function compareRevisions(a: ControllerRevision, b: ControllerRevision): number {
  if (a.revision !== b.revision) return a.revision - b.revision;
  const ta = createdAt(a);
  const tb = createdAt(b);
  if (ta !== tb) return ta - tb;
  const na = a.metadata?.name ?? '';
  const nb = b.metadata?.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/** `SortControllerRevisions` (stable). */
export function sortRevisions<T extends ControllerRevision>(revisions: readonly T[]): T[] {
  return [...revisions].sort(compareRevisions);
}

/** `FindEqualRevisions`, in the given order. */
export function findEqualRevisions<T extends ControllerRevision>(
  revisions: readonly T[],
  needle: ControllerRevision,
): T[] {
  return revisions.filter((r) => equalRevision(r, needle));
}

/** `nextRevision`: one more than the last of the sorted revisions, 1 for none. */
export function nextRevision(sorted: readonly ControllerRevision[]): number {
  return sorted.length === 0 ? 1 : sorted[sorted.length - 1].revision + 1;
}
