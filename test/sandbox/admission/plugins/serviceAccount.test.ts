/**
 * ServiceAccount admission (upstream: plugin/pkg/admission/serviceaccount/admission.go: Admit, shouldAutomount,
 * mountServiceAccountToken, TokenVolumeSource), through the API server.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1';
import type { KubeObject } from '../../../../sandbox/api/types';
import { newApi, statusOf } from '../../fixtures';

function pod(name: string, spec: Record<string, unknown> = {}, ns = 'default'): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns },
    spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
  };
}

function serviceAccount(name: string, extra: Record<string, unknown> = {}, ns = 'default'): KubeObject {
  return { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: ns }, ...extra };
}

const MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';

describe('ServiceAccount admission', () => {
  test('a pod gets the default account and the projected kube-api-access volume, as upstream writes it', () => {
    const { api } = newApi();
    api.create(serviceAccount('default'));
    const p = api.create(pod('web')) as Pod;
    assert.equal(p.spec!.serviceAccountName, 'default');
    // The v1 form carries the name under the deprecated alias too (conversion.go).
    assert.equal((p.spec as { serviceAccount?: string }).serviceAccount, 'default');
    const volumes = p.spec!.volumes ?? [];
    assert.equal(volumes.length, 1);
    assert.match(volumes[0].name, /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.deepEqual(volumes[0].projected, {
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { path: 'token', expirationSeconds: 3607 } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        {
          downwardAPI: {
            items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
          },
        },
      ],
    });
    assert.deepEqual(p.spec!.containers[0].volumeMounts, [
      { name: volumes[0].name, readOnly: true, mountPath: MOUNT_PATH },
    ]);
  });

  test('every init and app container gets the mount, except one already mounting the token path', () => {
    const { api } = newApi();
    const p = api.create(
      pod('multi', {
        initContainers: [{ name: 'init', image: 'busybox', command: ['true'] }],
        containers: [
          { name: 'a', image: 'nginx' },
          { name: 'b', image: 'nginx', volumeMounts: [{ name: 'own', mountPath: MOUNT_PATH }] },
        ],
        volumes: [{ name: 'own', emptyDir: {} }],
      }),
    ) as Pod;
    const tokenVolume = p.spec!.volumes!.find((v) => v.name.startsWith('kube-api-access-'))!;
    assert.deepEqual(
      p.spec!.initContainers![0].volumeMounts!.map((m) => m.name),
      [tokenVolume.name],
    );
    assert.deepEqual(
      p.spec!.containers[0].volumeMounts!.map((m) => m.name),
      [tokenVolume.name],
    );
    assert.deepEqual(
      p.spec!.containers[1].volumeMounts!.map((m) => m.name),
      ['own'],
    );
  });

  test('two pods get different volume names; the same seed gives the same names', () => {
    const names = (seed: number) => {
      const { api } = newApi(seed);
      return ['a', 'b'].map((n) => (api.create(pod(n)) as Pod).spec!.volumes![0].name);
    };
    const first = names(7);
    assert.notEqual(first[0], first[1]);
    assert.deepEqual(names(7), first);
  });

  test('a pod naming a missing ServiceAccount is refused with upstream message; nothing is stored', () => {
    const { api } = newApi();
    const s = statusOf(() => api.create(pod('web', { serviceAccountName: 'build-robot' })));
    assert.equal(s.code, 403);
    assert.equal(s.reason, 'Forbidden');
    assert.equal(
      s.message,
      'pods "web" is forbidden: error looking up service account default/build-robot: serviceaccount "build-robot" not found',
    );
    assert.equal(statusOf(() => api.get('pods', 'default', 'web')).code, 404);
    api.create(serviceAccount('build-robot'));
    const p = api.create(pod('web', { serviceAccountName: 'build-robot' })) as Pod;
    assert.equal(p.spec!.serviceAccountName, 'build-robot');
  });

  test('the deprecated serviceAccount alias names the account when serviceAccountName is empty', () => {
    const { api } = newApi();
    const s = statusOf(() => api.create(pod('web', { serviceAccount: 'ghost' })));
    assert.match(s.message, /serviceaccount "ghost" not found/);
  });

  test('automountServiceAccountToken: the pod wins over its ServiceAccount, which wins over the default', () => {
    const { api } = newApi();
    api.create(serviceAccount('quiet', { automountServiceAccountToken: false }));
    const off = api.create(pod('off', { automountServiceAccountToken: false })) as Pod;
    assert.equal(off.spec!.volumes, undefined);
    assert.equal(off.spec!.containers[0].volumeMounts, undefined);
    const bySa = api.create(pod('by-sa', { serviceAccountName: 'quiet' })) as Pod;
    assert.equal(bySa.spec!.volumes, undefined);
    const podWins = api.create(
      pod('pod-wins', { serviceAccountName: 'quiet', automountServiceAccountToken: true }),
    ) as Pod;
    assert.equal(podWins.spec!.volumes!.length, 1);
  });

  test("the ServiceAccount's imagePullSecrets are copied when the pod names none", () => {
    const { api } = newApi();
    api.create(serviceAccount('puller', { imagePullSecrets: [{ name: 'registry' }] }));
    const copied = api.create(pod('copied', { serviceAccountName: 'puller' })) as Pod;
    assert.deepEqual(copied.spec!.imagePullSecrets, [{ name: 'registry' }]);
    const own = api.create(pod('own', { serviceAccountName: 'puller', imagePullSecrets: [{ name: 'mine' }] })) as Pod;
    assert.deepEqual(own.spec!.imagePullSecrets, [{ name: 'mine' }]);
  });

  test('a pod that already has a kube-api-access volume keeps it; containers mount that one', () => {
    const { api } = newApi();
    const p = api.create(
      pod('kept', {
        volumes: [{ name: 'kube-api-access-abcde', emptyDir: {} }],
      }),
    ) as Pod;
    assert.deepEqual(
      p.spec!.volumes!.map((v) => v.name),
      ['kube-api-access-abcde'],
    );
    assert.equal(p.spec!.containers[0].volumeMounts![0].name, 'kube-api-access-abcde');
  });

  test('mirror pods are not mutated; updates and dry runs do not re-run the plugin', () => {
    const { api } = newApi();
    const mirror = api.create({
      ...pod('static-web'),
      metadata: { name: 'static-web', namespace: 'default', annotations: { 'kubernetes.io/config.mirror': 'x' } },
    }) as Pod;
    assert.equal(mirror.spec!.volumes, undefined);
    assert.equal(mirror.spec!.serviceAccountName, undefined);
    const dry = api.create(pod('dry'), { dryRun: true }) as Pod;
    assert.equal(dry.spec!.volumes!.length, 1);
    const p = api.create(pod('web')) as Pod;
    const updated = api.update({ ...p, metadata: { ...p.metadata!, labels: { a: 'b' } } } as KubeObject) as Pod;
    assert.deepEqual(updated.spec, p.spec);
  });

  test('a pod template is not mutated (the plugin admits pods only)', () => {
    const { api } = newApi();
    const d = api.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } },
      },
    });
    const template = (d.spec as { template: { spec: Record<string, unknown> } }).template.spec;
    assert.equal(template.serviceAccountName, undefined);
    assert.equal(template.volumes, undefined);
  });
});

describe('ServiceAccount fields on pod updates', () => {
  test('a re-applied pod manifest keeps its account, token volume and mounts (kubectl apply never mentions them)', () => {
    const { api } = newApi();
    const created = api.create(pod('web')) as Pod;
    const manifest = pod('web');
    manifest.metadata.labels = { tier: 'front' };
    const updated = api.update({
      ...manifest,
      metadata: { ...manifest.metadata, resourceVersion: created.metadata!.resourceVersion },
    }) as Pod;
    assert.deepEqual(updated.metadata!.labels, { tier: 'front' });
    assert.equal(updated.spec!.serviceAccountName, 'default');
    assert.deepEqual(updated.spec!.volumes, created.spec!.volumes);
    assert.deepEqual(updated.spec!.containers[0].volumeMounts, created.spec!.containers[0].volumeMounts);
  });
});
