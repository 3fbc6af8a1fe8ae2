import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import fc from 'fast-check';
import { Watchdog, watched } from './watchdog';

const FIXTURE = join(__dirname, 'hangFixture.ts');

test('an input that hangs is reported with its seed and text, and the run ends instead of stalling', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', FIXTURE, '1000'], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.signal, 'SIGTERM', r.stderr);
  assert.doesNotMatch(r.stdout, /finished/);
  assert.match(r.stderr, /hang fixture: input #\d+ has run for over 1 s — it hangs\. The input:\nseed 7: \["loop"\]\n/);
});

test('a property that ends is not disturbed: every input is fed, and the run finishes', async () => {
  const dog = new Watchdog('quiet', 1000);
  let runs = 0;
  fc.assert(
    watched(
      fc.property(fc.string(), () => {
        runs++;
      }),
      dog,
      3,
    ),
    { seed: 3, numRuns: 50 },
  );
  assert.equal(runs, 50);
  assert.equal(dog.fed, 50);
  await dog.stop();
});
