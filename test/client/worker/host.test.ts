/**
 * SandboxHost: request timeouts, and restarting a crashed worker from the
 * last snapshot it handed out.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SandboxHost, SandboxRequestError } from '../../../client/src/sandbox/host';
import type { KubeObject } from '../../../sandbox/api/types';
import { configMap, deployment } from '../../sandbox/fixtures';
import { CRASHING_WORKER, SETTINGS, SILENT_WORKER, until } from './harness';

describe('SandboxHost', () => {
  test('a request the worker never answers fails after the timeout with a clear error', async () => {
    const host = new SandboxHost({ workerPath: SILENT_WORKER, timeoutMs: 300 });
    try {
      const err = await host.request('snapshot', {}).then(
        () => assert.fail('expected a timeout'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof SandboxRequestError);
      assert.equal(err.message, "the sandbox did not answer 'snapshot' within 300 ms");
      assert.equal(err.method, 'snapshot');
    } finally {
      host.dispose();
    }
  });

  test('requests after dispose are refused', async () => {
    const host = new SandboxHost({ workerPath: SILENT_WORKER });
    host.dispose();
    await assert.rejects(host.request('snapshot', {}), {
      name: 'SandboxRequestError',
      message: 'the sandbox has been shut down',
    });
  });

  test('a crashed worker is reported and restarted from the last snapshot', async () => {
    const host = new SandboxHost({ workerPath: CRASHING_WORKER });
    const crashes: string[] = [];
    host.onDidCrash((e) => crashes.push(e.message));
    try {
      await host.request('init', { settings: SETTINGS });
      await host.request('applyFile', {
        file: 'cfg.yaml',
        manifests: [{ line: 0, object: configMap('kept', { a: '1' }) }],
      });
      await host.request('snapshot', {});
      await host.request('applyFile', { file: 'later.yaml', manifests: [{ line: 0, object: configMap('lost') }] });
      await until(
        'the mirror to see both config maps',
        () => host.cache.get('configmaps', 'default', 'lost'),
        (wake) => host.onDidChange(wake),
      );
      const kept = host.cache.get('configmaps', 'default', 'kept')!;

      await assert.rejects(host.request('explain', { namespace: 'default', name: '__crash__' }), {
        name: 'SandboxRequestError',
        message: 'The sandbox stopped: the sandbox worker exited with code 3. Restarting it.',
      });
      assert.deepEqual(crashes, ['The sandbox stopped: the sandbox worker exited with code 3. Restarting it.']);
      await until(
        'the restarted worker to send its list',
        () => host.cache.get('configmaps', 'default', 'lost') === undefined,
        (wake) => host.onDidChange(wake),
      );
      assert.equal(host.cache.get('configmaps', 'default', 'kept')?.metadata.uid, kept.metadata.uid);
      assert.deepEqual(await host.request('desired', { resource: 'configmaps', namespace: 'default', name: 'kept' }), {
        file: 'cfg.yaml',
        line: 0,
        manifest: configMap('kept', { a: '1' }),
      });
    } finally {
      host.dispose();
    }
  });

  test('a worker killed mid-rollout restarts from the snapshot; the rollout completes with the applied spec', async () => {
    const host = new SandboxHost({ workerPath: CRASHING_WORKER });
    const withImage = (image: string): KubeObject => {
      const d = deployment('web', 3);
      (d.spec as { template: { spec: { containers: { image: string }[] } } }).template.spec.containers[0].image = image;
      return d;
    };
    const deploymentStatus = () =>
      host.cache.get('deployments', 'default', 'web')?.status as
        | { updatedReplicas?: number; availableReplicas?: number; replicas?: number }
        | undefined;
    const podImages = () =>
      host.cache
        .list('pods', 'default')
        .map((p) => (p.spec as { containers: { image: string }[] }).containers[0].image)
        .sort();
    try {
      await host.request('init', { settings: SETTINGS });
      await host.request('control', { type: 'pause' });
      await host.request('applyFile', { file: 'web.yaml', manifests: [{ line: 0, object: withImage('nginx:1.26') }] });
      await host.request('control', { type: 'fastForward', limitMs: 10 * 60_000 });
      // The new template: the rollout starts, and a few seconds in, old and new pods run side by side.
      await host.request('applyFile', { file: 'web.yaml', manifests: [{ line: 0, object: withImage('nginx:1.27') }] });
      await host.request('control', { type: 'step', ms: 3_000 });
      await until(
        'the mirror to show the rollout under way',
        () => podImages().includes('nginx:1.26') && podImages().includes('nginx:1.27'),
        (wake) => host.onDidChange(wake),
      );
      assert.ok((deploymentStatus()?.updatedReplicas ?? 0) < 3, 'the rollout is not finished yet');
      await host.request('snapshot', {});
      // Something applied after the snapshot, to see the restarted worker's list replace the mirror.
      await host.request('applyFile', { file: 'later.yaml', manifests: [{ line: 0, object: configMap('after') }] });
      await until(
        'the mirror to see the later config map',
        () => host.cache.get('configmaps', 'default', 'after'),
        (wake) => host.onDidChange(wake),
      );

      await assert.rejects(host.request('explain', { namespace: 'default', name: '__crash__' }), {
        message: 'The sandbox stopped: the sandbox worker exited with code 3. Restarting it.',
      });
      await until(
        'the restarted worker to send its list',
        () => host.cache.get('configmaps', 'default', 'after') === undefined,
        (wake) => host.onDidChange(wake),
      );
      assert.ok(podImages().includes('nginx:1.26'), 'restored mid-rollout, old pods still there');

      await host.request('control', { type: 'fastForward', limitMs: 10 * 60_000 });
      await until(
        'the rollout to complete after the restart',
        () => deploymentStatus()?.updatedReplicas === 3 && deploymentStatus()?.availableReplicas === 3,
        (wake) => host.onDidChange(wake),
      );
      await until(
        'the old pods to be gone',
        () => podImages().join() === 'nginx:1.27,nginx:1.27,nginx:1.27',
        (wake) => host.onDidChange(wake),
      );
      const web = host.cache.get('deployments', 'default', 'web')!;
      assert.equal(
        (web.spec as { template: { spec: { containers: { image: string }[] } } }).template.spec.containers[0].image,
        'nginx:1.27',
      );
      assert.deepEqual(await host.request('desired', { resource: 'deployments', namespace: 'default', name: 'web' }), {
        file: 'web.yaml',
        line: 0,
        manifest: withImage('nginx:1.27'),
      });
    } finally {
      host.dispose();
    }
  });
});
