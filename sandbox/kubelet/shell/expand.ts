/**
 * Word expansion as the shell does it when it runs a command: backslash
 * escapes, `$NAME` / `${NAME}` / `${NAME:-default}` / `${#NAME}` /
 * `${NAME#pattern}` / `${NAME%pattern}` / `${NAME:offset:length}` /
 * `${NAME/pattern/text}`, special and positional parameters,
 * `$((arithmetic))`, and `$(command)` / `` `command` `` (run by the
 * interpreter, whose output replaces them). Unset variables expand to ''.
 */
import type { Word, WordPart } from './parse';

export interface ExpandScope {
  get(name: string): string | undefined;
  /** `$1`…, `$#`, `$@`. */
  readonly args: readonly string[];
  /** The output of a command substitution, trailing newlines removed. */
  substitute(script: string): string;
  /** `$?` */
  readonly status: number;
  /** `$RANDOM` */
  random(): number;
}

/** One word → one string (no field splitting: the scripts we read print what they expand). */
export function expandWord(word: Word, scope: ExpandScope): string {
  return word.map((p) => expandPart(p, scope)).join('');
}

/**
 * The fields of a word as a command's arguments: unquoted expansions are split on whitespace (an unquoted word that
 * expands to nothing is no field at all), `"$@"` gives one field per positional parameter.
 */
export function expandFields(word: Word, scope: ExpandScope): string[] {
  if (word.length === 1 && word[0].quote === 'double' && word[0].text === '$@') return [...scope.args];
  const text = expandWord(word, scope);
  if (word.some((p) => p.quote !== 'none')) return [text];
  if (!word.some((p) => p.text.includes('$') || p.text.includes('`'))) return [text];
  return text.split(/\s+/).filter((f) => f !== '');
}

/** A shell pattern (`*`, `?`, `[…]`) as a regular expression source (unanchored). */
export function patternSource(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) out += pattern[++i].replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    else if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (c === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close < 0) out += '\\[';
      else {
        const body = pattern
          .slice(i + 1, close)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        out += `[${body}]`;
        i = close;
      }
    } else out += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return out;
}

/** `case` and `[[ == ]]` matching: the whole text against a shell pattern. */
export function matchPattern(text: string, pattern: string): boolean {
  return new RegExp(`^${patternSource(pattern)}$`, 's').test(text);
}

function expandPart(part: WordPart, scope: ExpandScope): string {
  return part.quote === 'single' ? part.text : expandText(part.text, part.quote === 'double', scope);
}

/** Index just after the `close` that balances the `open` at `i`. */
function matching(text: string, i: number, open: string, close: string): number {
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === open) depth++;
    else if (text[j] === close && --depth === 0) return j + 1;
  }
  return text.length;
}

const DOUBLE_ESCAPABLE = new Set(['$', '`', '"', '\\', '\n']);

export function expandText(text: string, quoted: boolean, scope: ExpandScope): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') {
      const next = text[i + 1] ?? '';
      if (next === '\n') out += '';
      else if (!quoted || DOUBLE_ESCAPABLE.has(next)) out += next;
      else out += c + next;
      i += 2;
    } else if (c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== '`') j += text[j] === '\\' ? 2 : 1;
      out += scope.substitute(text.slice(i + 1, j).replace(/\\([`$\\])/g, '$1'));
      i = j + 1;
    } else if (c === '$') {
      const r = dollar(text, i, scope);
      out += r.value;
      i = r.end;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

function dollar(text: string, i: number, scope: ExpandScope): { value: string; end: number } {
  const next = text[i + 1] ?? '';
  if (text.startsWith('$((', i)) {
    const end = matching(text, i + 1, '(', ')');
    const inner = text.slice(i + 3, end - 2);
    return { value: String(arithmetic(expandText(inner, true, scope), scope)), end };
  }
  if (next === '(') {
    const end = matching(text, i + 1, '(', ')');
    return { value: scope.substitute(text.slice(i + 2, end - 1)), end };
  }
  if (next === '{') {
    const end = matching(text, i + 1, '{', '}');
    return { value: braced(text.slice(i + 2, end - 1), scope), end };
  }
  const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i + 1))?.[0];
  if (name) return { value: variable(name, scope), end: i + 1 + name.length };
  if (/[?$#0-9!@*-]/.test(next) && next !== '') return { value: special(next, scope), end: i + 2 };
  return { value: '$', end: i + 1 };
}

function special(c: string, scope: ExpandScope): string {
  if (c === '?') return String(scope.status);
  if (c === '$') return '1';
  if (c === '#') return String(scope.args.length);
  if (c === '0') return 'sh';
  if (c === '@' || c === '*') return scope.args.join(' ');
  if (/^[1-9]$/.test(c)) return scope.args[Number(c) - 1] ?? '';
  return '';
}

function variable(name: string, scope: ExpandScope): string {
  if (name === 'RANDOM') return String(scope.random());
  return scope.get(name) ?? '';
}

function braced(inner: string, scope: ExpandScope): string {
  if (inner.startsWith('#') && inner.length > 1) {
    const name = inner.slice(1);
    return String(/^[A-Za-z_]/.test(name) ? variable(name, scope).length : special(name, scope).length);
  }
  const m = /^([A-Za-z_][A-Za-z0-9_]*|[?$#@*]|[0-9]+)(:?[-=+?]|##?|%%?|\/\/?|:)?(.*)$/s.exec(inner);
  if (!m) return '';
  const value = /^[A-Za-z_]/.test(m[1])
    ? (scope.get(m[1]) ?? (m[1] === 'RANDOM' ? String(scope.random()) : undefined))
    : /^[0-9]+$/.test(m[1])
      ? scope.args[Number(m[1]) - 1]
      : special(m[1], scope);
  const op = m[2];
  if (!op) return value ?? '';
  const text = value ?? '';
  if (op === '#' || op === '##' || op === '%' || op === '%%') {
    const pattern = patternSource(expandText(m[3], true, scope));
    const greedy = op.length === 2;
    const re =
      op[0] === '#'
        ? new RegExp(`^(${greedy ? pattern : pattern.replace(/\.\*/g, '.*?')})`, 's')
        : new RegExp(`(${greedy ? pattern : pattern.replace(/\.\*/g, '.*?')})$`, 's');
    if (op[0] === '#') return text.replace(re, '');
    // Shortest suffix: try from the end.
    if (!greedy) {
      for (let i = text.length; i >= 0; i--)
        if (new RegExp(`^${pattern}$`, 's').test(text.slice(i))) return text.slice(0, i);
      return text;
    }
    for (let i = 0; i <= text.length; i++)
      if (new RegExp(`^${pattern}$`, 's').test(text.slice(i))) return text.slice(0, i);
    return text;
  }
  if (op === '/' || op === '//') {
    const slash = m[3].indexOf('/');
    const pat = slash < 0 ? m[3] : m[3].slice(0, slash);
    const rep = slash < 0 ? '' : expandText(m[3].slice(slash + 1), true, scope);
    const re = new RegExp(patternSource(expandText(pat, true, scope)), op === '//' ? 'gs' : 's');
    return text.replace(re, () => rep);
  }
  if (op === ':') {
    const [offText, lenText] = m[3].split(':');
    let offset = arithmetic(offText ?? '0', scope);
    if (offset < 0) offset = Math.max(0, text.length + offset);
    const length = lenText === undefined ? undefined : arithmetic(lenText, scope);
    return length === undefined
      ? text.slice(offset)
      : text.slice(offset, length < 0 ? text.length + length : offset + length);
  }
  const unset = op.startsWith(':') ? !value : value === undefined;
  const word = expandText(m[3], true, scope);
  if (op.endsWith('-') || op.endsWith('=')) return unset ? word : value!;
  if (op.endsWith('+')) return unset ? '' : word;
  return value ?? '';
}

// ---- $(( … )) ---------------------------------------------------------------

/** Binary operators by precedence, loosest first. */
const PRECEDENCE: readonly string[][] = [
  ['||'],
  ['&&'],
  ['==', '!='],
  ['<=', '>=', '<', '>'],
  ['+', '-'],
  ['*', '/', '%'],
];

function apply(op: string, a: number, b: number): number {
  switch (op) {
    case '||':
      return +(a !== 0 || b !== 0);
    case '&&':
      return +(a !== 0 && b !== 0);
    case '==':
      return +(a === b);
    case '!=':
      return +(a !== b);
    case '<=':
      return +(a <= b);
    case '>=':
      return +(a >= b);
    case '<':
      return +(a < b);
    case '>':
      return +(a > b);
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return b === 0 ? 0 : Math.trunc(a / b);
    default:
      return b === 0 ? 0 : a % b;
  }
}

/** Integer arithmetic with variables (unset or non-numeric are 0); a malformed expression is 0. */
export function arithmetic(expr: string, scope: Pick<ExpandScope, 'get'>): number {
  const tokens = expr.match(/\d+|[A-Za-z_][A-Za-z0-9_]*|\|\||&&|==|!=|<=|>=|[-+*/%()<>!]/g) ?? [];
  let i = 0;
  const primary = (): number => {
    const t = tokens[i++];
    if (t === undefined) return 0;
    if (t === '(') {
      const v = level(0);
      i++;
      return v;
    }
    if (t === '-') return -primary();
    if (t === '+') return primary();
    if (t === '!') return +(primary() === 0);
    if (/^\d/.test(t)) return Number(t);
    const v = Number(scope.get(t) ?? 0);
    return Number.isFinite(v) ? Math.trunc(v) : 0;
  };
  const level = (n: number): number => {
    if (n === PRECEDENCE.length) return primary();
    let left = level(n + 1);
    while (i < tokens.length && PRECEDENCE[n].includes(tokens[i])) {
      const op = tokens[i++];
      left = apply(op, left, level(n + 1));
    }
    return left;
  };
  const value = level(0);
  return Number.isFinite(value) ? Math.trunc(value) : 0;
}
