/**
 * A short Python script (`python3 -c '…'`, a script file from a volume) run statement by statement, so that
 * an exit that depends on the container's environment ends as it would: the docs' indexed Jobs branch on
 * `JOB_COMPLETION_INDEX` (`if index == 1: sys.exit(42)`, `if int(os.environ.get("JOB_COMPLETION_INDEX")) % 2
 * == 0: sys.exit(1)`) and each index must exit with its own code.
 *
 * The subset: `import`, `from … import`, `pass`, `NAME = EXPR`, `if`/`elif`/`else`, `print(…)` of literals and
 * values, `sys.exit(N)` / `exit(N)` / `quit(N)` / `sys.exit()`, `time.sleep(N)`. Expressions: int, float and
 * string literals, `True`/`False`/`None`, names assigned before, `os.environ.get(K[, D])`, `os.getenv(K[, D])`,
 * `os.environ[K]`, `int(…)`, `str(…)`, `+ - * / // %`, comparisons, `and`/`or`/`not`, parentheses. Any other
 * statement or expression makes `runPythonScript` give up (undefined): the caller then reads the script as
 * it always did (its first exit code, all its sleeps and prints), which is what a script without branches
 * does anyway.
 */

type Value = number | string | boolean | null;

export interface PythonRun {
  code: number;
  /** Seconds slept by `time.sleep`. */
  sleptSeconds: number;
  stdout: string;
}

class Unsupported extends Error {}
/** `sys.exit(code)`: unwinds the run. */
class Exit {
  constructor(readonly code: number) {}
}
const unsupported = (): never => {
  throw new Unsupported();
};

interface Line {
  indent: number;
  text: string;
}

/** Strips a `#` comment outside string literals. */
function stripComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '#') return line.slice(0, i);
  }
  return line;
}

const TOKEN =
  /\s*(?:(\d+\.\d*|\d*\.\d+|\d+)|("(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')|([A-Za-z_][A-Za-z0-9_]*)|(\/\/|==|!=|<=|>=|[-+*/%<>()[\],.]))/y;

function tokenize(text: string): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (at < text.length) {
    if (/^\s*$/.test(text.slice(at))) break;
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(text);
    if (!m) unsupported();
    out.push((m as RegExpExecArray)[0].trim());
    at = TOKEN.lastIndex;
  }
  return out;
}

function unquote(literal: string): string {
  return literal.slice(1, -1).replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
}

function truthy(v: Value): boolean {
  return v !== null && v !== false && v !== 0 && v !== '';
}

function str(v: Value): string {
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  return String(v);
}

function num(v: Value): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return unsupported();
}

/** Recursive descent over one expression's tokens. */
class Expr {
  private i = 0;
  constructor(
    private readonly t: string[],
    private readonly vars: Map<string, Value>,
    private readonly env: ReadonlyMap<string, string>,
  ) {}

  all(): Value {
    const v = this.or();
    if (this.i !== this.t.length) unsupported();
    return v;
  }

  private peek(): string | undefined {
    return this.t[this.i];
  }

  private eat(tok: string): boolean {
    if (this.t[this.i] !== tok) return false;
    this.i++;
    return true;
  }

  private expect(tok: string): void {
    if (!this.eat(tok)) unsupported();
  }

  private or(): Value {
    let v = this.and();
    while (this.eat('or')) {
      const r = this.and();
      v = truthy(v) ? v : r;
    }
    return v;
  }

  private and(): Value {
    let v = this.not();
    while (this.eat('and')) {
      const r = this.not();
      v = truthy(v) ? r : v;
    }
    return v;
  }

  private not(): Value {
    if (this.eat('not')) return !truthy(this.not());
    return this.comparison();
  }

  private comparison(): Value {
    const a = this.sum();
    const op = this.peek();
    if (op === '==' || op === '!=') {
      this.i++;
      const b = this.sum();
      const same = typeof a === 'boolean' || typeof b === 'boolean' ? num(a) === num(b) : a === b;
      return op === '==' ? same : !same;
    }
    if (op === '<' || op === '>' || op === '<=' || op === '>=') {
      this.i++;
      const b = this.sum();
      if (typeof a !== typeof b || (typeof a !== 'number' && typeof a !== 'string')) unsupported();
      const x = a as number | string;
      const y = b as number | string;
      return op === '<' ? x < y : op === '>' ? x > y : op === '<=' ? x <= y : x >= y;
    }
    return a;
  }

  private sum(): Value {
    let v = this.product();
    for (;;) {
      if (this.eat('+')) {
        const r = this.product();
        v = typeof v === 'string' && typeof r === 'string' ? v + r : num(v) + num(r);
      } else if (this.eat('-')) v = num(v) - num(this.product());
      else return v;
    }
  }

  private product(): Value {
    let v = this.unary();
    for (;;) {
      const op = this.peek();
      if (op !== '*' && op !== '/' && op !== '//' && op !== '%') return v;
      this.i++;
      const a = num(v);
      const b = num(this.unary());
      if (op !== '*' && b === 0) unsupported(); // ZeroDivisionError
      // Python's floor division and modulo take the sign of the divisor.
      v = op === '*' ? a * b : op === '/' ? a / b : op === '//' ? Math.floor(a / b) : a - b * Math.floor(a / b);
    }
  }

  private unary(): Value {
    if (this.eat('-')) return -num(this.unary());
    if (this.eat('+')) return num(this.unary());
    return this.primary();
  }

  private args(): Value[] {
    const out: Value[] = [];
    if (this.eat(')')) return out;
    do out.push(this.or());
    while (this.eat(','));
    this.expect(')');
    return out;
  }

  private primary(): Value {
    const tok = this.t[this.i++];
    if (tok === undefined) return unsupported();
    if (tok === '(') {
      const v = this.or();
      this.expect(')');
      return v;
    }
    if (/^[\d.]/.test(tok)) return Number(tok);
    if (tok[0] === '"' || tok[0] === "'") return unquote(tok);
    if (!/^[A-Za-z_]/.test(tok)) return unsupported();
    let name = tok;
    while (this.peek() === '.') {
      this.i++;
      const part = this.t[this.i++];
      if (part === undefined || !/^[A-Za-z_]/.test(part)) unsupported();
      name += `.${part}`;
    }
    if (this.eat('(')) return this.call(name, this.args());
    if (name === 'os.environ' && this.eat('[')) {
      const key = this.or();
      this.expect(']');
      const v = typeof key === 'string' ? this.env.get(key) : undefined;
      return v === undefined ? unsupported() : v; // KeyError: a traceback the sandbox does not write
    }
    if (name === 'True') return true;
    if (name === 'False') return false;
    if (name === 'None') return null;
    const v = this.vars.get(name);
    return v === undefined ? unsupported() : v;
  }

  private call(name: string, a: Value[]): Value {
    switch (name) {
      case 'os.environ.get':
      case 'os.getenv': {
        if (typeof a[0] !== 'string' || a.length > 2) return unsupported();
        return this.env.get(a[0]) ?? a[1] ?? null;
      }
      case 'int': {
        if (a.length !== 1) return unsupported();
        const v = a[0];
        if (typeof v === 'number') return Math.trunc(v);
        if (typeof v === 'string' && /^\s*[-+]?\d+\s*$/.test(v)) return Number(v);
        return unsupported(); // ValueError / TypeError
      }
      case 'str':
        return a.length === 1 ? str(a[0]) : unsupported();
      default:
        return unsupported();
    }
  }
}

/** Runs `source`; undefined when it uses something outside the subset above. */
export function runPythonScript(source: string, env: ReadonlyMap<string, string>): PythonRun | undefined {
  const lines: Line[] = [];
  for (const raw of source.split('\n')) {
    const text = stripComment(raw).trimEnd();
    if (text.trim() === '') continue;
    if (/^\s*\t/.test(text)) return undefined;
    lines.push({ indent: text.length - text.trimStart().length, text: text.trim() });
  }
  const vars = new Map<string, Value>();
  const run: PythonRun = { code: 0, sleptSeconds: 0, stdout: '' };
  const evaluate = (expr: string): Value => new Expr(tokenize(expr), vars, env).all();

  /** Runs lines[from..) at `indent`; returns the index after the block. */
  const block = (from: number, indent: number, execute: boolean): number => {
    let i = from;
    while (i < lines.length && lines[i].indent >= indent) {
      const { text } = lines[i];
      if (lines[i].indent > indent) unsupported();
      const cond = /^if\s+(.+):$/.exec(text);
      if (cond) {
        let taken = false;
        let test: string | undefined = cond[1];
        for (;;) {
          // Only the first true branch runs; later tests are not evaluated (as Python does not).
          const taking: boolean = execute && !taken && (test === undefined || truthy(evaluate(test)));
          const bodyIndent = lines[i + 1]?.indent ?? -1;
          if (bodyIndent <= indent) unsupported();
          i = block(i + 1, bodyIndent, taking);
          taken ||= taking;
          if (test === undefined) break; // that was the else
          const next = lines[i];
          if (!next || next.indent !== indent) break;
          const elif = /^elif\s+(.+):$/.exec(next.text);
          if (elif) test = elif[1];
          else if (next.text === 'else:') test = undefined;
          else break;
        }
        continue;
      }
      if (/^(elif\s.*|else):$/.test(text)) unsupported();
      i++;
      if (/^(import\s+[\w.]+(\s*,\s*[\w.]+)*|from\s+[\w.]+\s+import\s+[\w\s,*]+|pass)$/.test(text)) continue;
      if (!execute) continue;
      const assign = /^([A-Za-z_]\w*)\s*=(?!=)\s*(.+)$/.exec(text);
      if (assign) {
        vars.set(assign[1], evaluate(assign[2]));
        continue;
      }
      const call = /^(sys\.exit|exit|quit|time\.sleep|print)\((.*)\)$/.exec(text);
      if (!call) unsupported();
      const [, fn, argText] = call as RegExpExecArray;
      const args = argText.trim() === '' ? [] : evaluateArgs(argText);
      if (fn === 'print') {
        run.stdout += `${args.map(str).join(' ')}\n`;
      } else if (fn === 'time.sleep') {
        if (args.length !== 1) unsupported();
        run.sleptSeconds += num(args[0]);
      } else {
        if (args.length > 1) unsupported();
        const v = args[0] ?? null;
        if (v === null) throw new Exit(0);
        if (typeof v !== 'number' || !Number.isInteger(v)) unsupported(); // a message: exit 1 with it on stderr
        throw new Exit((v as number) & 255);
      }
    }
    return i;
  };
  const evaluateArgs = (argText: string): Value[] => {
    const t = tokenize(`(${argText})`);
    // Parse as a call's argument list: a tuple-like `(a, b)`.
    const parts: string[][] = [[]];
    let depth = 0;
    for (const tok of t.slice(1, -1)) {
      if (tok === '(' || tok === '[') depth++;
      if (tok === ')' || tok === ']') depth--;
      if (tok === ',' && depth === 0) parts.push([]);
      else parts[parts.length - 1].push(tok);
    }
    return parts.map((p) => new Expr(p, vars, env).all());
  };

  try {
    if (lines.length === 0) return run;
    if (block(0, lines[0].indent, true) !== lines.length) return undefined;
    return run;
  } catch (e) {
    if (e instanceof Exit) return { ...run, code: e.code };
    if (e instanceof Unsupported) return undefined;
    throw e;
  }
}
