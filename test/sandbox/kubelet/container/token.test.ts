/**
 * The projected service account token (`kube-api-access-…` volumes): made when the volume is first read, not kept per
 * pod (issue 16), and the same file as before that change — the values below were read on the tree that made the token
 * at the container's start and cached it.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1';
import { ROOT_CA_CONFIGMAP } from '../../../../sandbox/controllers/serviceaccount/rootCaPublisher';
import { newPod, setupKubelet } from '../setup';

const DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

function withToken(): Pod['spec'] {
  return {
    containers: [
      {
        name: 'app',
        image: 'busybox:1.36',
        command: ['sleep', '3600'],
        volumeMounts: [{ name: 'sa', mountPath: DIR }],
      },
    ],
    volumes: [
      {
        name: 'sa',
        projected: {
          sources: [
            { serviceAccountToken: { path: 'token', expirationSeconds: 3607 } },
            { configMap: { name: ROOT_CA_CONFIGMAP, items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            { downwardAPI: { items: [{ path: 'namespace', fieldRef: { fieldPath: 'metadata.namespace' } }] } },
          ],
        },
      },
    ],
  };
}

describe('the projected service account token', () => {
  test('reads as the same JWT each time, one per pod, beside the CA and the namespace', () => {
    const f = setupKubelet();
    const a = f.create(newPod('a', withToken()));
    const b = f.create(newPod('b', withToken()));
    f.h.advance(10_000);
    const cat = (pod: string, file: string) => f.kubelet.exec(f.pod(pod)!, 'app', ['cat', `${DIR}/${file}`]);
    const first = cat('a', 'token');
    assert.equal(first.exitCode, 0);
    assert.match(first.stdout, /^eyJhbGciOiJSUzI1NiIsImtpZCI6I[\w-]{40}\.[\w-]{180}\.[\w-]{86}$/);
    assert.equal(cat('a', 'token').stdout, first.stdout);
    assert.notEqual(cat('b', 'token').stdout, first.stdout);
    assert.equal(cat('a', 'namespace').stdout, 'default');
    assert.match(cat('a', 'ca.crt').stdout, /^-----BEGIN CERTIFICATE-----/);
    assert.deepEqual(f.kubelet.exec(f.pod('a')!, 'app', ['ls', DIR]).stdout.split(/\s+/).filter(Boolean), [
      'ca.crt',
      'namespace',
      'token',
    ]);
    // Pinned: the token is a pure function of the pod's uid (the harness's seed makes the uids).
    assert.equal(a.metadata.uid, PINNED.uid);
    assert.equal(first.stdout, PINNED.token);
    assert.ok(b.metadata.uid);
  });
});

const PINNED = {
  uid: '48772639-bd1d-4f7f-ad07-038b1dbf34c3',
  token:
    'eyJhbGciOiJSUzI1NiIsImtpZCI6IVhSwEshAg0tWqeA75uFeVIRkv_32qCVLFzTSCNcd.uMIqX0tOp1JlnhOGli6WSX-XbOCm8XVKhpktX5HOIyWCjDqsyi1VsCxQ3vytHfBNN9P83qZqlLCW-8AzDsjRL3ipC98UoKWKiYnUuT7yw-iakeANFrqX_zrphDWP7DaOKuyNgbVJr-uaZWJifgq3z8mnvMQFSMA7bxkL5-9NXGSxLHvMYNJ9.hw6KUYKTsu-Catj-I4NaPfuiIl8zARnc_5wWcFuz8F6hAngVS8Cw0dhY630to_MMd4HMtmuNpm_3QfpQEorGcw',
};
