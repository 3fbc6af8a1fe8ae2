import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFolder, expected } from './helpers';

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: self.replicas <= self.maxReplicas
              message: replicas must not exceed maxReplicas
            properties:
              replicas: {type: integer, default: 1}
              maxReplicas: {type: integer, default: 3}
              color: {type: string, enum: [red, blue]}
`;

const widget = (spec: string): string => `apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
spec: ${spec}
`;

describe('custom-resource-validation', () => {
  test('a custom resource breaking its CRD rule: an error at its name, in the API server words', () => {
    assert.deepEqual(checkFolder({ 'crd.yaml': CRD, 'w.yaml': widget('{replicas: 5}') }), {
      'w.yaml': [
        expected(
          3,
          8,
          9,
          'custom-resource-validation',
          'Widget.example.com "w" is invalid: spec: Invalid value: "object": replicas must not exceed maxReplicas',
          'error',
        ),
      ],
    });
  });

  test('schema errors come first (rules run on a valid object only), defaults apply before the rules', () => {
    assert.deepEqual(checkFolder({ 'crd.yaml': CRD, 'w.yaml': widget('{replicas: 5, color: green}') }), {
      'w.yaml': [
        expected(
          3,
          8,
          9,
          'custom-resource-validation',
          'Widget.example.com "w" is invalid: spec.color: Unsupported value: "green": supported values: "red", "blue"',
          'error',
        ),
      ],
    });
    // maxReplicas defaults to 3: 2 is within it.
    assert.deepEqual(checkFolder({ 'crd.yaml': CRD, 'w.yaml': widget('{replicas: 2}') }), {});
  });

  test('nothing without the CRD in scope, nor when the CRD itself would be refused', () => {
    assert.deepEqual(checkFolder({ 'w.yaml': widget('{replicas: 5}') }), {});
    const broken = CRD.replace('self.replicas <= self.maxReplicas', 'self.replica <= self.maxReplicas');
    const result = checkFolder({ 'crd.yaml': broken, 'w.yaml': widget('{replicas: 5}') });
    assert.equal(result['w.yaml'], undefined);
  });
});
