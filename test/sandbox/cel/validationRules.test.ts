/**
 * `x-kubernetes-validations`, in the shape of upstream's apiextensions-apiserver schema/cel validation_test.go: a
 * schema, an object (and an old object), the errors in kube-apiserver's words; and the compile-time refusals of
 * compilation_test.go and the CRD validation (compile errors, cost budget, oldSelf where it cannot correlate).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CelSchema } from '../../../sandbox/cel/index';
import { compileValidationRules, validateWithRules } from '../../../sandbox/cel/index';
import { formatFieldError } from '../../../sandbox/admission/validation/format';

function errorsOf(schema: CelSchema, obj: unknown, old?: unknown): string[] {
  const c = compileValidationRules(schema);
  assert.deepEqual(c.errors.map(formatFieldError), [], 'the rules compile');
  return validateWithRules(c.rules, obj, old).map(formatFieldError);
}

function refusals(schema: CelSchema): string[] {
  return compileValidationRules(schema).errors.map(formatFieldError);
}

const obj = (spec: Record<string, unknown>): Record<string, unknown> => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w' },
  spec,
});

function specSchema(spec: CelSchema): CelSchema {
  return { type: 'object', properties: { spec } };
}

const replicas: CelSchema = specSchema({
  type: 'object',
  properties: { replicas: { type: 'integer' }, maxReplicas: { type: 'integer' } },
  'x-kubernetes-validations': [
    { rule: 'self.replicas <= self.maxReplicas', message: 'replicas must not exceed maxReplicas' },
  ],
});

describe('x-kubernetes-validations: evaluation', () => {
  const cases: { name: string; schema: CelSchema; obj: unknown; old?: unknown; errors: string[] }[] = [
    { name: 'a passing rule', schema: replicas, obj: obj({ replicas: 1, maxReplicas: 3 }), errors: [] },
    {
      name: 'a failing rule with a message: the value shown is the schema type',
      schema: replicas,
      obj: obj({ replicas: 5, maxReplicas: 3 }),
      errors: ['spec: Invalid value: "object": replicas must not exceed maxReplicas'],
    },
    {
      name: 'without a message: "failed rule: <rule>"',
      schema: specSchema({
        type: 'object',
        properties: { n: { type: 'integer' } },
        'x-kubernetes-validations': [{ rule: 'self.n > 0' }],
      }),
      obj: obj({ n: 0 }),
      errors: ['spec: Invalid value: "object": failed rule: self.n > 0'],
    },
    {
      name: 'a rule on the root reports at <nil>, and sees metadata.name',
      schema: {
        type: 'object',
        properties: { spec: { type: 'object' } },
        'x-kubernetes-validations': [{ rule: "self.metadata.name.startsWith('a')", message: 'name must start with a' }],
      },
      obj: obj({}),
      errors: ['<nil>: Invalid value: "object": name must start with a'],
    },
    {
      name: 'messageExpression, reason and fieldPath',
      schema: specSchema({
        type: 'object',
        properties: { replicas: { type: 'integer' }, max: { type: 'integer' } },
        'x-kubernetes-validations': [
          {
            rule: 'self.replicas <= self.max',
            messageExpression: "'replicas ' + string(self.replicas) + ' over ' + string(self.max)",
            reason: 'FieldValueForbidden',
            fieldPath: '.replicas',
          },
        ],
      }),
      obj: obj({ replicas: 4, max: 2 }),
      errors: ['spec.replicas: Forbidden: replicas 4 over 2'],
    },
    {
      name: 'a messageExpression that fails or is empty falls back to message',
      schema: specSchema({
        type: 'object',
        properties: { a: { type: 'string' } },
        'x-kubernetes-validations': [
          { rule: "self.a == 'x'", message: 'a must be x', messageExpression: "self.a == 'y' ? '' : string(1 / 0)" },
          { rule: "self.a == 'x'", message: 'a must be x, again', messageExpression: "''" },
        ],
      }),
      obj: obj({ a: 'y' }),
      errors: ['spec: Invalid value: "object": a must be x', 'spec: Invalid value: "object": a must be x, again'],
    },
    {
      name: 'reasons Required and Duplicate',
      schema: specSchema({
        type: 'object',
        properties: { a: { type: 'string' } },
        'x-kubernetes-validations': [
          { rule: 'has(self.a)', message: 'a is required', reason: 'FieldValueRequired' },
          { rule: 'false', message: 'dup', reason: 'FieldValueDuplicate' },
        ],
      }),
      obj: obj({}),
      errors: ['spec: Required value: a is required', 'spec: Duplicate value: "object"'],
    },
    {
      name: 'rules on list items and map values report at each element',
      schema: specSchema({
        type: 'object',
        properties: {
          ports: {
            type: 'array',
            maxItems: 10,
            items: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self < 65536' }] },
          },
          limits: {
            type: 'object',
            maxProperties: 10,
            additionalProperties: {
              type: 'string',
              maxLength: 10,
              'x-kubernetes-validations': [{ rule: 'isQuantity(self)' }],
            },
          },
        },
      }),
      obj: obj({ ports: [80, 70000], limits: { cpu: '1', memory: 'lots' } }),
      errors: [
        'spec.ports[1]: Invalid value: "integer": failed rule: self < 65536',
        'spec.limits[memory]: Invalid value: "string": failed rule: isQuantity(self)',
      ],
    },
    {
      name: 'rules reach into lists and maps of objects, typed from their schemas',
      schema: specSchema({
        type: 'object',
        properties: {
          endpoints: {
            type: 'array',
            maxItems: 10,
            items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } },
          },
          byZone: {
            type: 'object',
            maxProperties: 5,
            additionalProperties: { type: 'object', properties: { weight: { type: 'integer' } } },
          },
        },
        'x-kubernetes-validations': [
          { rule: 'self.endpoints.all(e, e.port > 0)', message: 'ports must be positive' },
          { rule: 'self.byZone.all(z, self.byZone[z].weight <= 100)', message: 'weights up to 100' },
          {
            rule: 'self.endpoints.map(e, e.name).size() == self.endpoints.size() && self.endpoints[0] == self.endpoints[0]',
          },
        ],
      }),
      obj: obj({ endpoints: [{ name: 'a', port: 0 }], byZone: { a: { weight: 101 } } }),
      errors: [
        'spec: Invalid value: "object": ports must be positive',
        'spec: Invalid value: "object": weights up to 100',
      ],
    },
    {
      name: 'int-or-string is dyn: a runtime overload error is reported with upstream words',
      schema: specSchema({
        type: 'object',
        properties: { port: { 'x-kubernetes-int-or-string': true } },
        'x-kubernetes-validations': [{ rule: 'self.port > 0' }],
      }),
      obj: obj({ port: 'http' }),
      errors: [
        'spec: Invalid value: "object": \'no such overload\': call arguments did not match a supported operator, function or macro signature for rule: self.port > 0',
      ],
    },
    {
      name: 'an evaluation error names the rule',
      schema: specSchema({
        type: 'object',
        properties: { m: { type: 'object', additionalProperties: { type: 'string' } } },
        'x-kubernetes-validations': [{ rule: "self.m['k'] == 'v'" }],
      }),
      obj: obj({ m: {} }),
      errors: ["spec: Invalid value: \"object\": no such key: k evaluating rule: self.m['k'] == 'v'"],
    },
    {
      name: 'escaped property names and preserve-unknown-fields',
      schema: specSchema({
        type: 'object',
        properties: {
          'max-size': { type: 'integer' },
          extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        },
        'x-kubernetes-validations': [{ rule: 'self.max__dash__size < 10 && self.extra.anything == 1' }],
      }),
      obj: obj({ 'max-size': 20, extra: { anything: 1 } }),
      errors: ['spec: Invalid value: "object": failed rule: self.max__dash__size < 10 && self.extra.anything == 1'],
    },
  ];
  for (const c of cases) test(c.name, () => assert.deepEqual(errorsOf(c.schema, c.obj, c.old), c.errors));
});

describe('x-kubernetes-validations: transition rules', () => {
  const immutable: CelSchema = specSchema({
    type: 'object',
    properties: {
      name: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'name is immutable' }] },
      items: {
        type: 'array',
        maxItems: 10,
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['key'],
        items: {
          type: 'object',
          properties: { key: { type: 'string' }, size: { type: 'integer' } },
          'x-kubernetes-validations': [{ rule: 'self.size >= oldSelf.size', message: 'size may not shrink' }],
        },
      },
    },
  });

  test('not evaluated on create', () => assert.deepEqual(errorsOf(immutable, obj({ name: 'a' })), []));

  test('evaluated on update against the old value', () => {
    assert.deepEqual(errorsOf(immutable, obj({ name: 'b' }), obj({ name: 'a' })), [
      'spec.name: Invalid value: "string": name is immutable',
    ]);
  });

  test('list-type map items correlate by key, wherever they moved; new keys have no old value', () => {
    const old = obj({
      items: [
        { key: 'a', size: 5 },
        { key: 'b', size: 5 },
      ],
    });
    const next = obj({
      items: [
        { key: 'c', size: 1 },
        { key: 'b', size: 4 },
        { key: 'a', size: 6 },
      ],
    });
    assert.deepEqual(errorsOf(immutable, next, old), ['spec.items[1]: Invalid value: "object": size may not shrink']);
  });

  test('optionalOldSelf: evaluated on create too, with oldSelf an optional', () => {
    const schema = specSchema({
      type: 'object',
      properties: { v: { type: 'integer' } },
      'x-kubernetes-validations': [
        { rule: 'oldSelf.hasValue() || self.v == 1', message: 'must start at 1', optionalOldSelf: true },
        {
          rule: '!oldSelf.hasValue() || self.v >= oldSelf.value().v',
          message: 'may not decrease',
          optionalOldSelf: true,
        },
      ],
    });
    assert.deepEqual(errorsOf(schema, obj({ v: 2 })), ['spec: Invalid value: "object": must start at 1']);
    assert.deepEqual(errorsOf(schema, obj({ v: 1 }), obj({ v: 3 })), [
      'spec: Invalid value: "object": may not decrease',
    ]);
  });

  test('ratcheting: an unchanged value is not re-checked by rules without oldSelf', () => {
    assert.deepEqual(
      errorsOf(
        replicas,
        { ...obj({ replicas: 5, maxReplicas: 3 }), metadata: { name: 'w', labels: { changed: 'yes' } } },
        obj({ replicas: 5, maxReplicas: 3 }),
      ),
      [],
    );
    assert.deepEqual(errorsOf(replicas, obj({ replicas: 6, maxReplicas: 3 }), obj({ replicas: 5, maxReplicas: 3 })), [
      'spec: Invalid value: "object": replicas must not exceed maxReplicas',
    ]);
  });
});

describe('x-kubernetes-validations: refused when the CRD is written', () => {
  const rule = (r: string): string =>
    `apiextensions.ValidationRule{Rule:${JSON.stringify(r)}, Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}`;

  test('an undefined field: compilation failed with the source and a caret', () => {
    assert.deepEqual(
      refusals(
        specSchema({
          type: 'object',
          properties: { replicas: { type: 'integer' } },
          'x-kubernetes-validations': [{ rule: 'self.replica > 0' }],
        }),
      ),
      [
        `openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: ${rule('self.replica > 0')}: compilation failed: ERROR: <input>:1:6: undefined field 'replica'\n | self.replica > 0\n | .....^`,
      ],
    );
  });

  test('a type error and a non-bool rule', () => {
    const errs = refusals(
      specSchema({
        type: 'object',
        properties: { n: { type: 'integer' }, s: { type: 'string' } },
        'x-kubernetes-validations': [{ rule: 'self.n + self.s' }, { rule: 'self.n' }],
      }),
    );
    assert.match(
      errs[0],
      /x-kubernetes-validations\[0\]\.rule: Invalid value: .*compilation failed: ERROR: <input>:1:\d+: found no matching overload for '_\+_' applied to '\(int, string\)'/,
    );
    assert.equal(
      errs[1],
      `openAPIV3Schema.properties[spec].x-kubernetes-validations[1].rule: Invalid value: ${rule('self.n')}: cel expression must evaluate to a bool`,
    );
  });

  test('the rule list itself: empty rule, message with a line break, unsupported reason, invalid fieldPath', () => {
    assert.deepEqual(
      refusals(
        specSchema({
          type: 'object',
          properties: { a: { type: 'string' } },
          'x-kubernetes-validations': [
            { rule: ' ' },
            { rule: 'true', message: 'two\nlines' },
            { rule: 'true', reason: 'Nope' },
            { rule: 'true', fieldPath: '.b' },
          ],
        }),
      ),
      [
        'openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Required value: rule is not specified',
        'openAPIV3Schema.properties[spec].x-kubernetes-validations[1].message: Invalid value: "two\\nlines": message must not contain line breaks',
        'openAPIV3Schema.properties[spec].x-kubernetes-validations[2].reason: Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"',
        'openAPIV3Schema.properties[spec].x-kubernetes-validations[3].fieldPath: Invalid value: ".b": fieldPath must be a valid path',
      ],
    );
  });

  test('a rule over an unbounded list of unbounded strings exceeds the cost budget; maxItems and maxLength bring it in', () => {
    const names = (bounds: Partial<CelSchema>, itemBounds: Partial<CelSchema>): CelSchema =>
      specSchema({
        type: 'object',
        properties: { names: { type: 'array', ...bounds, items: { type: 'string', ...itemBounds } } },
        'x-kubernetes-validations': [{ rule: "self.names.all(n, n.matches('^[a-z]+$'))" }],
      });
    const errs = refusals(names({}, {}));
    assert.ok(
      errs.includes(
        'openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
      ),
      errs.join('\n'),
    );
    assert.ok(
      errs.some((e) =>
        e.startsWith(
          'openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget',
        ),
      ),
    );
    assert.deepEqual(refusals(names({ maxItems: 100 }, { maxLength: 64 })), []);
  });

  test('oldSelf under a list that is not a map list cannot correlate; optionalOldSelf without oldSelf is refused', () => {
    assert.deepEqual(
      refusals(
        specSchema({
          type: 'object',
          properties: {
            tags: {
              type: 'array',
              maxItems: 5,
              items: { type: 'string', maxLength: 5, 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] },
            },
            n: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0', optionalOldSelf: true }] },
          },
        }),
      ),
      [
        'openAPIV3Schema.properties[spec].properties[tags].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within openAPIV3Schema.properties[spec].properties[tags].items',
        'openAPIV3Schema.properties[spec].properties[n].x-kubernetes-validations[0].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule',
      ],
    );
  });

  test('the runtime budget stops the rules of one object', () => {
    const schema = specSchema({
      type: 'object',
      properties: { xs: { type: 'array', maxItems: 3000, items: { type: 'integer' } } },
      'x-kubernetes-validations': [{ rule: 'self.xs.all(x, self.xs.all(y, x + y >= 0))' }],
    });
    const c = compileValidationRules(schema);
    const xs = Array.from({ length: 3000 }, (_, i) => i);
    const errs = validateWithRules(c.rules, obj({ xs })).map(formatFieldError);
    assert.equal(errs.length, 1);
    assert.match(
      errs[0],
      /^spec: Invalid value: "object": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: /,
    );
  });
});
