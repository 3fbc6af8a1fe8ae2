/** Field paths as apimachinery's field.Path prints them: `spec.endpoints[0].port`, `spec.labels[app]`. */

export type Segment = string | number;

/** `spec.endpoints[0].port` (a map key in brackets when `mapKey`). */
export function pathText(segments: readonly Segment[], mapKeys: ReadonlySet<number> = new Set()): string {
  let out = '';
  segments.forEach((s, i) => {
    if (typeof s === 'number') out += `[${s}]`;
    else if (mapKeys.has(i)) out += `[${s}]`;
    else out += out === '' ? s : `.${s}`;
  });
  return out;
}
