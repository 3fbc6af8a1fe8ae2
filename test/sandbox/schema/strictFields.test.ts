import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../sandbox/api/types';
import { rememberedClean, strictFieldErrors, strictFieldErrorsOf } from '../../../sandbox/schema/strictFields';
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
