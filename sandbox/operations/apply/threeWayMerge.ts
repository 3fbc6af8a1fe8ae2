/**
 * The three-way merge behind `kubectl apply` (client-side, JSON merge patch
 * flavour, `CreateThreeWayJSONMergePatch`): fields the manifest dropped since
 * the last apply are deleted, fields it sets are changed, and fields that
 * other writers added (controllers, defaults, `kubectl scale`…) and the
 * manifest never mentioned are left alone.
 */
import { isPlainObject, jsonEqual } from '../../util/json';

type Obj = Record<string, unknown>;

/** `null` for each member `from` has and `to` lacks, recursively; nothing else. */
function deletions(from: Obj, to: Obj): Obj {
  const out: Obj = {};
  for (const key of Object.keys(from)) {
    const a = from[key];
    const b = to[key];
    if (a === undefined) continue;
    if (b === undefined) out[key] = null;
    else if (isPlainObject(a) && isPlainObject(b)) {
      const nested = deletions(a, b);
      if (Object.keys(nested).length > 0) out[key] = nested;
    }
  }
  return out;
}

/** Members of `to` that `from` lacks or has with another value, recursively; never deletions. */
function changes(from: Obj, to: Obj): Obj {
  const out: Obj = {};
  for (const key of Object.keys(to)) {
    const a = from[key];
    const b = to[key];
    if (b === undefined || jsonEqual(a, b)) continue;
    if (isPlainObject(a) && isPlainObject(b)) {
      const nested = changes(a, b);
      if (Object.keys(nested).length > 0) out[key] = nested;
    } else out[key] = b;
  }
  return out;
}

function mergeInto(target: Obj, extra: Obj): Obj {
  for (const key of Object.keys(extra)) {
    const a = target[key];
    const b = extra[key];
    target[key] = isPlainObject(a) && isPlainObject(b) ? mergeInto({ ...a }, b) : b;
  }
  return target;
}

/**
 * The merge patch that moves `live` to `desired`, given the `lastApplied`
 * manifest (undefined when there is none). `{}` means nothing to do.
 */
export function threeWayMergePatch(lastApplied: Obj | undefined, desired: Obj, live: Obj): Obj {
  const removed = lastApplied ? deletions(lastApplied, desired) : {};
  return mergeInto(removed, changes(live, desired));
}

/** JSON with object keys sorted, as Go marshals maps: what the last-applied annotation holds. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
