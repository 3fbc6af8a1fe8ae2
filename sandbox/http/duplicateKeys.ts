/**
 * Keys written twice in a JSON body. `JSON.parse` keeps the last value of a
 * repeated key and forgets the repeat; upstream's strict decoding reports it
 * (`duplicate field "spec.replicas"`). This scans the (already valid) JSON
 * text once and records, for each object that repeats a key, its keys in
 * written order (`util/keyOrder.ts`), where field validation finds them.
 */
import { isPlainObject } from '../util/json';
import { recordKeyOrder } from '../util/keyOrder';

interface Frame {
  readonly parent: Frame | undefined;
  /** The key or index under which this value sits in its parent. */
  readonly at: string | number;
  readonly object: boolean;
  readonly keys: string[];
  readonly seen: Set<string>;
  repeated: boolean;
  index: number;
  lastKey: string;
}

/** The index of the quote closing the string opened at `open`. */
function stringEnd(text: string, open: number): number {
  let j = text.indexOf('"', open + 1);
  while (j > 0) {
    let slashes = 0;
    for (let k = j - 1; text.charCodeAt(k) === 0x5c; k--) slashes++;
    if (slashes % 2 === 0) return j;
    j = text.indexOf('"', j + 1);
  }
  return text.length;
}

function pathOf(frame: Frame): (string | number)[] {
  const path: (string | number)[] = [];
  for (let f: Frame | undefined = frame; f?.parent !== undefined; f = f.parent) path.unshift(f.at);
  return path;
}

/** Records the written key order of every object of `value` (parsed from `text`) that repeats a key. */
export function recordDuplicateKeys(text: string, value: unknown): void {
  const repeats: { path: (string | number)[]; keys: string[] }[] = [];
  let top: Frame | undefined;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      if (top?.object && expectKey) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        top.keys.push(key);
        if (top.seen.has(key)) top.repeated = true;
        else top.seen.add(key);
        top.lastKey = key;
        expectKey = false;
      }
      i = end;
    } else if (c === '{' || c === '[') {
      const at = top === undefined ? '' : top.object ? top.lastKey : top.index;
      const object = c === '{';
      top = { parent: top, at, object, keys: [], seen: new Set(), repeated: false, index: 0, lastKey: '' };
      expectKey = object;
    } else if (c === '}' || c === ']') {
      if (top?.repeated) repeats.push({ path: pathOf(top), keys: top.keys });
      top = top?.parent;
      expectKey = false;
    } else if (c === ',' && top !== undefined) {
      if (top.object) expectKey = true;
      else top.index++;
    }
  }
  // Inner objects close first, so a repeated key's last value (the one JSON.parse kept) is recorded last and wins.
  for (const { path, keys } of repeats) {
    let node: unknown = value;
    for (const seg of path)
      node = Array.isArray(node) ? node[Number(seg)] : isPlainObject(node) ? node[seg] : undefined;
    if (isPlainObject(node)) recordKeyOrder(node, keys);
  }
}
