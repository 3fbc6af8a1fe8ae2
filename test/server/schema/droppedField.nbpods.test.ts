/**
 * `dropped-field`: documentation examples of features whose gate is off by default in the checked release (copies in
 * test/fixtures/docs/nbpods, kubernetes/website, CC BY 4.0) get a warning on the dropped field's key, since the API
 * server accepts them without a word and stores the pod without the field (upstream `dropDisabledPodFields`).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateManifestText } from '../../../server/src/services/validateDocument';
import { kubernetesVersion, setKubernetesVersion } from '../../../server/src/schema/schema';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'docs', 'nbpods', 'content', 'en', 'examples', 'pods');

function warnings(file: string): string[] {
  return validateManifestText(readFileSync(join(FIXTURES, file), 'utf8')).map(
    (d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity} ${d.code} ${d.message}`,
  );
}

describe('dropped-field', () => {
  test('1.32: pod-level resources, an image volume and clusterTrustBundle sources are flagged as dropped', () => {
    assert.deepEqual(warnings('resource/pod-level-resources.yaml'), [
      '7:3 2 dropped-field "resources" is dropped by Kubernetes 1.32: feature gate PodLevelResources is off by ' +
        'default, so the API server stores the object without pod-level resources',
    ]);
    assert.deepEqual(warnings('image-volumes.yaml'), [
      '23:7 2 dropped-field "image" is dropped by Kubernetes 1.32: feature gate ImageVolume is off by default, so ' +
        'the API server stores the object without this volume and its mounts',
    ]);
    assert.deepEqual(
      warnings('storage/projected-clustertrustbundle.yaml').map((w) => w.split(' is dropped')[0]),
      ['21:9 2 dropped-field "clusterTrustBundle"', '24:9 2 dropped-field "clusterTrustBundle"'],
    );
  });

  test('1.34 turns PodLevelResources on: no warning there; 1.30 has no such field: unknown-field instead', () => {
    const release = kubernetesVersion();
    try {
      setKubernetesVersion('1.34');
      assert.deepEqual(warnings('resource/pod-level-resources.yaml'), []);
      setKubernetesVersion('1.30');
      assert.deepEqual(
        warnings('resource/pod-level-resources.yaml').map((w) => w.split(' ').slice(0, 3).join(' ')),
        ['7:3 1 unknown-field'],
      );
    } finally {
      setKubernetesVersion(release);
    }
  });
});
