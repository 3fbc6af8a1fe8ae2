/**
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
export function nestingDepth(text: string): number {
  // One pass over the text, line by line, without slicing it (the guard runs on every text the server reads).
  const indents: number[] = [];
  let flow = 0;
  let max = 0;
  const len = text.length;
  let lineStart = 0;
  while (lineStart <= len) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = len;
    // The indent is what trimStart() would remove: spaces, tabs and the other white space of JavaScript's \s.
    let p = lineStart;
    while (p < lineEnd && isWhite(text.charCodeAt(p))) p++;
    if (p < lineEnd && text.charCodeAt(p) !== 35 /* # */) {
      const indent = p - lineStart;
      if (flow === 0) {
        while (indents.length > 0 && indents[indents.length - 1] >= indent) indents.pop();
        indents.push(indent);
      }
      // Leading `- ` entries: a dash followed by spaces or tabs, repeatedly.
      let dashes = 0;
      let q = p;
      while (text.charCodeAt(q) === 45 && q + 1 < lineEnd && isBlank(text.charCodeAt(q + 1))) {
        q++;
        while (q < lineEnd && isBlank(text.charCodeAt(q))) q++;
        dashes++;
      }
      const { net, peak } = scanFlow(text, p, lineEnd);
      max = Math.max(max, indents.length + dashes + flow + peak);
      flow = Math.max(0, flow + net);
    }
    lineStart = lineEnd + 1;
  }
  return max;
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9;
}

const WHITE = /\s/;

function isWhite(c: number): boolean {
  if (c === 32 || c === 9) return true;
  if (c < 128 && c !== 11 && c !== 12 && c !== 13 && c !== 10) return false;
  return WHITE.test(String.fromCharCode(c));
}

/** Net change and highest point of flow-bracket depth over the line body text[from, to). */
function scanFlow(text: string, from: number, to: number): { net: number; peak: number } {
  let depth = 0;
  let peak = 0;
  let quote = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (quote !== 0) {
      if (c === 92 /* \\ */ && quote === 34) i++;
      else if (c === quote) quote = 0;
      continue;
    }
    const prev = i === from ? 32 : text.charCodeAt(i - 1);
    if (
      (c === 34 || c === 39) &&
      (prev === 32 || prev === 9 || prev === 91 || prev === 123 || prev === 44 || prev === 58)
    )
      quote = c;
    else if (c === 35 && (prev === 32 || prev === 9)) break;
    else if (c === 91 || c === 123) peak = Math.max(peak, ++depth);
    else if (c === 93 || c === 125) depth--;
  }
  return { net: depth, peak };
}

/**
 * A cheaper upper bound on {@link nestingDepth} (never below it), so the exact count runs only when this one is over
 * the limit: 2 × the longest run of spaces, tabs and `-` leading any line, + 1, + every `[` and `{` of the text.
 * Why it holds: the indent stack is strictly increasing, so it holds at most (deepest indent + 1) levels; each
 * leading `- ` entry takes at least two characters of the run; the flow depth before a line plus its peak on the
 * line never exceed the brackets opened so far. A line led by other white space (which the indent counts) makes
 * it Infinity.
 */
export function nestingDepthBound(text: string): number {
  const len = text.length;
  let lead = 0;
  let lineStart = 0;
  while (lineStart < len) {
    let p = lineStart;
    let c = text.charCodeAt(p);
    while (c === 32 || c === 9 || c === 45) c = text.charCodeAt(++p);
    if (p < len && c !== 10 && (c >= 128 || (c >= 11 && c <= 13)) && isWhite(c)) return Infinity;
    if (p - lineStart > lead) lead = p - lineStart;
    const nl = text.indexOf('\n', p);
    if (nl < 0) break;
    lineStart = nl + 1;
  }
  let opens = 0;
  for (let i = text.indexOf('['); i >= 0; i = text.indexOf('[', i + 1)) opens++;
  for (let i = text.indexOf('{'); i >= 0; i = text.indexOf('{', i + 1)) opens++;
  return 2 * lead + 1 + opens;
}
