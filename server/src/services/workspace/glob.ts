/**
 * A small glob matcher for the include/exclude settings, with the syntax VS
 * Code and the LSP use for file patterns: `**` (any number of path segments),
 * `*` (any run of characters within a segment), `?` (one character within a
 * segment) and `{a,b}` (alternatives, which may nest). Paths use `/`.
 * Anything else matches itself. Patterns are compiled once to a RegExp.
 */

/** A compiled pattern: true when the whole `/`-separated path matches. */
export type GlobMatcher = (path: string) => boolean;

/** Compiles `pattern`. Never throws: an unbalanced `{` is taken literally. */
export function compileGlob(pattern: string): GlobMatcher {
  const re = new RegExp(`^${translate(pattern)}$`);
  return (path) => re.test(path);
}

/** True when any of `patterns` matches `path`. */
export function matchesAny(matchers: readonly GlobMatcher[], path: string): boolean {
  return matchers.some((m) => m(path));
}

function translate(pattern: string): string {
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === '*' && pattern[i + 1] === '*') {
      const [re, next] = globstar(pattern, i);
      out += re;
      i = next;
    } else if (c === '*') {
      out += '[^/]*';
      i++;
    } else if (c === '?') {
      out += '[^/]';
      i++;
    } else if (c === '{') {
      const close = matchingBrace(pattern, i);
      if (close < 0) {
        out += escape(c);
        i++;
        continue;
      }
      out += `(?:${splitAlternatives(pattern.slice(i + 1, close))
        .map(translate)
        .join('|')})`;
      i = close + 1;
    } else {
      out += escape(c);
      i++;
    }
  }
  return out;
}

/**
 * `**` spanning whole segments matches zero or more segments: `a/**` matches
 * `a` and everything below it, `**\/b` matches `b` at any depth. A `**` glued to
 * other characters (`a**b`) behaves like `*`.
 */
function globstar(pattern: string, i: number): [string, number] {
  const atStart = i === 0 || pattern[i - 1] === '/';
  const end = i + 2;
  const atEnd = end === pattern.length || pattern[end] === '/';
  if (!atStart || !atEnd) return ['[^/]*', end];
  if (end === pattern.length) return ['.*', end];
  // `**/` : zero or more leading segments, each followed by `/`.
  return ['(?:[^/]*/)*', end + 1];
}

/** Index of the `}` closing the `{` at `open`, or -1. */
function matchingBrace(pattern: string, open: number): number {
  let depth = 0;
  for (let j = open; j < pattern.length; j++) {
    if (pattern[j] === '{') depth++;
    else if (pattern[j] === '}' && --depth === 0) return j;
  }
  return -1;
}

/** Splits `a,{b,c},d` at top-level commas. */
function splitAlternatives(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let j = 0; j < body.length; j++) {
    if (body[j] === '{') depth++;
    else if (body[j] === '}') depth--;
    else if (body[j] === ',' && depth === 0) {
      parts.push(body.slice(start, j));
      start = j + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

function escape(c: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c;
}
