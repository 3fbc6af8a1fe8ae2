/** Sync, Revert Live to Manifest, Update Manifest from Live, and the notification after a self-heal revert. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { COMMANDS } from '../../../client/src/commands/table';
import { selfHealNotice, TURN_OFF_SELF_HEAL, UPDATE_MANIFEST } from '../../../client/src/commands/syncCommands';
import type { CommandContext } from '../../../client/src/commands/context';
import type { LiveValue } from '../../../client/src/model/manifestEdits';
import { defaultedManifest } from '../../../client/src/health/diff';
import type { KubeObject } from '../../../sandbox/api/types';
import { cacheOf } from '../model/fixtures';
import { deployment } from '../../sandbox/fixtures';
import { FakeConnection, FakeUi, contextOf } from './fakes';

const WEB = { resource: 'deployments', namespace: 'default', name: 'web' };

/** A connection whose desired state declares web (3 replicas, web.yaml:9) and whose cache has it live at `replicas`. */
function declaredWeb(replicas: number): FakeConnection {
  // As the API server stores it: with its defaults.
  const stored = defaultedManifest(deployment('web', replicas), undefined);
  const live: KubeObject = { ...stored, metadata: { ...stored.metadata, resourceVersion: '7' } };
  const connection = new FakeConnection(cacheOf([{ resource: 'deployments', object: live }]));
  connection.desired.replace([{ ...WEB, source: 'web.yaml', line: 8, manifest: deployment('web', 3), shadowed: [] }]);
  return connection;
}

interface Recorded {
  applied: string[];
  edits: { source: string; line: number; values: readonly LiveValue[] }[];
  selfHealOff: number;
}

function withHooks(connection: FakeConnection, ui: FakeUi): { ctx: CommandContext; rec: Recorded } {
  const rec: Recorded = { applied: [], edits: [], selfHealOff: 0 };
  const ctx: CommandContext = {
    ...contextOf(connection, ui),
    applySource: async (source) => {
      rec.applied.push(source);
      return { outcomes: [], pruned: [] };
    },
    editManifest: async (source, line, values) => {
      rec.edits.push({ source, line, values });
      return { edits: [], written: values.map((v) => `${v.segments.join('.')}: ${String(v.value)}`), skipped: [] };
    },
    turnOffSelfHeal: async () => void rec.selfHealOff++,
  };
  return { ctx, rec };
}

describe('sync commands', () => {
  test('Sync applies the file that declares the object; an undeclared object is refused', async () => {
    const ui = new FakeUi();
    const { ctx, rec } = withHooks(declaredWeb(3), ui);
    await COMMANDS['kubeReconcile.sync'](ctx)({ ref: WEB });
    assert.deepEqual(rec.applied, ['web.yaml']);
    await COMMANDS['kubeReconcile.sync'](ctx)({ ref: { ...WEB, name: 'other' } });
    assert.deepEqual(ui.shown, ['error: Sync: deployment/other is not declared in a saved file.']);
  });

  test('Revert Live to Manifest asks the worker and says what it put back', async () => {
    const connection = declaredWeb(5);
    connection.replies.revert = () => ({
      message: 'deployment.apps/web configured',
      source: 'web.yaml',
      changes: [{ path: 'spec.replicas', segments: ['spec', 'replicas'], live: 5, desired: 3 }],
    });
    const ui = new FakeUi();
    await COMMANDS['kubeReconcile.revertLive'](contextOf(connection, ui))({ ref: WEB });
    assert.deepEqual(connection.sent, [{ method: 'revert', params: WEB }]);
    assert.deepEqual(ui.shown, ['notify: deployment.apps/web configured: spec.replicas 5 → 3 from web.yaml']);
  });

  test('Update Manifest from Live writes the drifted fields at the declaration line; in sync, nothing to write', async () => {
    const ui = new FakeUi();
    const { ctx, rec } = withHooks(declaredWeb(5), ui);
    await COMMANDS['kubeReconcile.updateManifestFromLive'](ctx)({ ref: WEB });
    assert.deepEqual(rec.edits, [
      { source: 'web.yaml', line: 8, values: [{ segments: ['spec', 'replicas'], value: 5 }] },
    ]);
    assert.deepEqual(ui.shown, ['notify: web.yaml: spec.replicas: 5 written from live; save to apply']);
    const quiet = new FakeUi();
    const synced = withHooks(declaredWeb(3), quiet);
    await COMMANDS['kubeReconcile.updateManifestFromLive'](synced.ctx)({ ref: WEB });
    assert.deepEqual(synced.rec.edits, []);
    assert.deepEqual(quiet.shown, ['info: deployment/web already matches web.yaml.']);
  });

  test('after a self-heal revert: Update Manifest writes the values it replaced; Turn Off Self-Heal turns it off', async () => {
    const revert = {
      ref: WEB,
      kind: 'Deployment',
      source: 'web.yaml',
      line: 8,
      recreated: false,
      changes: [{ path: 'spec.replicas', segments: ['spec', 'replicas'], live: 5, desired: 3 }],
    };
    const ui = new FakeUi();
    ui.answers = [UPDATE_MANIFEST, TURN_OFF_SELF_HEAL];
    const { ctx, rec } = withHooks(declaredWeb(3), ui);
    await selfHealNotice(ctx, revert);
    await selfHealNotice(ctx, revert);
    assert.deepEqual(ui.shown, [
      'offer: Self-heal put deployment/web back to web.yaml: spec.replicas 5 → 3. [Update Manifest, Turn Off Self-Heal]',
      'notify: web.yaml: spec.replicas: 5 written from live; save to apply',
      'offer: Self-heal put deployment/web back to web.yaml: spec.replicas 5 → 3. [Update Manifest, Turn Off Self-Heal]',
    ]);
    assert.deepEqual(rec.edits, [
      { source: 'web.yaml', line: 8, values: [{ segments: ['spec', 'replicas'], value: 5 }] },
    ]);
    assert.equal(rec.selfHealOff, 1);
  });
});
