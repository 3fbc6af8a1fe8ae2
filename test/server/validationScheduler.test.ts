import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { ValidationScheduler } from '../../server/src/handlers/validationScheduler';
import type { VersionedDocument } from '../../server/src/handlers/validationScheduler';

describe('ValidationScheduler', () => {
  test('debounces per document, runs only the newest version, and drops runs on cancel', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const runs: string[] = [];
    const scheduler = new ValidationScheduler<VersionedDocument>(150, (doc, isCurrent) =>
      runs.push(`${doc.uri}@${doc.version}:${isCurrent()}`),
    );

    scheduler.schedule({ uri: 'a', version: 1 });
    t.mock.timers.tick(100);
    scheduler.schedule({ uri: 'a', version: 2 });
    scheduler.schedule({ uri: 'b', version: 1 });
    t.mock.timers.tick(149);
    assert.deepEqual(runs, []);
    t.mock.timers.tick(1);
    assert.deepEqual(runs, ['a@2:true', 'b@1:true']);

    scheduler.schedule({ uri: 'a', version: 3 });
    scheduler.cancel('a');
    t.mock.timers.tick(1000);
    assert.deepEqual(runs, ['a@2:true', 'b@1:true']);
  });

  test('a run learns when it has been superseded or closed', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const checks: Array<() => boolean> = [];
    const scheduler = new ValidationScheduler<VersionedDocument>(10, (_doc, isCurrent) => checks.push(isCurrent));
    scheduler.schedule({ uri: 'a', version: 1 });
    t.mock.timers.tick(10);
    assert.equal(checks[0](), true);
    scheduler.schedule({ uri: 'a', version: 2 });
    assert.equal(checks[0](), false);
    scheduler.dispose();
    t.mock.timers.tick(10);
    assert.equal(checks.length, 1);
  });
});
