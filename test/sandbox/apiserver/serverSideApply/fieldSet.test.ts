import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FieldSet } from '../../../../sandbox/apiserver/serverSideApply/fieldSet';
import { FieldsV1Error, fromFieldsV1, toFieldsV1 } from '../../../../sandbox/apiserver/serverSideApply/fieldsV1';
import {
  canonicalElement,
  compareElements,
  keyElement,
  pathText,
  valueElement,
} from '../../../../sandbox/apiserver/serverSideApply/pathElement';

const set = (...paths: string[][]) => FieldSet.of(...paths);

describe('path elements', () => {
  test('keys are spelled canonically: fields sorted by name, JSON as Go writes it', () => {
    assert.equal(
      keyElement([
        ['protocol', 'TCP'],
        ['containerPort', 80],
      ]),
      'k:{"containerPort":80,"protocol":"TCP"}',
    );
    assert.equal(
      canonicalElement('k:{"protocol":"TCP","containerPort":80}'),
      'k:{"containerPort":80,"protocol":"TCP"}',
    );
    assert.equal(valueElement('a<b'), 'v:"a\\u003cb"');
    assert.equal(canonicalElement('i:007'), 'i:7');
    assert.throws(() => canonicalElement('x:oops'), /unknown path element type/);
  });

  test('order: fields, then keys, values, indices; numbers numerically', () => {
    const sorted = ['i:2', 'v:"b"', 'k:{"port":8080}', 'f:b', 'k:{"port":80}', 'f:a', 'v:1'].sort(compareElements);
    assert.deepEqual(sorted, ['f:a', 'f:b', 'k:{"port":80}', 'k:{"port":8080}', 'v:1', 'v:"b"', 'i:2']);
  });

  test('paths print as conflict messages print them', () => {
    assert.equal(
      pathText(['f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"web"}', 'f:image']),
      '.spec.template.spec.containers[name="web"].image',
    );
    assert.equal(
      pathText(['f:spec', 'f:ports', 'k:{"port":80,"protocol":"TCP"}']),
      '.spec.ports[port=80,protocol="TCP"]',
    );
    assert.equal(pathText(['f:metadata', 'f:finalizers', 'v:"a"']), '.metadata.finalizers[="a"]');
  });
});

describe('FieldSet', () => {
  test('union, difference and intersection work per member, not per subtree', () => {
    const a = set(['f:spec', 'f:replicas'], ['f:spec', 'f:paused'], ['f:data']);
    const b = set(['f:spec', 'f:replicas'], ['f:spec']);
    assert.deepEqual(a.difference(b).paths(), [['f:data'], ['f:spec', 'f:paused']]);
    assert.deepEqual(a.intersection(b).paths(), [['f:spec', 'f:replicas']]);
    assert.deepEqual(a.union(b).paths(), [['f:data'], ['f:spec'], ['f:spec', 'f:paused'], ['f:spec', 'f:replicas']]);
    assert.ok(a.difference(a).isEmpty());
  });

  test('withoutSubtrees and onlySubtrees cut whole subtrees', () => {
    const a = set(['f:spec', 'f:replicas'], ['f:status', 'f:replicas'], ['f:status', 'f:conditions']);
    const status = set(['f:status']);
    assert.deepEqual(a.withoutSubtrees(status).paths(), [['f:spec', 'f:replicas']]);
    assert.deepEqual(a.onlySubtrees(status).paths(), [
      ['f:status', 'f:conditions'],
      ['f:status', 'f:replicas'],
    ]);
  });

  test('paths() lists a node’s members before descending, as upstream iterates', () => {
    const a = set(
      ['f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"web"}', 'f:image'],
      ['f:spec', 'f:replicas'],
      ['f:metadata', 'f:labels', 'f:app'],
    );
    assert.deepEqual(a.paths().map(pathText), [
      '.metadata.labels.app',
      '.spec.replicas',
      '.spec.template.spec.containers[name="web"].image',
    ]);
  });
});

describe('FieldsV1', () => {
  test('writes members as {} and member-prefixes with "." first, keys sorted', () => {
    const s = set(
      ['f:spec', 'f:replicas'],
      ['f:spec', 'f:containers', 'k:{"name":"web"}'],
      ['f:spec', 'f:containers', 'k:{"name":"web"}', 'f:image'],
      ['f:spec', 'f:containers', 'k:{"name":"web"}', 'f:name'],
      ['f:metadata', 'f:finalizers', 'v:"x"'],
    );
    const json = JSON.stringify(toFieldsV1(s));
    assert.equal(
      json,
      '{"f:metadata":{"f:finalizers":{"v:\\"x\\"":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"web\\"}":{".":{},"f:image":{},"f:name":{}}},"f:replicas":{}}}',
    );
  });

  test('reads back what it writes, canonicalizing keys', () => {
    const read = fromFieldsV1({
      'f:spec': { 'f:ports': { 'k:{"protocol":"TCP","port":80}': { '.': {}, 'f:port': {} } } },
    });
    assert.ok(read.has(['f:spec', 'f:ports', 'k:{"port":80,"protocol":"TCP"}']));
    assert.ok(read.has(['f:spec', 'f:ports', 'k:{"port":80,"protocol":"TCP"}', 'f:port']));
    assert.ok(!read.has(['f:spec', 'f:ports']));
    assert.deepEqual(fromFieldsV1(toFieldsV1(read)).paths(), read.paths());
  });

  test('refuses what is not FieldsV1', () => {
    assert.throws(() => fromFieldsV1('f:spec'), FieldsV1Error);
    assert.throws(() => fromFieldsV1({ 'q:spec': {} }), FieldsV1Error);
    assert.throws(() => fromFieldsV1({ 'f:spec': [] }), FieldsV1Error);
    assert.ok(fromFieldsV1({}).isEmpty());
  });
});
