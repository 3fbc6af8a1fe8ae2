/**
 * The interfaces between the interpreter (`run.ts`), the commands it knows (`commands.ts`) and the kubelet that
 * hosts a script, so that the commands need not import the interpreter that runs them.
 */
import type { LogLine } from '../lineSource';
import type { Statement } from './parse';

export interface ShellHost {
  /** The environment the script starts with, in order. */
  readonly env: ReadonlyMap<string, string>;
  readonly hostname: string;
  /** A file's text, for the files the sandbox projects (ConfigMap and Secret volumes); undefined for anything else. */
  readFile?(path: string): string | undefined;
  /**
   * What a program the interpreter does not know prints as it starts, before it runs until stopped (e.g. the image's
   * server).
   */
  onProgram?(argv: readonly string[], at: number): LogLine[];
}

/** How a run of statements ended. */
export type Flow = 'ok' | 'exit' | 'block' | 'loop';

/** What a command sees of the shell running it. */
export interface CommandShell {
  /** `$?`: the exit status of the last command. */
  status: number;
  /** The script's clock (ms): `sleep` moves it. */
  t: number;
  readonly vars: Map<string, string>;
  readonly host: ShellHost;
  /** Text on stdout. */
  print(text: string): void;
  /** Runs statements in this shell (as `sh -c` does with its script). */
  run(statements: readonly Statement[]): Flow;
}
