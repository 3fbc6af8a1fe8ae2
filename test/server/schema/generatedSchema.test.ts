import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { definition, getSchema, kindEntry } from '../../../server/src/schema/schema';

describe('the generated schema (scripts/generate-schema.mjs)', () => {
  test('names its source package', () => {
    assert.match(getSchema().source, /^kubernetes-models 5\.\d+\.\d+, @kubernetes-models\/apimachinery 3\.\d+\.\d+$/);
  });

  test('Container: imagePullPolicy is an enum from the literal union, name is required', () => {
    const c = definition('io.k8s.api.core.v1.Container');
    assert.ok(c !== undefined);
    assert.deepEqual(c.properties.imagePullPolicy.type, { kind: 'string', enum: ['Always', 'IfNotPresent', 'Never'] });
    assert.deepEqual(c.required, ['name']);
    assert.equal(c.title, 'Container');
    assert.deepEqual(c.properties.ports.type, {
      kind: 'array',
      items: { kind: 'ref', name: 'io.k8s.api.core.v1.ContainerPort' },
    });
    assert.match(c.properties.image.description ?? '', /Container image name/);
  });

  test('DeploymentSpec requires selector and template; maxSurge is IntOrString', () => {
    assert.deepEqual(definition('io.k8s.api.apps.v1.DeploymentSpec')?.required, ['selector', 'template']);
    assert.deepEqual(definition('io.k8s.api.apps.v1.RollingUpdateDeployment')?.properties.maxSurge.type, {
      kind: 'intOrString',
    });
  });

  test('resources.limits values are Quantities, labels a string map, timestamps date-time strings', () => {
    assert.deepEqual(definition('io.k8s.api.core.v1.ResourceRequirements')?.properties.limits.type, {
      kind: 'map',
      values: { kind: 'quantity' },
    });
    const meta = definition('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    assert.deepEqual(meta?.properties.labels.type, { kind: 'map', values: { kind: 'string' } });
    assert.deepEqual(meta?.properties.creationTimestamp.type, { kind: 'string', format: 'date-time' });
    assert.deepEqual(meta?.required, []);
  });

  test('integers, the few floats, and free-form JSON', () => {
    assert.deepEqual(definition('io.k8s.api.core.v1.ContainerPort')?.properties.containerPort.type, {
      kind: 'integer',
    });
    const props = definition('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps')?.properties;
    assert.deepEqual(
      [props?.maximum.type, props?.minLength.type, props?.default.type],
      [{ kind: 'number' }, { kind: 'integer' }, { kind: 'any' }],
    );
    assert.deepEqual(definition('io.k8s.api.apps.v1.ControllerRevision')?.properties.data.type, { kind: 'any' });
  });

  test('a kind: apiVersion/kind are optional plain strings in its definition (volumeClaimTemplates omit them)', () => {
    const pvc = definition('io.k8s.api.core.v1.PersistentVolumeClaim');
    assert.deepEqual(
      [pvc?.properties.apiVersion.type, pvc?.properties.kind.type, pvc?.required],
      [{ kind: 'string' }, { kind: 'string' }, []],
    );
    assert.deepEqual(definition('io.k8s.api.apps.v1.StatefulSetSpec')?.properties.volumeClaimTemplates.type, {
      kind: 'array',
      items: { kind: 'ref', name: 'io.k8s.api.core.v1.PersistentVolumeClaim' },
    });
  });

  test('kinds: every built-in kind, sorted, with removed pre-release versions marked', () => {
    const kinds = getSchema().kinds;
    const order = (a: { apiVersion: string; kind: string }, b: { apiVersion: string; kind: string }): number =>
      a.apiVersion < b.apiVersion
        ? -1
        : a.apiVersion > b.apiVersion
          ? 1
          : a.kind < b.kind
            ? -1
            : a.kind > b.kind
              ? 1
              : 0;
    assert.deepEqual(kinds, [...kinds].sort(order));
    assert.deepEqual(kindEntry('apps/v1', 'Deployment'), {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      definition: 'io.k8s.api.apps.v1.Deployment',
    });
    assert.deepEqual(kindEntry('batch/v1beta1', 'CronJob'), {
      apiVersion: 'batch/v1beta1',
      kind: 'CronJob',
      definition: 'io.k8s.api.batch.v1beta1.CronJob',
      removed: true,
    });
    const served = new Set(kinds.filter((k) => k.removed !== true).map((k) => `${k.apiVersion}|${k.kind}`));
    for (const k of [
      'v1|Pod',
      'v1|Service',
      'apps/v1|StatefulSet',
      'networking.k8s.io/v1|Ingress',
      'autoscaling/v2|HorizontalPodAutoscaler',
      'apiextensions.k8s.io/v1|CustomResourceDefinition',
      'resource.k8s.io/v1|ResourceClaim',
    ]) {
      assert.ok(served.has(k), k);
    }
    for (const k of kinds) assert.ok(definition(k.definition) !== undefined, k.definition);
  });

  test('every ref points at a definition', () => {
    const dangling: string[] = [];
    const visit = (t: unknown, where: string): void => {
      const type = t as { kind: string; name?: string; items?: unknown; values?: unknown };
      if (type.kind === 'ref' && definition(type.name ?? '') === undefined) dangling.push(`${where} → ${type.name}`);
      if (type.items !== undefined) visit(type.items, where);
      if (type.values !== undefined) visit(type.values, where);
    };
    for (const d of Object.values(getSchema().definitions))
      for (const [p, s] of Object.entries(d.properties)) visit(s.type, `${d.name}.${p}`);
    assert.deepEqual(dangling, []);
  });
});
