/**
 * Runs a parsed script in simulated time and collects what it prints: each
 * line at the instant it is printed (`sleep` moves the script's clock). A
 * program the interpreter does not know blocks the script (it "runs until
 * stopped", as commandBehavior.ts decides too); an endless `while`/`until`
 * loop becomes a periodic source whose iterations are rendered on demand,
 * with counters (`i=$((i+1))`) worked out for any iteration.
 */
import { SeededRandom } from '../../../clock/random';
import type { LineSource, LogLine } from '../lineSource';
import { fixedLines, periodicLines } from '../lineSource';
import { expandFields, expandWord } from './expand';
import type { ExpandScope } from './expand';
import type { Node, Pipeline, SimpleCommand, Statement, WhileLoop } from './parse';
import { parseScript } from './parse';
import { COMMANDS, basename } from './commands';
import type { CommandShell, Flow, ShellHost } from './types';

export type { Flow, ShellHost };

/** Iterations a `for` loop runs at most, and how many loop iterations are simulated to find a counter's value. */
const MAX_ITEMS = 1000;
const MAX_SIMULATED = 10_000;
/** A loop that never sleeps prints once a second here (a real one would flood its log). */
const BUSY_LOOP_PERIOD = 1000;

export class Shell implements ExpandScope, CommandShell {
  readonly out: LogLine[] = [];
  status = 0;
  /** The endless loop that ended a top-level run, with the time and variables it started with. */
  loop: { node: WhileLoop; at: number; vars: Map<string, string> } | undefined;
  private partial = '';
  private silenced = false;
  private draws = 0;

  constructor(
    readonly host: ShellHost,
    public t: number,
    readonly vars: Map<string, string>,
    /** Inside a loop body: a nested endless loop blocks instead of becoming periodic. */
    private readonly nested: boolean,
  ) {}

  get(name: string): string | undefined {
    return this.vars.get(name);
  }

  random(): number {
    return new SeededRandom(`${this.host.hostname}/${this.t}/${this.draws++}`).int(32768);
  }

  substitute(script: string): string {
    const sub = new Shell(this.host, this.t, new Map(this.vars), true);
    sub.run(parseScript(script));
    sub.flush();
    this.t = sub.t;
    return sub.out
      .map((l) => l.text)
      .join('\n')
      .replace(/\n+$/, '');
  }

  /** Text on stdout: complete lines go to the log at the current time. */
  print(text: string): void {
    if (this.silenced) return;
    const parts = (this.partial + text).split('\n');
    this.partial = parts.pop()!;
    for (const line of parts) this.out.push({ at: this.t, text: line });
  }

  /** Writes out a last line that has no newline. */
  flush(): void {
    if (this.partial !== '') this.out.push({ at: this.t, text: this.partial });
    this.partial = '';
  }

  run(statements: readonly Statement[]): Flow {
    for (const s of statements) {
      if ((s.after === '&&' && this.status !== 0) || (s.after === '||' && this.status === 0)) continue;
      if (s.background) {
        const bg = new Shell(this.host, this.t, new Map(this.vars), true);
        bg.exec(s.node);
        bg.flush();
        this.out.push(...bg.out);
        continue;
      }
      const flow = this.exec(s.node);
      if (flow !== 'ok') return flow;
    }
    return 'ok';
  }

  private exec(node: Node): Flow {
    switch (node.kind) {
      case 'simple':
        return this.simple(node);
      case 'pipeline':
        return this.pipeline(node);
      case 'for': {
        const items = node.items.flatMap((w) => expandFields(w, this)).slice(0, MAX_ITEMS);
        for (const item of items) {
          this.vars.set(node.name, item);
          const flow = this.run(node.body);
          if (flow !== 'ok') return flow;
        }
        return 'ok';
      }
      case 'while':
      case 'until': {
        if (neverRuns(node)) return 'ok';
        if (this.nested) return 'block';
        this.loop = { node, at: this.t, vars: new Map(this.vars) };
        return 'loop';
      }
      default:
        return 'block';
    }
  }

  /** Runs an argv (after expansion). */
  command(argv: readonly string[]): Flow {
    let i = 0;
    while (i < argv.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[i])) i++;
    if (i === argv.length) {
      for (const a of argv) this.vars.set(a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1));
      this.status = 0;
      return 'ok';
    }
    const rest = argv.slice(i);
    const name = basename(rest[0]);
    if (name === 'exec') return rest.length > 1 ? this.command(rest.slice(1)) : 'ok';
    const builtin = Object.prototype.hasOwnProperty.call(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (builtin) return builtin(this, rest.slice(1));
    if (!this.silenced) this.out.push(...(this.host.onProgram?.(rest, this.t) ?? []));
    return 'block';
  }

  private simple(c: SimpleCommand): Flow {
    const argv = c.words.map((w) => expandWord(w, this));
    const was = this.silenced;
    this.silenced = was || c.silenced;
    try {
      return this.command(argv);
    } finally {
      this.silenced = was;
    }
  }

  /** `a | tee …` and `a | cat` print what `a` prints; other filters print nothing we can know. */
  private pipeline(p: Pipeline): Flow {
    const passThrough = p.commands.slice(1).every((c) => {
      const first = c.words[0]?.map((w) => w.text).join('') ?? '';
      return !c.silenced && (basename(first) === 'tee' || (basename(first) === 'cat' && c.words.length === 1));
    });
    return this.simple({ ...p.commands[0], silenced: p.commands[0].silenced || !passThrough });
  }
}

function neverRuns(loop: WhileLoop): boolean {
  const only = loop.condition.length === 1 ? loop.condition[0].node : undefined;
  const word = only?.kind === 'simple' && only.words.length === 1 ? only.words[0].map((p) => p.text).join('') : '';
  return loop.kind === 'while' ? word === 'false' : word === 'true' || word === ':';
}

interface Iteration {
  lines: LogLine[];
  end: number;
  vars: Map<string, string>;
  flow: Flow;
}

function iterate(host: ShellHost, loop: WhileLoop, vars: ReadonlyMap<string, string>, start: number): Iteration {
  const sh = new Shell(host, start, new Map(vars), true);
  const flow = sh.run(loop.body);
  sh.flush();
  return { lines: sh.out, end: sh.t, vars: sh.vars, flow };
}

const isInt = (v: string | undefined): v is string => v !== undefined && /^-?\d+$/.test(v);

/**
 * The variables at the start of iteration `k`, from the first three: a
 * variable that moves by the same step each time is a counter; one that
 * settles keeps its value; anything else is simulated iteration by iteration.
 */
function variablesAt(
  host: ShellHost,
  loop: WhileLoop,
  v0: ReadonlyMap<string, string>,
  v1: Map<string, string>,
  v2: Map<string, string>,
): (k: number) => Map<string, string> {
  const names = new Set([...v0.keys(), ...v1.keys(), ...v2.keys()]);
  const irregular = [...names].some((n) => {
    const [a, b, c] = [v0.get(n), v1.get(n), v2.get(n)];
    if (isInt(a) && isInt(b) && isInt(c)) return Number(b) - Number(a) !== Number(c) - Number(b);
    return b !== c;
  });
  if (irregular) {
    const cache = [new Map(v0), v1, v2];
    return (k) => {
      const n = Math.min(k, MAX_SIMULATED);
      for (let j = cache.length; j <= n; j++) cache.push(iterate(host, loop, cache[j - 1], 0).vars);
      return new Map(cache[n]);
    };
  }
  return (k) => {
    if (k === 0) return new Map(v0);
    const vars = new Map(v1);
    for (const n of names) {
      const [a, b] = [v0.get(n), v1.get(n)];
      if (isInt(a) && isInt(b)) vars.set(n, String(Number(a) + k * (Number(b) - Number(a))));
    }
    return vars;
  };
}

function loopSource(host: ShellHost, loop: NonNullable<Shell['loop']>): LineSource | undefined {
  const first = iterate(host, loop.node, loop.vars, loop.at);
  if (first.flow !== 'ok') return fixedLines(first.lines);
  const second = iterate(host, loop.node, first.vars, first.end);
  if (first.lines.length === 0 && second.lines.length === 0) return undefined;
  const period = first.end > loop.at ? first.end - loop.at : BUSY_LOOP_PERIOD;
  const varsAt = variablesAt(host, loop.node, loop.vars, first.vars, second.vars);
  return periodicLines({
    first: loop.at,
    period,
    render: (k, start) => (k === 0 ? first.lines : iterate(host, loop.node, varsAt(k), start).lines),
  });
}

/** What a script prints, started at `start`: its lines so far and, for an endless loop, the loop's. */
export function runScript(script: string | readonly string[], host: ShellHost, start: number): LineSource[] {
  const sh = new Shell(host, start, new Map(host.env), false);
  if (typeof script === 'string') sh.run(parseScript(script));
  else sh.command(script);
  sh.flush();
  const sources: LineSource[] = [fixedLines(sh.out)];
  const loop = sh.loop ? loopSource(host, sh.loop) : undefined;
  if (loop) sources.push(loop);
  return sources;
}
