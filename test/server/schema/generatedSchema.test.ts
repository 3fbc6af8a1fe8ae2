import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_KUBERNETES_VERSION,
  KUBERNETES_VERSIONS,
  definition,
  fieldVersions,
  getSchema,
  kindEntry,
  kindVersions,
} from '../../../server/src/schema/schema';

describe('the generated schema (scripts/generate-schema.mjs)', () => {
  test('one schema per supported release, 1.32 by default, each naming its source packages', () => {
    assert.deepEqual(KUBERNETES_VERSIONS, ['1.30', '1.31', '1.32', '1.33', '1.34']);
    assert.equal(DEFAULT_KUBERNETES_VERSION, '1.32');
    assert.equal(getSchema().version, '1.32');
    assert.match(getSchema().source, /^@kubernetes\/client-node@1\.1\.2, kubernetes-models 5\.\d+\.\d+/);
    for (const v of KUBERNETES_VERSIONS) assert.equal(getSchema(v).version, v);
    assert.match(getSchema('1.31').source, /@pulumi\/kubernetes@4\.18\.1/);
  });

  test("each release has its own fields: 1.32 refuses what 1.33 and 1.34 added, 1.31 has 1.31's", () => {
    const podSpec = 'io.k8s.api.core.v1.PodSpec';
    assert.deepEqual(fieldVersions(podSpec, 'hostnameOverride'), ['1.34']);
    assert.equal(definition(podSpec)?.properties.hostnameOverride, undefined);
    assert.ok(definition(podSpec, '1.34')?.properties.hostnameOverride);
    assert.deepEqual(fieldVersions('io.k8s.api.core.v1.Container', 'restartPolicyRules'), ['1.34']);
    assert.deepEqual(fieldVersions('io.k8s.api.core.v1.EnvVarSource', 'fileKeyRef'), ['1.34']);
    // Pod-level resources came in 1.32; image volumes in 1.31 (decided for 1.31 by the Pulumi SDK's fields).
    assert.deepEqual(fieldVersions(podSpec, 'resources'), ['1.32', '1.33', '1.34']);
    assert.deepEqual(fieldVersions('io.k8s.api.core.v1.Volume', 'image'), ['1.31', '1.32', '1.33', '1.34']);
    assert.deepEqual(fieldVersions(podSpec, 'containers'), KUBERNETES_VERSIONS);
    assert.deepEqual(fieldVersions(podSpec, 'nope'), []);
  });

  test('each release serves its own kinds', () => {
    assert.equal(kindEntry('resource.k8s.io/v1', 'ResourceClaim'), undefined);
    assert.ok(kindEntry('resource.k8s.io/v1', 'ResourceClaim', '1.34'));
    assert.deepEqual(kindVersions('resource.k8s.io/v1', 'ResourceClaim'), ['1.34']);
    assert.deepEqual(kindVersions('flowcontrol.apiserver.k8s.io/v1beta3', 'FlowSchema'), ['1.30', '1.31']);
    assert.deepEqual(kindVersions('apps/v1', 'Deployment'), KUBERNETES_VERSIONS);
    assert.deepEqual(kindVersions('batch/v1beta1', 'CronJob'), []);
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

  test('integers with their int32/int64 formats, the few floats, and free-form JSON', () => {
    assert.deepEqual(definition('io.k8s.api.core.v1.ContainerPort')?.properties.containerPort.type, {
      kind: 'integer',
      format: 'int32',
    });
    assert.deepEqual(definition('io.k8s.api.core.v1.PodSpec')?.properties.activeDeadlineSeconds.type, {
      kind: 'integer',
      format: 'int64',
    });
    const props = definition('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps')?.properties;
    assert.deepEqual(
      [props?.maximum.type, props?.minLength.type, props?.default.type],
      [{ kind: 'number' }, { kind: 'integer', format: 'int64' }, { kind: 'any' }],
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

  test('kinds: every kind the release serves, sorted', () => {
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
    assert.equal(kindEntry('batch/v1beta1', 'CronJob'), undefined);
    const served = new Set(kinds.filter((k) => k.removed !== true).map((k) => `${k.apiVersion}|${k.kind}`));
    for (const k of [
      'v1|Pod',
      'v1|Service',
      'apps/v1|StatefulSet',
      'networking.k8s.io/v1|Ingress',
      'autoscaling/v2|HorizontalPodAutoscaler',
      'apiextensions.k8s.io/v1|CustomResourceDefinition',
      'resource.k8s.io/v1beta1|ResourceClaim',
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
