import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../sandbox/api/types';
import { definition, setKubernetesVersion } from '../../../sandbox/schema/schema';
import {
  cleanLike,
  rememberedClean,
  strictFieldErrors,
  strictFieldErrorsAt,
  strictFieldErrorsOf,
} from '../../../sandbox/schema/strictFields';
import type { SchemaType } from '../../../sandbox/schema/types';
import { deepFreeze } from '../../../sandbox/util/json';
import { recordKeyOrder } from '../../../sandbox/util/keyOrder';

type Json = Record<string, unknown>;

const paths = (obj: Json): string[] => strictFieldErrorsOf(obj).map((e) => e.path);

describe('strictFieldErrors: unknown fields', () => {
  const deployment = (spec: Json, metadata: Json = { name: 'web' }): KubeObject =>
    ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata, spec }) as unknown as KubeObject;
  const template = (containers: Json[]): Json => ({ metadata: { labels: { app: 'web' } }, spec: { containers } });

  test('paths as upstream strict decoding spells them, in document order', () => {
    const obj = deployment({
      replicass: 2,
      selector: { matchLabels: { app: 'web' } },
      template: template([
        { name: 'a', image: 'nginx' },
        { name: 'b', imagee: 'busybox', ports: [{ containerPort: 80, hostt: 1 }] },
      ]),
    });
    assert.deepEqual(paths(obj), [
      'spec.replicass',
      'spec.template.spec.containers[1].imagee',
      'spec.template.spec.containers[1].ports[0].hostt',
    ]);
    assert.deepEqual(
      strictFieldErrorsOf(obj).map((e) => [e.kind, e.parent?.title]),
      [
        ['unknown', 'DeploymentSpec'],
        ['unknown', 'Container'],
        ['unknown', 'ContainerPort'],
      ],
    );
  });

  test('a valid object has none; maps, free-form JSON and IntOrString values accept anything', () => {
    const obj = deployment(
      {
        replicas: 1,
        selector: { matchLabels: { 'any/key': 'x' } },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 0 } },
        template: template([
          {
            name: 'a',
            image: 'nginx',
            resources: { limits: { cpu: '1', 'example.com/gpu': 2 } },
            env: [{ name: 'A', value: 'b' }],
          },
        ]),
      },
      {
        name: 'web',
        labels: { anything: 'goes' },
        annotations: { 'a.b/c': '{"json": true}' },
        managedFields: [{ manager: 'm', fieldsV1: { 'f:spec': { 'f:whatever': {} } } }],
      },
    );
    assert.deepEqual(paths(obj), []);
    const revision = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: { name: 'r' },
      revision: 1,
      data: { spec: { anything: [1, 2] } },
    };
    assert.deepEqual(paths(revision), []);
  });

  test('metadata follows ObjectMeta; a kind without status has no status field', () => {
    assert.deepEqual(paths(deployment({}, { name: 'web', unknownMeta: 'x', labels: {} })), ['metadata.unknownMeta']);
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' }, status: {} };
    assert.deepEqual(paths(cm), ['status']);
  });

  test('an unknown field whose value is null or a wrong shape is still reported once; known fields of a wrong shape are not walked', () => {
    assert.deepEqual(paths(deployment({ nope: null, template: 'not an object', selector: [1] })), ['spec.nope']);
  });

  test('segments lead to each field, even under a map key with dots', () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        versions: [
          {
            name: 'v1',
            schema: { openAPIV3Schema: { type: 'object', properties: { 'a.b': { type: 'string', typo: true } } } },
          },
        ],
      },
    };
    const [e] = strictFieldErrorsOf(crd);
    assert.equal(e.path, 'spec.versions[0].schema.openAPIV3Schema.properties.a.b.typo');
    assert.deepEqual(e.segments, ['spec', 'versions', 0, 'schema', 'openAPIV3Schema', 'properties', 'a.b', 'typo']);
  });

  test('kinds the schema does not know report nothing (custom resources are checked elsewhere)', () => {
    assert.deepEqual(paths({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: {}, spec: { x: 1 } }), []);
  });

  test('each message once, and at most 100, as upstream saves strict errors', () => {
    const containers = Array.from({ length: 120 }, (_, i) => ({ name: `c${i}`, imagee: 'x' }));
    const errors = strictFieldErrorsOf(deployment({ template: template(containers) }));
    assert.equal(errors.length, 100);
    assert.equal(errors[99].path, 'spec.template.spec.containers[99].imagee');
  });
});

describe('strictFieldErrors: duplicate fields', () => {
  test('a key written twice (recorded by the decoder) is a duplicate field, in document order with unknown fields', () => {
    const spec: Json = { bogus: 1, replicas: 3 };
    recordKeyOrder(spec, ['bogus', 'replicas', 'replicas']);
    const labels: Json = { app: 'web' };
    recordKeyOrder(labels, ['app', 'app']);
    const obj = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels }, spec };
    assert.deepEqual(
      strictFieldErrorsOf(obj).map((e) => `${e.kind} ${e.path}`),
      ['duplicate metadata.labels.app', 'unknown spec.bogus', 'duplicate spec.replicas'],
    );
  });

  test('free-form values (a patch decoded into a map) report only duplicates', () => {
    const patch: Json = { spec: { x: 1 } };
    recordKeyOrder(patch.spec as Json, ['x', 'x']);
    assert.deepEqual(
      strictFieldErrors(patch, 'any').map((e) => `${e.kind} ${e.path}`),
      ['duplicate spec.x'],
    );
  });

  test('a recorded order that does not match the object is ignored', () => {
    const spec: Json = { replicas: 3 };
    recordKeyOrder(spec, ['paused', 'paused']);
    assert.deepEqual(paths({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: {}, spec }), []);
  });
});

describe('strictFieldErrors: frozen values walked once', () => {
  const pod = (spec: Json): Json => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec });

  /** A spec of `n` containers, each with ports and resources: 3 objects and arrays a container, 2 more. */
  const bigSpec = (n: number, extra: Json = {}): Json => ({
    containers: Array.from({ length: n }, (_, i) => ({
      name: `c${i}`,
      image: 'nginx',
      ports: [{ containerPort: 80 + i }],
      ...extra,
    })),
  });

  test('a frozen spec found clean stays clean in every later write that carries it', () => {
    for (const spec of [deepFreeze({ containers: [{ name: 'a', image: 'nginx' }] }), deepFreeze(bigSpec(8))]) {
      assert.deepEqual(paths(pod(spec)), []);
      assert.deepEqual(paths({ ...pod(spec), status: { phase: 'Running' } }), []);
      assert.deepEqual(paths({ ...pod(spec), status: { phasee: 'Running' } }), ['status.phasee']);
    }
  });

  test('only a clean frozen value of 16 objects and arrays or more is remembered (small ones are walked again)', () => {
    const small = deepFreeze(bigSpec(4));
    const big = deepFreeze(bigSpec(8));
    const dirty = deepFreeze(bigSpec(8, { imagee: 'x' }));
    assert.deepEqual(paths(pod(small)), []);
    assert.deepEqual(paths(pod(big)), []);
    assert.equal(paths(pod(dirty)).length, 8);
    assert.equal(rememberedClean(small), false);
    assert.equal(rememberedClean(big), true);
    assert.equal(rememberedClean(dirty), false);
    assert.deepEqual(paths(pod(dirty)), paths(pod(dirty)));
  });

  test('a frozen value with an unknown field is reported every time', () => {
    const spec = deepFreeze({ containers: [{ name: 'a', image: 'nginx', imagee: 'x' }] });
    assert.deepEqual(paths(pod(spec)), ['spec.containers[0].imagee']);
    assert.deepEqual(paths(pod(spec)), ['spec.containers[0].imagee']);
  });

  test('a frozen object with a mutable part is walked again: a field added there later is reported', () => {
    const container: Json = { name: 'a', image: 'nginx' };
    const spec = Object.freeze({ containers: Object.freeze([container]) });
    assert.deepEqual(paths(pod(spec)), []);
    container.imagee = 'x';
    assert.deepEqual(paths(pod(spec)), ['spec.containers[0].imagee']);
  });

  test('the same frozen value read as another kind is checked against that kind', () => {
    const meta = deepFreeze({ name: 'p', labels: { app: 'a' } });
    assert.deepEqual(paths({ apiVersion: 'v1', kind: 'Pod', metadata: meta }), []);
    const asSpec = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: meta };
    assert.deepEqual(paths(asSpec), ['spec.name', 'spec.labels']);
  });
});

describe("strictFieldErrorsAt: a write body's top-level member; cleanLike", () => {
  const META: SchemaType = { kind: 'ref', name: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' };
  const SPEC: SchemaType = { kind: 'ref', name: 'io.k8s.api.apps.v1.DeploymentSpec' };
  const objectMeta = () => definition('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta')!;
  const spec = () =>
    deepFreeze({
      replicas: 1,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'a', image: 'nginx' }] } },
    });

  test('a clean frozen member is remembered whatever its size; a dirty or mutable one is walked every time', () => {
    const small = spec();
    assert.deepEqual(strictFieldErrorsAt(small, SPEC, ['spec']), []);
    assert.equal(rememberedClean(small), false, 'a small value inside a walk is not remembered');
    assert.deepEqual(strictFieldErrorsAt(small, SPEC, ['spec'], true), []);
    assert.equal(rememberedClean(small, definition('io.k8s.api.apps.v1.DeploymentSpec')), true);
    const dirty = deepFreeze({ ...spec(), replicass: 2 });
    for (let i = 0; i < 2; i++)
      assert.deepEqual(
        strictFieldErrorsAt(dirty, SPEC, ['spec'], true).map((e) => e.path),
        ['spec.replicass'],
      );
    assert.equal(rememberedClean(dirty), false);
    const open = { ...spec() };
    assert.deepEqual(strictFieldErrorsAt(open, SPEC, ['spec'], true), []);
    assert.equal(rememberedClean(open), false);
    (open as Json).replicass = 2;
    assert.deepEqual(
      strictFieldErrorsAt(open, SPEC, ['spec'], true).map((e) => e.path),
      ['spec.replicass'],
    );
  });

  test('cleanLike: metadata with a new resourceVersion is as clean as the old; anything else is not vouched for', () => {
    const old = deepFreeze({ name: 'p', resourceVersion: '5', labels: { app: 'a' }, ownerReferences: [] });
    const next = (over: Json) => deepFreeze({ ...old, ...over });
    assert.equal(
      cleanLike(next({ resourceVersion: '6', generation: 2, deletionTimestamp: null }), old, objectMeta()),
      true,
    );
    // An undeclared key, a new object member, a mutable object: not vouched for, and the walk reports what it finds.
    const unknown = next({ resourceVersionn: '6' });
    assert.equal(cleanLike(unknown, old, objectMeta()), false);
    assert.deepEqual(
      strictFieldErrorsAt(unknown, META, ['metadata'], true).map((e) => e.path),
      ['metadata.resourceVersionn'],
    );
    assert.equal(cleanLike(next({ labels: { app: 'b' } }), old, objectMeta()), false);
    const owners = next({ ownerReferences: [{ name: 'o', kindd: 'x' }] });
    assert.equal(cleanLike(owners, old, objectMeta()), false);
    assert.deepEqual(
      strictFieldErrorsAt(owners, META, ['metadata']).map((e) => e.path),
      ['metadata.ownerReferences[0].kindd'],
    );
    assert.equal(cleanLike({ ...old, resourceVersion: '7' }, old, objectMeta()), false, 'not frozen');
  });

  test('what was found clean under one release is walked again under another, and refused by its schema', () => {
    // PodSpec.resources is in 1.32 (the default), not in 1.31.
    const podSpec: SchemaType = { kind: 'ref', name: 'io.k8s.api.core.v1.PodSpec' };
    const value = deepFreeze({ containers: [{ name: 'a', image: 'nginx' }], resources: { limits: { cpu: '1' } } });
    const meta = deepFreeze({ name: 'p', resourceVersion: '1' });
    assert.deepEqual(strictFieldErrorsAt(value, podSpec, ['spec'], true), []);
    assert.deepEqual(strictFieldErrorsAt(meta, META, ['metadata'], true), []);
    setKubernetesVersion('1.31');
    try {
      assert.equal(rememberedClean(value, definition('io.k8s.api.core.v1.PodSpec')), false);
      assert.deepEqual(
        strictFieldErrorsAt(value, podSpec, ['spec'], true).map((e) => e.path),
        ['spec.resources'],
      );
      assert.equal(rememberedClean(meta, objectMeta()), false, "not as this release's ObjectMeta");
      assert.deepEqual(strictFieldErrorsAt(meta, META, ['metadata'], true), []);
      assert.equal(rememberedClean(meta, objectMeta()), true);
    } finally {
      setKubernetesVersion('1.32');
    }
    assert.deepEqual(strictFieldErrorsAt(value, podSpec, ['spec'], true), []);
  });
});
