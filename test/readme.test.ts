/**
 * The README's simulate example shows real output: every line of it (the
 * events are abridged, so those are checked line by line) must be what the
 * command prints today.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { main } from '../cli/main';

test('the README simulate example is the real output', async () => {
  const root = join(__dirname, '..');
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const command = /node dist\/cli\.js (simulate [^\n]+)\n/.exec(readme);
  assert.ok(command, 'README has a simulate command');
  const block = /The real output \(events abridged\):\n\n```\n([\s\S]*?)```/.exec(readme);
  assert.ok(block, 'README has the output block');
  let stdout = '';
  const code = await main(command[1].split(' '), {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: () => undefined },
    cwd: root,
  });
  assert.equal(code, 0);
  const shown = block[1].split('\n').filter((l) => l !== '' && l !== '…');
  const eventsAt = shown.findIndex((l) => l.startsWith('LAST SEEN'));
  const actual = stdout.split('\n');
  assert.deepEqual(
    shown.slice(0, eventsAt + 1),
    actual.slice(0, actual.indexOf(shown[eventsAt]) + 1).filter((l) => l !== ''),
  );
  for (const line of shown.slice(eventsAt + 1)) assert.ok(actual.includes(line), `event line printed: ${line}`);
});
