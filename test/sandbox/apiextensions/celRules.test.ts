import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isApiError } from '../../../sandbox/api/errors';
import type { KubeObject } from '../../../sandbox/api/types';
import { newApi } from '../fixtures';

/** A CRD whose spec carries `x-kubernetes-validations` (the Kubernetes docs' CronTab-style examples). */
function crd(specRules: unknown[], replicasRules: unknown[] = []): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  'x-kubernetes-validations': specRules,
                  properties: {
                    replicas: { type: 'integer', 'x-kubernetes-validations': replicasRules },
                    maxReplicas: { type: 'integer' },
                    mode: { type: 'string' },
                  },
                },
              },
            },
          },
        },
      ],
    },
  };
}

function widget(name: string, spec: Record<string, unknown>): KubeObject {
  return { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, namespace: 'default' }, spec };
}

function failure(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (isApiError(e)) return `${e.code} ${e.message}`;
    throw e;
  }
  return 'no error';
}

describe('CRD validation rules (x-kubernetes-validations) served by the API server', () => {
  test('a rule refuses a custom resource with 422 at its node, in upstream words; a valid one is stored', () => {
    const { api } = newApi();
    api.create(crd([{ rule: 'self.replicas <= self.maxReplicas', message: 'replicas must not exceed maxReplicas' }]));
    assert.equal(
      failure(() => api.create(widget('w', { replicas: 5, maxReplicas: 3 }))),
      '422 Widget.example.com "w" is invalid: spec: Invalid value: "object": replicas must not exceed maxReplicas',
    );
    assert.equal(api.create(widget('w', { replicas: 2, maxReplicas: 3 })).metadata.name, 'w');
    assert.equal(
      failure(() => api.update({ ...api.get('widgets', 'default', 'w'), spec: { replicas: 4, maxReplicas: 3 } })),
      '422 Widget.example.com "w" is invalid: spec: Invalid value: "object": replicas must not exceed maxReplicas',
    );
  });

  test('an absent field is an evaluation error, as upstream ("no such key")', () => {
    const { api } = newApi();
    api.create(crd([{ rule: 'self.mode != "off"' }]));
    assert.equal(
      failure(() => api.create(widget('w', { replicas: 1 }))),
      '422 Widget.example.com "w" is invalid: spec: Invalid value: "object": no such key: mode evaluating rule: ' +
        'self.mode != "off"',
    );
  });

  test('without a message: "failed rule: <rule>"; messageExpression, reason and fieldPath', () => {
    const { api } = newApi();
    api.create(
      crd(
        [
          {
            rule: '!has(self.mode) || self.mode != "off" || self.replicas == 0',
            messageExpression: '"replicas must be 0 when off, not " + string(self.replicas)',
            reason: 'FieldValueForbidden',
            fieldPath: '.replicas',
          },
        ],
        [{ rule: 'self >= 0' }],
      ),
    );
    assert.equal(
      failure(() => api.create(widget('w', { replicas: -1 }))),
      '422 Widget.example.com "w" is invalid: spec.replicas: Invalid value: "integer": failed rule: self >= 0',
    );
    assert.equal(
      failure(() => api.create(widget('w', { replicas: 2, mode: 'off' }))),
      '422 Widget.example.com "w" is invalid: spec.replicas: Forbidden: replicas must be 0 when off, not 2',
    );
  });

  test('a transition rule (oldSelf) is checked on update only', () => {
    const { api } = newApi();
    api.create(crd([], [{ rule: 'self >= oldSelf', message: 'replicas may only grow' }]));
    api.create(widget('w', { replicas: 3 }));
    const live = api.get('widgets', 'default', 'w');
    assert.equal(
      failure(() => api.update({ ...live, spec: { replicas: 2 } })),
      '422 Widget.example.com "w" is invalid: spec.replicas: Invalid value: "integer": replicas may only grow',
    );
    assert.equal(api.update({ ...live, spec: { replicas: 4 } }).metadata.generation, 2);
  });

  test('a CRD whose rule does not compile is refused with the compiler error at the rule', () => {
    const { api } = newApi();
    const message = failure(() => api.create(crd([{ rule: 'self.replica > 0' }])));
    assert.equal(
      message,
      '422 CustomResourceDefinition.apiextensions.k8s.io "widgets.example.com" is invalid: ' +
        'spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: ' +
        'apiextensions.ValidationRule{Rule:"self.replica > 0", Message:"", MessageExpression:"", ' +
        'Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: ' +
        "compilation failed: ERROR: <input>:1:6: undefined field 'replica'\n | self.replica > 0\n | .....^",
    );
    assert.equal(api.tryGet('customresourcedefinitions', undefined, 'widgets.example.com'), undefined);
  });

  test('a rule over an unbounded list is refused for its estimated cost', () => {
    const { api } = newApi();
    const body = crd([]);
    const spec = (body.spec as { versions: { schema: { openAPIV3Schema: { properties: Record<string, unknown> } } }[] })
      .versions[0].schema.openAPIV3Schema.properties.spec as { properties: Record<string, unknown> };
    spec.properties.names = {
      type: 'array',
      items: {
        type: 'array',
        items: { type: 'string' },
        'x-kubernetes-validations': [{ rule: 'self.all(x, self.all(y, x != y || true))' }],
      },
    };
    const message = failure(() => api.create(body));
    assert.ok(message.includes('estimated rule cost exceeds budget by factor of'), message);
  });
});
