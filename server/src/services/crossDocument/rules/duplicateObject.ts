/**
 * `duplicate-object` (warning): the same group/kind/namespace/name defined
 * twice in one apply set — the files of one directory, which `kubectl apply
 * -f DIR` applies together. The API server accepts both (the later apply
 * overwrites the earlier), so this is a warning, not an error; and copies in
 * different directories are not reported at all: repositories keep
 * alternatives side by side (`overlays/dev`, `overlays/prod`, `v1/`, `v2/`).
 * Every copy is marked on its `metadata.name`, naming where the others are.
 */
import { makeDiagnostic } from '../../diagnostic';
import type { CrossDocumentContext, CrossDocumentRule, FileDiagnostic, LocatedObject } from '../rule';
import { inNamespace, objectKey } from '../rule';

/** How many other locations a message lists before summarising the rest. */
const MAX_LISTED = 3;

/** The directory of a file URI or path: what `kubectl apply -f DIR` applies together (subdirectories not included). */
export function applySetOf(uri: string): string {
  const slash = uri.lastIndexOf('/');
  return slash < 0 ? '' : uri.slice(0, slash);
}

export const duplicateObject: CrossDocumentRule = {
  code: 'duplicate-object',
  check(ctx: CrossDocumentContext): FileDiagnostic[] {
    const byKey = new Map<string, LocatedObject[]>();
    for (const o of ctx.objects) {
      if (o.facts.name === undefined) continue;
      const key = JSON.stringify([
        applySetOf(o.file.uri),
        objectKey(o.facts.group, o.facts.kind, o.namespace, o.facts.name),
      ]);
      const same = byKey.get(key);
      if (same === undefined) byKey.set(key, [o]);
      else same.push(o);
    }
    const out: FileDiagnostic[] = [];
    for (const copies of byKey.values()) {
      if (copies.length < 2) continue;
      for (const o of copies) out.push({ uri: o.file.uri, diagnostic: diagnosticFor(o, copies) });
    }
    return out;
  },
};

function diagnosticFor(o: LocatedObject, copies: readonly LocatedObject[]): ReturnType<typeof makeDiagnostic> {
  const others = copies.filter((c) => c !== o).map(location);
  const listed = others.slice(0, MAX_LISTED).join(', ');
  const more = others.length > MAX_LISTED ? ` and ${others.length - MAX_LISTED} more` : '';
  const message =
    `${o.facts.kind} "${o.facts.name}"${inNamespace(o.namespace)} is defined more than once in this directory: ` +
    `also at ${listed}${more}; applied together, the later one overwrites the earlier`;
  return makeDiagnostic(o.facts.nameRange, duplicateObject.code, message, true);
}

/** `file:line` (1-based) of an object's name. */
function location(o: LocatedObject): string {
  return `${o.file.display}:${o.facts.nameRange.start.line + 1}`;
}
