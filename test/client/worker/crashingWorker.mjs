// Test-only bootstrap: the sandbox worker (TypeScript via tsx) that exits with code 3
// when asked to explain a pod named `__crash__` — a crash on demand for the host's tests.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

// The worker's own message listener is wrapped, so the exit comes before any reply
// (a listener of our own, added first, would start the port before the worker listens).
const on = parentPort.on.bind(parentPort);
parentPort.on = (event, listener) =>
  on(
    event,
    event !== 'message'
      ? listener
      : (m) => {
          if (m && m.method === 'explain' && m.params && m.params.name === '__crash__') process.exit(3);
          listener(m);
        },
  );
register();
await import('../../../client/src/worker/main.ts');
