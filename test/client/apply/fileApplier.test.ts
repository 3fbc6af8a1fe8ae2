/**
 * Save-to-apply without VS Code: what a saved file sends to the sandbox and
 * which diagnostics come back.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FileApplier } from '../../../client/src/apply/fileApplier';
import { manifestsForApply } from '../../../client/src/apply/manifestsForApply';
import type { Method, Requests } from '../../../client/src/sandbox/protocol';
import type { Status } from '../../../sandbox/api/errors';

type Call = [Method, unknown];

function fakeConnection(replies: Partial<{ [M in Method]: Requests[M]['result'] }>) {
  const calls: Call[] = [];
  return {
    calls,
    connection: {
      request<M extends Method>(method: M, params: Requests[M]['params']): Promise<Requests[M]['result']> {
        calls.push([method, params]);
        return Promise.resolve(replies[method] as Requests[M]['result']);
      },
    },
  };
}

const WEB = `# the web tier
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: -1
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cfg
data:
  a: "1"
`;

const invalid: Status = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
  reason: 'Invalid',
  code: 422,
};

describe('manifestsForApply', () => {
  test('gives each manifest with the line its document starts on, skipping non-manifests', () => {
    const { manifests, yamlErrors } = manifestsForApply(`${WEB}---\njust: data\n`);
    assert.deepEqual(
      { manifests, yamlErrors },
      {
        manifests: [
          {
            line: 1,
            object: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: -1 } },
          },
          { line: 8, object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { a: '1' } } },
        ],
        yamlErrors: [],
      },
    );
  });

  test('reports YAML errors and leaves their documents out', () => {
    const parsed = manifestsForApply(
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: [unclosed\n',
    );
    assert.deepEqual(
      parsed.manifests.map((m) => m.object.metadata.name),
      ['a'],
    );
    assert.equal(parsed.yamlErrors.length > 0, true);
    assert.equal(parsed.yamlErrors[0].line >= 4, true);
  });
});

describe('FileApplier', () => {
  test('a rejected document becomes an error diagnostic on its first line with the Status message', async () => {
    const { calls, connection } = fakeConnection({
      applyFile: {
        outcomes: [
          { line: 1, message: invalid.message, ok: false, status: invalid },
          { line: 8, message: 'configmap/cfg created', ok: true },
        ],
        pruned: [],
      },
    });
    const applier = new FileApplier(connection);
    const result = await applier.applyText('app/web.yaml', WEB);
    assert.deepEqual(calls, [
      ['applyFile', { file: 'app/web.yaml', manifests: manifestsForApply(WEB).manifests, prune: true, text: WEB }],
    ]);
    assert.deepEqual(result.diagnostics, [
      {
        line: 1,
        character: 0,
        endCharacter: 'apiVersion: apps/v1'.length,
        message: invalid.message,
        severity: 'error',
        code: 'Invalid',
      },
    ]);
    assert.deepEqual([...applier.files], ['app/web.yaml']);
  });

  test('a 422 sits on the field its cause names (where the editor flags it too), not on the first line', async () => {
    const status: Status = {
      ...invalid,
      details: {
        name: 'web',
        group: 'apps',
        kind: 'Deployment',
        causes: [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: -1: must be greater than or equal to 0',
            field: 'spec.replicas',
          },
        ],
      },
    };
    const { connection } = fakeConnection({
      applyFile: { outcomes: [{ line: 1, message: invalid.message, ok: false, status }], pruned: [] },
    });
    const result = await new FileApplier(connection).applyText('web.yaml', WEB);
    assert.deepEqual(result.diagnostics, [
      { line: 6, character: 2, endCharacter: 10, message: invalid.message, severity: 'error', code: 'Invalid' },
    ]);
  });

  test("a rejection naming fields (strict decoding) sits on each field's key, with the API server's message", async () => {
    const text = [
      'apiVersion: v1',
      'kind: Pod',
      'metadata: {name: typo}',
      'spec:',
      '  containers:',
      '    - name: web',
      '      image: nginx',
      '      poarts:',
      '        - containerPort: 80',
      '  hostnetwork: true',
      '',
    ].join('\n');
    const message =
      'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].poarts", unknown field "spec.hostnetwork"';
    const status: Status = { ...invalid, message, reason: 'BadRequest', code: 400 };
    const { connection } = fakeConnection({
      applyFile: {
        outcomes: [{ line: 0, message, ok: false, status, fields: ['spec.containers[0].poarts', 'spec.hostnetwork'] }],
        pruned: [],
      },
    });
    const result = await new FileApplier(connection).applyText('typo.yaml', text);
    assert.deepEqual(result.diagnostics, [
      { line: 7, character: 6, endCharacter: 12, message, severity: 'error', code: 'BadRequest' },
      { line: 9, character: 2, endCharacter: 13, message, severity: 'error', code: 'BadRequest' },
    ]);
  });

  test('all applied: no diagnostics (a fixed file clears them)', async () => {
    const { connection } = fakeConnection({
      applyFile: {
        outcomes: [{ line: 0, message: 'configmap/cfg configured', ok: true }],
        pruned: ['deployment.apps/web'],
      },
    });
    const result = await new FileApplier(connection).applyText(
      'web.yaml',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg}\n',
    );
    assert.deepEqual(result.diagnostics, []);
  });

  test('a file with a YAML error applies its good documents without pruning, and says so', async () => {
    const { calls, connection } = fakeConnection({
      applyFile: { outcomes: [{ line: 0, message: 'configmap/a unchanged', ok: true }], pruned: [] },
    });
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\nkey: [unclosed\n';
    const result = await new FileApplier(connection).applyText('a.yaml', text);
    assert.equal((calls[0][1] as { prune: boolean }).prune, false);
    assert.equal(result.diagnostics.length, 1);
    assert.equal(result.diagnostics[0].severity, 'warning');
    assert.match(result.diagnostics[0].message, /^Not applied to the sandbox: the document has a YAML error/);
  });

  test('a YAML file that never declared an object gets no apply diagnostics', async () => {
    const { connection } = fakeConnection({ applyFile: { outcomes: [], pruned: [] } });
    const result = await new FileApplier(connection).applyText('chart/templates/x.yaml', 'name: {{ .Values.name }\n');
    assert.deepEqual(result.diagnostics, []);
  });

  test('deleting a file or a folder removes what the files applied from there declared', async () => {
    const { calls, connection } = fakeConnection({
      applyFile: { outcomes: [{ line: 0, message: 'configmap/a created', ok: true }], pruned: [] },
      removeFile: { pruned: ['configmap/a'] },
    });
    const applier = new FileApplier(connection);
    const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n';
    await applier.applyText('k8s/a.yaml', cm);
    await applier.applyText('k8s/sub/b.yml', cm);
    await applier.applyText('other/c.yaml', cm);
    calls.length = 0;
    assert.deepEqual(await applier.removeFolder('k8s'), ['configmap/a', 'configmap/a']);
    assert.deepEqual(calls, [
      ['removeFile', { file: 'k8s/a.yaml' }],
      ['removeFile', { file: 'k8s/sub/b.yml' }],
    ]);
    assert.deepEqual([...applier.files], ['other/c.yaml']);
  });
});
