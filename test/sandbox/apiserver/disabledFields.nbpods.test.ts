/**
 * Documentation examples of features whose gate is off by default in 1.32 (kubernetes/website
 * content/en/examples/pods/…, CC BY 4.0, copies in test/fixtures/docs/nbpods): a 1.32 API server accepts them without
 * a word and drops the gated fields (upstream pkg/api/pod/util.go `dropDisabledPodFields`), so the pod runs without
 * them; a release whose gate is on keeps them.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeObject } from '../../../sandbox/api/types';
import { ApiServer } from '../../../sandbox/apiserver/apiServer';
import { VirtualClock } from '../../../sandbox/clock/virtualClock';
import { manifestObjects } from '../../../sandbox/manifests/parseManifests';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'docs', 'nbpods', 'content', 'en', 'examples', 'pods');

function example(file: string): KubeObject {
  const object = manifestObjects(readFileSync(join(FIXTURES, file), 'utf8')).manifests[0].object;
  return { ...object, metadata: { ...object.metadata, namespace: 'default' } };
}

function api(kubernetesVersion: string): ApiServer {
  return new ApiServer({ clock: new VirtualClock(0), kubernetesVersion });
}

type Spec = Record<string, unknown> & { volumes?: Record<string, unknown>[]; containers: Record<string, unknown>[] };

function specOf(o: KubeObject): Spec {
  return o.spec as Spec;
}

describe('fields of features off by default in 1.32 are dropped on create', () => {
  test('pod-level resources (PodLevelResources, alpha in 1.32): spec.resources is gone, the containers keep theirs', () => {
    const created = api('1.32').create(example('resource/pod-level-resources.yaml'));
    assert.equal(specOf(created).resources, undefined);
    assert.deepEqual((specOf(created).containers[0].resources as { limits: unknown }).limits, {
      cpu: '500m',
      memory: '100Mi',
    });
    // On from 1.34 (beta): kept.
    const kept = api('1.34').create(example('resource/pod-level-resources.yaml'));
    assert.deepEqual((specOf(kept).resources as { requests: unknown }).requests, { cpu: '1', memory: '100Mi' });
  });

  test('an image volume (ImageVolume, alpha in 1.32) goes with its mount: the pod is stored without either', () => {
    const created = api('1.32').create(example('image-volumes.yaml'));
    // Only the service account token's volume and mount, which admission added.
    const names = (list: unknown) => ((list ?? []) as { name: string }[]).map((v) => v.name.replace(/-\w+$/, '-…'));
    assert.deepEqual(names(specOf(created).volumes), ['kube-api-access-…']);
    assert.deepEqual(names(specOf(created).containers[0].volumeMounts), ['kube-api-access-…']);
  });

  test('the same in a Deployment template (upstream DropDisabledTemplateFields)', () => {
    const pod = example('image-volumes.yaml');
    const deployment: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'image-volume', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'iv' } },
        template: { metadata: { labels: { app: 'iv' } }, spec: pod.spec },
      },
    };
    const created = api('1.32').create(deployment);
    const template = (created.spec as { template: { spec: Spec } }).template.spec;
    assert.equal(template.volumes, undefined);
    assert.equal(template.containers[0].volumeMounts, undefined);
    assert.equal(template.containers[0].image, 'debian');
  });

  test('clusterTrustBundle projections (ClusterTrustBundleProjection, alpha) are cleared, leaving empty sources', () => {
    const created = api('1.32').create(example('storage/projected-clustertrustbundle.yaml'));
    const vol = specOf(created).volumes!.find((v) => v.name === 'token-vol') as { projected: { sources: unknown[] } };
    assert.deepEqual(vol.projected.sources, [{}, {}]);
  });
});
