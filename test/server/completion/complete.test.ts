import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompletionItem, TextEdit } from 'vscode-languageserver-types';
import { completeAt } from '../../../server/src/services/completion/complete';
import type { LabelIndex } from '../../../server/src/services/completion/labelItems';
import { applyEdits, lines, withCursor } from './cursor';

function complete(src: string, workspaceLabels?: LabelIndex): CompletionItem[] {
  const { doc, position } = withCursor(src);
  return completeAt(doc, position, workspaceLabels === undefined ? {} : { workspaceLabels });
}

function newText(item: CompletionItem): string {
  return (item.textEdit as TextEdit).newText;
}

const POD = (...spec: string[]): string =>
  lines('apiVersion: v1', 'kind: Pod', 'metadata:', '  name: web', 'spec:', ...spec);
const CONTAINER_FIELDS = [
  'name',
  'args',
  'command',
  'env',
  'envFrom',
  'image',
  'imagePullPolicy',
  'lifecycle',
  'livenessProbe',
  'ports',
  'readinessProbe',
  'resizePolicy',
  'resources',
  'restartPolicy',
  'securityContext',
  'startupProbe',
  'stdin',
  'stdinOnce',
  'terminationMessagePath',
  'terminationMessagePolicy',
  'tty',
  'volumeDevices',
  'volumeMounts',
  'workingDir',
];

describe('completion: labels offered at the cursor', () => {
  const cases: Array<{ name: string; src: string; labels: string[] }> = [
    {
      name: 'keys of a container, required first, without the ones present',
      src: POD('  containers:', '    - name: web', '      ima|'),
      labels: CONTAINER_FIELDS.filter((f) => f !== 'name'),
    },
    {
      name: 'a new list item right after its dash',
      src: POD('  containers:', '    - |'),
      labels: CONTAINER_FIELDS,
    },
    {
      name: 'keys of a list item under the list key, before any dash',
      src: POD('  containers:', '    - name: web', '      ports:', '        |'),
      labels: ['containerPort', 'hostIP', 'hostPort', 'name', 'protocol'],
    },
    {
      name: 'enum values of a value position',
      src: POD('  containers:', '    - name: web', '      imagePullPolicy: |'),
      labels: ['Always', 'IfNotPresent', 'Never'],
    },
    {
      name: 'enum values while the value is being typed, and in a later document',
      src: lines('apiVersion: v1', 'kind: ConfigMap', '---') + POD('  restartPolicy: Nev|', '  containers: []'),
      labels: ['Always', 'Never', 'OnFailure'],
    },
    {
      name: 'booleans',
      src: POD('  hostNetwork: |'),
      labels: ['true', 'false'],
    },
    {
      name: 'the versions serving the kind, preferred first',
      src: lines('apiVersion: |', 'kind: HorizontalPodAutoscaler'),
      labels: ['autoscaling/v2', 'autoscaling/v1'],
    },
    {
      name: 'root keys of a document without a kind',
      src: lines('apiVersion: v1', '|'),
      labels: ['kind'],
    },
    {
      name: 'nothing inside a block scalar',
      src: lines('apiVersion: v1', 'kind: ConfigMap', 'data:', '  script: |', '    echo |'),
      labels: [],
    },
    {
      name: 'nothing for a scalar list item of a free string list',
      src: POD('  containers:', '    - name: web', '      args:', '        - |'),
      labels: [],
    },
  ];
  for (const c of cases) {
    test(c.name, () =>
      assert.deepEqual(
        complete(c.src).map((i) => i.label),
        c.labels,
      ),
    );
  }

  test('root keys of a Deployment, without status and the keys present', () => {
    assert.deepEqual(
      complete(lines('apiVersion: apps/v1', 'kind: Deployment', '|')).map((i) => i.label),
      ['metadata', 'spec'],
    );
  });
});

describe('completion: inserted text', () => {
  test('scalars, enums, objects and lists, at the key column; required fields marked', () => {
    const items = complete(POD('  containers:', '    - name: web', '      |'));
    const pick = (label: string): CompletionItem => items.find((i) => i.label === label)!;
    assert.deepEqual(pick('image'), {
      label: 'image',
      kind: 10,
      detail: 'string',
      documentation: pick('image').documentation,
      sortText: '1image',
      filterText: 'image',
      textEdit: { range: { start: { line: 7, character: 6 }, end: { line: 7, character: 6 } }, newText: 'image: $0' },
      insertTextFormat: 2,
      insertTextMode: 1,
    });
    assert.equal(newText(pick('imagePullPolicy')), 'imagePullPolicy: ${1|Always,IfNotPresent,Never|}');
    assert.equal(newText(pick('ports')), 'ports:\n        - $0');
    assert.equal(newText(pick('resources')), 'resources:\n        $0');
    assert.equal(newText(pick('tty')), 'tty: ${1|true,false|}');
    assert.equal(pick('ports').detail, '[]ContainerPort');
    assert.match(String((pick('image').documentation as { value: string }).value), /Container image name/);
    const required = complete(POD('  containers:', '    - |'))[0];
    assert.deepEqual(
      [required.label, required.labelDetails, newText(required)],
      ['name', { description: 'required' }, 'name: $0'],
    );
  });

  test('right after a dash: a space, and nested lines indented from the key', () => {
    const item = complete(POD('  containers:', '  -|')).find((i) => i.label === 'ports')!;
    assert.equal(newText(item), ' ports:\n      - $0');
  });

  test('under a list key without a dash: a new item', () => {
    const item = complete(POD('  containers:', '    |')).find((i) => i.label === 'image')!;
    assert.equal(newText(item), '- image: $0');
  });

  test('renaming a key that already has its colon replaces only the name', () => {
    const { doc, position } = withCursor(POD('  containers:', '    - name: web', '      imagePull|Policy: Always'));
    const item = completeAt(doc, position).find((i) => i.label === 'imagePullPolicy')!;
    assert.equal(applyEdits(doc.getText(), [item.textEdit as TextEdit]), doc.getText());
  });

  test('right after a colon, the value gets a space', () => {
    const item = complete(POD('  restartPolicy:|'))[0];
    assert.deepEqual([item.label, newText(item)], ['Always', ' Always']);
  });
});

describe('completion: kind and apiVersion', () => {
  test('typing a kind proposes served kinds, and sets a missing apiVersion', () => {
    const { doc, position } = withCursor(lines('kind: Deploy|', 'metadata:', '  name: web'));
    const items = completeAt(doc, position);
    assert.ok(
      !items.some((i) => i.label === 'DeploymentList'),
      'List kinds of kinds that exist on their own are left out',
    );
    const deployment = items.find((i) => i.label === 'Deployment')!;
    assert.equal(deployment.detail, 'apps/v1');
    assert.equal(
      applyEdits(doc.getText(), [deployment.textEdit as TextEdit, ...deployment.additionalTextEdits!]),
      lines('apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: web'),
    );
  });

  test('a wrong apiVersion is replaced; a right one is left alone', () => {
    const wrong = withCursor(lines('apiVersion: v1', 'kind: |'));
    const job = completeAt(wrong.doc, wrong.position).find((i) => i.label === 'Job')!;
    assert.equal(
      applyEdits(wrong.doc.getText(), [job.textEdit as TextEdit, ...job.additionalTextEdits!]),
      lines('apiVersion: batch/v1', 'kind: Job'),
    );
    const right = withCursor(lines('apiVersion: v1', 'kind: Con|'));
    const configMap = completeAt(right.doc, right.position).find((i) => i.label === 'ConfigMap')!;
    assert.equal(configMap.additionalTextEdits, undefined);
    assert.equal(
      applyEdits(right.doc.getText(), [configMap.textEdit as TextEdit]),
      lines('apiVersion: v1', 'kind: ConfigMap'),
    );
  });

  test('an empty apiVersion value is filled after its colon', () => {
    const { doc, position } = withCursor(lines('apiVersion:', 'kind: |'));
    const ingress = completeAt(doc, position).find((i) => i.label === 'Ingress')!;
    assert.equal(
      applyEdits(doc.getText(), [ingress.textEdit as TextEdit, ...ingress.additionalTextEdits!]),
      lines('apiVersion: networking.k8s.io/v1', 'kind: Ingress'),
    );
  });

  test('removed versions are never offered', () => {
    const labels = complete(lines('apiVersion: |', 'kind: Deployment')).map((i) => i.label);
    assert.deepEqual(labels, ['apps/v1']);
  });
});

describe('completion: selector labels', () => {
  const WORKSPACE: LabelIndex = new Map([
    ['app', new Set(['web', 'api'])],
    ['tier', new Set(['frontend'])],
  ]);
  test('matchLabels: pairs from the workspace and the document, minus the keys present', () => {
    const text = lines(
      'apiVersion: apps/v1',
      'kind: Deployment',
      'spec:',
      '  selector:',
      '    matchLabels:',
      '      app: web',
      '      |',
      '  template:',
      '    metadata:',
      '      labels:',
      '        track: stable',
    );
    assert.deepEqual(
      complete(text, WORKSPACE).map((i) => [i.label, newText(i)]),
      [
        ['tier: frontend', 'tier: frontend'],
        ['track: stable', 'track: stable'],
      ],
    );
  });

  test('Service selector values of a known key', () => {
    const text = lines(
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  name: web',
      'spec:',
      '  selector:',
      '    app: |',
    );
    assert.deepEqual(
      complete(text, WORKSPACE).map((i) => i.label),
      ['api', 'web'],
    );
  });

  test('nodeSelector: the labels every node has', () => {
    assert.deepEqual(
      complete(POD('  nodeSelector:', '    |')).map((i) => i.label),
      ['kubernetes.io/arch: amd64', 'kubernetes.io/os: linux'],
    );
  });

  test('labels of other maps are not proposed', () => {
    assert.deepEqual(
      complete(lines('apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  labels:', '    |'), WORKSPACE),
      [],
    );
  });
});
