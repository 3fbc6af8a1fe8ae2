/**
 * A rule's `fieldPath` (`.spec.replicas`, `.data['x.y']`): checked against the schema and turned into the path
 * errors are reported at (upstream: apiextensions-apiserver pkg/apiserver/schema/cel/validation.go: ValidFieldPath).
 * Only property and map-key steps are allowed; a list index is not.
 */
import type { CelSchema } from '../schema';
import { mapValues, propertiesOf } from '../schema';

/** The relative path in upstream notation (`spec.replicas`, `data[x.y]`), or undefined when invalid for `schema`. */
export function normalizeFieldPath(fieldPath: string, schema: CelSchema): string | undefined {
  let rest = fieldPath.trim();
  let s: CelSchema | undefined = schema;
  let out = '';
  while (rest !== '') {
    let key: string;
    let bracket = false;
    const dot = /^\.([a-zA-Z_][a-zA-Z0-9_-]*)/.exec(rest);
    const index = /^\[\s*'((?:[^'\\]|\\.)*)'\s*\]/.exec(rest) ?? /^\[\s*"((?:[^"\\]|\\.)*)"\s*\]/.exec(rest);
    if (dot) {
      key = dot[1];
      rest = rest.slice(dot[0].length);
    } else if (index) {
      key = index[1].replace(/\\(.)/g, '$1');
      bracket = true;
      rest = rest.slice(index[0].length);
    } else return undefined;
    if (s === undefined) return undefined;
    const values = mapValues(s);
    if (values !== undefined && s.properties === undefined) {
      s = values;
      out += `[${key}]`;
      continue;
    }
    const child: CelSchema | undefined = propertiesOf(s)[key];
    if (child === undefined && !s['x-kubernetes-preserve-unknown-fields']) return undefined;
    s = child;
    out += bracket || out === '' ? (out === '' ? key : `[${key}]`) : `.${key}`;
  }
  return out === '' ? undefined : out;
}
