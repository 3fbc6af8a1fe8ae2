/** Process entry of the `kube-reconcile` bin (bundled to dist/cli.js). */
import { main } from './main';
import { isValidateWorker, serveValidateWorker } from './validatePool';

// `validate --jobs` starts this same script in worker threads.
if (isValidateWorker()) serveValidateWorker();
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
