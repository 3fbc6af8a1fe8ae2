// Test-only bootstrap: a worker that reads every message and never answers.
import { parentPort } from 'node:worker_threads';

parentPort.on('message', () => {});
