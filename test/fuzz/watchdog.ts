/**
 * A watchdog for synchronous properties: a hang (an input on which the code under test loops forever) cannot be
 * interrupted on its own thread, and fast-check's time limits only apply between inputs, so a hung run used to end
 * with nothing printed — no seed, no input. `watched(property, label)` tells a watchdog thread about every input
 * before the predicate runs (through shared memory, no message the stuck thread would have to deliver); when one
 * input runs longer than the limit, the watchdog writes the label, the seed and the input to stderr itself and ends
 * the process, so a test run or `npm run fuzz` fails with the input that hung instead of stalling until CI's limit.
 */
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';

/** How long one input may run before the watchdog calls it a hang. Generous: a slow CI host must never trip it. */
export const DEFAULT_HANG_LIMIT_MS = 60_000;

/** The bytes of the latest input kept for the report (a longer input is cut, and says so). */
const INPUT_BYTES = 64 * 1024;

// Plain JavaScript: a worker started from source needs no TypeScript loader. It polls the input counter; the
// thread under test bumps it before each input.
const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const { state, input, label, limitMs } = workerData;
let seen = -1;
let since = Date.now();
setInterval(() => {
  const count = Atomics.load(state, 0);
  if (count !== seen) {
    seen = count;
    since = Date.now();
    return;
  }
  if (count === 0 || Date.now() - since < limitMs) return;
  const length = Atomics.load(state, 1);
  const cut = Atomics.load(state, 2) === 1 ? ' (cut)' : '';
  const text = new TextDecoder().decode(input.slice(0, length));
  writeSync(2, '\\n' + label + ': input #' + count + ' has run for over ' + Math.round(limitMs / 1000) +
    ' s — it hangs. The input' + cut + ':\\n' + text + '\\n');
  process.kill(process.pid, 'SIGTERM');
}, 250);
`;

export class Watchdog {
  /** [inputs seen, bytes of the latest input, 1 when it was cut]. */
  private readonly state = new Int32Array(new SharedArrayBuffer(12));
  private readonly input = new Uint8Array(new SharedArrayBuffer(INPUT_BYTES));
  private readonly encoder = new TextEncoder();
  private readonly worker: Worker;

  constructor(label: string, limitMs = DEFAULT_HANG_LIMIT_MS) {
    this.worker = new Worker(WATCHDOG_SOURCE, {
      eval: true,
      workerData: { state: this.state, input: this.input, label, limitMs },
      // The worker is plain JavaScript: it needs none of the parent's loaders.
      execArgv: [],
    });
    // A finished run must not wait for the watchdog.
    this.worker.unref();
  }

  /** Call before running an input: its text is what a hang report shows. */
  feed(text: string): void {
    const { read, written } = this.encoder.encodeInto(text, this.input);
    Atomics.store(this.state, 1, written);
    Atomics.store(this.state, 2, read < text.length ? 1 : 0);
    Atomics.add(this.state, 0, 1);
  }

  /** How many inputs were fed. */
  get fed(): number {
    return Atomics.load(this.state, 0);
  }

  stop(): Promise<number> {
    return this.worker.terminate();
  }
}

/**
 * `property`, with each input fed to `dog` (as fast-check prints it) before the predicate runs. Only the predicate is
 * watched: generation and shrinking run between inputs.
 */
export function watched<Ts extends [unknown, ...unknown[]]>(
  property: fc.IPropertyWithHooks<Ts>,
  dog: Watchdog,
  seed: number,
): fc.IPropertyWithHooks<Ts> {
  return new Proxy(property, {
    get(target, key, receiver) {
      if (key === 'run')
        return (v: Ts) => {
          dog.feed(`seed ${seed}: ${fc.stringify(v)}`);
          return target.run(v);
        };
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
