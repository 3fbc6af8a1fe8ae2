import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { codeActionsFor } from '../../../server/src/services/codeActions/codeActions';
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
  test('a custom resource breaking its CRD rule: an error at the field the rule is on, in the API server words', () => {
    assert.deepEqual(checkFolder({ 'crd.yaml': CRD, 'w.yaml': widget('{replicas: 5}') }), {
      'w.yaml': [
        expected(
          4,
          6,
          19,
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
          4,
          27,
          32,
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

  test('errors sit at the exact key or value: a nested list item, a missing required field at its parent', () => {
    const crd = CRD.replace(
      '              color: {type: string, enum: [red, blue]}',
      [
        '              color: {type: string, enum: [red, blue]}',
        '              ports:',
        '                type: array',
        '                items:',
        '                  type: object',
        '                  required: [port]',
        '                  properties:',
        '                    name: {type: string}',
        '                    port: {type: integer, maximum: 65535}',
      ].join('\n'),
    );
    const text = [
      'apiVersion: example.com/v1',
      'kind: Widget',
      'metadata:',
      '  name: w',
      'spec:',
      '  ports:',
      '  - name: web',
      '    port: 70000',
      '  - name: admin',
      '',
    ].join('\n');
    const prefix = 'Widget.example.com "w" is invalid: ';
    assert.deepEqual(checkFolder({ 'crd.yaml': crd, 'w.yaml': text }), {
      'w.yaml': [
        expected(
          7,
          10,
          15,
          'custom-resource-validation',
          `${prefix}spec.ports[0].port: Invalid value: 70000: spec.ports[0].port in body should be less than or equal to 65535`,
          'error',
        ),
        expected(8, 4, 8, 'custom-resource-validation', `${prefix}spec.ports[1].port: Required value`, 'error'),
      ],
    });
  });

  test('an undeclared field: unknown-field at its key with the closest declared name (strict validation refuses it)', () => {
    const result = checkFolder({ 'crd.yaml': CRD, 'w.yaml': widget('\n  replicas: 1\n  colr: red') });
    assert.equal(result['w.yaml'].length, 1);
    const [d] = result['w.yaml'];
    assert.deepEqual(d.range, { start: { line: 6, character: 2 }, end: { line: 6, character: 6 } });
    assert.equal(d.code, 'unknown-field');
    assert.equal(
      d.message,
      'Unknown field "colr" in Widget.spec; did you mean "color"? (strict field validation refuses it: unknown field "spec.colr")',
    );
    // The quick fix of built-in kinds' unknown fields renames it.
    const text = widget('\n  replicas: 1\n  colr: red');
    const doc = TextDocument.create('file:///w/w.yaml', 'yaml', 1, text);
    const [fix] = codeActionsFor(doc, [d]);
    assert.equal(fix.title, 'Change "colr" to "color"');
    assert.deepEqual(fix.edit?.changes?.['file:///w/w.yaml'], [{ range: d.range, newText: 'color' }]);
    assert.deepEqual(d.data, {
      rule: 'unknown-field',
      path: ['spec', 'colr'],
      field: 'colr',
      parent: 'Widget.spec',
      replacement: 'color',
    });
  });

  test('in a file of several documents, a later custom resource is marked at its own key', () => {
    const text = `${widget('{replicas: 1}')}---\n${widget('{replicas: 1, color: green}').replace('name: w', 'name: w2')}`;
    const result = checkFolder({ 'crd.yaml': CRD, 'w.yaml': text });
    assert.deepEqual(
      result['w.yaml'].map((d) => [d.range.start.line, d.range.start.character, d.range.end.character]),
      [[10, 27, 32]],
    );
  });
});
