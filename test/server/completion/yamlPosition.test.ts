import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { documentLines } from '../../../server/src/services/yamlLines';
import { cursorContext, nodeAt } from '../../../server/src/services/yamlPosition';
import type { CursorContext, NodeAt } from '../../../server/src/services/yamlPosition';
import { lines, withCursor } from './cursor';

function contextOf(src: string): CursorContext | undefined {
  const { doc, position } = withCursor(src);
  return cursorContext(documentLines(doc), position);
}

function nodeOf(src: string): NodeAt | undefined {
  const { doc, position } = withCursor(src);
  return nodeAt(documentLines(doc), position);
}

describe('cursorContext', () => {
  test('a partial key in a list item, with the keys around it', () => {
    assert.deepEqual(
      contextOf(
        lines(
          'spec:',
          '  containers:',
          '    - name: a',
          '    - name: b',
          '      ima|',
          '      ports: []',
          '  volumes: []',
        ),
      ),
      {
        bounds: { start: 0, end: 8 },
        line: 4,
        at: 'key',
        path: ['spec', 'containers', 1],
        column: 6,
        prefix: 'ima',
        replaceStart: 6,
        replaceEnd: 9,
        hasColon: false,
        listItem: false,
        needsSpace: false,
        siblings: ['name', 'ports'],
      },
    );
  });

  test('an empty value, in the second document', () => {
    assert.deepEqual(
      contextOf(lines('a: 1', '---', 'spec:', '  containers:', '  - name: a', '    imagePullPolicy: |')),
      {
        bounds: { start: 2, end: 7 },
        line: 5,
        at: 'value',
        path: ['spec', 'containers', 0, 'imagePullPolicy'],
        column: 4,
        prefix: '',
        replaceStart: 21,
        replaceEnd: 21,
        hasColon: true,
        listItem: false,
        needsSpace: false,
        siblings: [],
      },
    );
  });

  test('right after a dash with no space: a new item whose keys start two columns later', () => {
    const ctx = contextOf(lines('items:', '- a: 1', '-|'));
    assert.deepEqual(
      [ctx?.at, ctx?.path, ctx?.column, ctx?.listItem, ctx?.needsSpace],
      ['key', ['items', 1], 2, true, true],
    );
  });

  test('nested dashes and indentless lists', () => {
    assert.deepEqual(contextOf(lines('a:', '- - x: 1', '  - |'))?.path, ['a', 0, 1]);
    assert.deepEqual(contextOf(lines('a:', '  b:', '  - c: 1', '    |'))?.path, ['a', 'b', 0]);
  });

  test('nowhere to complete: a marker line, a block scalar, a flow collection', () => {
    assert.equal(contextOf('---|\n'), undefined);
    assert.equal(contextOf(lines('a: >-', '  text|')), undefined);
    assert.equal(contextOf(lines('a: [1, |]')), undefined);
  });
});

describe('nodeAt', () => {
  test('a key, with the path of its value', () => {
    assert.deepEqual(nodeOf(lines('spec:', '  ports:', '    - "target|Port": 80')), {
      at: 'key',
      path: ['spec', 'ports', 0, 'targetPort'],
      text: 'targetPort',
      line: 2,
      start: 6,
      end: 18,
    });
  });

  test('a value, unquoted', () => {
    assert.deepEqual(nodeOf(lines("kind: 'Po|d'")), {
      at: 'value',
      path: ['kind'],
      text: 'Pod',
      line: 0,
      start: 6,
      end: 11,
    });
  });

  test('nothing on blank lines and list scalars', () => {
    assert.equal(nodeOf(lines('a:', '  - x|')), undefined);
    assert.equal(nodeOf(lines('a: 1', '|')), undefined);
  });
});
