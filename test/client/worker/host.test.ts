/**
 * SandboxHost: request timeouts, and restarting a crashed worker from the
 * last snapshot it handed out.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SandboxHost, SandboxRequestError } from '../../../client/src/sandbox/host';
import { configMap } from '../../sandbox/fixtures';
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
});
