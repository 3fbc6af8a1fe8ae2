/**
 * The nesting guard as it was written first (split, regular expressions, slices), kept as the reference that
 * nestingDepth.test.ts compares the one-pass version with.
 *
 * A cheap upper bound on how deeply a YAML text nests, computed before
 * parsing. The yaml package composes recursively: thousands of nested
 * brackets or indents exhaust the stack, and V8 can abort the whole process
 * (not throw) when that happens inside a regular expression. Real manifests
 * nest a few dozen levels; the API server refuses JSON deeper than 100.
 *
 * Counted per line: open indentation levels + leading `- ` entries + open
 * flow brackets, skipping comments and quoted scalars (approximately: good
 * enough for a guard whose limit is far above any real file).
 */

/** Deepest nesting of `text` (an over-estimate, never an under-estimate for plain input). */
export function nestingDepthReference(text: string): number {
  const indents: number[] = [];
  let flow = 0;
  let max = 0;
  for (const line of text.split('\n')) {
    const indent = line.length - line.trimStart().length;
    const body = line.slice(indent);
    if (body === '' || body.startsWith('#')) continue;
    if (flow === 0) {
      while (indents.length > 0 && indents[indents.length - 1] >= indent) indents.pop();
      indents.push(indent);
    }
    const dashes = (/^(?:-[ \t]+)*/.exec(body)?.[0].match(/-/g) ?? []).length;
    const { net, peak } = scanFlow(body);
    max = Math.max(max, indents.length + dashes + flow + peak);
    flow = Math.max(0, flow + net);
  }
  return max;
}

/** Net change and highest point of flow-bracket depth over one line. */
function scanFlow(body: string): { net: number; peak: number } {
  let depth = 0;
  let peak = 0;
  let quote = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quote !== '') {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = '';
      continue;
    }
    const prev = i === 0 ? ' ' : body[i - 1];
    if ((c === '"' || c === "'") && ' \t[{,:'.includes(prev)) quote = c;
    else if (c === '#' && (prev === ' ' || prev === '\t')) break;
    else if (c === '[' || c === '{') peak = Math.max(peak, ++depth);
    else if (c === ']' || c === '}') depth--;
  }
  return { net: depth, peak };
}
