/**
 * The interfaces between the interpreter (`run.ts`), the commands it knows
 * (`commands.ts`) and what hosts a script — a container's main process, an
 * exec probe, `kubectl exec` — so that the commands need not import the
 * interpreter that runs them.
 */
import type { LineSource, LogLine } from '../logs/lineSource';
import type { Statement } from './parse';

/** A filesystem error, by errno name. */
export type FsError = 'ENOENT' | 'EISDIR' | 'ENOTDIR' | 'EROFS' | 'EEXIST' | 'ENOTEMPTY' | 'EBUSY';

/** The container's files as the shell sees them, at a time (`t`, clock ms). */
export interface ShellFs {
  stat(path: string, t: number): 'file' | 'dir' | undefined;
  /** A file's text; undefined when it is not a file. */
  read(path: string, t: number): string | undefined;
  list(dir: string, t: number): string[] | undefined;
  write(path: string, text: string, t: number, append: boolean): FsError | undefined;
  remove(path: string, t: number, recursive: boolean): FsError | undefined;
  mkdir(path: string, t: number, parents: boolean): FsError | undefined;
  /** What `tail -f` prints of `path` after `from`. */
  follow?(path: string, from: number): LineSource | undefined;
}

/** A DNS answer: the name as resolved (search domains applied) and its address, or none (NXDOMAIN). */
export interface Resolution {
  fqdn: string;
  address?: string;
}

/** What a program the interpreter does not know does, as its host decides. */
export type ProgramResult =
  /** It runs and ends: after `afterMs`, with `code`, having printed `stdout`/`stderr` (at its end). */
  | {
      kind: 'exit';
      afterMs: number;
      code: number;
      stdout?: string;
      stderr?: string;
      /** Lines it prints while it runs, at their own times (instead of `stdout` at the end). */
      lines?: LogLine[];
    }
  /** It runs until stopped (a server), printing `lines`; `process` is the host's description of it. */
  | { kind: 'runs'; lines: LogLine[]; sources?: LineSource[]; process?: unknown };

export interface ShellHost {
  /** The environment the script starts with, in order. */
  readonly env: ReadonlyMap<string, string>;
  readonly hostname: string;
  /** The container's files; without one, every path is missing. */
  readonly fs?: ShellFs;
  /** Error messages as busybox (Alpine, BusyBox) or GNU coreutils and bash (Debian, Ubuntu…) word them. */
  readonly dialect?: 'busybox' | 'gnu';
  /** A program the interpreter does not know, started at `at` with `stdin`: what it does (undefined: not found). */
  onProgram?(argv: readonly string[], at: number, stdin: string): ProgramResult | undefined;
  /** The pod's IP (`hostname -i`). */
  readonly podIP?: string;
  /** The cluster DNS as the container's resolver sees it at `t` (`nslookup`, `getent hosts`); none: not simulated. */
  resolve?(name: string, t: number): Resolution;
  /** How `nslookup` prints: busybox up to 1.28, later busybox, or bind's (Debian's dnsutils). */
  readonly nslookupStyle?: 'busybox-1.28' | 'busybox' | 'bind';
  /** A seeded random number in [0, 32768) for `$RANDOM`, by draw index. */
  random?(t: number, draw: number): number;
}

/** How a run of statements ended. */
export type Flow = 'ok' | 'exit' | 'block' | 'loop' | 'break' | 'continue' | 'return';

/** What a command sees of the shell running it. */
export interface CommandShell {
  /** `$?`: the exit status of the last command. */
  status: number;
  /** The script's clock (ms): `sleep` moves it. */
  t: number;
  readonly vars: Map<string, string>;
  /** `$1`…: the positional parameters. */
  args: string[];
  readonly host: ShellHost;
  /** Standard input of the running command ('' when empty); `read` consumes it. */
  stdin: string;
  /** `set -e`. */
  errexit: boolean;
  /** A variable's value (for arithmetic). */
  get(name: string): string | undefined;
  /** The running command's name as shells print it in errors (`sh`, `bash`). */
  readonly shellName: string;
  /** Text on stdout. */
  print(text: string): void;
  /** Text on stderr. */
  printErr(text: string): void;
  /** Runs statements in this shell (as `sh -c` does with its script). */
  run(statements: readonly Statement[]): Flow;
  /** Runs a command line in a child shell (`sh -c`), with a copy of the variables. */
  subshell(statements: readonly Statement[], args: string[]): Flow;
  /** Runs an argv (after expansion): builtins, functions, then the host's programs. */
  command(argv: readonly string[]): Flow;
  /** Loop control: `break N` / `continue N`. */
  loopControl(kind: 'break' | 'continue', levels: number): Flow;
  /** Records a source of lines that keep coming (`tail -f`). */
  follow(source: LineSource): void;
  /** Resolves a path against `$PWD`. */
  path(p: string): string;
  /** `trap`: the command to run on a signal. */
  readonly traps: Map<string, string>;
  /** Jobs started with `&` are still running (for `wait`). */
  backgroundRunning(): boolean;
}
