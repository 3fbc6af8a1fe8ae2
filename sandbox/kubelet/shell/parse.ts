/**
 * The POSIX shell grammar as far as container scripts use it (`command: ["sh",
 * "-c", "…"]`): words with their quoting kept for expansion, `;` `&&` `||`
 * `&` `|` `!` and newlines, redirections (here-documents included), `if`,
 * `case`, `while`/`until`, `for`, `{ …; }`, `( … )` and function definitions.
 * What it cannot read becomes an `unsupported` node, where interpretation
 * stops (the script is then taken to run until stopped).
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

export interface Redirect {
  /** The file descriptor redirected: 0 stdin, 1 stdout, 2 stderr. */
  fd: number;
  op: '>' | '>>' | '<' | '>&' | '<&' | '<<' | '&>' | '&>>';
  target: Word;
  /** A here-document's text (op `<<`); expanded unless its delimiter was quoted. */
  here?: { text: string; expand: boolean };
}

export interface SimpleCommand {
  kind: 'simple';
  words: Word[];
  redirects: Redirect[];
}
export interface Pipeline {
  kind: 'pipeline';
  commands: Node[];
}
export interface Not {
  kind: 'not';
  node: Node;
}
export interface IfNode {
  kind: 'if';
  branches: { condition: Statement[]; body: Statement[] }[];
  otherwise?: Statement[];
  redirects: Redirect[];
}
export interface WhileLoop {
  kind: 'while' | 'until';
  condition: Statement[];
  body: Statement[];
  redirects: Redirect[];
}
export interface ForLoop {
  kind: 'for';
  name: string;
  /** Undefined for `for x; do` (the positional parameters). */
  items?: Word[];
  body: Statement[];
  redirects: Redirect[];
}
export interface CaseNode {
  kind: 'case';
  word: Word;
  arms: { patterns: Word[]; body: Statement[] }[];
  redirects: Redirect[];
}
export interface Group {
  kind: 'group' | 'subshell';
  body: Statement[];
  redirects: Redirect[];
}
export interface FunctionDef {
  kind: 'function';
  name: string;
  body: Node;
}
export interface Unsupported {
  kind: 'unsupported';
  what: string;
}
export type Node =
  | SimpleCommand
  | Pipeline
  | Not
  | IfNode
  | WhileLoop
  | ForLoop
  | CaseNode
  | Group
  | FunctionDef
  | Unsupported;

export interface Statement {
  node: Node;
  /** How it joins the statement before it: `&&` and `||` run it on that one's status. */
  after: ';' | '&&' | '||';
  /** Ended by `&`: runs in the background. */
  background: boolean;
}

type Token =
  | { type: 'word'; word: WordPart[]; plain: string }
  | { type: 'op'; op: string }
  | { type: 'redirect'; fd: number; op: Redirect['op']; here?: Redirect['here']; strip?: boolean };

const OPERATOR_START = new Set([';', '&', '|', '<', '>', '\n', '(', ')']);
const REDIRECT = /^(\d?)(>>|>&|>\||>|<&|<<-|<<|<)|^&>>?/;
const RESERVED_STOPS = ['then', 'elif', 'else', 'fi', 'do', 'done', 'esac', '}', ';;'];

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
    if (c === ' ' || c === '\t' || c === '\r' || OPERATOR_START.has(c)) break;
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

/** The plain text of a word (quotes removed, nothing expanded): for keywords, names and here-doc delimiters. */
export function wordText(word: Word): string {
  return word.map((p) => (p.quote === 'none' ? p.text.replace(/\\(.)/g, '$1') : p.text)).join('');
}

export function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  const pendingHere: Extract<Token, { type: 'redirect' }>[] = [];
  let i = 0;
  let lastWasWord = false;
  while (i < src.length) {
    const c = src[i];
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      lastWasWord = false;
    } else if (c === '\\' && src[i + 1] === '\n') i += 2;
    else if (c === '#' && !lastWasWord) while (i < src.length && src[i] !== '\n') i++;
    else if (c === '\n' && pendingHere.length > 0) {
      // Here-documents start on the line after their redirection.
      i++;
      for (const r of pendingHere) {
        const delimiter = r.here!.text;
        const lines: string[] = [];
        while (i < src.length) {
          const end = src.indexOf('\n', i);
          const line = src.slice(i, end < 0 ? src.length : end);
          i = end < 0 ? src.length : end + 1;
          const compared = r.strip ? line.replace(/^\t+/, '') : line;
          if (compared === delimiter) break;
          lines.push(compared);
        }
        r.here = { text: lines.length > 0 ? `${lines.join('\n')}\n` : '', expand: r.here!.expand };
      }
      pendingHere.length = 0;
      tokens.push({ type: 'op', op: '\n' });
      lastWasWord = false;
    } else {
      const rest = src.slice(i, i + 8);
      const redirect = REDIRECT.exec(rest);
      if (redirect) {
        i += redirect[0].length;
        const opText = redirect[0].startsWith('&') ? redirect[0] : redirect[2];
        const op = (opText === '>|' ? '>' : opText === '<<-' ? '<<' : opText) as Redirect['op'];
        const fd = redirect[1] ? Number(redirect[1]) : op.startsWith('<') ? 0 : 1;
        const token: Extract<Token, { type: 'redirect' }> = { type: 'redirect', fd, op };
        if (op === '<<') {
          // The delimiter word follows; quoting any of it turns expansion off.
          while (src[i] === ' ' || src[i] === '\t') i++;
          const { parts, end } = readWord(src, i);
          i = end;
          token.here = { text: wordText(parts), expand: parts.every((p) => p.quote === 'none') };
          token.strip = opText === '<<-';
          pendingHere.push(token);
        }
        tokens.push(token);
        lastWasWord = false;
        continue;
      }
      const op = ['&&', '||', ';;'].find((o) => rest.startsWith(o)) ?? (OPERATOR_START.has(c) ? c : undefined);
      if (op !== undefined) {
        tokens.push({ type: 'op', op });
        i += op.length;
        lastWasWord = false;
        continue;
      }
      const { parts, end } = readWord(src, i);
      tokens.push({
        type: 'word',
        word: parts,
        plain: parts.every((p) => p.quote === 'none') ? parts.map((p) => p.text).join('') : '',
      });
      i = end;
      lastWasWord = true;
    }
  }
  return tokens;
}

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(offset = 0): Token | undefined {
    return this.tokens[this.i + offset];
  }

  private isWord(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t?.type === 'word' && t.plain === text;
  }

  private isOp(op: string): boolean {
    const t = this.peek();
    return t?.type === 'op' && t.op === op;
  }

  private skipNewlines(): void {
    while (this.isOp('\n')) this.i++;
  }

  private skipSeparators(): void {
    while (this.isOp(';') || this.isOp('\n')) this.i++;
  }

  /** At a reserved word that ends the current list (or at the end). */
  private atStop(stops: readonly string[]): boolean {
    const t = this.peek();
    if (!t) return true;
    if (t.type === 'op') return (t.op === ')' && stops.includes(')')) || (t.op === ';;' && stops.includes(';;'));
    return t.type === 'word' && stops.includes(t.plain);
  }

  /** Statements up to one of `stops` or the end. */
  list(stops: readonly string[]): Statement[] {
    const out: Statement[] = [];
    let after: Statement['after'] = ';';
    for (;;) {
      if (after === ';') this.skipSeparators();
      else this.skipNewlines();
      if (this.atStop(stops)) return out;
      const node = this.andOrItem();
      const statement: Statement = { node, after, background: false };
      out.push(statement);
      if (node.kind === 'unsupported') return out;
      const next = this.peek();
      after = ';';
      if (next?.type !== 'op') {
        if (next && !this.atStop(stops)) {
          return [...out, { node: { kind: 'unsupported', what: describe(next) }, after: ';', background: false }];
        }
        continue;
      }
      if (next.op === '&&' || next.op === '||') after = next.op;
      else if (next.op === '&') statement.background = true;
      else if (next.op === ';;' || next.op === ')') return out;
      else if (next.op !== ';' && next.op !== '\n')
        return [...out, { node: { kind: 'unsupported', what: next.op }, after: ';', background: false }];
      this.i++;
    }
  }

  /** A pipeline, maybe negated with `!`. */
  private andOrItem(): Node {
    if (this.isWord('!')) {
      this.i++;
      return { kind: 'not', node: this.pipeline() };
    }
    return this.pipeline();
  }

  private pipeline(): Node {
    const commands: Node[] = [];
    for (;;) {
      const c = this.command();
      if (c.kind === 'unsupported') return c;
      commands.push(c);
      if (!this.isOp('|')) break;
      this.i++;
      this.skipNewlines();
    }
    return commands.length === 1 ? commands[0] : { kind: 'pipeline', commands };
  }

  private command(): Node {
    const t = this.peek();
    if (!t) return { kind: 'unsupported', what: 'end of script' };
    if (t.type === 'op') {
      if (t.op === '(') return this.compound(this.subshell());
      return { kind: 'unsupported', what: t.op };
    }
    if (t.type === 'word') {
      switch (t.plain) {
        case 'while':
        case 'until':
          return this.compound(this.whileLoop(t.plain));
        case 'for':
          return this.compound(this.forLoop());
        case 'if':
          return this.compound(this.ifNode());
        case 'case':
          return this.compound(this.caseNode());
        case '{':
          return this.compound(this.group());
        case 'function':
          return this.functionDef(true);
        case 'select':
          return { kind: 'unsupported', what: t.plain };
        default:
          break;
      }
      if (RESERVED_STOPS.includes(t.plain)) return { kind: 'unsupported', what: t.plain };
      // name() { …; }  (the name and `()` may be written apart)
      const m = /^([A-Za-z_][\w.-]*)(\(\))?$/.exec(t.plain);
      if (
        m &&
        (m[2] || (this.peek(1)?.type === 'op' && (this.peek(1) as { op: string }).op === '(' && this.closesAt(2)))
      )
        return this.functionDef(false);
    }
    return this.simple();
  }

  private closesAt(offset: number): boolean {
    const t = this.peek(offset);
    return t?.type === 'op' && t.op === ')';
  }

  /** Redirections after a compound command (`done < file`, `} > /tmp/out`). */
  private compound<T extends Node & { redirects?: Redirect[] }>(node: T | Unsupported): T | Unsupported {
    if (node.kind === 'unsupported') return node;
    for (let t = this.peek(); t?.type === 'redirect'; t = this.peek()) {
      const r = this.redirect();
      if (!r) return { kind: 'unsupported', what: 'redirection' };
      node.redirects!.push(r);
    }
    return node;
  }

  private redirect(): Redirect | undefined {
    const t = this.peek() as Extract<Token, { type: 'redirect' }>;
    this.i++;
    if (t.op === '<<') return { fd: t.fd, op: '<<', target: [], here: t.here };
    const target = this.peek();
    if (target?.type !== 'word') return undefined;
    this.i++;
    return { fd: t.fd, op: t.op, target: target.word };
  }

  private expectWord(word: string): boolean {
    this.skipSeparators();
    if (!this.isWord(word)) return false;
    this.i++;
    return true;
  }

  private whileLoop(kind: 'while' | 'until'): WhileLoop | Unsupported {
    this.i++;
    const condition = this.list(['do']);
    if (!this.expectWord('do')) return { kind: 'unsupported', what: kind };
    const body = this.list(['done']);
    if (!this.expectWord('done')) return { kind: 'unsupported', what: kind };
    return { kind, condition, body, redirects: [] };
  }

  private forLoop(): ForLoop | Unsupported {
    this.i++;
    const name = this.peek();
    if (name?.type !== 'word') return { kind: 'unsupported', what: 'for' };
    this.i++;
    let items: Word[] | undefined;
    this.skipNewlines();
    if (this.isWord('in')) {
      this.i++;
      items = [];
      for (let t = this.peek(); t?.type === 'word'; t = this.peek()) {
        items.push(t.word);
        this.i++;
      }
    }
    if (!this.expectWord('do')) return { kind: 'unsupported', what: 'for' };
    const body = this.list(['done']);
    if (!this.expectWord('done')) return { kind: 'unsupported', what: 'for' };
    return { kind: 'for', name: name.plain, items, body, redirects: [] };
  }

  private ifNode(): IfNode | Unsupported {
    this.i++;
    const branches: IfNode['branches'] = [];
    let otherwise: Statement[] | undefined;
    for (;;) {
      const condition = this.list(['then']);
      if (!this.expectWord('then')) return { kind: 'unsupported', what: 'if' };
      const body = this.list(['elif', 'else', 'fi']);
      branches.push({ condition, body });
      this.skipSeparators();
      if (this.isWord('elif')) {
        this.i++;
        continue;
      }
      if (this.isWord('else')) {
        this.i++;
        otherwise = this.list(['fi']);
      }
      if (!this.expectWord('fi')) return { kind: 'unsupported', what: 'if' };
      return { kind: 'if', branches, otherwise, redirects: [] };
    }
  }

  private caseNode(): CaseNode | Unsupported {
    this.i++;
    const subject = this.peek();
    if (subject?.type !== 'word') return { kind: 'unsupported', what: 'case' };
    this.i++;
    this.skipNewlines();
    if (!this.isWord('in')) return { kind: 'unsupported', what: 'case' };
    this.i++;
    const arms: CaseNode['arms'] = [];
    for (;;) {
      this.skipSeparators();
      if (this.isWord('esac')) {
        this.i++;
        return { kind: 'case', word: subject.word, arms, redirects: [] };
      }
      if (this.isOp('(')) this.i++;
      const patterns: Word[] = [];
      for (;;) {
        const p = this.peek();
        if (p?.type !== 'word') return { kind: 'unsupported', what: 'case' };
        patterns.push(p.word);
        this.i++;
        if (this.isOp('|')) {
          this.i++;
          continue;
        }
        break;
      }
      if (!this.isOp(')')) return { kind: 'unsupported', what: 'case' };
      this.i++;
      const body = this.list([';;', 'esac']);
      arms.push({ patterns, body });
      if (this.isOp(';;')) this.i++;
      else if (!this.isWord('esac')) return { kind: 'unsupported', what: 'case' };
    }
  }

  private group(): Group | Unsupported {
    this.i++;
    const body = this.list(['}']);
    if (!this.expectWord('}')) return { kind: 'unsupported', what: '{' };
    return { kind: 'group', body, redirects: [] };
  }

  private subshell(): Group | Unsupported {
    this.i++;
    const body = this.list([')']);
    this.skipSeparators();
    if (!this.isOp(')')) return { kind: 'unsupported', what: '(' };
    this.i++;
    return { kind: 'subshell', body, redirects: [] };
  }

  private functionDef(keyword: boolean): Node {
    if (keyword) this.i++;
    const nameToken = this.peek();
    if (nameToken?.type !== 'word') return { kind: 'unsupported', what: 'function' };
    this.i++;
    const name = nameToken.plain.replace(/\(\)$/, '');
    if (this.isOp('(') && this.closesAt(1)) this.i += 2;
    this.skipNewlines();
    const body = this.command();
    if (body.kind === 'unsupported') return body;
    return { kind: 'function', name, body };
  }

  private simple(): SimpleCommand | Unsupported {
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    for (let t = this.peek(); t; t = this.peek()) {
      if (t.type === 'word') {
        words.push(t.word);
        this.i++;
        continue;
      }
      if (t.type !== 'redirect') break;
      const r = this.redirect();
      if (!r) return { kind: 'unsupported', what: 'redirection' };
      redirects.push(r);
    }
    if (words.length === 0 && redirects.length === 0) {
      const t = this.peek();
      return { kind: 'unsupported', what: t ? describe(t) : 'end of script' };
    }
    return { kind: 'simple', words, redirects };
  }
}

function describe(t: Token): string {
  return t.type === 'word' ? t.plain || '…' : t.type === 'op' ? t.op : t.op;
}

/** Parses a script into statements (never throws: what it cannot read ends in an `unsupported` node). */
export function parseScript(src: string): Statement[] {
  return new Parser(tokenize(src)).list([]);
}
