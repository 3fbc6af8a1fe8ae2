import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic } from 'vscode-languageserver-types';
import { validateManifestText } from '../../server/src/services/validateDocument';

/** An expected diagnostic: 0-based range, Error unless `severity` is 2 (Warning). */
function d(
  line: number,
  from: number,
  endLine: number,
  to: number,
  code: string,
  message: string,
  severity: 1 | 2 = 1,
): Diagnostic {
  return {
    range: { start: { line, character: from }, end: { line: endLine, character: to } },
    severity,
    code,
    source: 'kube-reconcile',
    message,
  };
}

const lines = (...ls: string[]): string => `${ls.join('\n')}\n`;

/** `levels` anchors, each a list of nine aliases of the previous: 9^levels strings once expanded. */
function aliasBomb(levels: number): string {
  const out = [
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    '  name: lol',
    'data:',
    '  l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ];
  for (let i = 1; i <= levels; i++)
    out.push(
      `  l${i}: &l${i} [${Array(9)
        .fill(`*l${i - 1}`)
        .join(', ')}]`,
    );
  return lines(...out);
}

const POD_WITHOUT_IMAGE = lines(
  'apiVersion: v1',
  'kind: Pod',
  'metadata:',
  '  name: web',
  'spec:',
  '  containers:',
  '    - name: web',
);

const CASES: Array<{ name: string; text: string; expected: Diagnostic[] }> = [
  {
    name: 'YAML syntax error: the parser message at its position',
    text: lines('apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: settings', 'data:', '  key: "unterminated'),
    expected: [d(6, 0, 6, 0, 'yaml-syntax', 'Missing closing "quote')],
  },
  {
    name: 'tab indentation',
    text: lines('apiVersion: v1', 'kind: ConfigMap', 'metadata:', '\tname: a'),
    expected: [d(3, 0, 3, 1, 'yaml-syntax', 'Tabs are not allowed as indentation')],
  },
  {
    name: 'duplicate key: the whole second key',
    text: lines('apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: a', '  name: b'),
    expected: [d(4, 2, 4, 6, 'yaml-duplicate-key', 'Map keys must be unique')],
  },
  {
    name: 'documents that are not Kubernetes objects are left alone',
    text: lines(
      'name: my-app',
      'version: 1.2.3',
      '---',
      '- just',
      '- a list',
      '---',
      'apiVersion: 1',
      'kind: Pod',
      '---',
      'plain scalar',
    ),
    expected: [],
  },
  {
    name: 'unknown kind on the kind value',
    text: lines('apiVersion: apps/v1', 'kind: Deploymnt', 'metadata:', '  name: web'),
    expected: [d(1, 6, 1, 15, 'unknown-kind', 'Unknown kind "Deploymnt" for apiVersion "apps/v1"')],
  },
  {
    name: 'unknown kind served under another apiVersion gets a hint',
    text: lines('apiVersion: v1', 'kind: Deployment', 'metadata:', '  name: web'),
    expected: [
      d(
        1,
        6,
        1,
        16,
        'unknown-kind',
        'Unknown kind "Deployment" for apiVersion "v1"; Deployment is served as apiVersion "apps/v1"',
      ),
    ],
  },
  {
    name: 'custom resources are only a warning',
    text: lines('apiVersion: cert-manager.io/v1', 'kind: Certificate', 'metadata:', '  name: tls'),
    expected: [
      d(
        1,
        6,
        1,
        17,
        'unknown-kind',
        'No CustomResourceDefinition for "cert-manager.io/v1 Certificate" in the workspace: it is not checked',
        2,
      ),
    ],
  },
  {
    name: 'removed apiVersion on the apiVersion value',
    text: lines('apiVersion: extensions/v1beta1', 'kind: Deployment', 'metadata:', '  name: web'),
    expected: [
      d(
        0,
        12,
        0,
        30,
        'removed-api-version',
        'extensions/v1beta1 Deployment was removed in Kubernetes 1.16; use apps/v1',
      ),
    ],
  },
  {
    name: 'multi-document file: errors in the 2nd and 3rd documents at their own lines',
    text: lines(
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: settings',
      'data:',
      '  mode: fast',
      '---',
      'apiVersion: v1',
      'kind: Pod',
      'metadata:',
      '  name: web',
      'spec:',
      '  containers:',
      '    - name: web',
      '      image: nginx:1.27',
      '      ports:',
      '        - containerPort: 70000',
      '---',
      'apiVersion: batch/v1beta1',
      'kind: CronJob',
      'metadata:',
      '  name: nightly',
    ),
    expected: [
      d(
        16,
        25,
        16,
        30,
        'container-port-number',
        'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      ),
      d(18, 12, 18, 25, 'removed-api-version', 'batch/v1beta1 CronJob was removed in Kubernetes 1.25; use batch/v1'),
    ],
  },
  {
    name: 'missing image: Required, marked on the container item (its first key)',
    text: POD_WITHOUT_IMAGE,
    expected: [d(6, 6, 6, 10, 'container-image-required', 'spec.containers[0].image: Required value')],
  },
  {
    name: 'invalid containerPort in a pod template: marked on the value',
    text: lines(
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      '  name: web',
      'spec:',
      '  selector: {matchLabels: {app: web}}',
      '  template:',
      '    metadata: {labels: {app: web}}',
      '    spec:',
      '      containers:',
      '        - name: web',
      '          image: nginx',
      '          ports: [{containerPort: 99999}]',
    ),
    expected: [
      d(
        12,
        34,
        12,
        39,
        'container-port-number',
        'spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 99999: must be between 1 and 65535, inclusive',
      ),
    ],
  },
  {
    name: 'Deployment selector does not match the template labels',
    text: lines(
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      '  name: web',
      'spec:',
      '  selector:',
      '    matchLabels:',
      '      app: web',
      '  template:',
      '    metadata:',
      '      labels:',
      '        app: api',
      '    spec:',
      '      containers:',
      '        - name: web',
      '          image: nginx',
    ),
    expected: [
      d(
        10,
        6,
        10,
        12,
        'workload-selector-matches-template',
        'spec.template.metadata.labels: Invalid value: map[string]string{"app":"api"}: `selector` does not match template `labels`',
      ),
    ],
  },
  {
    name: 'a kubectl List: each item is validated on its own',
    text: lines(
      'apiVersion: v1',
      'kind: List',
      'items:',
      '  - apiVersion: v1',
      '    kind: Pod',
      '    metadata: {name: web}',
      '    spec:',
      '      containers: [{name: web, image: nginx, ports: [{containerPort: 99999}]}]',
      '  - apiVersion: apps/v1',
      '    kind: Deploymnt',
    ),
    expected: [
      d(
        7,
        69,
        7,
        74,
        'container-port-number',
        'spec.containers[0].ports[0].containerPort: Invalid value: 99999: must be between 1 and 65535, inclusive',
      ),
      d(9, 10, 9, 19, 'unknown-kind', 'Unknown kind "Deploymnt" for apiVersion "apps/v1"'),
    ],
  },
  {
    name: 'binary input is declined with one diagnostic',
    text: lines('apiVersion: v1', 'kind: Pod', 'metadata:', '  name: a\u0000b'),
    expected: [
      d(3, 9, 3, 10, 'binary-content', 'File contains binary data (a NUL byte or invalid UTF-8); not validated'),
    ],
  },
  {
    name: 'invalid UTF-8 (decoded as U+FFFD) is declined too',
    text: lines('apiVersion: v1', 'kind: Pod', 'metadata:', '  name: caf\uFFFD'),
    expected: [
      d(3, 11, 3, 12, 'binary-content', 'File contains binary data (a NUL byte or invalid UTF-8); not validated'),
    ],
  },
  {
    name: 'values with no JSON form',
    text: lines('apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: a', 'data:', '  big: .inf'),
    expected: [d(0, 0, 0, 14, 'yaml-not-json', 'Document has no JSON form: Infinity is not a JSON number')],
  },
];

describe('validateManifestText', () => {
  for (const c of CASES) {
    test(c.name, () => {
      assert.deepEqual(validateManifestText(c.text), c.expected);
    });
  }

  test('an alias bomb is declined quickly', () => {
    const started = performance.now();
    const result = validateManifestText(aliasBomb(9));
    const elapsed = performance.now() - started;
    assert.deepEqual(result, [
      d(
        0,
        0,
        0,
        14,
        'yaml-alias-limit',
        'Document expands more than 100 aliases; not validated (resource exhaustion guard)',
      ),
    ]);
    assert.ok(elapsed < 2000, `took ${elapsed} ms`);
  });

  test("a manifest without apiVersion or kind is refused in kubectl's words, not skipped", () => {
    const pod = 'metadata:\n  name: web\nspec:\n  containers:\n    - name: web\n      image: nginx\n';
    assert.deepEqual(validateManifestText(`kind: Pod\n${pod}`), [
      d(0, 0, 0, 9, 'missing-api-version', 'error validating data: apiVersion not set'),
    ]);
    assert.deepEqual(validateManifestText(`apiVersion: v1\n${pod}`), [
      d(0, 0, 0, 14, 'missing-kind', 'error validating data: kind not set'),
    ]);
    // The second document of a file, on its own first line.
    assert.deepEqual(
      validateManifestText(`apiVersion: v1\nkind: Pod\n${pod.replace('nginx', 'nginx:1.27')}---\nkind: Pod\n${pod}`),
      [d(9, 0, 9, 9, 'missing-api-version', 'error validating data: apiVersion not set')],
    );
  });

  test('YAML that is not a manifest stays out: a Helm Chart.yaml, a values file', () => {
    assert.deepEqual(validateManifestText('apiVersion: v2\nname: web\nversion: 1.0.0\n'), []);
    assert.deepEqual(validateManifestText('replicaCount: 2\nkind: web\nimage:\n  tag: 1.0\n'), []);
    assert.deepEqual(validateManifestText('metadata:\n  name: web\nspec: {}\n'), []);
  });

  test('a fixed document has no diagnostics', () => {
    assert.deepEqual(
      validateManifestText(POD_WITHOUT_IMAGE.replace('    - name: web\n', '    - name: web\n      image: nginx\n')),
      [],
    );
  });
});
