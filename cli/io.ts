/** What the CLI touches of its process, injected so tests run it in-process. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  /** Paths on the command line are relative to this folder. */
  readonly cwd: string;
}

/** Process exit codes: 0 clean (or warnings only), 1 some file has errors, 2 the command line was wrong. */
export const EXIT_OK = 0;
export const EXIT_ERRORS = 1;
export const EXIT_USAGE = 2;
