import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { definition, fieldVersions } from '../../../sandbox/schema/schema';
import { listStrategy, listStrategyAtPath, listStrategyEntries } from '../../../sandbox/schema/listStrategies';
import type { SchemaType } from '../../../sandbox/schema/types';

const CORE = 'io.k8s.api.core.v1.';

describe('listStrategy: upstream struct tags and list markers', () => {
  test('pod containers merge by name and are a list-map keyed by name', () => {
    assert.deepEqual(listStrategy(`${CORE}PodSpec`, 'containers'), {
      patchStrategy: 'merge',
      patchMergeKey: 'name',
      listType: 'map',
      listMapKeys: ['name'],
    });
    for (const p of ['initContainers', 'ephemeralContainers', 'imagePullSecrets', 'schedulingGates']) {
      assert.equal(listStrategy(`${CORE}PodSpec`, p)?.patchMergeKey, 'name', p);
    }
  });

  test('container ports merge by containerPort but are keyed by containerPort and protocol for apply', () => {
    for (const def of ['Container', 'EphemeralContainer']) {
      const s = listStrategy(`${CORE}${def}`, 'ports');
      assert.equal(s?.patchMergeKey, 'containerPort');
      assert.deepEqual(s?.listMapKeys, ['containerPort', 'protocol']);
    }
    assert.equal(listStrategy(`${CORE}Container`, 'volumeMounts')?.patchMergeKey, 'mountPath');
    assert.equal(listStrategy(`${CORE}Container`, 'volumeDevices')?.patchMergeKey, 'devicePath');
    assert.equal(listStrategy(`${CORE}Container`, 'env')?.patchMergeKey, 'name');
  });

  test('volumes merge and retain keys; tolerations are atomic with no patch strategy', () => {
    assert.equal(listStrategy(`${CORE}PodSpec`, 'volumes')?.patchStrategy, 'merge,retainKeys');
    assert.deepEqual(listStrategy(`${CORE}PodSpec`, 'tolerations'), { listType: 'atomic' });
    assert.equal(listStrategy(`${CORE}PodSpec`, 'hostAliases')?.patchMergeKey, 'ip');
  });

  test('service ports merge by port, keyed by port and protocol', () => {
    const s = listStrategy(`${CORE}ServiceSpec`, 'ports');
    assert.equal(s?.patchMergeKey, 'port');
    assert.deepEqual(s?.listMapKeys, ['port', 'protocol']);
  });

  test('finalizers are a merging set; owner references merge by uid', () => {
    const meta = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
    assert.deepEqual(listStrategy(meta, 'finalizers'), { patchStrategy: 'merge', listType: 'set' });
    assert.equal(listStrategy(meta, 'ownerReferences')?.patchMergeKey, 'uid');
  });

  test('a field without a strategy, an unknown property or definition has none', () => {
    assert.equal(listStrategy(`${CORE}PodSpec`, 'nodeName'), undefined);
    assert.equal(listStrategy(`${CORE}PodSpec`, 'nope'), undefined);
    assert.equal(listStrategy('io.k8s.nope.Thing', 'containers'), undefined);
    assert.equal(listStrategy(`${CORE}PodSpec`, 'constructor'), undefined);
  });
});

describe('listStrategyAtPath', () => {
  test('walks from the kind through templates and lists (no indices)', () => {
    assert.equal(
      listStrategyAtPath('apps/v1', 'Deployment', ['spec', 'template', 'spec', 'containers', 'env'])?.patchMergeKey,
      'name',
    );
    assert.equal(
      listStrategyAtPath('batch/v1', 'CronJob', [
        'spec',
        'jobTemplate',
        'spec',
        'template',
        'spec',
        'containers',
        'ports',
      ])?.patchMergeKey,
      'containerPort',
    );
    assert.equal(listStrategyAtPath('v1', 'Pod', ['spec', 'containers', 'volumeMounts'])?.patchMergeKey, 'mountPath');
  });

  test('the Deployment strategy retains keys', () => {
    assert.deepEqual(listStrategyAtPath('apps/v1', 'Deployment', ['spec', 'strategy']), {
      patchStrategy: 'retainKeys',
    });
    assert.equal(listStrategyAtPath('apps/v1', 'DaemonSet', ['spec', 'updateStrategy']), undefined);
  });

  test('status conditions merge by type in every status', () => {
    const kinds: [string, string][] = [
      ['v1', 'Pod'],
      ['v1', 'Node'],
      ['v1', 'Namespace'],
      ['v1', 'PersistentVolumeClaim'],
      ['v1', 'Service'],
      ['apps/v1', 'Deployment'],
      ['apps/v1', 'ReplicaSet'],
      ['apps/v1', 'StatefulSet'],
      ['apps/v1', 'DaemonSet'],
      ['batch/v1', 'Job'],
      ['autoscaling/v2', 'HorizontalPodAutoscaler'],
      ['policy/v1', 'PodDisruptionBudget'],
    ];
    for (const [v, k] of kinds)
      assert.equal(listStrategyAtPath(v, k, ['status', 'conditions'])?.patchMergeKey, 'type', `${v} ${k}`);
    // Job conditions merge by type but are atomic for server-side apply.
    assert.equal(listStrategyAtPath('batch/v1', 'Job', ['status', 'conditions'])?.listType, 'atomic');
  });

  test('metadata lists, and map keys that happen to be property names, resolve correctly', () => {
    assert.equal(listStrategyAtPath('v1', 'ConfigMap', ['metadata', 'finalizers'])?.listType, 'set');
    assert.equal(listStrategyAtPath('v1', 'Pod', ['metadata', 'labels', 'finalizers']), undefined);
    assert.equal(listStrategyAtPath('v1', 'Pod', ['spec', 'nodeSelector', 'containers']), undefined);
  });

  test('unknown kinds, unknown fields and the empty path have none', () => {
    assert.equal(listStrategyAtPath('v1', 'Nope', ['spec', 'containers']), undefined);
    assert.equal(listStrategyAtPath('apps/v1', 'Pod', ['spec', 'containers']), undefined);
    assert.equal(listStrategyAtPath('v1', 'Pod', ['spec', 'containerz']), undefined);
    assert.equal(listStrategyAtPath('v1', 'Pod', []), undefined);
  });

  test('answers are stable across repeated (memoised) calls', () => {
    const path = ['spec', 'template', 'spec', 'volumes'];
    const first = listStrategyAtPath('apps/v1', 'StatefulSet', path);
    assert.equal(first?.patchStrategy, 'merge,retainKeys');
    assert.equal(listStrategyAtPath('apps/v1', 'StatefulSet', path), first);
  });
});

describe('the table agrees with the generated schema of the newest release that has the field', () => {
  for (const [defName, prop, s] of listStrategyEntries()) {
    test(`${defName.slice(defName.lastIndexOf('.') + 1)}.${prop}`, () => {
      const versions = fieldVersions(defName, prop);
      assert.ok(versions.length > 0, `no supported release has ${defName}.${prop}`);
      const version = versions[versions.length - 1];
      const elementDefinition = (t: SchemaType) =>
        t.kind === 'array' && t.items.kind === 'ref' ? definition(t.items.name, version) : undefined;
      const def = definition(defName, version);
      assert.ok(def, `no definition ${defName}`);
      assert.ok(Object.hasOwn(def.properties, prop), `no property ${prop}`);
      const type = def.properties[prop].type;
      if (s.patchStrategy === 'retainKeys' || s.patchStrategy === 'replace') {
        assert.equal(type.kind, 'ref', `${s.patchStrategy} alone is for a struct field`);
        return;
      }
      assert.equal(type.kind, 'array', 'list markers are for lists');
      const item = elementDefinition(type);
      for (const key of [...(s.patchMergeKey === undefined ? [] : [s.patchMergeKey]), ...(s.listMapKeys ?? [])]) {
        assert.ok(item && Object.hasOwn(item.properties, key), `element has no ${key}`);
      }
      if (s.listType === 'map') assert.ok(item && (s.listMapKeys ?? []).length > 0, 'a list-map of structs with keys');
      if (s.patchStrategy?.startsWith('merge') && item !== undefined)
        assert.ok(s.patchMergeKey, 'merging structs needs a merge key');
    });
  }
});
