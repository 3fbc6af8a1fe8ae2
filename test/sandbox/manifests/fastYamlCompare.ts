/**
 * The differential check of sandbox/manifests/fastYaml against the `yaml` package, shared by the unit test and the
 * fuzz target: for one text, either the fast reader declines it, or both give the same documents and node trees
 * (kind, range, type, value, source, format, minFractionDigits, flow), and `yaml`
 * reports no error or warning.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, parseAllDocuments } from 'yaml';
import { parseFastYaml } from '../../../sandbox/manifests/fastYaml/parse';

export type Comparison = { outcome: 'declined' } | { outcome: 'same' } | { outcome: 'different'; why: string };

export function compareWithYaml(text: string): Comparison {
  const fast = parseFastYaml(text);
  if (fast === undefined) return { outcome: 'declined' };
  const docs = parseAllDocuments(text, { prettyErrors: false, merge: true, uniqueKeys: true });
  if (!Array.isArray(docs)) return { outcome: 'different', why: 'yaml gave an empty stream object' };
  if (docs.length !== fast.length)
    return { outcome: 'different', why: `${docs.length} documents, fast ${fast.length}` };
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i];
    if (d.errors.length > 0 || d.warnings.length > 0) {
      const all = [...d.errors, ...d.warnings].map((e) => `${e.code} ${e.message}`).join('; ');
      return { outcome: 'different', why: `document ${i}: yaml reports ${all}` };
    }
    const why = diff(d.contents, fast[i].contents, `doc${i}`, true);
    if (why !== undefined) return { outcome: 'different', why };
  }
  return { outcome: 'same' };
}

function diff(a: unknown, b: unknown, at: string, root = false): string | undefined {
  const anchor = (n: unknown) => (n as { anchor?: string } | null)?.anchor;
  if (anchor(a) !== anchor(b)) return `${at}: anchor ${anchor(a)} vs fast ${anchor(b)}`;
  if (isAlias(a) && isAlias(b)) {
    if (a.source !== b.source || JSON.stringify(a.range) !== JSON.stringify(b.range))
      return `${at}: alias ${a.source} ${JSON.stringify(a.range)} vs fast ${b.source} ${JSON.stringify(b.range)}`;
    return undefined;
  }
  if (isScalar(a) && isScalar(b)) {
    const empty = root && a.source === '' && a.type === 'PLAIN';
    const fields: [string, unknown, unknown][] = [
      ['value', a.value, b.value],
      ['type', a.type, b.type],
      ['source', a.source, b.source],
      ['format', a.format, b.format],
      ['minFractionDigits', a.minFractionDigits, b.minFractionDigits],
      ['range[0]', a.range?.[0], b.range?.[0]],
      ['range[1]', a.range?.[1], b.range?.[1]],
      // An empty document's end covers the comments after it in yaml; nothing reads it.
      ['range[2]', empty ? 0 : a.range?.[2], empty ? 0 : b.range?.[2]],
    ];
    for (const [name, x, y] of fields) {
      if (!Object.is(x, y)) return `${at}: scalar ${name} ${JSON.stringify(x)} vs fast ${JSON.stringify(y)}`;
    }
    return undefined;
  }
  if ((isMap(a) && isMap(b)) || (isSeq(a) && isSeq(b))) {
    if (a.range?.[0] !== b.range?.[0] || a.range?.[1] !== b.range?.[1] || a.range?.[2] !== b.range?.[2])
      return `${at}: collection range ${JSON.stringify(a.range)} vs fast ${JSON.stringify(b.range)}`;
    if (Boolean(a.flow) !== Boolean(b.flow)) return `${at}: flow ${a.flow} vs fast ${b.flow}`;
    if (a.items.length !== b.items.length) return `${at}: ${a.items.length} items vs fast ${b.items.length}`;
    for (let i = 0; i < a.items.length; i++) {
      const x: unknown = a.items[i];
      const y: unknown = b.items[i];
      if (isPair(x) && isPair(y)) {
        const why = diff(x.key, y.key, `${at}.${i}(key)`) ?? diff(x.value, y.value, `${at}.${i}`);
        if (why !== undefined) return why;
      } else if (isPair(x) || isPair(y)) return `${at}.${i}: pair vs not`;
      else {
        const why = diff(x, y, `${at}[${i}]`);
        if (why !== undefined) return why;
      }
    }
    return undefined;
  }
  const kind = (n: unknown): string =>
    isScalar(n) ? 'scalar' : isMap(n) ? 'map' : isSeq(n) ? 'seq' : isAlias(n) ? 'alias' : String(n);
  return `${at}: ${kind(a)} vs fast ${kind(b)}`;
}
