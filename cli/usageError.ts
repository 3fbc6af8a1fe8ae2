/**
 * A mistake in the command line (exit code 2). Apart from args.ts, which re-exports it, so that cli/main.ts can
 * catch it without loading the option parser's Kubernetes schema (`--version` and `--help` need neither).
 */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
