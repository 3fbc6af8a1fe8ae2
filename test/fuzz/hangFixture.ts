/**
 * A property that hangs on one input, for test/fuzz/watchdog.test.ts: run as its own process, it must be ended by
 * the watchdog with the input on stderr.
 */
import fc from 'fast-check';
import { Watchdog, watched } from './watchdog';

const seed = 7;
const dog = new Watchdog('hang fixture', Number(process.argv[2] ?? 1000));
fc.assert(
  watched(
    fc.property(fc.constantFrom('fine', 'also fine', 'loop'), (s) => {
      if (s === 'loop') for (;;);
    }),
    dog,
    seed,
  ),
  { seed, numRuns: 100 },
);
void dog.stop();
console.log('finished without hanging');
