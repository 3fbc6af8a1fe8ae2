/**
 * Entry point of the sandbox worker thread (bundled as dist/sandboxWorker.js):
 * wires the host's port to the dispatcher. Never imports `vscode`.
 */
import { parentPort } from 'node:worker_threads';
import type { WorkerMessage } from '../sandbox/protocol';
import { Dispatcher } from './dispatcher';

if (!parentPort) throw new Error('the sandbox worker must run in a worker thread');
const port = parentPort;
const dispatcher = new Dispatcher((m: WorkerMessage) => port.postMessage(m));
port.on('message', (raw: unknown) => dispatcher.handle(raw));
port.on('close', () => dispatcher.dispose());
