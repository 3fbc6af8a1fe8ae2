import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_KUBERNETES_VERSION,
  builtInGroups,
  definition,
  getSchema,
  kindEntry,
  kubernetesVersion,
  setKubernetesVersion,
} from '../../../sandbox/schema/schema';
import { listStrategyAtPath } from '../../../sandbox/schema/listStrategies';
import { normalizeKubernetesVersion } from '../../../sandbox/schema/versions';
import { versionInfo } from '../../../sandbox/http/discovery';
import { kubeletVersion } from '../../../sandbox/kubelet/nodeConfig';

describe('the active Kubernetes release', () => {
  afterEach(() => setKubernetesVersion(DEFAULT_KUBERNETES_VERSION));

  test('1.32 by default: its schema, /version and kubelet version', () => {
    assert.equal(kubernetesVersion(), '1.32');
    assert.equal(getSchema().version, '1.32');
    assert.equal(versionInfo().gitVersion, 'v1.32.0+kube-reconcile');
    assert.equal(kubeletVersion(), 'v1.32.0');
  });

  test('choosing 1.34 loads its schema file: lookups, /version and the kubelet follow', () => {
    const podSpec = 'io.k8s.api.core.v1.PodSpec';
    assert.equal(definition(podSpec)?.properties.hostnameOverride, undefined);
    setKubernetesVersion('1.34');
    assert.equal(kubernetesVersion(), '1.34');
    assert.ok(definition(podSpec)?.properties.hostnameOverride);
    assert.ok(kindEntry('resource.k8s.io/v1', 'ResourceClaim'));
    assert.deepEqual([versionInfo().major, versionInfo().minor], ['1', '34']);
    assert.equal(kubeletVersion(), 'v1.34.0');
    // An explicit release answers for it whatever is active.
    assert.equal(definition(podSpec, '1.32')?.properties.hostnameOverride, undefined);
    assert.equal(definition(podSpec), getSchema('1.34').definitions[podSpec]);
    // Back to 1.32: its own definitions again; names the schema does not define (an object's own keys too) are none.
    setKubernetesVersion('1.32');
    assert.equal(definition(podSpec), getSchema('1.32').definitions[podSpec]);
    for (const name of ['constructor', '__proto__', 'toString', 'io.k8s.api.core.v1.PodSpecc'])
      assert.equal(definition(name), undefined, name);
  });

  test('1.30 serves flowcontrol v1beta3, which 1.32 removed; built-in groups are the release’s', () => {
    setKubernetesVersion('v1.30.2');
    assert.equal(kubernetesVersion(), '1.30');
    assert.ok(kindEntry('flowcontrol.apiserver.k8s.io/v1beta3', 'FlowSchema'));
    setKubernetesVersion('1.32');
    assert.equal(kindEntry('flowcontrol.apiserver.k8s.io/v1beta3', 'FlowSchema'), undefined);
    assert.ok(builtInGroups().has('networking.k8s.io'));
    assert.ok(builtInGroups().has(''));
    assert.ok(!builtInGroups().has('gateway.networking.k8s.io'));
    assert.ok(!builtInGroups().has('snapshot.storage.k8s.io'));
  });

  test('strategies apply where the active release has the field', () => {
    const path = ['spec', 'template', 'spec', 'containers', 'restartPolicyRules'];
    assert.equal(listStrategyAtPath('apps/v1', 'Deployment', path), undefined);
    setKubernetesVersion('1.34');
    assert.deepEqual(listStrategyAtPath('apps/v1', 'Deployment', path), { listType: 'atomic' });
  });

  test('an unsupported release is refused and changes nothing', () => {
    assert.throws(
      () => setKubernetesVersion('1.29'),
      /unsupported Kubernetes version "1\.29": use one of 1\.30, 1\.31/,
    );
    assert.throws(() => setKubernetesVersion('latest'), /unsupported/);
    assert.equal(kubernetesVersion(), '1.32');
  });

  test('releases are written 1.32, v1.32 or 1.32.4', () => {
    assert.deepEqual(['1.32', 'v1.33', '1.34.2', ' 1.30 ', '1', 'v1.x'].map(normalizeKubernetesVersion), [
      '1.32',
      '1.33',
      '1.34',
      '1.30',
      undefined,
      undefined,
    ]);
  });
});
