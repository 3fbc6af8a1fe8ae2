import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rootShape } from '../../../../sandbox/apiserver/serverSideApply/shape';
import {
  compare,
  fieldSetOf,
  merge,
  removeFields,
  validateApplied,
} from '../../../../sandbox/apiserver/serverSideApply/typed';
import { FieldSet } from '../../../../sandbox/apiserver/serverSideApply/fieldSet';
import { pathText } from '../../../../sandbox/apiserver/serverSideApply/pathElement';

const deployment = rootShape('apps/v1', 'Deployment');
const pod = rootShape('v1', 'Pod');
const texts = (s: FieldSet) => s.paths().map(pathText);

describe('merge by list type', () => {
  test('list-maps merge items by key: shared items in the applied order, others where they were', () => {
    const live = {
      spec: {
        containers: [
          { name: 'a', image: 'a:1' },
          { name: 'side', image: 's:1' },
          { name: 'b', image: 'b:1' },
        ],
      },
    };
    const applied = {
      spec: {
        containers: [
          { name: 'b', image: 'b:2' },
          { name: 'new', image: 'n:1' },
          { name: 'a', image: 'a:2' },
        ],
      },
    };
    const out = merge(live, applied, pod) as typeof live;
    assert.deepEqual(
      out.spec.containers.map((c) => `${c.name}=${c.image}`),
      ['side=s:1', 'b=b:2', 'new=n:1', 'a=a:2'],
    );
  });

  test('sets merge by value; atomic lists are replaced whole', () => {
    const live = { metadata: { finalizers: ['x', 'y'] }, spec: { containers: [{ name: 'a', args: ['1', '2'] }] } };
    const applied = { metadata: { finalizers: ['z', 'x'] }, spec: { containers: [{ name: 'a', args: ['3'] }] } };
    const out = merge(live, applied, pod) as {
      metadata: { finalizers: string[] };
      spec: { containers: { args: string[] }[] };
    };
    // Applied order for what is applied (z before x); y stays after x, where it was.
    assert.deepEqual(out.metadata.finalizers, ['z', 'x', 'y']);
    assert.deepEqual(out.spec.containers[0].args, ['3']);
  });

  test('an applied null removes the field; inputs are not changed', () => {
    const live = Object.freeze({ spec: Object.freeze({ replicas: 3, paused: true }) });
    const out = merge(live, { spec: { paused: null } }, deployment) as { spec: Record<string, unknown> };
    assert.deepEqual(out.spec, { replicas: 3 });
    assert.deepEqual(live.spec, { replicas: 3, paused: true });
  });

  test('list-map keys with an upstream default (protocol TCP) may be omitted', () => {
    const live = {
      spec: { containers: [{ name: 'a', ports: [{ containerPort: 80, protocol: 'TCP', name: 'http' }] }] },
    };
    const applied = { spec: { containers: [{ name: 'a', ports: [{ containerPort: 80, hostPort: 8080 }] }] } };
    const out = merge(live, applied, pod) as typeof live;
    assert.deepEqual(out.spec.containers[0].ports, [
      { containerPort: 80, protocol: 'TCP', name: 'http', hostPort: 8080 },
    ]);
  });
});

describe('field sets of an applied configuration', () => {
  test('leaves, list items and map entries; struct fields only when null or {}; atomic structs whole', () => {
    const config = {
      metadata: { labels: { app: 'web' } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        strategy: {},
        template: { spec: { containers: [{ name: 'web', image: 'nginx' }] } },
      },
    };
    assert.deepEqual(texts(fieldSetOf(config, deployment)), [
      '.metadata.labels.app',
      '.spec.replicas',
      '.spec.selector',
      '.spec.strategy',
      '.spec.template.spec.containers[name="web"]',
      '.spec.template.spec.containers[name="web"].image',
      '.spec.template.spec.containers[name="web"].name',
    ]);
  });
});

describe('compare', () => {
  test('an added subtree is added node by node; changed leaves are modified; list items removed by key', () => {
    const before = {
      spec: {
        replicas: 1,
        template: {
          spec: {
            containers: [
              { name: 'a', image: 'x' },
              { name: 'b', image: 'y' },
            ],
          },
        },
      },
    };
    const after = {
      spec: {
        replicas: 2,
        strategy: { rollingUpdate: { maxSurge: 1 } },
        template: { spec: { containers: [{ name: 'a', image: 'x' }] } },
      },
    };
    const c = compare(before, after, deployment);
    assert.deepEqual(texts(c.modified), ['.spec.replicas']);
    assert.deepEqual(texts(c.added), [
      '.spec.strategy',
      '.spec.strategy.rollingUpdate',
      '.spec.strategy.rollingUpdate.maxSurge',
    ]);
    assert.deepEqual(texts(c.removed), [
      '.spec.template.spec.containers[name="b"]',
      '.spec.template.spec.containers[name="b"].image',
      '.spec.template.spec.containers[name="b"].name',
    ]);
  });

  test('reordering a list-map is no change; changing an atomic list is a change of the whole list', () => {
    const a = { spec: { containers: [{ name: 'a', args: ['1'] }, { name: 'b' }] } };
    const b = { spec: { containers: [{ name: 'b' }, { name: 'a', args: ['2'] }] } };
    const c = compare(a, b, pod);
    assert.deepEqual(texts(c.modified), ['.spec.containers[name="a"].args']);
    assert.ok(c.added.isEmpty() && c.removed.isEmpty());
  });
});

describe('removeFields', () => {
  test('removes members with everything below them; a map left empty goes', () => {
    const obj = {
      metadata: { labels: { a: '1' } },
      spec: {
        containers: [
          { name: 'a', image: 'x' },
          { name: 'b', image: 'y' },
        ],
      },
    };
    const out = removeFields(
      obj,
      FieldSet.of(['f:metadata', 'f:labels', 'f:a'], ['f:spec', 'f:containers', 'k:{"name":"b"}']),
      pod,
    );
    assert.deepEqual(out, { metadata: {}, spec: { containers: [{ name: 'a', image: 'x' }] } });
    assert.equal(removeFields(obj, FieldSet.of(['f:spec', 'f:nodeName']), pod), obj);
  });
});

describe('validateApplied', () => {
  test('reports unknown fields, wrong types, missing keys and duplicates with their paths', () => {
    const problems = validateApplied(
      {
        spec: {
          replicas: '3',
          replicass: 1,
          template: { spec: { containers: [{ image: 'x' }, { name: 'a' }, { name: 'a' }] } },
        },
      },
      deployment,
    );
    assert.deepEqual(problems, [
      { path: '.spec.replicas', message: 'expected numeric (int or float), got string' },
      { path: '.spec.replicass', message: 'field not declared in schema' },
      {
        path: '.spec.template.spec.containers',
        message:
          'element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
      },
      { path: '.spec.template.spec.containers', message: 'duplicate entries for key [name="a"]' },
    ]);
  });
});
