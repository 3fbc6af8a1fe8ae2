/**
 * @kubernetes/client-node against the sandbox's HTTP API, over TLS with the
 * server's certificate pinned and the bearer token, as a user's program would.
 */
import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import type * as ClientNodeModule from '@kubernetes/client-node';
import type { KubeConfig as KubeConfigType } from '@kubernetes/client-node';
import { TOKEN, serve } from './helpers';
import type { Served } from './helpers';

type ClientNode = typeof ClientNodeModule;

function kubeConfig(k8s: ClientNode, s: Served, token: string | undefined): KubeConfigType {
  const kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: [
      {
        name: 'sandbox',
        server: s.server.url,
        caData: Buffer.from(s.server.certificateAuthority!).toString('base64'),
        skipTLSVerify: false,
      },
    ],
    users: [{ name: 'sandbox', ...(token ? { token } : {}) }],
    contexts: [{ name: 'sandbox', cluster: 'sandbox', user: 'sandbox', namespace: 'default' }],
    currentContext: 'sandbox',
  });
  return kc;
}

/** The HTTP status of a failed client-node call. */
async function statusOf(call: Promise<unknown>): Promise<number> {
  try {
    await call;
    return 200;
  } catch (e) {
    return (e as { code?: number }).code ?? -1;
  }
}

describe('@kubernetes/client-node against the HTTP API', () => {
  let s: Served;
  let k8s: ClientNode;
  let kc: KubeConfigType;

  before(async () => {
    k8s = await import('@kubernetes/client-node');
    s = await serve({ tls: true });
    kc = kubeConfig(k8s, s, TOKEN);
  });
  after(() => s.close());

  it('creates, reads, replaces and deletes a ConfigMap', async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const created = await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'settings', labels: { tier: 'web' } }, data: { mode: 'a' } },
    });
    assert.ok(created.metadata?.uid);
    const read = await core.readNamespacedConfigMap({ name: 'settings', namespace: 'default' });
    assert.deepEqual(read.data, { mode: 'a' });
    const replaced = await core.replaceNamespacedConfigMap({
      name: 'settings',
      namespace: 'default',
      body: { ...read, data: { mode: 'b' } },
    });
    assert.deepEqual(replaced.data, { mode: 'b' });
    assert.deepEqual(s.cluster.api.get('configmaps', 'default', 'settings').data, { mode: 'b' });
    await core.deleteNamespacedConfigMap({ name: 'settings', namespace: 'default' });
    assert.equal(s.cluster.api.tryGet('configmaps', 'default', 'settings'), undefined);
    assert.equal(await statusOf(core.readNamespacedConfigMap({ name: 'settings', namespace: 'default' })), 404);
  });

  it('lists with label and field selectors', async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    for (const [name, tier] of [
      ['a', 'web'],
      ['b', 'web'],
      ['c', 'db'],
    ]) {
      await core.createNamespacedConfigMap({
        namespace: 'default',
        body: { metadata: { name: `sel-${name}`, labels: { tier } } },
      });
    }
    const web = await core.listNamespacedConfigMap({ namespace: 'default', labelSelector: 'tier=web' });
    assert.deepEqual(
      web.items.map((i) => i.metadata?.name),
      ['sel-a', 'sel-b'],
    );
    const byName = await core.listNamespacedConfigMap({ namespace: 'default', fieldSelector: 'metadata.name=sel-c' });
    assert.deepEqual(
      byName.items.map((i) => i.metadata?.name),
      ['sel-c'],
    );
    const all = await core.listConfigMapForAllNamespaces({ labelSelector: 'tier' });
    assert.equal(all.items.length, 3);
  });

  it('watches with the Watch class: initial state, then changes, until aborted', async () => {
    const baseline = s.cluster.api.watchCount;
    const seen: string[] = [];
    let notify: () => void = () => undefined;
    const watch = new k8s.Watch(kc);
    const controller = await watch.watch(
      '/api/v1/namespaces/default/configmaps',
      { labelSelector: 'tier=db' },
      (type, obj: { metadata?: { name?: string } }) => {
        seen.push(`${type} ${obj.metadata?.name}`);
        notify();
      },
      () => notify(),
    );
    const waitFor = (n: number) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`saw ${JSON.stringify(seen)}`)), 5000);
        notify = () => {
          if (seen.length >= n) {
            clearTimeout(timer);
            resolve();
          }
        };
        notify();
      });
    await waitFor(1);
    s.cluster.api.patch('configmaps', 'default', 'sel-c', 'merge', { data: { x: '1' } });
    s.cluster.api.delete('configmaps', 'default', 'sel-c');
    await waitFor(3);
    assert.deepEqual(seen, ['ADDED sel-c', 'MODIFIED sel-c', 'DELETED sel-c']);
    controller.abort();
    const deadline = performance.now() + 5000;
    while (s.cluster.api.watchCount !== baseline && performance.now() < deadline)
      await new Promise((r) => setImmediate(r));
    assert.equal(s.cluster.api.watchCount, baseline);
  });

  it('patches with JSON patch and merge patch', async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'patched' }, data: { a: '1' } },
    });
    await core.patchNamespacedConfigMap(
      { name: 'patched', namespace: 'default', body: [{ op: 'add', path: '/data/b', value: '2' }] },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.JsonPatch),
    );
    const merged = await core.patchNamespacedConfigMap(
      { name: 'patched', namespace: 'default', body: { data: { a: null, c: '3' } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    assert.deepEqual(merged.data, { b: '2', c: '3' });
  });

  it('patches a Deployment with a strategic merge patch', async () => {
    const apps = kc.makeApiClient(k8s.AppsV1Api);
    const labels = { app: 'smp' };
    await apps.createNamespacedDeployment({
      namespace: 'default',
      body: {
        metadata: { name: 'smp' },
        spec: {
          selector: { matchLabels: labels },
          template: { metadata: { labels }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
        },
      },
    });
    const patched = await apps.patchNamespacedDeployment(
      {
        name: 'smp',
        namespace: 'default',
        body: { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:1.28' }] } } } },
      },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch),
    );
    assert.deepEqual(
      patched.spec?.template.spec?.containers.map((c) => `${c.name}=${c.image}`),
      ['app=nginx:1.28'],
    );
  });

  it('applies server-side with a field manager', async () => {
    const objects = k8s.KubernetesObjectApi.makeApiClient(kc);
    const applied = await objects.patch(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ssa', namespace: 'default' }, data: { owner: 'me' } },
      undefined,
      undefined,
      'client-node-test',
      true,
      k8s.PatchStrategy.ServerSideApply,
    );
    assert.equal(applied.metadata?.name, 'ssa');
    const stored = s.cluster.api.get('configmaps', 'default', 'ssa');
    assert.deepEqual(stored.data, { owner: 'me' });
    assert.ok(JSON.stringify(stored.metadata.managedFields).includes('client-node-test'));
  });

  it('dry-runs a create without storing anything', async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const rv = s.cluster.api.resourceVersion;
    const result = await core.createNamespacedConfigMap({
      namespace: 'default',
      dryRun: 'All',
      body: { metadata: { name: 'dry' } },
    });
    assert.equal(result.metadata?.name, 'dry');
    assert.equal(s.cluster.api.tryGet('configmaps', 'default', 'dry'), undefined);
    assert.equal(s.cluster.api.resourceVersion, rv);
  });

  it('is refused with 401 without the token', async () => {
    const anonymous = kubeConfig(k8s, s, undefined).makeApiClient(k8s.CoreV1Api);
    assert.equal(await statusOf(anonymous.listNamespace()), 401);
    const wrong = kubeConfig(k8s, s, 'not-the-token').makeApiClient(k8s.CoreV1Api);
    assert.equal(await statusOf(wrong.listNamespace()), 401);
  });
});
