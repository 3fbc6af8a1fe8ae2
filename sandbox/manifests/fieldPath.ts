/**
 * Upstream field paths (k8s.io/apimachinery field.Path.String()) as segments.
 * `spec.containers[0].image` → name `spec`, name `containers`, bracket `0`,
 * name `image`; `metadata.labels[app.kubernetes.io/name]` keeps the dotted
 * key whole. Whether a bracket is a list index or a map key is decided by the
 * node it is applied to, exactly as upstream prints both the same way.
 */

export type PathSegment =
  | { readonly kind: 'name'; readonly name: string }
  | { readonly kind: 'bracket'; readonly text: string };

/** Splits a field path into segments; an empty path is the object itself. Never throws. */
export function parseFieldPath(path: string): PathSegment[] {
  const out: PathSegment[] = [];
  let i = 0;
  while (i < path.length) {
    if (path[i] === '.') {
      i++;
      continue;
    }
    if (path[i] === '[') {
      const close = closingBracket(path, i);
      out.push({ kind: 'bracket', text: path.slice(i + 1, close) });
      i = close + 1;
      continue;
    }
    let end = i;
    while (end < path.length && path[end] !== '.' && path[end] !== '[') end++;
    out.push({ kind: 'name', name: path.slice(i, end) });
    i = end;
  }
  return out;
}

/** The `]` that ends the bracket opened at `open`: one followed by `.`, `[` or the end, since keys may contain `]`. */
function closingBracket(path: string, open: number): number {
  for (let j = path.indexOf(']', open + 1); j >= 0; j = path.indexOf(']', j + 1)) {
    const next = path[j + 1];
    if (next === undefined || next === '.' || next === '[') return j;
  }
  return path.length;
}
