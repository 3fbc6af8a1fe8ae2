import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFolder, expected } from './helpers';

const cm = (name: string, namespace?: string): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n${namespace === undefined ? '' : `  namespace: ${namespace}\n`}data: {}\n`;

const OVERWRITES = 'applied together, the later one overwrites the earlier';

describe('duplicate-object', () => {
  test("the same object in two files of one directory: a warning on each copy's name, naming the other file and line", () => {
    const a = `${cm('one')}---\n${cm('web')}`;
    assert.deepEqual(checkFolder({ 'a.yaml': a, 'b.yaml': cm('web', 'default') }), {
      'a.yaml': [
        expected(
          9,
          8,
          11,
          'duplicate-object',
          `ConfigMap "web" in namespace "default" is defined more than once in this directory: also at b.yaml:4; ${OVERWRITES}`,
        ),
      ],
      'b.yaml': [
        expected(
          3,
          8,
          11,
          'duplicate-object',
          `ConfigMap "web" in namespace "default" is defined more than once in this directory: also at a.yaml:10; ${OVERWRITES}`,
        ),
      ],
    });
  });

  test('twice in one file, and more than three copies summarised', () => {
    const five = [1, 2, 3, 4, 5].map(() => cm('x')).join('---\n');
    const found = checkFolder({ 'five.yaml': five })['five.yaml'];
    assert.deepEqual(
      found.map((d) => d.message),
      [
        `ConfigMap "x" in namespace "default" is defined more than once in this directory: also at five.yaml:10, five.yaml:16, five.yaml:22 and 1 more; ${OVERWRITES}`,
        `ConfigMap "x" in namespace "default" is defined more than once in this directory: also at five.yaml:4, five.yaml:16, five.yaml:22 and 1 more; ${OVERWRITES}`,
        `ConfigMap "x" in namespace "default" is defined more than once in this directory: also at five.yaml:4, five.yaml:10, five.yaml:22 and 1 more; ${OVERWRITES}`,
        `ConfigMap "x" in namespace "default" is defined more than once in this directory: also at five.yaml:4, five.yaml:10, five.yaml:16 and 1 more; ${OVERWRITES}`,
        `ConfigMap "x" in namespace "default" is defined more than once in this directory: also at five.yaml:4, five.yaml:10, five.yaml:16 and 1 more; ${OVERWRITES}`,
      ],
    );
  });

  test('different namespaces, kinds or groups are different objects; versions of one group are the same object', () => {
    assert.deepEqual(
      checkFolder({
        'a.yaml': cm('web', 'a'),
        'b.yaml': cm('web', 'b'),
        'c.yaml': cm('web').replace('ConfigMap', 'Secret'),
      }),
      {},
    );
    const hpa = (v: string): string =>
      `apiVersion: autoscaling/${v}\nkind: HorizontalPodAutoscaler\nmetadata: {name: h}\nspec: {scaleTargetRef: {kind: Deployment, name: h}, maxReplicas: 2}\n`;
    const dup = checkFolder({ 'v1.yaml': hpa('v1'), 'v2.yaml': hpa('v2') });
    assert.deepEqual(Object.keys(dup), ['v1.yaml', 'v2.yaml']);
    assert.deepEqual(
      dup['v1.yaml'].map((d) => d.code),
      ['duplicate-object', 'hpa-target-missing'],
    );
  });

  test('cluster-scoped kinds ignore metadata.namespace', () => {
    const ns = (namespace: string): string =>
      `apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: reader\n  namespace: ${namespace}\nrules: []\n`;
    assert.deepEqual(checkFolder({ 'a.yaml': ns('a'), 'b.yaml': ns('b') }), {
      'a.yaml': [
        expected(
          3,
          8,
          14,
          'duplicate-object',
          `ClusterRole "reader" is defined more than once in this directory: also at b.yaml:4; ${OVERWRITES}`,
        ),
      ],
      'b.yaml': [
        expected(
          3,
          8,
          14,
          'duplicate-object',
          `ClusterRole "reader" is defined more than once in this directory: also at a.yaml:4; ${OVERWRITES}`,
        ),
      ],
    });
    const crd = (namespace: string): string =>
      `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: a.b.c, namespace: ${namespace}}\n`;
    assert.equal(Object.keys(checkFolder({ 'a.yaml': crd('x'), 'b.yaml': crd('y') })).length, 2);
    const custom = (namespace: string): string =>
      `apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: ${namespace}}\n`;
    assert.deepEqual(checkFolder({ 'a.yaml': custom('x'), 'b.yaml': custom('y') }), {});
  });

  test('copies in different directories are alternatives, not duplicates (kubectl apply -f applies one directory)', () => {
    assert.deepEqual(
      checkFolder({ 'overlays/dev/cm.yaml': cm('web'), 'overlays/prod/cm.yaml': cm('web'), 'cm.yaml': cm('web') }),
      {},
    );
    const found = checkFolder({ 'dev/a.yaml': cm('web'), 'dev/b.yaml': cm('web'), 'prod/a.yaml': cm('web') });
    assert.deepEqual(Object.keys(found), ['dev/a.yaml', 'dev/b.yaml']);
    assert.deepEqual(
      found['dev/a.yaml'].map((d) => [d.severity, d.message]),
      [
        [
          2,
          `ConfigMap "web" in namespace "default" is defined more than once in this directory: also at dev/b.yaml:4; ${OVERWRITES}`,
        ],
      ],
    );
  });

  test('objects without a name (generateName) are never duplicates', () => {
    const gen = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {generateName: x-}\n';
    assert.deepEqual(checkFolder({ 'a.yaml': gen, 'b.yaml': gen }), {});
  });
});

describe('hpa-target-missing', () => {
  const hpa =
    'apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: h}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  maxReplicas: 3\n';
  test('a scale target defined in the folder is fine; a missing one is marked on its name', () => {
    const deploy = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {}\n';
    assert.deepEqual(checkFolder({ 'hpa.yaml': hpa, 'd.yaml': deploy }), {});
    assert.deepEqual(
      checkFolder({
        'hpa.yaml': hpa,
        'd.yaml': deploy.replace('apps/v1\nkind: Deployment', 'apps/v1\nkind: StatefulSet'),
      }),
      {
        'hpa.yaml': [
          expected(
            4,
            64,
            67,
            'hpa-target-missing',
            'The scale target Deployment "web" is not defined in namespace "default" in this workspace folder; the autoscaler would scale nothing',
          ),
        ],
      },
    );
  });
});
