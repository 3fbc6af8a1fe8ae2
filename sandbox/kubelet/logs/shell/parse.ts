/**
 * Just enough of the POSIX shell grammar to read the scripts people put in
 * `command: ["sh", "-c", "…"]`: words with their quoting kept for expansion,
 * `;` `&&` `||` `&` `|` and newlines, redirections, `while`/`until` and `for`
 * loops. Anything else (`if`, `case`, functions, subshells, here-documents)
 * becomes an `unsupported` node, where interpretation stops.
 */

/**
 * A piece of a word: unquoted or double-quoted text still holds its `$…` and backslashes; single-quoted text is
 * literal.
 */
export interface WordPart {
  text: string;
  quote: 'none' | 'single' | 'double';
}
export type Word = readonly WordPart[];

export interface SimpleCommand {
  kind: 'simple';
  words: Word[];
  /** stdout goes to a file, so nothing reaches the container log. */
  silenced: boolean;
}
export interface Pipeline {
  kind: 'pipeline';
  commands: SimpleCommand[];
}
export interface WhileLoop {
  kind: 'while' | 'until';
  condition: Statement[];
  body: Statement[];
}
export interface ForLoop {
  kind: 'for';
  name: string;
  items: Word[];
  body: Statement[];
}
export interface Unsupported {
  kind: 'unsupported';
  what: string;
}
export type Node = SimpleCommand | Pipeline | WhileLoop | ForLoop | Unsupported;

export interface Statement {
  node: Node;
  /** How it joins the statement before it: `&&` and `||` run it on that one's status. */
  after: ';' | '&&' | '||';
  /** Ended by `&`: runs in the background (takes no time). */
  background: boolean;
}

type Token = { type: 'word'; word: WordPart[]; plain: string } | { type: 'op'; op: string };

const OPERATOR_START = new Set([';', '&', '|', '<', '>', '\n', '(', ')']);
const REDIRECT = /^(\d*)(>>|>&|>\||>|<&|<<|<)|^&>>?/;

/** Reads `$(…)`, `${…}` or `` `…` `` starting at `i`; returns the index after it. */
function skipExpansion(src: string, i: number): number {
  if (src[i] === '`') {
    let j = i + 1;
    while (j < src.length && src[j] !== '`') j += src[j] === '\\' ? 2 : 1;
    return j + 1;
  }
  const open = src[i + 1];
  const close = open === '(' ? ')' : '}';
  let depth = 0;
  for (let j = i + 1; j < src.length; j++) {
    const c = src[j];
    if (c === '\\') j++;
    else if (c === "'" && open === '(') j = src.indexOf("'", j + 1) < 0 ? src.length : src.indexOf("'", j + 1);
    else if (c === open) depth++;
    else if (c === close && --depth === 0) return j + 1;
  }
  return src.length;
}

function readWord(src: string, start: number): { parts: WordPart[]; end: number } {
  const parts: WordPart[] = [];
  let cur = '';
  const flush = () => {
    if (cur !== '') parts.push({ text: cur, quote: 'none' });
    cur = '';
  };
  let i = start;
  while (i < src.length) {
    const c = src[i];
    if (c === ' ' || c === '\t' || OPERATOR_START.has(c)) break;
    if (c === "'") {
      flush();
      const close = src.indexOf("'", i + 1);
      const end = close < 0 ? src.length : close;
      parts.push({ text: src.slice(i + 1, end), quote: 'single' });
      i = end + 1;
    } else if (c === '"') {
      flush();
      let j = i + 1;
      while (j < src.length && src[j] !== '"') {
        if (src[j] === '\\') j += 2;
        else if (src[j] === '`' || (src[j] === '$' && (src[j + 1] === '(' || src[j + 1] === '{')))
          j = skipExpansion(src, j);
        else j++;
      }
      parts.push({ text: src.slice(i + 1, Math.min(j, src.length)), quote: 'double' });
      i = j + 1;
    } else if (c === '\\') {
      cur += src.slice(i, i + 2);
      i += 2;
    } else if (c === '`' || (c === '$' && (src[i + 1] === '(' || src[i + 1] === '{'))) {
      const end = skipExpansion(src, i);
      cur += src.slice(i, end);
      i = end;
    } else {
      cur += c;
      i++;
    }
  }
  flush();
  return { parts, end: i };
}

export function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === ' ' || c === '\t' || c === '\r') i++;
    else if (c === '\\' && src[i + 1] === '\n') i += 2;
    else if (c === '#') while (i < src.length && src[i] !== '\n') i++;
    else {
      const rest = src.slice(i, i + 8);
      const redirect = REDIRECT.exec(rest);
      const op = redirect
        ? redirect[0]
        : (['&&', '||', ';;'].find((o) => rest.startsWith(o)) ?? (OPERATOR_START.has(c) ? c : undefined));
      if (op !== undefined) {
        tokens.push({ type: 'op', op });
        i += op.length;
        continue;
      }
      const { parts, end } = readWord(src, i);
      tokens.push({
        type: 'word',
        word: parts,
        plain: parts.every((p) => p.quote === 'none') ? parts.map((p) => p.text).join('') : '',
      });
      i = end;
    }
  }
  return tokens;
}

const STDOUT_FILES = new Set([
  '/dev/stdout',
  '/dev/stderr',
  '/proc/1/fd/1',
  '/proc/1/fd/2',
  '/proc/self/fd/1',
  '/proc/self/fd/2',
]);
const UNSUPPORTED_WORDS = new Set(['if', 'case', 'function', 'select', '{', '[[']);

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }

  private isWord(text: string): boolean {
    const t = this.peek();
    return t?.type === 'word' && t.plain === text;
  }

  private skipSeparators(): void {
    for (let t = this.peek(); t?.type === 'op' && (t.op === ';' || t.op === '\n'); t = this.peek()) this.i++;
  }

  /** Statements up to one of `stop` (a reserved word in command position) or the end. */
  list(stop: readonly string[]): Statement[] {
    const out: Statement[] = [];
    let after: Statement['after'] = ';';
    for (;;) {
      this.skipSeparators();
      const t = this.peek();
      if (!t || stop.some((w) => this.isWord(w))) return out;
      const node = this.command();
      const statement: Statement = { node, after, background: false };
      out.push(statement);
      if (node.kind === 'unsupported') return out;
      const next = this.peek();
      after = ';';
      if (next?.type !== 'op') continue;
      if (next.op === '&&' || next.op === '||') after = next.op;
      else if (next.op === '&') statement.background = true;
      else if (next.op !== ';' && next.op !== '\n')
        return [...out, { node: { kind: 'unsupported', what: next.op }, after: ';', background: false }];
      this.i++;
    }
  }

  private command(): Node {
    const t = this.peek()!;
    if (t.type === 'op') return { kind: 'unsupported', what: t.op };
    if (t.plain === 'while' || t.plain === 'until') return this.whileLoop(t.plain);
    if (t.plain === 'for') return this.forLoop();
    if (UNSUPPORTED_WORDS.has(t.plain) || /^\w+\(\)$/.test(t.plain)) return { kind: 'unsupported', what: t.plain };
    const commands: SimpleCommand[] = [];
    for (;;) {
      const c = this.simple();
      if (c.kind === 'unsupported') return c;
      commands.push(c);
      const next = this.peek();
      if (next?.type !== 'op' || next.op !== '|') break;
      this.i++;
      this.skipSeparators();
    }
    return commands.length === 1 ? commands[0] : { kind: 'pipeline', commands };
  }

  private expect(word: string): boolean {
    this.skipSeparators();
    if (!this.isWord(word)) return false;
    this.i++;
    return true;
  }

  private whileLoop(kind: 'while' | 'until'): Node {
    this.i++;
    const condition = this.list(['do']);
    if (!this.expect('do')) return { kind: 'unsupported', what: kind };
    const body = this.list(['done']);
    if (!this.expect('done')) return { kind: 'unsupported', what: kind };
    return { kind, condition, body };
  }

  private forLoop(): Node {
    this.i++;
    const name = this.peek();
    if (name?.type !== 'word') return { kind: 'unsupported', what: 'for' };
    this.i++;
    const items: Word[] = [];
    if (this.isWord('in')) {
      this.i++;
      for (let t = this.peek(); t?.type === 'word'; t = this.peek()) {
        items.push(t.word);
        this.i++;
      }
    }
    if (!this.expect('do')) return { kind: 'unsupported', what: 'for' };
    const body = this.list(['done']);
    if (!this.expect('done')) return { kind: 'unsupported', what: 'for' };
    return { kind: 'for', name: name.plain, items, body };
  }

  private simple(): SimpleCommand | Unsupported {
    const words: Word[] = [];
    let silenced = false;
    for (let t = this.peek(); t; t = this.peek()) {
      if (t.type === 'word') {
        words.push(t.word);
        this.i++;
        continue;
      }
      const m = REDIRECT.exec(t.op);
      if (!m) break;
      this.i++;
      if (t.op === '<<') return { kind: 'unsupported', what: 'here-document' };
      const target = this.peek();
      if (target?.type === 'word') this.i++;
      const fd = m[0].startsWith('&') ? '1' : m[1] || (m[2].startsWith('<') ? '0' : '1');
      const file = target?.type === 'word' ? target.word.map((p) => p.text).join('') : '';
      const toFd = m[2] === '>&';
      if (fd === '1' && !toFd && !m[2]?.startsWith('<') && !STDOUT_FILES.has(file)) silenced = true;
      if (m[0].startsWith('&') && !STDOUT_FILES.has(file)) silenced = true;
    }
    return { kind: 'simple', words, silenced };
  }
}

/** Parses a script into statements (never throws: what it cannot read ends in an `unsupported` node). */
export function parseScript(src: string): Statement[] {
  return new Parser(tokenize(src)).list([]);
}
