/**
 * live/apply.ts against the sandbox's API as the stand-in real cluster: the server-side dry run stores nothing and
 * answers the diff, the apply is server-side with field manager kube-reconcile, a read-only connection and an
 * unconfirmed protected context send nothing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { KubeObject } from '../../sandbox/api/types';
import { renderKubeconfig } from '../../sandbox/http/kubeconfig';
import { LiveConnection, LiveError } from '../../live/connection';
import { loadKubeconfig } from '../../live/kubeconfig';
import { FIELD_MANAGER, applyToCluster, isProtectedContext, previewApply } from '../../live/apply';
import { SERVED_TOKEN, serveCluster } from './served';
import type { ServedCluster } from './served';

const web = (replicas: number): KubeObject =>
  parseYaml(
    [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: web}',
      'spec:',
      `  replicas: ${replicas}`,
      '  selector: {matchLabels: {app: web}}',
      '  template:',
      '    metadata: {labels: {app: web}}',
      '    spec: {containers: [{name: nginx, image: "nginx:1.27"}]}',
    ].join('\n'),
  ) as KubeObject;

let served: ServedCluster;
before(async () => {
  served = await serveCluster();
});
after(() => served.close());

async function connect(file: string, writes: boolean): Promise<LiveConnection> {
  return LiveConnection.open(await loadKubeconfig({ file }), { writes });
}

describe('apply to a real cluster', () => {
  test('protected contexts match kubeReconcile.protectedContexts (default prod|production), any case', () => {
    assert.deepEqual(
      ['prod-eu', 'gke_x_production', 'PROD', 'staging', 'kind-dev'].map((c) => isProtectedContext(c)),
      [true, true, true, false, false],
    );
    assert.equal(isProtectedContext('staging', 'stag'), true);
    assert.equal(isProtectedContext('anything', '('), true, 'a pattern that does not compile protects every context');
    assert.equal(isProtectedContext('prod', ''), false);
  });

  test('a read-only connection can neither dry-run nor apply: nothing reaches the server', async () => {
    const conn = await connect(served.kubeconfig, false);
    const writes = served.writes().length;
    try {
      await assert.rejects(
        previewApply(conn, [web(2)]),
        (e: Error) => e instanceof LiveError && e.kind === 'read-only',
      );
      await assert.rejects(
        applyToCluster(conn, [web(2)]),
        (e: Error) => e instanceof LiveError && e.kind === 'read-only',
      );
      assert.deepEqual(served.writes().slice(writes), []);
    } finally {
      conn.close();
    }
  });

  test('dry run stores nothing; apply is server-side with field manager kube-reconcile; the diff shows the change', async () => {
    const conn = await connect(served.kubeconfig, true);
    try {
      const [preview] = await previewApply(conn, [web(2)]);
      assert.deepEqual([preview.ref, preview.namespace, preview.action], ['deployment.apps/web', 'default', 'created']);
      assert.equal((preview.merged.spec as { progressDeadlineSeconds?: number }).progressDeadlineSeconds, 600);
      assert.equal(served.cluster.api.tryGet('deployments', 'default', 'web'), undefined, 'the dry run stored nothing');
      assert.match(
        served.writes().at(-1)!,
        /^PATCH \/apis\/apps\/v1\/namespaces\/default\/deployments\/web\?.*dryRun=All/,
      );

      assert.deepEqual(await applyToCluster(conn, [web(2)]), ['deployment.apps/web serverside-applied']);
      const stored = served.cluster.api.get('deployments', 'default', 'web');
      assert.deepEqual(
        stored.metadata.managedFields?.map(
          (f) => (f as { manager?: string; operation?: string }).operation + ':' + (f as { manager?: string }).manager,
        )[0],
        `Apply:${FIELD_MANAGER}`,
      );

      const [again] = await previewApply(conn, [web(2)]);
      assert.deepEqual([again.action, again.diff], ['unchanged', '']);
      const [scaled] = await previewApply(conn, [web(4)]);
      assert.equal(scaled.action, 'configured');
      assert.match(scaled.diff, /^- {2}replicas: 2$/m);
      assert.match(scaled.diff, /^\+ {2}replicas: 4$/m);
      assert.equal((served.cluster.api.get('deployments', 'default', 'web').spec as { replicas: number }).replicas, 2);
    } finally {
      conn.close();
    }
  });

  test('a protected context needs its name typed back; otherwise nothing is sent', async () => {
    const file = join(served.dir, 'prod.yaml');
    await writeFile(
      file,
      renderKubeconfig({
        server: served.server.url,
        token: SERVED_TOKEN,
        certificateAuthority: served.server.certificateAuthority,
        context: 'prod-eu',
      }),
    );
    const conn = await connect(file, true);
    const writes = served.writes().length;
    try {
      for (const typedContext of [undefined, 'prod', 'PROD-EU'])
        await assert.rejects(
          applyToCluster(conn, [web(3)], { typedContext }),
          /context "prod-eu" is protected .*nothing was sent/,
        );
      assert.deepEqual(served.writes().slice(writes), []);
      assert.deepEqual(await applyToCluster(conn, [web(3)], { typedContext: 'prod-eu' }), [
        'deployment.apps/web serverside-applied',
      ]);
      assert.equal((served.cluster.api.get('deployments', 'default', 'web').spec as { replicas: number }).replicas, 3);
    } finally {
      conn.close();
    }
  });
});
