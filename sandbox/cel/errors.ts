/**
 * cel-go's words for what went wrong. The library we evaluate with (@marcbachmann/cel-js) words its errors its own
 * way; these helpers put them in the form kube-apiserver prints (`ERROR: <input>:1:6: undefined field 'foo'` with
 * the source line and a caret under the column, as cel-go's common.Error.ToDisplayString).
 */

interface LibraryError {
  readonly code?: string;
  readonly summary?: string;
  readonly message: string;
  readonly range?: { start: number; end: number };
}

function libraryError(e: unknown): LibraryError {
  return e instanceof Error ? (e as LibraryError) : { message: String(e) };
}

function firstLine(text: string): string {
  const i = text.indexOf('\n');
  return i < 0 ? text : text.slice(0, i);
}

const OPERATOR_NAMES: Record<string, string> = {
  '+': '_+_',
  '-': '_-_',
  '*': '_*_',
  '/': '_/_',
  '%': '_%_',
  '==': '_==_',
  '!=': '_!=_',
  '<': '_<_',
  '<=': '_<=_',
  '>': '_>_',
  '>=': '_>=_',
  in: '@in',
};

/** The library's summary in cel-go's words, where cel-go has different ones. */
export function celGoMessage(e: unknown, phase: 'check' | 'eval'): string {
  const err = libraryError(e);
  const text = err.summary ?? firstLine(err.message);
  let m = /^no such overload: (\S+) (\S+) (\S+)$/.exec(text);
  if (m && OPERATOR_NAMES[m[2]])
    return phase === 'check'
      ? `found no matching overload for '${OPERATOR_NAMES[m[2]]}' applied to '(${m[1]}, ${m[3]})'`
      : 'no such overload';
  m = /^found no matching overload for '(?:([\w.<>, ]+)\.)?(\w+)\((.*)\)'$/.exec(text);
  if (m) {
    if (phase === 'eval') return 'no such overload';
    return `found no matching overload for '${m[2]}' applied to '${m[1] ? `${m[1]}.` : ''}(${m[3]})'`;
  }
  m = /^No such key: index out of bounds, index (-?\d+) [<>]=? (?:size )?(-?\d+)$/.exec(text);
  if (m) return `index '${m[1]}' out of range in list size '${m[2]}'`;
  m = /^No such key: (.*)$/.exec(text);
  if (m) return phase === 'check' ? `undefined field '${m[1]}'` : `no such key: ${m[1]}`;
  m = /^Unknown variable: (.*)$/.exec(text);
  if (m) return `undeclared reference to '${m[1]}' (in container '')`;
  if (err.code !== undefined && e instanceof Error && e.name === 'ParseError') return `Syntax error: ${text}`;
  return text;
}

/** `ERROR: <input>:L:C: message` with the source line and a caret, as cel-go's Issues.String(). */
export function displayError(source: string, offset: number, message: string): string {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < source.length; i++) {
    if (source[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  const end = source.indexOf('\n', lineStart);
  const snippet = source.slice(lineStart, end < 0 ? source.length : end).replace(/\t/g, ' ');
  const column = [...source.slice(lineStart, offset)].length;
  const dots = [...snippet].slice(0, column).map((ch) => (ch.length > 1 || ch.charCodeAt(0) > 0x7f ? '\uff0e' : '.'));
  return `ERROR: <input>:${line}:${column + 1}: ${message}\n | ${snippet}\n | ${dots.join('')}^`;
}

/** Where in the source the library's error points (0 when it does not say). */
export function errorOffset(e: unknown): number {
  return libraryError(e).range?.start ?? 0;
}
