/**
 * When a save applies a file, what the user hears when it does not, and the
 * start-up question; the summary line after an apply.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  LANGUAGE_SERVER_SOURCE,
  decideSave,
  decideStartup,
  STARTUP_APPLY,
  STARTUP_SKIP,
  startupAnswer,
} from '../../../client/src/model/applyDecision';
import type { SaveFacts } from '../../../client/src/model/applyDecision';
import { applyCounts, applySummary } from '../../../client/src/model/applySummary';
import { DIAGNOSTIC_SOURCE } from '../../../server/src/services/diagnostic';

const save = (f: Partial<SaveFacts> = {}): SaveFacts => ({
  kind: 'explicit',
  applyOn: 'explicitSave',
  inDesiredState: true,
  errors: 0,
  relevant: true,
  ...f,
});

describe('decideSave', () => {
  test('an explicit save of a clean manifest applies; so does any save with applyOn anySave', () => {
    assert.deepEqual(decideSave('web.yaml', save()), { apply: true });
    assert.deepEqual(decideSave('web.yaml', save({ kind: 'afterDelay', applyOn: 'anySave' })), { apply: true });
    assert.deepEqual(decideSave('web.yaml', save({ kind: 'focusOut', applyOn: 'anySave' })), { apply: true });
  });

  test('auto-saves (after a delay, on focus change) do not apply by default, and say how to apply', () => {
    for (const kind of ['afterDelay', 'focusOut'] as const)
      assert.deepEqual(decideSave('web.yaml', save({ kind })), {
        apply: false,
        why: 'autoSave',
        message: 'web.yaml auto-saved, not applied: Ctrl+S applies it',
        offerApplyAnyway: false,
      });
  });

  test('errors keep a save from applying; an explicit save offers to apply regardless', () => {
    assert.deepEqual(decideSave('web.yaml', save({ errors: 1 })), {
      apply: false,
      why: 'errors',
      message: 'web.yaml not applied: 1 error',
      offerApplyAnyway: true,
    });
    assert.deepEqual(decideSave('web.yaml', save({ errors: 2, kind: 'afterDelay', applyOn: 'anySave' })), {
      apply: false,
      why: 'errors',
      message: 'web.yaml not applied: 2 errors',
      offerApplyAnyway: false,
    });
    // The auto-save rule comes first: nothing would have been applied anyway.
    assert.equal(decideSave('web.yaml', save({ errors: 1, kind: 'afterDelay' })).apply, false);
  });

  test('never, or outside the desired state: not applied, said only on an explicit save of a manifest', () => {
    assert.deepEqual(decideSave('web.yaml', save({ applyOn: 'never' })), {
      apply: false,
      why: 'never',
      message: 'web.yaml not applied: kubeReconcile.applyOn is never',
      offerApplyAnyway: false,
    });
    assert.deepEqual(decideSave('ci.yaml', save({ inDesiredState: false })), {
      apply: false,
      why: 'outside',
      message: 'ci.yaml not applied: not in kubeReconcile.desiredState',
      offerApplyAnyway: false,
    });
    assert.deepEqual(decideSave('ci.yaml', save({ inDesiredState: false, kind: 'afterDelay' })), {
      apply: false,
      why: 'outside',
      offerApplyAnyway: false,
    });
  });

  test('a YAML file that declares nothing (and never did) is left alone, silently', () => {
    for (const f of [
      save({ relevant: false }),
      save({ relevant: false, errors: 3 }),
      save({ relevant: false, kind: 'afterDelay' }),
    ])
      assert.equal(
        decideSave('ci.yaml', f).apply === false && (decideSave('ci.yaml', f) as { message?: string }).message,
        undefined,
      );
  });

  test("the errors counted are the language server's: its diagnostics' source", () => {
    assert.equal(LANGUAGE_SERVER_SOURCE, DIAGNOSTIC_SOURCE);
  });
});

describe('decideStartup', () => {
  test('always and never are obeyed; ask asks once, then follows the remembered answer', () => {
    assert.equal(decideStartup('always', 'never'), 'apply');
    assert.equal(decideStartup('never', 'always'), 'skip');
    assert.equal(decideStartup('ask', undefined), 'ask');
    assert.equal(decideStartup('ask', 'always'), 'apply');
    assert.equal(decideStartup('ask', 'never'), 'skip');
    assert.equal(startupAnswer(STARTUP_APPLY), 'always');
    assert.equal(startupAnswer(STARTUP_SKIP), 'never');
    assert.equal(startupAnswer(undefined), undefined, 'dismissed: asked again next time');
  });
});

describe('applySummary', () => {
  const ok = (action: 'created' | 'configured' | 'unchanged') => ({ line: 0, message: '', ok: true, action });
  const bad = { line: 0, message: 'invalid', ok: false };

  test('counts what kubectl did per document, then what was pruned or handed back', () => {
    assert.deepEqual(applySummary('web.yaml', { outcomes: [ok('configured'), ok('unchanged')], pruned: [] }), {
      text: 'web.yaml applied: 1 configured, 1 unchanged',
      ok: true,
    });
    assert.deepEqual(
      applySummary('web.yaml', { outcomes: [ok('created'), bad], pruned: ['configmap/a'], reapplied: ['x from y'] }),
      { text: 'web.yaml partly applied: 1 created, 1 rejected, 1 pruned, 1 re-applied from another file', ok: false },
    );
    assert.deepEqual(applySummary('web.yaml', { outcomes: [bad], pruned: [] }), {
      text: 'web.yaml not applied: 1 rejected by the API server',
      ok: false,
    });
    assert.equal(applyCounts({ outcomes: [], pruned: [] }), 'nothing to apply');
  });
});
