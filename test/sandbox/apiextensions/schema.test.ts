import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../sandbox/admission/validation/format';
import { applySchemaDefaults } from '../../../sandbox/apiextensions/schema/defaults';
import { prune, pruneNonNullableNulls } from '../../../sandbox/apiextensions/schema/prune';
import { structuralSchemaErrors } from '../../../sandbox/apiextensions/schema/structural';
import type { JSONSchemaProps } from '../../../sandbox/apiextensions/schema/types';
import { validateCustomResource } from '../../../sandbox/apiextensions/schema/validate';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['color'],
      properties: {
        color: { type: 'string', enum: ['red', 'blue'] },
        replicas: { type: 'integer', minimum: 0, maximum: 10, default: 1 },
        name: { type: 'string', pattern: '^[a-z]+$', maxLength: 5, minLength: 1 },
        port: { 'x-kubernetes-int-or-string': true },
        when: { type: 'string', format: 'date-time' },
        ip: { type: 'string', format: 'ipv4' },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 2, 'x-kubernetes-list-type': 'set' },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: {
            type: 'object',
            required: ['name'],
            properties: { name: { type: 'string' }, port: { type: 'integer' } },
          },
        },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        free: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { known: { type: 'integer' } },
        },
        nullable: { type: 'string', nullable: true },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
      },
    },
  },
};

function errors(obj: unknown): string[] {
  return validateCustomResource(obj, schema).map(formatFieldError);
}

function cr(spec: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec };
}

describe('custom resource validation against a structural schema', () => {
  test('a valid object has no errors', () => {
    assert.deepEqual(errors(cr({ color: 'red', replicas: 3, port: 'http', tags: ['a'], labels: { a: 'b' } })), []);
  });

  test('types, required, enums, bounds and patterns in upstream words and paths', () => {
    assert.deepEqual(errors(cr({ replicas: 'three' })), [
      'spec.color: Required value',
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    ]);
    assert.deepEqual(errors(cr({ color: 'green', replicas: 11, name: 'ABCDEFG' })), [
      'spec.color: Unsupported value: "green": supported values: "red", "blue"',
      'spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10',
      'spec.name: Too long: may not be more than 5 bytes',
      'spec.name: Invalid value: "ABCDEFG": spec.name in body should match \'^[a-z]+$\'',
    ]);
    assert.deepEqual(errors(cr({ color: 'red', replicas: -1, name: '' })), [
      'spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0',
      'spec.name: Invalid value: "": spec.name in body should be at least 1 chars long',
      'spec.name: Invalid value: "": spec.name in body should match \'^[a-z]+$\'',
    ]);
  });

  test('int-or-string, formats, nullable', () => {
    assert.deepEqual(errors(cr({ color: 'red', port: true })), [
      'spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
    ]);
    assert.deepEqual(errors(cr({ color: 'red', when: 'yesterday', ip: '300.1.1.1' })), [
      'spec.when: Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"',
      'spec.ip: Invalid value: "300.1.1.1": spec.ip in body must be of type ipv4: "300.1.1.1"',
    ]);
    assert.deepEqual(errors(cr({ color: 'red', when: '2024-02-29T10:00:00Z', ip: '10.0.0.1', nullable: null })), []);
    assert.deepEqual(errors(cr({ color: null })), [
      'spec.color: Invalid value: "null": spec.color in body must be of type string: "null"',
    ]);
  });

  test('lists: maxItems, set and map uniqueness; maps by additionalProperties', () => {
    assert.deepEqual(errors(cr({ color: 'red', tags: ['a', 'b', 'a'] })), [
      'spec.tags: Too many: 3: must have at most 2 items',
      'spec.tags[2]: Duplicate value: "a"',
    ]);
    assert.deepEqual(
      errors(
        cr({
          color: 'red',
          ports: [
            { name: 'http', port: 80 },
            { name: 'http', port: 81 },
          ],
          labels: { a: 1 },
        }),
      ),
      [
        'spec.ports[1]: Duplicate value: map[string]interface {}{"name":"http"}',
        'spec.labels[a]: Invalid value: "integer": spec.labels[a] in body must be of type string: "integer"',
      ],
    );
  });

  test('an embedded resource needs apiVersion and kind', () => {
    assert.deepEqual(errors(cr({ color: 'red', template: { metadata: { name: 'x' } } })), [
      'spec.template.apiVersion: Required value: must not be empty',
      'spec.template.kind: Required value: must not be empty',
    ]);
  });
});

describe('pruning and defaulting', () => {
  test('unknown fields go (with their paths), except under x-kubernetes-preserve-unknown-fields and ObjectMeta', () => {
    const obj = cr({ color: 'red', extra: 1, ports: [{ name: 'a', bogus: true }], free: { anything: 1, known: 2 } });
    (obj.metadata as Record<string, unknown>).labels = { a: 'b' };
    obj.status = { x: 1 };
    const pruned = prune(obj, schema);
    assert.deepEqual(
      pruned.map((p) => p.path),
      ['spec.extra', 'spec.ports[0].bogus', 'status'],
    );
    assert.deepEqual(obj.spec, { color: 'red', ports: [{ name: 'a' }], free: { anything: 1, known: 2 } });
    assert.deepEqual(obj.metadata, { name: 'w', labels: { a: 'b' } });
  });

  test('defaults fill what is absent, and a non-nullable null; never a missing parent', () => {
    const obj = cr({ color: 'red', replicas: null });
    pruneNonNullableNulls(obj, schema);
    applySchemaDefaults(obj, schema);
    assert.equal((obj.spec as Record<string, unknown>).replicas, 1);
    const noSpec: Record<string, unknown> = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'x' } };
    applySchemaDefaults(noSpec, schema);
    assert.equal(noSpec.spec, undefined);
    const withNull = cr({ color: 'red', nullable: null, name: null });
    pruneNonNullableNulls(withNull, schema);
    assert.deepEqual(withNull.spec, { color: 'red', nullable: null });
  });
});

describe('structural schemas', () => {
  const path = 'spec.versions[0].schema.openAPIV3Schema';
  const messages = (s: JSONSchemaProps) => structuralSchemaErrors(s, path).map(formatFieldError);

  test('every specified field needs a type; the root is an object', () => {
    assert.deepEqual(messages({ properties: { spec: { properties: { a: {} } } } }), [
      `${path}.type: Required value: must not be empty at the root`,
      `${path}.properties[spec].type: Required value: must not be empty for specified object fields`,
      `${path}.properties[spec].properties[a].type: Required value: must not be empty for specified object fields`,
    ]);
    assert.deepEqual(messages({ type: 'string' }), [
      `${path}.type: Invalid value: "string": must be object at the root`,
    ]);
    assert.deepEqual(messages({ type: 'object', properties: { l: { type: 'array', items: {} } } }), [
      `${path}.properties[l].items.type: Required value: must not be empty for specified array items`,
    ]);
  });

  test('value validations add no structure; metadata is only name and generateName', () => {
    assert.deepEqual(
      messages({
        type: 'object',
        properties: {
          metadata: { type: 'object', properties: { labels: { type: 'object' } } },
          spec: { type: 'object', anyOf: [{ type: 'string' }] },
        },
      }),
      [
        `${path}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
        `${path}.properties[spec].anyOf[0].type: Forbidden: must be empty to be structural`,
      ],
    );
  });

  test('the OpenAPI subset and the extensions are checked', () => {
    assert.deepEqual(
      messages({
        type: 'object',
        properties: {
          a: { type: 'string', $ref: '#/x' },
          b: { type: 'array', items: { type: 'string' }, uniqueItems: true },
          c: { type: 'object', 'x-kubernetes-preserve-unknown-fields': false },
          d: { type: 'array', 'x-kubernetes-list-type': 'map', items: { type: 'object' } },
        },
      }),
      [
        `${path}.properties[a].$ref: Forbidden: $ref is not supported`,
        `${path}.properties[b].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
        `${path}.properties[c].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`,
        `${path}.properties[d].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`,
      ],
    );
  });

  test('defaults must be pruned and valid', () => {
    assert.deepEqual(
      messages({
        type: 'object',
        properties: {
          n: { type: 'integer', default: 'x' },
          o: { type: 'object', properties: { a: { type: 'string' } }, default: { b: 1 } },
        },
      }),
      [
        `${path}.properties[n].default: Invalid value: "string": ${path}.properties[n].default in body must be of type integer: "string"`,
        `${path}.properties[o].default: Invalid value: map[string]interface {}{"b":1}: must not have unknown fields`,
      ],
    );
  });
});
