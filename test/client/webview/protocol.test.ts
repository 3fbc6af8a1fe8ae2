/** The webview protocol's validators: what each side accepts from the other. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isHostMessage, isWebviewMessage, MAX_EDIT_BYTES } from '../../../client/src/webview/protocol';

describe('isWebviewMessage', () => {
  const valid: unknown[] = [
    { type: 'ready' },
    { type: 'refresh' },
    { type: 'openManifest' },
    { type: 'editLive', id: 3, yaml: 'apiVersion: v1\n' },
    { type: 'openObject', ref: { resource: 'deployments', namespace: 'default', name: 'web' } },
    { type: 'openObject', ref: { resource: 'nodes', name: 'node-1' } },
    { type: 'syncAction', action: 'sync' },
    { type: 'syncAction', action: 'revertLive' },
    { type: 'syncAction', action: 'updateManifestFromLive' },
    { type: 'openStep', step: 12 },
  ];
  for (const m of valid) test(`accepts ${JSON.stringify(m)}`, () => assert.equal(isWebviewMessage(m), true));

  const invalid: [string, unknown][] = [
    ['null', null],
    ['a string', 'ready'],
    ['an array', [{ type: 'ready' }]],
    ['an unknown type', { type: 'deleteEverything' }],
    ['a prototype key as type', { type: 'constructor' }],
    ['an extra field', { type: 'ready', extra: 1 }],
    ['editLive without id', { type: 'editLive', yaml: 'a: 1' }],
    ['editLive with a negative id', { type: 'editLive', id: -1, yaml: 'a: 1' }],
    ['editLive with a fractional id', { type: 'editLive', id: 1.5, yaml: 'a: 1' }],
    ['editLive with non-string yaml', { type: 'editLive', id: 1, yaml: { a: 1 } }],
    ['editLive larger than the limit', { type: 'editLive', id: 1, yaml: 'x'.repeat(MAX_EDIT_BYTES + 1) }],
    ['openObject without ref', { type: 'openObject' }],
    ['openObject with an empty name', { type: 'openObject', ref: { resource: 'pods', name: '' } }],
    ['openObject with an extra ref field', { type: 'openObject', ref: { resource: 'pods', name: 'a', uid: 'x' } }],
    ['openObject with a numeric namespace', { type: 'openObject', ref: { resource: 'pods', namespace: 1, name: 'a' } }],
    ['syncAction naming another command', { type: 'syncAction', action: 'delete' }],
    ['syncAction with a ref (it acts on the object the view shows)', { type: 'syncAction', action: 'sync', ref: {} }],
    ['openStep with a file (the host knows the step’s file)', { type: 'openStep', step: 1, file: '/etc/passwd' }],
    ['openStep with a fractional step', { type: 'openStep', step: 1.5 }],
    ['openStep without a step', { type: 'openStep' }],
  ];
  for (const [name, m] of invalid) test(`rejects ${name}`, () => assert.equal(isWebviewMessage(m), false));
});

describe('isHostMessage', () => {
  const ref = { resource: 'deployments', namespace: 'default', name: 'web' };
  const objectState = {
    view: 'object',
    ref,
    title: 'deployment/web',
    kind: 'Deployment',
    diff: [],
    events: [],
    health: { status: 'Healthy', message: '' },
  };
  test('accepts an object state, an overview state and an edit result', () => {
    assert.equal(isHostMessage({ type: 'state', state: objectState }), true);
    assert.equal(
      isHostMessage({
        type: 'state',
        state: { view: 'overview', health: { status: 'Degraded', message: 'x' }, rows: [{ ref, kind: 'Deployment' }] },
      }),
      true,
    );
    assert.equal(isHostMessage({ type: 'editResult', id: 1, ok: false, message: 'no' }), true);
    const sync = { status: 'OutOfSync', message: 'OutOfSync: spec.replicas differs from web.yaml:9' };
    assert.equal(isHostMessage({ type: 'state', state: { ...objectState, sync } }), true);
  });
  test('rejects unknown views, bad health codes, bad rows and foreign messages', () => {
    assert.equal(isHostMessage({ type: 'state', state: { ...objectState, view: 'other' } }), false);
    assert.equal(
      isHostMessage({ type: 'state', state: { ...objectState, health: { status: 'Fine', message: '' } } }),
      false,
    );
    assert.equal(
      isHostMessage({
        type: 'state',
        state: { view: 'overview', health: { status: 'Healthy', message: '' }, rows: [{ kind: 'Deployment' }] },
      }),
      false,
    );
    assert.equal(isHostMessage({ type: 'editResult', id: 1, ok: 'yes', message: '' }), false);
    assert.equal(
      isHostMessage({ type: 'state', state: { ...objectState, sync: { status: 'Behind', message: '' } } }),
      false,
    );
    assert.equal(isHostMessage({ vscodeScheduleAsyncWork: 1 }), false);
  });
});
