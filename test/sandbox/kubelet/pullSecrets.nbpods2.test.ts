/**
 * A pod whose `imagePullSecrets` names a Secret that does not exist, as the docs' "Pull an Image from a Private
 * Registry" task shows it (kubernetes/website content/en/examples/pods/private-reg-pod.yaml, CC BY 4.0, copy in
 * test/fixtures/docs/nbpods2): the kubelet says `Warning FailedToRetrieveImagePullSecret` on each sync and still
 * pulls. Upstream: pkg/kubelet/kubelet_pods.go getPullSecretsForPod, called by SyncPod after the volumes are mounted;
 * a pod worker resyncs after `resyncInterval` (1 min, 0.5 jitter), or after `backOffPeriod` when the sync failed.
 * Fixed delays: sandbox 0.5 s, pull 1 s, back-off 10 s.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Pod } from 'kubernetes-types/core/v1';
import type { KubeObject, Typed } from '../../../sandbox/api/types';
import { manifestObjects } from '../../../sandbox/manifests/parseManifests';
import { newPod, setupKubelet } from './setup';
import type { KubeletFixture } from './setup';

const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'docs', 'nbpods2', 'content', 'en', 'examples', 'pods');

/** The docs' pod, bound to the fixture's node; `image` replaces the placeholder as the task tells the reader to. */
function privateReg(image?: string): Typed<Pod> {
  const pod = manifestObjects(readFileSync(join(FIXTURE, 'private-reg-pod.yaml'), 'utf8')).manifests[0]
    .object as unknown as Typed<Pod>;
  pod.spec!.nodeName = 'node-1';
  if (image) pod.spec!.containers[0].image = image;
  return pod;
}

const WARNING =
  'Warning FailedToRetrieveImagePullSecret: Unable to retrieve some image pull secrets (regcred); attempting to pull the image may not succeed.';

const pullSecretEvents = (f: KubeletFixture, pod: string) =>
  f.events(pod).filter((e) => e.includes('FailedToRetrieveImagePullSecret'));

function secret(name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'default' }, data: {} } as KubeObject;
}

describe('FailedToRetrieveImagePullSecret (docs: private-reg-pod.yaml)', () => {
  test('the docs pod as written: the warning on the first sync, again on each 10 s retry of the failing sync', () => {
    const f = setupKubelet();
    f.create(privateReg());
    f.h.advance(1);
    // Said before anything is pulled (the sync fetches the pull secrets before the runtime syncs the pod).
    assert.deepEqual(f.events('private-reg'), [WARNING]);
    f.h.advance(25_000);
    // `<your-private-image>` is not an image name: the sync fails, so the worker retries every 10 s (0, 10 s, 20 s).
    assert.equal(f.pod('private-reg')!.status!.containerStatuses![0].state!.waiting!.reason, 'InvalidImageName');
    assert.deepEqual(pullSecretEvents(f, 'private-reg'), [`${WARNING} (x3)`]);
  });

  test('with a real image: the pull is still attempted and the pod runs; the warning comes back on each resync', () => {
    const f = setupKubelet();
    f.create(privateReg('nginx:1.27'));
    f.h.advance(59_000);
    const pod = f.pod('private-reg')!;
    assert.equal(pod.status!.phase, 'Running');
    assert.ok(f.events('private-reg').some((e) => e.startsWith('Normal Pulled:')));
    assert.deepEqual(pullSecretEvents(f, 'private-reg'), [WARNING]);
    // The next resync is 60–90 s after the first sync.
    f.h.advance(32_000);
    assert.deepEqual(pullSecretEvents(f, 'private-reg'), [`${WARNING} (x2)`]);
    // Once the Secret exists the syncs find it: no more warnings.
    f.h.api.create(secret('regcred'));
    f.h.advance(300_000);
    assert.deepEqual(pullSecretEvents(f, 'private-reg'), [`${WARNING} (x2)`]);
  });

  test('only the missing ones are named, in order; an entry with an empty name is skipped', () => {
    const f = setupKubelet();
    f.h.api.create(secret('present'));
    f.create(
      newPod('app', {
        containers: [{ name: 'app', image: 'nginx:1.27' }],
        imagePullSecrets: [{ name: 'gone-a' }, { name: '' }, { name: 'present' }, { name: 'gone-b' }],
      }),
    );
    f.create(
      newPod('found', {
        containers: [{ name: 'app', image: 'nginx:1.27' }],
        imagePullSecrets: [{ name: 'present' }, { name: '' }],
      }),
    );
    f.h.advance(5_000);
    assert.deepEqual(pullSecretEvents(f, 'app'), [
      'Warning FailedToRetrieveImagePullSecret: Unable to retrieve some image pull secrets (gone-a, gone-b); attempting to pull the image may not succeed.',
    ]);
    assert.deepEqual(pullSecretEvents(f, 'found'), []);
    assert.equal(f.pod('found')!.status!.phase, 'Running');
  });
});
