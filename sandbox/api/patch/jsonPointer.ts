/**
 * JSON Pointers as kube-apiserver's JSON patch library reads them
 * (gopkg.in/evanphx/json-patch.v4 v4.12.0, patch.go), which is looser than
 * RFC 6901: the pointer is split on `/` and its first segment dropped whatever
 * it holds (`a/b` names the member `b` of the root; `a` and `""` name no
 * member at all); `~1` and `~0` are decoded and any other `~` is kept as
 * written; array indices are read by Go's `strconv.Atoi`, so `01`, `+1` and
 * `-1` (from the end) are indices.
 */

/** A pointer split as `findObject` splits it: the parent's tokens and the last one, or undefined without a `/`. */
export function splitPointer(pointer: string): { parents: string[]; key: string } | undefined {
  const split = pointer.split('/');
  if (split.length < 2) return undefined;
  return { parents: split.slice(1, -1).map(decodePointerToken), key: decodePointerToken(split[split.length - 1]) };
}

/** upstream: decodePatchKey — `~1` → `/` then `~0` → `~`, in one left-to-right pass (strings.NewReplacer). */
export function decodePointerToken(token: string): string {
  return token.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));
}

/** Encodes one reference token (`a/b` → `a~1b`). */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}
