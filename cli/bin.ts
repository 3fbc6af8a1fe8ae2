/**
 * Process entry of the `kube-reconcile` bin (bundled to dist/cli.js). It loads only what the command line needs:
 * `--version` and `--help` no check at all, `validate` its checks, the other commands dist/cli-full.js.
 */
import { main } from './main';
import { isValidateWorker } from './validateWorkerRole';

// `validate --jobs` starts this same script in worker threads. (Messages the main thread sends meanwhile wait in the
// port until the worker listens; a failure to load rejects, which ends the worker with an error the pool reports.)
if (isValidateWorker()) void import('./validatePool').then(({ serveValidateWorker }) => serveValidateWorker());
else runCli();

function runCli(): void {
  main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() }).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(
        `kube-reconcile: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
      );
      process.exitCode = 1;
    },
  );
}
