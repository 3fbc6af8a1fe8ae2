/**
 * Runs a parsed script in simulated time: each line it prints lands in the
 * log at the instant it is printed (`sleep` and programs that take time move
 * the script's clock), files it writes are events on the container's
 * filesystem timeline, and it ends — with its exit status — or blocks on a
 * program that runs until stopped (a server, `sleep infinity`, `tail -f`).
 *
 * Loops run iteration by iteration; an endless one (`while true`) at the top
 * level becomes a periodic source whose iterations are rendered on demand,
 * with counters (`i=$((i+1))`) worked out for any iteration, and whose file
 * writes are periodic events. Everything is deterministic: the same script,
 * start time and host give the same history.
 */
import { SeededRandom } from '../../clock/random';
import type { LineSource, LogLine } from '../logs/lineSource';
import { fixedLines, periodicLines } from '../logs/lineSource';
import type { FileEvent } from '../container/fileSystem';
import { ScratchFs } from '../container/fileSystem';
import { expandFields, expandText, expandWord, matchPattern } from './expand';
import type { ExpandScope } from './expand';
import type { Node, Redirect, Statement, WhileLoop } from './parse';
import { parseScript, wordText } from './parse';
import { COMMANDS, basename, fsMessage } from './commands';
import type { CommandShell, Flow, ProgramResult, ShellHost } from './types';

export type { Flow, ShellHost, ProgramResult };

/** Iterations a loop runs eagerly before an endless one is read as periodic. */
const MAX_EAGER_ITERATIONS = 1000;
/** Items a `for` loop runs at most, and iterations simulated one by one to find a loop variable's value. */
const MAX_ITEMS = 1000;
const MAX_SIMULATED = 10_000;
/** A loop that never sleeps prints once a second here (a real one would flood its log). */
const BUSY_LOOP_PERIOD = 1000;
/** Nested function calls / shells before the interpreter gives up (a real shell would run out of stack). */
const MAX_DEPTH = 100;

const SHELL_NAMES = new Set(['sh', 'bash', 'ash', 'dash', 'zsh', 'ksh', 'mksh']);

/** Where a file descriptor's text goes. */
type Sink = { kind: 'log' } | { kind: 'null' } | { kind: 'file'; path: string } | { kind: 'buffer'; text: string };

/** A program that was left running (the script blocked on it, or started it with `&`). */
export interface RunningProgram {
  at: number;
  argv: readonly string[];
  /** The host's description (see `ProgramResult`); undefined for the interpreter's own (`sleep infinity`, `tail -f`) */
  process?: unknown;
  /** It replaced the shell (`exec`, or a script of one command): it is the container's PID 1. */
  replacedShell: boolean;
  /** Started with `&`. */
  background?: boolean;
}

interface LoopState {
  node: WhileLoop;
  at: number;
  vars: Map<string, string>;
  args: string[];
  functions: Map<string, Node>;
}

export class Shell implements ExpandScope, CommandShell {
  /** Lines that reach the container log (stdout and stderr), at the time they were printed. */
  readonly out: LogLine[] = [];
  /** The log-bound text by stream, for `kubectl exec` and exec probes. */
  stdoutText = '';
  stderrText = '';
  status = 0;
  args: string[] = [];
  readonly functions: Map<string, Node>;
  readonly traps = new Map<string, string>();
  /** Endless loops read as periodic sources (top level only). */
  readonly loops: LoopState[] = [];
  /** Sources that keep printing (`tail -f`). */
  readonly followers: LineSource[] = [];
  /** Programs left running, oldest first. */
  readonly running: RunningProgram[] = [];
  stdin = '';
  shellName = 'sh';
  errexit = false;
  /** The interpreter gave up on a construct it cannot read (`unsupported`), where the script stops. */
  unsupported: string | undefined;
  private partial = { out: '', err: '' };
  /** When the unfinished last line was written (the runtime logs it then, as a partial line). */
  private partialAt = { out: 0, err: 0 };
  private sinks: [Sink, Sink] = [{ kind: 'log' }, { kind: 'log' }];
  private draws = 0;
  private conditionDepth = 0;
  private control: { kind: 'break' | 'continue'; levels: number } | undefined;
  private loopDepth = 0;
  /** The next command would replace this shell as the process (`exec`, a script of one command). */
  private replaceNext = false;

  constructor(
    readonly host: ShellHost,
    public t: number,
    readonly vars: Map<string, string>,
    /** In a loop body, a command substitution or a background job: an endless loop blocks, not periodic. */
    private readonly nested: boolean,
    private readonly depth = 0,
    functions?: Map<string, Node>,
  ) {
    this.functions = functions ?? new Map();
  }

  get(name: string): string | undefined {
    return this.vars.get(name);
  }

  /** The next command is the container's process itself (not a child of a shell). */
  replaceProcess(): void {
    this.replaceNext = true;
  }

  random(): number {
    const n = this.draws++;
    if (this.host.random) return this.host.random(this.t, n);
    return new SeededRandom(`${this.host.hostname}/${this.t}/${n}`).int(32768);
  }

  path(p: string): string {
    if (p.startsWith('/')) return p;
    const pwd = this.vars.get('PWD') ?? '/';
    return `${pwd.replace(/\/$/, '')}/${p}`;
  }

  private child(nested: boolean): Shell {
    const sh = new Shell(this.host, this.t, new Map(this.vars), nested, this.depth + 1, new Map(this.functions));
    sh.args = [...this.args];
    sh.shellName = this.shellName;
    sh.errexit = this.errexit;
    sh.stdin = this.stdin;
    sh.sinks = [...this.sinks] as [Sink, Sink];
    return sh;
  }

  substitute(script: string): string {
    const sub = this.child(true);
    sub.sinks = [{ kind: 'buffer', text: '' }, this.sinks[1]];
    sub.run(parseScript(script));
    this.absorb(sub, false);
    this.t = sub.t;
    const buffer = sub.sinks[0] as { text: string };
    return buffer.text.replace(/\n+$/, '');
  }

  /** Takes a child's log lines, followers and running programs (its clock stays its own). */
  private absorb(sub: Shell, programs = true): void {
    sub.flush();
    this.out.push(...sub.out);
    this.stdoutText += sub.stdoutText;
    this.stderrText += sub.stderrText;
    this.followers.push(...sub.followers);
    if (programs) this.running.push(...sub.running);
    if (sub.unsupported !== undefined) this.unsupported ??= sub.unsupported;
  }

  private write(fd: 0 | 1, text: string): void {
    if (text === '') return;
    const sink = this.sinks[fd];
    if (sink.kind === 'null') return;
    if (sink.kind === 'buffer') {
      sink.text += text;
      return;
    }
    if (sink.kind === 'file') {
      const err = this.host.fs?.write(sink.path, text, this.t, true);
      if (err) this.printErr(`${this.shellName}: can't create ${sink.path}: ${fsMessage(err)}\n`);
      return;
    }
    const key = fd === 0 ? 'out' : 'err';
    if (fd === 0) this.stdoutText += text;
    else this.stderrText += text;
    if (this.partial[key] === '') this.partialAt[key] = this.t;
    const parts = (this.partial[key] + text).split('\n');
    this.partial[key] = parts.pop()!;
    for (const line of parts) this.out.push({ at: this.t, text: line });
    if (this.partial[key] !== '' && parts.length > 0) this.partialAt[key] = this.t;
  }

  print(text: string): void {
    this.write(0, text);
  }

  printErr(text: string): void {
    this.write(1, text);
  }

  /** Writes out a last line that has no newline. */
  flush(): void {
    for (const key of ['out', 'err'] as const) {
      if (this.partial[key] !== '') this.out.push({ at: this.partialAt[key], text: this.partial[key] });
      this.partial[key] = '';
    }
  }

  follow(source: LineSource): void {
    this.followers.push(source);
  }

  backgroundRunning(): boolean {
    return this.running.some((r) => r.background) || this.loops.length > 0;
  }

  loopControl(kind: 'break' | 'continue', levels: number): Flow {
    if (this.loopDepth === 0) return 'ok';
    this.control = { kind, levels: Math.max(1, Math.min(levels, this.loopDepth)) };
    return kind;
  }

  run(statements: readonly Statement[]): Flow {
    for (let i = 0; i < statements.length; i++) {
      const s = statements[i];
      if ((s.after === '&&' && this.status !== 0) || (s.after === '||' && this.status === 0)) continue;
      if (s.background) {
        this.background(s.node);
        continue;
      }
      // The left side of && and || is a condition: a failure there does not trip `set -e`.
      const next = statements[i + 1];
      const guarded = next !== undefined && next.after !== ';';
      if (guarded) this.conditionDepth++;
      let flow: Flow;
      try {
        flow = this.exec(s.node);
      } finally {
        if (guarded) this.conditionDepth--;
      }
      if (flow !== 'ok') return flow;
      if (this.errexit && !guarded && this.status !== 0 && this.conditionDepth === 0 && s.node.kind !== 'not')
        return 'exit';
    }
    return 'ok';
  }

  /** `cmd &`: runs at the same instant without holding the script up. */
  private background(node: Node): void {
    const bg = this.child(true);
    bg.stdin = '';
    const flow = bg.exec(node);
    for (const r of bg.running) r.background = true;
    this.absorb(bg);
    if (flow === 'block' && bg.running.length === 0) {
      // Runs until stopped without a program of its own (a loop): still a job `wait` waits for.
      this.running.push({ at: this.t, argv: [], replacedShell: false, background: true });
    }
    this.status = 0;
  }

  private exec(node: Node): Flow {
    if (this.depth > MAX_DEPTH) return 'block';
    switch (node.kind) {
      case 'simple':
        return this.withRedirects(node.redirects, () => this.simple(node.words));
      case 'pipeline':
        return this.pipeline(node.commands);
      case 'not': {
        const flow = this.conditional(() => this.exec(node.node));
        this.status = this.status === 0 ? 1 : 0;
        return flow;
      }
      case 'if':
        return this.withRedirects(node.redirects, () => {
          for (const b of node.branches) {
            const flow = this.conditional(() => this.run(b.condition));
            if (flow !== 'ok') return flow;
            if (this.status === 0) return this.run(b.body);
          }
          this.status = 0;
          return node.otherwise ? this.run(node.otherwise) : 'ok';
        });
      case 'case':
        return this.withRedirects(node.redirects, () => {
          const subject = expandWord(node.word, this);
          this.status = 0;
          for (const arm of node.arms) {
            if (arm.patterns.some((p) => matchPattern(subject, patternText(p, this)))) return this.run(arm.body);
          }
          return 'ok';
        });
      case 'for':
        return this.withRedirects(node.redirects, () => {
          const items = (node.items ? node.items.flatMap((w) => expandFields(w, this)) : this.args).slice(0, MAX_ITEMS);
          this.status = 0;
          return this.inLoop(() => {
            for (const item of items) {
              this.vars.set(node.name, item);
              const flow = this.run(node.body);
              const after = this.loopFlow(flow);
              if (after === 'next') continue;
              if (after === 'stop') return 'ok';
              return after;
            }
            return 'ok';
          });
        });
      case 'while':
      case 'until':
        return this.withRedirects(node.redirects, () => this.loop(node));
      case 'group':
        return this.withRedirects(node.redirects, () => this.run(node.body));
      case 'subshell':
        return this.withRedirects(node.redirects, () => {
          const sub = this.child(this.nested);
          const flow = sub.run(node.body);
          this.absorb(sub);
          this.loops.push(...sub.loops);
          this.t = sub.t;
          this.status = sub.status;
          return flow === 'exit' || flow === 'return' ? 'ok' : flow;
        });
      case 'function':
        this.functions.set(node.name, node.body);
        this.status = 0;
        return 'ok';
      default:
        this.unsupported ??= node.what;
        return 'block';
    }
  }

  private conditional(fn: () => Flow): Flow {
    this.conditionDepth++;
    try {
      return fn();
    } finally {
      this.conditionDepth--;
    }
  }

  private inLoop(fn: () => Flow): Flow {
    this.loopDepth++;
    try {
      return fn();
    } finally {
      this.loopDepth--;
    }
  }

  /** After a loop body: go on (`next`), leave this loop (`stop`), or pass a flow outward. */
  private loopFlow(flow: Flow): 'next' | 'stop' | Flow {
    if (flow === 'ok') return 'next';
    if (flow !== 'break' && flow !== 'continue') return flow;
    const c = this.control!;
    if (c.levels > 1) {
      c.levels--;
      return flow;
    }
    this.control = undefined;
    return c.kind === 'continue' ? 'next' : 'stop';
  }

  private loop(node: WhileLoop): Flow {
    if (neverRuns(node)) {
      this.status = 0;
      return 'ok';
    }
    if (isEndless(node) && !this.nested) {
      this.loops.push(this.loopState(node));
      return 'loop';
    }
    return this.inLoop(() => {
      let lastStatus = 0;
      for (let i = 0; i < MAX_EAGER_ITERATIONS; i++) {
        const before = this.t;
        const outBefore = this.out.length;
        const cond = this.conditional(() => this.run(node.condition));
        if (cond !== 'ok') return cond;
        const go = node.kind === 'while' ? this.status === 0 : this.status !== 0;
        if (!go) {
          this.status = lastStatus;
          return 'ok';
        }
        const flow = this.run(node.body);
        lastStatus = this.status;
        const after = this.loopFlow(flow);
        if (after === 'stop') {
          this.status = 0;
          return 'ok';
        }
        if (after !== 'next') return after;
        if (this.t === before && this.out.length === outBefore && i > 1000) {
          // A loop that neither waits nor prints: it spins until stopped.
          return 'block';
        }
      }
      if (this.nested) return 'block';
      this.loops.push(this.loopState(node));
      return 'loop';
    });
  }

  private loopState(node: WhileLoop): LoopState {
    return {
      node,
      at: this.t,
      vars: new Map(this.vars),
      args: [...this.args],
      functions: new Map(this.functions),
    };
  }

  /** Applies redirections around `fn` (restoring stdin and the output sinks after). */
  private withRedirects(redirects: readonly Redirect[], fn: () => Flow): Flow {
    if (redirects.length === 0) return fn();
    const saved = { sinks: [...this.sinks] as [Sink, Sink], stdin: this.stdin };
    try {
      for (const r of redirects) {
        const failed = this.redirect(r);
        if (failed) {
          this.status = 1;
          return 'ok';
        }
      }
      return fn();
    } finally {
      this.sinks = saved.sinks;
      this.stdin = saved.stdin;
    }
  }

  /** Sets up one redirection; true when it failed (the command does not run). */
  private redirect(r: Redirect): boolean {
    if (r.op === '<<') {
      const here = r.here ?? { text: '', expand: true };
      this.stdin = here.expand ? expandText(here.text, true, this) : here.text;
      return false;
    }
    const target = expandWord(r.target, this);
    if (r.op === '<') {
      const text = this.host.fs?.read(this.path(target), this.t);
      if (text === undefined) {
        const kind = this.host.fs?.stat(this.path(target), this.t);
        this.printErr(
          `${this.shellName}: can't open ${target}: ${kind === 'dir' ? 'Is a directory' : 'no such file'}\n`,
        );
        return true;
      }
      this.stdin = text;
      return false;
    }
    if (r.op === '>&' || r.op === '<&') {
      if (target === '-') this.sinks[r.fd === 2 ? 1 : 0] = { kind: 'null' };
      else if (target === '1' || target === '2') {
        const from = target === '1' ? this.sinks[0] : this.sinks[1];
        if (r.fd === 1 || r.fd === 2) this.sinks[r.fd - 1] = from;
      } else if (r.op === '>&') return this.toFile(1, target, false) || this.toFile(2, target, true);
      return false;
    }
    if (r.op === '&>' || r.op === '&>>') {
      return this.toFile(1, target, r.op === '&>>') || this.toFile(2, target, true);
    }
    if (r.fd !== 1 && r.fd !== 2) return false;
    return this.toFile(r.fd, target, r.op === '>>');
  }

  private toFile(fd: 1 | 2, target: string, append: boolean): boolean {
    const index = fd - 1;
    if (target === '/dev/null') {
      this.sinks[index] = { kind: 'null' };
      return false;
    }
    if (/^\/(dev\/std(out|err)|proc\/(1|self)\/fd\/[12])$/.test(target)) {
      const toErr = target.endsWith('err') || target.endsWith('/2');
      this.sinks[index] = toErr ? { kind: 'log' } : this.sinks[0].kind === 'log' ? { kind: 'log' } : this.sinks[0];
      if (toErr && index === 0) this.sinks[0] = { kind: 'log' };
      return false;
    }
    const path = this.path(target);
    const fs = this.host.fs;
    if (!fs) {
      this.sinks[index] = { kind: 'null' };
      return false;
    }
    // `>` truncates (creates) the file now; `>>` creates it with its first write.
    const err = fs.stat(path, this.t) === 'dir' ? 'EISDIR' : fs.write(path, '', this.t, append);
    if (err) {
      const why = fsMessage(err ?? 'ENOENT');
      this.printErr(
        this.host.dialect === 'gnu'
          ? `${this.shellName}: ${target}: ${why}\n`
          : `${this.shellName}: can't create ${target}: ${why === 'No such file or directory' ? 'nonexistent directory' : why}\n`,
      );
      return true;
    }
    this.sinks[index] = { kind: 'file', path };
    return false;
  }

  private pipeline(commands: readonly Node[]): Flow {
    let input = this.stdin;
    let flow: Flow = 'ok';
    for (let i = 0; i < commands.length; i++) {
      const last = i === commands.length - 1;
      const stage = this.child(true);
      stage.stdin = input;
      if (!last) stage.sinks = [{ kind: 'buffer', text: '' }, this.sinks[1]];
      flow = stage.exec(commands[i]);
      this.absorb(stage);
      this.t = Math.max(this.t, stage.t);
      this.status = stage.status;
      if (flow === 'block' || flow === 'loop') {
        // A stage that runs until stopped: the ones after it read forever.
        if (!last) return 'block';
        return flow;
      }
      if (!last) input = (stage.sinks[0] as { text: string }).text;
    }
    return flow === 'exit' ? 'ok' : flow;
  }

  /** Runs an argv (after expansion): assignments, functions, builtins, then the host's programs. */
  command(argv: readonly string[]): Flow {
    let i = 0;
    while (i < argv.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[i])) i++;
    if (i === argv.length) {
      for (const a of argv) this.vars.set(a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1));
      this.status = 0;
      return 'ok';
    }
    // `VAR=x cmd`: the variables for that command only.
    const saved = i > 0 ? new Map(this.vars) : undefined;
    for (const a of argv.slice(0, i)) this.vars.set(a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1));
    try {
      return this.run1(argv.slice(i));
    } finally {
      if (saved) {
        this.vars.clear();
        for (const [k, v] of saved) this.vars.set(k, v);
      }
    }
  }

  private run1(argv: readonly string[]): Flow {
    const name = basename(argv[0]);
    if (argv[0] === 'exec') {
      if (argv.length === 1) return 'ok';
      if (!this.nested) this.replaceNext = true;
      const flow = this.run1(argv.slice(1));
      this.replaceNext = false;
      // After exec the shell is gone: the program's end is the script's end.
      return flow === 'ok' ? 'exit' : flow;
    }
    const fn = this.functions.get(argv[0]);
    if (fn) return this.callFunction(fn, argv.slice(1));
    if (SHELL_NAMES.has(name)) return this.shell(name, argv.slice(1));
    const builtin = Object.prototype.hasOwnProperty.call(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (builtin) {
      const flow = builtin(this, argv.slice(1));
      if (flow === 'block') this.running.push({ at: this.t, argv, replacedShell: this.replaceNext });
      return flow;
    }
    const result = this.host.onProgram?.(argv, this.t, this.stdin);
    if (!result) {
      // bash, dash (Debian's sh, with the line number) and busybox word it differently.
      this.printErr(
        this.shellName === 'bash'
          ? `bash: ${argv[0]}: command not found\n`
          : this.host.dialect === 'gnu'
            ? `sh: 1: ${argv[0]}: not found\n`
            : `sh: ${argv[0]}: not found\n`,
      );
      this.status = 127;
      return 'ok';
    }
    return this.program(argv, result);
  }

  /** Lines a program prints at their own times: to the log, or as text where stdout is redirected. */
  private emit(lines: readonly LogLine[]): void {
    if (this.sinks[0].kind === 'log') {
      this.flush();
      this.out.push(...lines);
      this.stdoutText += lines.map((l) => `${l.text}\n`).join('');
    } else this.print(lines.map((l) => `${l.text}\n`).join(''));
  }

  private program(argv: readonly string[], result: ProgramResult): Flow {
    if (result.kind === 'runs') {
      this.emit(result.lines);
      if (this.sinks[0].kind === 'log') this.followers.push(...(result.sources ?? []));
      this.running.push({ at: this.t, argv, process: result.process, replacedShell: this.replaceNext });
      return 'block';
    }
    if (result.lines) this.emit(result.lines);
    this.t += Math.max(0, result.afterMs);
    if (result.stdout) this.print(result.stdout);
    if (result.stderr) this.printErr(result.stderr);
    this.status = result.code & 255;
    return 'ok';
  }

  private callFunction(body: Node, args: readonly string[]): Flow {
    const saved = this.args;
    this.args = [...args];
    try {
      const flow = this.exec(body);
      return flow === 'return' ? 'ok' : flow;
    } finally {
      this.args = saved;
    }
  }

  /** `sh -c 'script' [name args…]`, `sh script.sh`, or a bare `sh` (reads an empty stdin and returns). */
  private shell(name: string, args: readonly string[]): Flow {
    let i = 0;
    let script: string | undefined;
    let errexit = false;
    for (; i < args.length && args[i].startsWith('-') && args[i] !== '-'; i++) {
      if (args[i].includes('e') && !args[i].startsWith('--')) errexit = true;
      if (/^-[a-z]*c[a-z]*$/.test(args[i])) {
        script = args[i + 1];
        i += 2;
        break;
      }
    }
    if (script === undefined) {
      const file = args[i];
      if (file === undefined) {
        // No script and stdin is empty (no TTY): the shell reads EOF and exits.
        script = this.stdin;
      } else {
        script = this.host.fs?.read(this.path(file), this.t);
        if (script === undefined) {
          this.printErr(`${name}: can't open '${file}': No such file or directory\n`);
          this.status = 127;
          return 'ok';
        }
        i++;
      }
    }
    const statements = parseScript(script);
    const positional = args.slice(i + 1);
    if (this.replaceNext) {
      // The container's own shell (or an exec'd one) runs the script itself.
      this.shellName = name === 'bash' ? 'bash' : 'sh';
      this.errexit = this.errexit || errexit;
      this.args = positional;
      // A script of one simple command: the shell execs it (busybox, dash and bash all do), so it is PID 1.
      this.replaceNext = statements.length === 1 && statements[0].node.kind === 'simple' && !statements[0].background;
      const flow = this.run(statements);
      this.replaceNext = false;
      return flow;
    }
    return this.subshell(statements, positional, name, errexit);
  }

  subshell(statements: readonly Statement[], args: string[], name = this.shellName, errexit = false): Flow {
    const sub = this.child(this.nested);
    sub.shellName = name === 'bash' ? 'bash' : 'sh';
    sub.args = args;
    sub.errexit = errexit;
    const flow = sub.run(statements);
    this.absorb(sub);
    this.loops.push(...sub.loops);
    this.t = sub.t;
    this.status = sub.status;
    return flow === 'exit' || flow === 'return' ? 'ok' : flow;
  }

  private simple(words: readonly (readonly { text: string; quote: 'none' | 'single' | 'double' }[])[]): Flow {
    const argv = words.flatMap((w) => expandFields(w, this));
    if (argv.length === 0) {
      this.status = 0;
      return 'ok';
    }
    return this.command(argv);
  }
}

/** A case pattern: quoted parts match literally. */
function patternText(word: readonly { text: string; quote: 'none' | 'single' | 'double' }[], scope: Shell): string {
  return word
    .map((p) =>
      p.quote === 'none'
        ? expandText(p.text, false, scope)
        : expandText(p.text, p.quote === 'double', scope).replace(/[*?[\]\\]/g, '\\$&'),
    )
    .join('');
}

function neverRuns(loop: WhileLoop): boolean {
  const word = singleWord(loop.condition);
  return loop.kind === 'while' ? word === 'false' : word === 'true' || word === ':';
}

function singleWord(statements: readonly Statement[]): string {
  const only = statements.length === 1 ? statements[0].node : undefined;
  return only?.kind === 'simple' && only.words.length === 1 && only.redirects.length === 0
    ? wordText(only.words[0])
    : '';
}

/** `while true`, `while :`, `until false` with a body that never leaves the loop. */
function isEndless(loop: WhileLoop): boolean {
  const word = singleWord(loop.condition);
  const endless = loop.kind === 'while' ? word === 'true' || word === ':' : word === 'false';
  return endless && !leaves(loop.body);
}

/** The statements can leave their loop (`break`, `exit`, `return`, `exec`). */
function leaves(statements: readonly Statement[]): boolean {
  return statements.some((s) => nodeLeaves(s.node));
}

function nodeLeaves(node: Node): boolean {
  switch (node.kind) {
    case 'simple': {
      const first = node.words[0] ? wordText(node.words[0]) : '';
      return first === 'break' || first === 'exit' || first === 'return' || first === 'exec';
    }
    case 'pipeline':
      return node.commands.some(nodeLeaves);
    case 'not':
      return nodeLeaves(node.node);
    case 'if':
      return node.branches.some((b) => leaves(b.condition) || leaves(b.body)) || leaves(node.otherwise ?? []);
    case 'case':
      return node.arms.some((a) => leaves(a.body));
    case 'group':
    case 'subshell':
      return leaves(node.body);
    case 'while':
    case 'until':
    case 'for':
      // `break` inside an inner loop leaves that loop; `exit` leaves everything.
      return containsExit(node.body);
    default:
      return false;
  }
}

function containsExit(statements: readonly Statement[]): boolean {
  return statements.some((s) => {
    const n = s.node;
    if (n.kind === 'simple') return n.words[0] !== undefined && ['exit', 'exec'].includes(wordText(n.words[0]));
    if (n.kind === 'if') return n.branches.some((b) => containsExit(b.body)) || containsExit(n.otherwise ?? []);
    if (n.kind === 'group' || n.kind === 'while' || n.kind === 'until' || n.kind === 'for') return containsExit(n.body);
    if (n.kind === 'case') return n.arms.some((a) => containsExit(a.body));
    return false;
  });
}

// ---- endless loops, lazily --------------------------------------------------

interface Iteration {
  lines: LogLine[];
  writes: FileEvent[];
  end: number;
  vars: Map<string, string>;
  flow: Flow;
}

function iterate(host: ShellHost, loop: LoopState, vars: ReadonlyMap<string, string>, start: number): Iteration {
  const scratch = host.fs ? new ScratchFs(host.fs) : undefined;
  const sh = new Shell({ ...host, fs: scratch }, start, new Map(vars), true, 1, new Map(loop.functions));
  sh.args = [...loop.args];
  const flow = sh.run(loop.node.body);
  sh.flush();
  return { lines: sh.out, writes: scratch?.writes ?? [], end: sh.t, vars: sh.vars, flow };
}

const isInt = (v: string | undefined): v is string => v !== undefined && /^-?\d+$/.test(v);

/**
 * The variables at the start of iteration `k`, from the first three: a
 * variable that moves by the same step each time is a counter; one that
 * settles keeps its value; anything else is simulated iteration by iteration.
 */
function variablesAt(
  host: ShellHost,
  loop: LoopState,
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

export interface PeriodicLoop {
  source?: LineSource;
  first: number;
  period: number;
  /** File writes of iteration `k`. */
  writes?: (k: number, start: number) => FileEvent[];
}

function loopSource(host: ShellHost, loop: LoopState): PeriodicLoop {
  const first = iterate(host, loop, loop.vars, loop.at);
  if (first.flow !== 'ok' && first.flow !== 'continue')
    return { source: fixedLines(first.lines), first: loop.at, period: 0 };
  const second = iterate(host, loop, first.vars, first.end);
  const period = first.end > loop.at ? first.end - loop.at : BUSY_LOOP_PERIOD;
  const varsAt = variablesAt(host, loop, loop.vars, first.vars, second.vars);
  const render = (k: number, start: number) => (k === 0 ? first : iterate(host, loop, varsAt(k), start));
  const prints = first.lines.length > 0 || second.lines.length > 0;
  const writes = first.writes.length > 0 || second.writes.length > 0;
  const shift = (e: FileEvent, start: number): FileEvent =>
    // A busy loop's iterations all run at their start instant (it is rendered once a second).
    first.end === loop.at ? { ...e, at: start } : e;
  return {
    source: prints
      ? periodicLines({
          first: loop.at,
          period,
          render: (k, start) => {
            const it = render(k, start);
            return first.end === loop.at ? it.lines.map((l) => ({ at: start, text: l.text })) : it.lines;
          },
        })
      : undefined,
    first: loop.at,
    period,
    writes: writes ? (k, start) => render(k, start).writes.map((e) => shift(e, start)) : undefined,
  };
}

/** What a script did, started at `start`. */
export interface ScriptRun {
  /** Its log: the lines so far, then any endless loop's and `tail -f`'s lines. */
  sources: LineSource[];
  /** `ok`/`exit`: it ended, with `status`, at `end`; `block`/`loop`: it runs until stopped. */
  flow: Flow;
  status: number;
  end: number;
  /** Endless loops (their file writes, for the filesystem timeline). */
  loops: PeriodicLoop[];
  running: readonly RunningProgram[];
  /** The shell is still PID 1 (the script did not exec a program): signals go to the shell. */
  shellIsPid1: boolean;
  traps: ReadonlyMap<string, string>;
  stdout: string;
  stderr: string;
  unsupported?: string;
}

/** Runs a script (`sh -c` text) or an exec-form argv, started at `start`. */
export function runScript(script: string | readonly string[], host: ShellHost, start: number): ScriptRun {
  const sh = new Shell(host, start, new Map(host.env), false);
  let flow: Flow;
  if (typeof script === 'string') flow = sh.run(parseScript(script));
  else if (script.length === 0) flow = 'ok';
  else {
    // The container's process is argv[0]: a shell runs its script itself; a program is PID 1.
    sh.replaceProcess();
    flow = sh.command(script);
  }
  sh.flush();
  const loops = sh.loops.map((l) => loopSource(host, l));
  const sources: LineSource[] = [fixedLines(sh.out), ...sh.followers];
  for (const l of loops) if (l.source) sources.push(l.source);
  const blocked = flow === 'block' || flow === 'loop';
  return {
    sources,
    flow: flow === 'return' || flow === 'break' || flow === 'continue' ? 'ok' : flow,
    status: sh.status,
    end: sh.t,
    loops,
    running: sh.running,
    shellIsPid1: blocked && !sh.running.some((r) => r.replacedShell),
    traps: sh.traps,
    stdout: sh.stdoutText,
    stderr: sh.stderrText,
    unsupported: sh.unsupported,
  };
}
