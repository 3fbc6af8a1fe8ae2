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
import { SourceTexts, fieldLine, timelineObjectOf } from '../../../client/src/worker/timeline';
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

/** The 1-based line of the first line of WEB containing `text` (asserted to exist once). */
function lineOfText(text: string): number {
  const lines = WEB.split('\n');
  assert.equal(lines.filter((l) => l.includes(text)).length, 1, text);
  return lines.findIndex((l) => l.includes(text)) + 1;
}

describe('timeline links: an apply and a self-heal revert go to the line of the field they changed', () => {
  test('a saved change links to its first changed field, in whichever document of the file it is', async () => {
    const { d, call, result } = dispatcher();
    try {
      await result('init', { settings: { nodes: 3, speed: 1, seed: 7, selfHeal: true } });
      await result('control', { type: 'pause' });
      const save = (text: string) =>
        result('applyFile', { file: 'web.yaml', manifests: manifestsForApply(text).manifests, trigger: 'save', text });
      await save(WEB);
      await result('control', { type: 'fastForward', limitMs: 600_000 });
      const applies = async (kind: string) =>
        (await result<TimelineReply>('timeline', { kind, namespace: 'default', name: 'web' })).steps.filter(
          (s) => s.type === 'apply',
        );
      // A created object has no changed field: its document's first line.
      assert.deepEqual(
        (await applies('Deployment')).map((s) => [s.what, s.source]),
        [['created', 'web.yaml:9']],
      );
      assert.deepEqual(
        (await applies('Service')).map((s) => [s.what, s.source]),
        [['created', 'web.yaml:50']],
      );
      assert.equal(WEB.split('\n')[49], 'apiVersion: v1');

      // The image (line 29) and then replicas (line 16) of the first document; the Service's port in the second.
      const image = lineOfText('image: nginx:1.27');
      const replicas = lineOfText('replicas: 3');
      const port = lineOfText('      port: 80');
      assert.deepEqual([image, replicas, port], [29, 16, 60]);
      await save(WEB.replace('image: nginx:1.27', 'image: nginx:1.28'));
      await result('control', { type: 'fastForward', limitMs: 600_000 });
      await save(WEB.replace('image: nginx:1.27', 'image: nginx:1.28').replace('replicas: 3', 'replicas: 4'));
      await save(
        WEB.replace('image: nginx:1.27', 'image: nginx:1.28')
          .replace('replicas: 3', 'replicas: 4')
          .replace('      port: 80', '      port: 8080'),
      );
      await result('control', { type: 'fastForward', limitMs: 600_000 });
      const dep = await applies('Deployment');
      assert.deepEqual(
        dep.map((s) => [s.what, s.source, s.why]),
        [
          ['created', 'web.yaml:9', undefined],
          ['configured', `web.yaml:${image}`, 'image nginx:1.27 → nginx:1.28'],
          ['configured', `web.yaml:${replicas}`, 'replicas 3 → 4'],
        ],
      );
      assert.deepEqual(
        (await applies('Service')).map((s) => [s.what, s.source, s.why]),
        [
          ['created', 'web.yaml:50', undefined],
          ['configured', `web.yaml:${port}`, 'port 80 → 8080'],
        ],
      );
      // The rollout the image change started goes back to the image's line.
      const t = await result<TimelineReply>('timeline', { kind: 'Deployment', namespace: 'default', name: 'web' });
      const rolled = t.steps.filter((s) => s.id > dep[1].id && s.id < dep[2].id && s.what === 'ScalingReplicaSet');
      assert.ok(rolled.length > 0);
      assert.ok(rolled.every((s) => s.origin === `web.yaml:${image}`));
      // Applied without its text (an older host), a change links to its document's first line, as before.
      await result('applyFile', {
        file: 'web.yaml',
        manifests: manifestsForApply(WEB.replace('replicas: 3', 'replicas: 2')).manifests,
        trigger: 'save',
      });
      assert.equal((await applies('Deployment')).at(-1)?.source, 'web.yaml:9');
      assert.match(
        (await call('applyFile', { file: 'x.yaml', manifests: [], text: 3 })).error?.message ?? '',
        /^text must be a string$/,
      );
    } finally {
      d.dispose();
    }
  });

  test('a self-heal revert is an apply: the root of what follows, linked to the reverted field', async () => {
    const { d, result } = dispatcher();
    try {
      await result('init', { settings: { nodes: 3, speed: 1, seed: 7, selfHeal: true } });
      await result('control', { type: 'pause' });
      await result('applyFile', {
        file: 'web.yaml',
        manifests: manifestsForApply(WEB).manifests,
        trigger: 'save',
        text: WEB,
      });
      await result('control', { type: 'fastForward', limitMs: 600_000 });
      // Drift by hand: scaled to 5. The sync loop notices after its delay and applies web.yaml again.
      await result('action', {
        type: 'scale',
        resource: 'deployments',
        namespace: 'default',
        name: 'web',
        replicas: 5,
      });
      await result('control', { type: 'fastForward', limitMs: 600_000 });
      const t = await result<TimelineReply>('timeline', { kind: 'Deployment', namespace: 'default', name: 'web' });
      const healed = t.steps.filter((s) => s.type === 'apply' && s.what === 'self-heal');
      assert.equal(healed.length, 1, JSON.stringify(t.steps.map((s) => [s.component, s.what])));
      const h = healed[0];
      assert.equal(h.message, 'self-heal: reverted spec.replicas 5 → 3 from web.yaml:16');
      assert.equal(h.source, 'web.yaml:16');
      assert.equal(h.component, 'apply');
      assert.equal(h.cause, undefined, 'a root, like a save');
      assert.equal(h.origin, 'web.yaml:16');
      // The scale-down back to 3 follows from the revert.
      const after = t.steps.filter((s) => s.id > h.id);
      const down = after.find((s) => s.what === 'ScalingReplicaSet');
      assert.ok(down, JSON.stringify(after.map((s) => s.what)));
      assert.match(down.message, /Scaled down replica set web-\w+ from 5 to 3/);
      assert.equal(down.origin, 'web.yaml:16');
      const before = t.steps.filter((s) => s.id < h.id && s.what === 'ScalingReplicaSet').at(-1);
      assert.match(before?.message ?? '', /from 3 to 5/);
      assert.equal(before?.origin, 'web.yaml:9', 'the hand-made scale-up goes back to the first apply');
      assert.deepEqual(
        t.steps.map((s) => [s.component, s.what, s.cause === undefined]),
        [
          ['apply', 'created', true],
          ['deployment-controller', 'ScalingReplicaSet', false],
          ['deployment-controller', 'ScalingReplicaSet', false],
          ['apply', 'self-heal', true],
          ['gitops-sync', 'DriftReverted', false],
          ['deployment-controller', 'ScalingReplicaSet', false],
        ],
      );
      // The sync loop's DriftReverted Event is a step after the revert, caused by it.
      const event = t.steps.find((s) => s.what === 'DriftReverted')!;
      assert.equal(event.cause, h.id);
      assert.equal(event.message, 'spec.replicas 5 → 3 from web.yaml');
      assert.equal(event.origin, 'web.yaml:16');

      // Deleted by hand: recreated from its file, linked to the document.
      await result('action', { type: 'delete', resource: 'services', namespace: 'default', name: 'web' });
      await result('control', { type: 'fastForward', limitMs: 600_000 });
      const svc = await result<TimelineReply>('timeline', { kind: 'Service', namespace: 'default', name: 'web' });
      const recreated = svc.steps.filter((s) => s.what === 'self-heal');
      assert.deepEqual(
        recreated.map((s) => [s.message, s.source]),
        [['self-heal: recreated from web.yaml:50', 'web.yaml:50']],
      );
    } finally {
      d.dispose();
    }
  });

  test('Sync and Revert Live to Manifest are applies, linked to the field they put back; Drift Detected is a step', async () => {
    const { d, result } = dispatcher();
    try {
      await result('init', { settings: { nodes: 3, speed: 1, seed: 7, selfHeal: false } });
      await result('control', { type: 'pause' });
      const apply = (trigger: string) =>
        result('applyFile', { file: 'web.yaml', manifests: manifestsForApply(WEB).manifests, trigger, text: WEB });
      const scale = (replicas: number) =>
        result('action', { type: 'scale', resource: 'deployments', namespace: 'default', name: 'web', replicas });
      const settle = () => result('control', { type: 'fastForward', limitMs: 600_000 });
      const steps = async () =>
        (await result<TimelineReply>('timeline', { kind: 'Deployment', namespace: 'default', name: 'web' })).steps;
      await apply('save');
      await settle();
      // Self-heal off: the drift is reported (a step), and Sync applies the file as saved.
      await scale(5);
      await settle();
      await apply('sync');
      await settle();
      const replicas = lineOfText('replicas: 3');
      const synced = (await steps()).filter((s) => s.type === 'apply').at(-1)!;
      assert.deepEqual(
        [synced.what, synced.why, synced.source, synced.cause],
        ['configured', 'replicas 5 → 3', `web.yaml:${replicas}`, undefined],
      );
      // Revert Live to Manifest: an apply of the declaration, named as such, linked to the field it put back.
      await scale(6);
      await settle();
      await result('revert', { resource: 'deployments', namespace: 'default', name: 'web' });
      await settle();
      const all = await steps();
      const reverted = all.filter((s) => s.type === 'apply').at(-1)!;
      assert.deepEqual(
        [reverted.what, reverted.message, reverted.source, reverted.cause],
        [
          'revert',
          `Revert Live to Manifest: reverted spec.replicas 6 → 3 from web.yaml:${replicas}`,
          `web.yaml:${replicas}`,
          undefined,
        ],
      );
      const down = all.find((s) => s.id > reverted.id && s.what === 'ScalingReplicaSet');
      assert.match(down?.message ?? '', /from 6 to 3/);
      assert.equal(down?.origin, `web.yaml:${replicas}`);
      assert.deepEqual(
        all.filter((s) => s.what === 'DriftDetected').map((s) => [s.component, s.level, s.message]),
        [
          ['gitops-sync', 'Warning', 'spec.replicas 5 → 3 from web.yaml'],
          ['gitops-sync', 'Warning', 'spec.replicas 6 → 3 from web.yaml'],
        ],
      );
      // Nothing left to put back: no step.
      const count = all.length;
      await result('revert', { resource: 'deployments', namespace: 'default', name: 'web' });
      assert.equal((await steps()).length, count);
    } finally {
      d.dispose();
    }
  });

  test('a changed label with a dotted key links to the key’s own line, not to metadata.labels', async () => {
    const { d, result } = dispatcher();
    try {
      await result('init', { settings: { nodes: 3, speed: 1, seed: 7, selfHeal: true } });
      await result('control', { type: 'pause' });
      const labelled = (v: string) =>
        WEB.replace('  labels:\n    app: web\n', `  labels:\n    app: web\n    app.kubernetes.io/name: ${v}\n`);
      assert.notEqual(labelled('a'), WEB);
      const save = (text: string) =>
        result('applyFile', { file: 'web.yaml', manifests: manifestsForApply(text).manifests, trigger: 'save', text });
      await save(labelled('a'));
      await save(labelled('b'));
      const t = await result<TimelineReply>('timeline', { kind: 'Deployment', namespace: 'default', name: 'web' });
      const configured = t.steps.filter((s) => s.what === 'configured');
      const line = labelled('b').split('\n').indexOf('    app.kubernetes.io/name: b') + 1;
      assert.equal(line, 15);
      assert.deepEqual(
        configured.map((s) => [s.source, s.why]),
        [[`web.yaml:${line}`, 'app.kubernetes.io/name a → b']],
      );
    } finally {
      d.dispose();
    }
  });

  test('fieldLine: the field’s line in its own document, the nearest ancestor when absent, none for another object', () => {
    const docs = [WEB.split('\n').findIndex((l) => l === 'apiVersion: apps/v1'), 49];
    assert.equal(fieldLine(WEB, docs[0], 'spec.template.spec.containers[0].image'), 29);
    assert.equal(fieldLine(WEB, docs[0], ['spec', 'replicas']), 16);
    // A field only defaulting wrote (absent from the text): its nearest ancestor the text has.
    assert.equal(fieldLine(WEB, docs[0], 'spec.strategy.rollingUpdate.maxSurge'), 15);
    assert.equal(fieldLine(WEB, docs[1], 'spec.ports[0].port'), 60);
    assert.equal(fieldLine(WEB, docs[1], 'spec.ports[0].port', { kind: 'Service', name: 'web' }), 60);
    assert.equal(fieldLine(WEB, docs[1], 'spec.ports[0].port', { kind: 'Deployment', name: 'web' }), undefined);
    assert.equal(fieldLine(WEB, 10_000, 'spec'), undefined);
    const texts = new SourceTexts();
    const object = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' } };
    assert.equal(texts.source('web.yaml', 49, object).lineOf, undefined, 'no text: no field lines');
    texts.set('web.yaml', WEB);
    assert.equal(texts.source('web.yaml', 49, object).lineOf?.('spec.selector.app'), 57);
    // The text changed under a declaration kept from before (another object there now): the document's line.
    assert.equal(texts.source('web.yaml', 8, object).lineOf?.('spec.selector.app'), 9);
    texts.delete('web.yaml');
    assert.equal(texts.source('web.yaml', 49, object).lineOf, undefined);
  });
});
