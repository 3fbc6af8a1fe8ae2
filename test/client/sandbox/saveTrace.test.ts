/** The save trace (bench/extension's): off without the variable, JSON lines with it, and the breakdown read back. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { deploymentsIn, readTrace, saveTraceFrom, SAVE_TRACE_ENV } from '../../../client/src/sandbox/saveTrace';
import type { TraceLine } from '../../../client/src/sandbox/saveTrace';
import { breakdown } from '../../../bench/extension/breakdown';

describe('save trace', () => {
  test('off unless the environment names a file: nothing is written', () => {
    const written: string[] = [];
    const trace = saveTraceFrom('host', {}, (_f, l) => void written.push(l));
    trace.mark('save');
    assert.equal(trace.enabled, false);
    assert.deepEqual(written, []);
  });

  test('one JSON line per mark, read back in order; a broken line is skipped', () => {
    const written: string[] = [];
    const trace = saveTraceFrom('worker', { [SAVE_TRACE_ENV]: '/tmp/x' }, (f, l) => {
      assert.equal(f, '/tmp/x');
      written.push(l);
    });
    trace.mark('apply', { sandboxTime: 5 });
    trace.mark('applied');
    const lines = readTrace(`${written.join('')}{"t":`);
    assert.deepEqual(
      lines.map((l) => [l.thread, l.stage, l.sandboxTime]),
      [
        ['worker', 'apply', 5],
        ['worker', 'applied', undefined],
      ],
    );
    assert.ok(lines[1].t >= lines[0].t);
  });

  test('a failing write never throws into a save', () => {
    const trace = saveTraceFrom('host', { [SAVE_TRACE_ENV]: '/nowhere' }, () => {
      throw new Error('EACCES');
    });
    assert.doesNotThrow(() => trace.mark('save'));
  });

  test('deployments are summarised with their readiness', () => {
    const deployment = (ready?: number) => ({
      resource: 'deployments',
      object: {
        metadata: { namespace: 'default', name: 'web' },
        spec: { replicas: 3 },
        status: { readyReplicas: ready },
      },
    });
    const other = { resource: 'pods', object: { metadata: { namespace: 'default', name: 'p' } } };
    assert.deepEqual(deploymentsIn([deployment(), other, deployment(3)]), ['default/web 0/3', 'default/web 3/3']);
  });

  test('the breakdown splits keydown → row shown by the stages found, in path order', () => {
    const at = (t: number, thread: TraceLine['thread'], stage: string, extra: Record<string, unknown> = {}) => ({
      t,
      thread,
      stage,
      ...extra,
    });
    const ready = ['default/web 3/3'];
    const trace: TraceLine[] = [
      at(5, 'host', 'willSave'),
      at(2, 'host', 'refresh'), // before the keydown: not this save's
      at(20, 'host', 'save'),
      at(21, 'host', 'parsed'),
      at(22, 'host', 'verdict'),
      at(23, 'host', 'request', { method: 'plan' }),
      at(24, 'host', 'request', { method: 'applyFile' }),
      at(25, 'worker', 'apply', { sandboxTime: 1000 }),
      at(27, 'worker', 'applied'),
      at(40, 'worker', 'plan'),
      at(70, 'worker', 'planned'),
      at(90, 'worker', 'watch', { deployments: ['default/web 2/3'], sandboxTime: 2000 }),
      at(100, 'worker', 'watch', { deployments: ready, sandboxTime: 3000 }),
      at(101, 'worker', 'flush', { deployments: ready }),
      at(103, 'host', 'changes', { deployments: ready }),
      at(110, 'host', 'refresh'),
      at(200, 'host', 'refresh'), // after the row was seen
    ];
    const b = breakdown(trace, 0, 150, 'default/web 3/3');
    assert.deepEqual(b.stages, {
      willSave: 5,
      save: 15,
      parsed: 1,
      verdict: 1,
      request: 2,
      apply: 1,
      applied: 2,
      ready: 73,
      flush: 1,
      changes: 2,
      refresh: 7,
      shown: 40,
    });
    assert.equal(b.total, 150);
    assert.equal(b.overhead, 150 - 20 - 75, 'less the save (0 → 20) and the convergence (25 → 100)');
    assert.equal(b.sandboxMs, 2000);
    assert.equal(b.plans, 1);
    assert.equal(b.planMs, 30);
    assert.equal(b.batches, 1);
  });

  test('a missing mark leaves its stage out; the next stage counts from the last one found', () => {
    const trace: TraceLine[] = [
      { t: 10, thread: 'host', stage: 'save' },
      { t: 30, thread: 'host', stage: 'refresh' },
    ];
    const b = breakdown(trace, 0, 50, 'default/web 1/1');
    assert.deepEqual(b.stages, { save: 10, refresh: 20, shown: 20 });
    assert.equal(b.sandboxMs, undefined);
  });
});
