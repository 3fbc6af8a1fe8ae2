/**
 * A small YAML value model for the text quick fixes insert, and its block
 * rendering at an absolute column (the indentation of the map it goes in).
 */

/** A scalar's source text, or a map / list of values. */
export type YamlValue =
  | string
  | { readonly map: ReadonlyArray<readonly [string, YamlValue]> }
  | { readonly list: readonly YamlValue[] };

/** Spaces per nesting level. */
const STEP = 2;

/** `key: value` at column `col`, as whole lines (the first one indented too). */
export function renderPair(key: string, value: YamlValue, col: number): string {
  const pad = ' '.repeat(col);
  if (typeof value === 'string') return `${pad}${key}: ${value}`;
  if ('map' in value) {
    if (value.map.length === 0) return `${pad}${key}: {}`;
    return `${pad}${key}:\n${value.map.map(([k, v]) => renderPair(k, v, col + STEP)).join('\n')}`;
  }
  if (value.list.length === 0) return `${pad}${key}: []`;
  return `${pad}${key}:\n${value.list.map((item) => renderItem(item, col + STEP)).join('\n')}`;
}

/** `- item` at column `col`; a map item's keys line up after the dash. */
function renderItem(item: YamlValue, col: number): string {
  const pad = ' '.repeat(col);
  if (typeof item === 'string') return `${pad}- ${item}`;
  if ('map' in item && item.map.length > 0) {
    const body = item.map.map(([k, v]) => renderPair(k, v, col + STEP)).join('\n');
    return `${pad}- ${body.slice(col + STEP)}`;
  }
  return `${pad}- ${'map' in item ? '{}' : '[]'}`;
}
