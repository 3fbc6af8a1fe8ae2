/**
 * RFC 7386 JSON Merge Patch (`application/merge-patch+json`): objects merge
 * member by member, `null` deletes a member, anything else (arrays included)
 * replaces. Also the inverse, `createMergePatch`, used to express drift
 * between two objects as a patch.
 */
import { isPlainObject, jsonEqual } from '../../util/json';
import { cloneValue, getMember, hasMember, setMember } from './jsonMember';

/**
 * Applies `patch` to `target` (RFC 7386 §2). Pure: returns a new value that
 * shares nothing with the inputs, which are never mutated. A non-object
 * patch replaces the target; members of the result that the patch sets to
 * objects have their `null` members dropped, as the RFC prescribes.
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return cloneValue(patch);
  const base = isPlainObject(target) ? target : {};
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(base)) {
    if (base[key] !== undefined && !hasMember(patch, key)) setMember(out, key, cloneValue(base[key]));
  }
  for (const key of Object.keys(patch)) {
    const value = patch[key];
    if (value === undefined || value === null) continue;
    setMember(out, key, applyMergePatch(getMember(base, key), value));
  }
  return out;
}

/**
 * The merge patch that turns `from` into `to`: only changed members, `null`
 * for removed ones, arrays and scalars whole. `applyMergePatch(from,
 * createMergePatch(from, to))` equals `to` whenever `to` has no `null` object
 * members (merge patches cannot set a member to `null`). Returns `{}` when
 * both are equal objects; when either side is not an object, returns `to`.
 */
export function createMergePatch(from: unknown, to: unknown): unknown {
  if (!isPlainObject(from) || !isPlainObject(to)) return cloneValue(to);
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(from)) {
    if (from[key] !== undefined && getMember(to, key) === undefined) setMember(patch, key, null);
  }
  for (const key of Object.keys(to)) {
    const next = to[key];
    if (next === undefined) continue;
    const prev = getMember(from, key);
    if (prev !== undefined && jsonEqual(prev, next)) continue;
    if (isPlainObject(prev) && isPlainObject(next)) setMember(patch, key, createMergePatch(prev, next));
    else setMember(patch, key, cloneValue(next));
  }
  return patch;
}
