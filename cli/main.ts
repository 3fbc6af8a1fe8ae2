/**
 * The `kube-reconcile` command: picks a subcommand and turns usage mistakes
 * into exit code 2. New subcommands are one entry in COMMANDS.
 *
 * Each command's module is loaded only when that command runs: `validate` in
 * a pre-commit hook must not pay for the sandbox, the HTTP server and the plan
 * engine. scripts/build.mjs goes further for dist/: `validate` is bundled into
 * dist/cli.js alone, and the other commands run in dist/cli-full.js (see there).
 */
// The version alone: the bundles carry no other field of package.json (its `contributes` is 40 kB).
import { version } from '../package.json';
import { UsageError } from './usageError';
import { EXIT_OK, EXIT_USAGE } from './io';
import type { CliIo } from './io';

type Command = (args: readonly string[], io: CliIo) => Promise<number>;

/** Each command, by name: loads its module, then runs it. */
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  validate: async () => (await import('./validate')).runValidate,
  simulate: async () => (await import('./simulate/command')).runSimulate,
  plan: async () => (await import('./plan')).runPlanCommand,
  serve: async () => {
    const { runServe } = await import('./serve');
    return (args, io) => runServe(args, io);
  },
};

export const MAIN_HELP = `Usage: kube-reconcile <command> [options]

Commands:
  validate <files or folders...>  Report what the API server would reject in
                                  Kubernetes manifests (--format text|json)
  simulate <files or folders...>  Apply manifests to a sandbox cluster and run
                                  it in virtual time (--at, --for, --record)
  plan <files or folders...>      Show what applying manifests would do: diffs,
                                  rollouts, Pending pods, endpoints (--state,
                                  -o json, --fail-on)
  serve [files or folders...]     Run a sandbox cluster in real time and serve
                                  its Kubernetes API for kubectl (--port,
                                  --kubeconfig, --state)

Options:
  -h, --help     Show this help (kube-reconcile <command> --help for a command)
  -v, --version  Print the version
`;

/**
 * Runs the CLI with the user's arguments (`process.argv.slice(2)`) and returns
 * the exit code: 0 success, 1 problems found, 2 usage error. Never throws for
 * user mistakes; writes only through `io`.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '-h' || first === '--help' || first === 'help') {
    io.stdout.write(MAIN_HELP);
    return EXIT_OK;
  }
  if (first === '-v' || first === '--version') {
    io.stdout.write(`${version}\n`);
    return EXIT_OK;
  }
  if (first === undefined) return usage(io, 'no command given');
  const load = Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : undefined;
  if (load === undefined)
    return usage(io, first.startsWith('-') ? `unknown option ${first}` : `unknown command "${first}"`);
  const command = await load();
  try {
    return await command(rest, io);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr.write(`kube-reconcile ${first}: ${e.message}\nRun "kube-reconcile ${first} --help" for usage.\n`);
    return EXIT_USAGE;
  }
}

function usage(io: CliIo, message: string): number {
  io.stderr.write(`kube-reconcile: ${message}\n\n${MAIN_HELP}`);
  return EXIT_USAGE;
}
