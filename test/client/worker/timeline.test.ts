/**
 * The worker's `timeline` request on a running sandbox (the Dispatcher in this thread): a saved file's apply is the
 * root of its pods' chains, with the file's line; the scheduler's per-node results ride on the pod's decision; an
 * unchanged re-apply is not a step; a sandbox started with the timeline off says so; bad parameters are refused.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { manifestsForApply } from '../../../client/src/apply/manifestsForApply';
import type { TimelineReply } from '../../../client/src/sandbox/protocol';
import { timelineObjectOf } from '../../../client/src/worker/timeline';
import { inProcessDispatcher } from './inProcess';

const WEB = readFileSync(fileURLToPath(new URL('../../../examples/web.yaml', import.meta.url)), 'utf8');

/** A dispatcher in this thread, and `call` that sends a request and waits for its reply. */
function dispatcher() {
  return inProcessDispatcher();
}

describe('the worker answers timeline: one object’s causal chain', () => {
  test('a pod of a saved Deployment: every step back to the apply, with web.yaml’s line and per-node results', async () => {
    const { d, result } = dispatcher();
    try {
      await result('init', { settings: { nodes: 3, speed: 1, seed: 7, selfHeal: true } });
      const { manifests } = manifestsForApply(WEB);
      await result('control', { type: 'pause' });
      await result('applyFile', { file: 'web.yaml', manifests, trigger: 'save' });
      await result('control', { type: 'fastForward', limitMs: 600_000 });
      const snap = await result<{ snapshot: { cluster: { objects: { kind: string; metadata: { name: string } }[] } } }>(
        'snapshot',
        {},
      );
      const pod = snap.snapshot.cluster.objects.find((o) => o.kind === 'Pod')!.metadata.name;
      const t = await result<TimelineReply>('timeline', { kind: 'Pod', namespace: 'default', name: pod });
      assert.equal(t.recording, true);
      assert.equal(t.truncated, false);
      assert.equal(t.capacity, 10_000);
      // Recording began with the sandbox (its clock starts at `now` and runs in real time), before the first step.
      assert.ok(t.since !== undefined && t.since >= Date.UTC(2026, 0, 1) && t.since <= t.steps[0].time, `${t.since}`);
      const lines = t.steps.map((s) => `${s.component} ${s.what}`);
      // The Deployment's document starts on line 9 of examples/web.yaml (after the comment block).
      assert.equal(WEB.split('\n')[8], 'apiVersion: apps/v1');
      assert.deepEqual(lines.slice(0, 4), [
        'apply created',
        'deployment-controller ScalingReplicaSet',
        'replicaset-controller SuccessfulCreate',
        'default-scheduler Scheduled',
      ]);
      assert.equal(t.steps[0].message, 'deployment/web created');
      assert.equal(t.steps[0].source, 'web.yaml:9');
      assert.ok(
        t.steps.every((s) => s.origin === 'web.yaml:9'),
        'every step of the chain goes back to the apply',
      );
      assert.ok(lines.includes('kubelet Started'), lines.join('\n'));
      assert.ok(lines.includes('kubelet Ready'), lines.join('\n'));
      // The scheduler's last decision for the pod rides on its Scheduled step, node by node.
      const scheduled = t.steps.find((s) => s.what === 'Scheduled')!;
      assert.equal(t.scheduling?.step, scheduled.id);
      assert.equal(t.scheduling?.explanation.pod, `default/${pod}`);
      assert.deepEqual(t.scheduling?.explanation.nodes?.map((n) => n.node).sort(), ['node-1', 'node-2', 'node-3']);
      assert.equal(t.scheduling?.explanation.nodes?.filter((n) => n.chosen).length, 1);

      // Saving the same file again changes nothing: no new step. Changing the image is a `configured` step.
      await result('applyFile', { file: 'web.yaml', manifests, trigger: 'save' });
      const dep = () => result<TimelineReply>('timeline', { kind: 'Deployment', namespace: 'default', name: 'web' });
      const before = await dep();
      assert.deepEqual(
        before.steps.filter((s) => s.type === 'apply').map((s) => s.what),
        ['created'],
      );
      const changed = manifestsForApply(WEB.replace('image: nginx:1.27', 'image: nginx:1.28')).manifests;
      await result('applyFile', { file: 'web.yaml', manifests: changed, trigger: 'save' });
      await result('control', { type: 'fastForward', limitMs: 600_000 });
      const after = await dep();
      const configured = after.steps.find((s) => s.type === 'apply' && s.what === 'configured');
      assert.ok(configured, JSON.stringify(after.steps.map((s) => s.what)));
      assert.equal(configured.source, 'web.yaml:9');
      assert.match(configured.why ?? '', /image nginx:1\.27 → nginx:1\.28/);
      // The rollout's scaling decisions after it go back to the new apply.
      const later = after.steps.filter((s) => s.id > configured.id && s.what === 'ScalingReplicaSet');
      assert.ok(later.length > 0);
      assert.ok(later.every((s) => s.origin === 'web.yaml:9'));
      assert.equal(after.scheduling, undefined, 'per-node results are for pods');
    } finally {
      d.dispose();
    }
  });

  test('Reset Sandbox: the fresh cluster records a new timeline whose chains start at the files again', async () => {
    const { d, result } = dispatcher();
    try {
      await result('init', { settings: { nodes: 3, speed: 1, seed: 7, selfHeal: true } });
      await result('control', { type: 'pause' });
      await result('applyFile', { file: 'web.yaml', manifests: manifestsForApply(WEB).manifests, trigger: 'save' });
      await result('control', { type: 'fastForward', limitMs: 600_000 });
      const first = await result<TimelineReply>('timeline', { kind: 'Deployment', namespace: 'default', name: 'web' });
      await result('control', { type: 'reset' });
      await result('control', { type: 'fastForward', limitMs: 600_000 });
      const t = await result<TimelineReply>('timeline', { kind: 'Deployment', namespace: 'default', name: 'web' });
      // A new recording: one apply (the reset's), not the old cluster's too.
      assert.equal(first.steps.filter((s) => s.type === 'apply').length, 1);
      assert.equal(t.steps.filter((s) => s.type === 'apply').length, 1);
      assert.deepEqual(
        t.steps.slice(0, 2).map((s) => [s.component, s.what, s.source ?? s.origin]),
        [
          ['apply', 'created', 'web.yaml:9'],
          ['deployment-controller', 'ScalingReplicaSet', 'web.yaml:9'],
        ],
      );
    } finally {
      d.dispose();
    }
  });

  test('a sandbox started with the timeline off says it is not recording; bad parameters get an error reply', async () => {
    const { d, call, result } = dispatcher();
    try {
      await result('init', { settings: { nodes: 1, speed: 1, seed: 7, selfHeal: true, timeline: false } });
      const t = await result<TimelineReply>('timeline', { kind: 'Node', name: 'node-1' });
      assert.deepEqual(t, { recording: false, steps: [], truncated: false, capacity: 0 });
      assert.match((await call('timeline', { kind: 'Pod' })).error?.message ?? '', /name must be a non-empty string/);
      assert.match(
        (await call('init', { settings: { nodes: 1, speed: 1, seed: 7, selfHeal: true, timeline: 'yes' } })).error
          ?.message ?? '',
        /settings\.timeline must be true or false/,
      );
    } finally {
      d.dispose();
    }
  });

  test('timelineObjectOf: namespace optional (cluster-scoped), empty namespace is none, other types refused', () => {
    assert.deepEqual(timelineObjectOf({ kind: 'Node', name: 'n' }), { kind: 'Node', name: 'n' });
    assert.deepEqual(timelineObjectOf({ kind: 'Pod', namespace: '', name: 'p' }), { kind: 'Pod', name: 'p' });
    assert.deepEqual(timelineObjectOf({ kind: 'Pod', namespace: 'a', name: 'p' }), {
      kind: 'Pod',
      namespace: 'a',
      name: 'p',
    });
    assert.throws(() => timelineObjectOf({ kind: 'Pod', namespace: 3, name: 'p' }), /namespace must be a string/);
    assert.throws(() => timelineObjectOf({ kind: '', name: 'p' }), /kind must be a non-empty string/);
  });
});
