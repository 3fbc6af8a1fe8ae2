/**
 * A saved sandbox keeps the nodes Fail Node stopped: the snapshot records them, and a restored sandbox (a window
 * reload) starts with their kubelets still stopped. A state saved before they were recorded restores every kubelet.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SandboxStatus } from '../../../client/src/sandbox/protocol';
import type { SavedState } from '../../../client/src/worker/savedState';
import { inProcessDispatcher } from './inProcess';

const SETTINGS = { nodes: 2, speed: 1, seed: 7, selfHeal: true };

describe('saved sandbox: failed nodes', () => {
  test('recorded in the snapshot and restored stopped; an older snapshot restores them running', async () => {
    const { d, result } = inProcessDispatcher();
    try {
      await result('init', { settings: SETTINGS });
      await result('control', { type: 'pause' });
      await result('action', { type: 'failNode', name: 'node-1' });
      const { snapshot } = await result<{ snapshot: SavedState }>('snapshot', {});
      assert.deepEqual(snapshot.cluster.failedNodes, ['node-1']);

      const restored = await result<SandboxStatus & { warning?: string }>('init', { settings: SETTINGS, snapshot });
      assert.equal(restored.warning, undefined);
      assert.deepEqual(
        restored.failedNodes?.map((n) => n.name),
        ['node-1'],
      );
      // Saved again: still failed.
      const again = (await result<{ snapshot: SavedState }>('snapshot', {})).snapshot;
      assert.deepEqual(again.cluster.failedNodes, ['node-1']);

      const { failedNodes: _dropped, ...older } = snapshot.cluster;
      const fresh = await result<SandboxStatus & { warning?: string }>('init', {
        settings: SETTINGS,
        snapshot: { ...snapshot, cluster: older },
      });
      assert.equal(fresh.warning, undefined);
      assert.equal(fresh.failedNodes, undefined);
      assert.equal((await result<{ snapshot: SavedState }>('snapshot', {})).snapshot.cluster.failedNodes, undefined);
    } finally {
      d.dispose();
    }
  });
});
