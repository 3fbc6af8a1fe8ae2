/**
 * Completion and hover of custom resources from the workspace's CRDs: every served version's schema, the CRD's
 * descriptions, required fields first, enum values, ObjectMeta under metadata; nothing without a CRD.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompletionItem, TextEdit } from 'vscode-languageserver-types';
import { parse } from 'yaml';
import type { KubeObject } from '../../sandbox/api/types';
import { workspaceCrds } from '../../sandbox/apiextensions/workspace';
import { completeAt } from '../../server/src/services/completion/complete';
import type { CustomSchemaLookup } from '../../server/src/services/customSchema/customSchema';
import { hoverAt } from '../../server/src/services/hover/hover';
import { lines, withCursor } from './completion/cursor';

const CRD = lines(
  'apiVersion: apiextensions.k8s.io/v1',
  'kind: CustomResourceDefinition',
  'metadata: {name: widgets.example.com}',
  'spec:',
  '  group: example.com',
  '  scope: Namespaced',
  '  names: {plural: widgets, kind: Widget}',
  '  versions:',
  '  - name: v1',
  '    served: true',
  '    storage: true',
  '    schema:',
  '      openAPIV3Schema:',
  '        type: object',
  '        description: A Widget makes things.',
  '        properties:',
  '          spec:',
  '            type: object',
  '            required: [size]',
  '            properties:',
  '              color: {type: string, enum: [red, blue], description: The colour of the widget.}',
  '              size: {type: integer, description: How big.}',
  '              ports:',
  '                type: array',
  '                items:',
  '                  type: object',
  '                  properties:',
  '                    port: {type: integer, description: The port number.}',
  '                    enabled: {type: boolean}',
  '  - name: v1alpha1',
  '    served: true',
  '    storage: false',
  '    schema:',
  '      openAPIV3Schema:',
  '        type: object',
  '        properties:',
  '          spec:',
  '            type: object',
  '            properties:',
  '              legacyColor: {type: string, description: Only in v1alpha1.}',
);

const lookup: CustomSchemaLookup = (() => {
  const crds = workspaceCrds([parse(CRD) as KubeObject]);
  return (apiVersion, kind) => crds.schema(apiVersion, kind);
})();

const WIDGET = (...spec: string[]): string =>
  lines('apiVersion: example.com/v1', 'kind: Widget', 'metadata:', '  name: w', 'spec:', ...spec);

function complete(src: string, customSchema: CustomSchemaLookup | null = lookup): CompletionItem[] {
  const { doc, position } = withCursor(src);
  return completeAt(doc, position, customSchema === null ? {} : { customSchema });
}

function hover(src: string): string | undefined {
  const { doc, position } = withCursor(src);
  const h = hoverAt(doc, position, lookup);
  return h === null ? undefined : (h.contents as { value: string }).value;
}

describe('custom resources: completion from workspace CRDs', () => {
  test("the spec's fields, required first, with the CRD's descriptions; none without the CRD", () => {
    const items = complete(WIDGET('  |'));
    assert.deepEqual(
      items.map((i) => [i.label, i.detail, i.labelDetails?.description]),
      [
        ['size', 'integer', 'required'],
        ['color', 'string', undefined],
        ['ports', '[]object', undefined],
      ],
    );
    assert.deepEqual(items[1].documentation, { kind: 'markdown', value: 'The colour of the widget.' });
    assert.equal((items[2].textEdit as TextEdit).newText, 'ports:\n    - $0');
    assert.deepEqual(complete(WIDGET('  |'), null), []);
  });

  test('list items, enum values and booleans; another served version has its own schema', () => {
    assert.deepEqual(
      complete(WIDGET('  ports:', '  - |')).map((i) => i.label),
      ['enabled', 'port'],
    );
    assert.deepEqual(
      complete(WIDGET('  color: |')).map((i) => i.label),
      ['red', 'blue'],
    );
    assert.deepEqual(
      complete(WIDGET('  ports:', '  - enabled: |')).map((i) => i.label),
      ['true', 'false'],
    );
    const alpha = lines('apiVersion: example.com/v1alpha1', 'kind: Widget', 'metadata:', '  name: w', 'spec:', '  |');
    assert.deepEqual(
      complete(alpha).map((i) => i.label),
      ['legacyColor'],
    );
  });

  test('metadata is ObjectMeta, as for every kind', () => {
    const labels = complete(lines('apiVersion: example.com/v1', 'kind: Widget', 'metadata:', '  name: w', '  |'));
    assert.ok(labels.some((i) => i.label === 'labels'));
    assert.ok(labels.some((i) => i.label === 'namespace'));
    assert.ok(!labels.some((i) => i.label === 'name'));
  });
});

describe('custom resources: hover from workspace CRDs', () => {
  test("a field: type, required-ness, the CRD's description, its path", () => {
    assert.equal(
      hover(WIDGET('  si|ze: 3')),
      [
        '**size** `integer` *(required)*',
        'How big.',
        '`spec.size` in `Widget` (`example.com/v1`, from a CustomResourceDefinition)',
      ].join('\n\n'),
    );
    assert.equal(
      hover(WIDGET('  ports:', '  - po|rt: 80')),
      [
        '**port** `integer` *(optional)*',
        'The port number.',
        '`spec.ports[].port` in `Widget` (`example.com/v1`, from a CustomResourceDefinition)',
      ].join('\n\n'),
    );
  });

  test('the kind: its schema description; an undeclared field: nothing', () => {
    assert.equal(
      hover(lines('apiVersion: example.com/v1', 'kind: Wid|get')),
      '**Widget** `example.com/v1`\n\nA Widget makes things.\n\nServed by a CustomResourceDefinition in the workspace.',
    );
    assert.equal(hover(WIDGET('  co|lr: red')), undefined);
  });
});
