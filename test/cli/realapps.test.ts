/**
 * Well-known installs applied whole, as their users apply them (test/fixtures/docs/realapps, see its SOURCE.md),
 * against what a Kubernetes 1.32 cluster does with them.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { main } from '../../cli/main';
import type { KubeObject } from '../../sandbox/api/types';
import { lines, validate } from '../sandbox/admission/helpers';

const ROOT = join(__dirname, '..', '..');
const DOCS = 'test/fixtures/docs/realapps';
const METRICS_BASE = `${DOCS}/kubernetes-sigs/metrics-server/manifests/base`;

async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    cwd: ROOT,
  });
  return { code, stdout, stderr };
}

const apiService = (spec: Record<string, unknown>, name = 'v1beta1.metrics.k8s.io'): KubeObject =>
  ({
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name },
    spec: { group: 'metrics.k8s.io', version: 'v1beta1', groupPriorityMinimum: 100, versionPriority: 100, ...spec },
  }) as KubeObject;

describe('metrics-server: an APIService is validated as kube-aggregator does (ValidateAPIService)', () => {
  test('manifests/base/apiservice.yaml applied without kustomize lacks spec.service.namespace: refused', async () => {
    const v = await cli('validate', `${METRICS_BASE}/apiservice.yaml`);
    assert.equal(v.code, 1);
    assert.match(v.stdout, /apiservice\.yaml:7:3 error api-service spec\.service\.namespace: Required value/);
    const s = await cli('simulate', `${METRICS_BASE}/apiservice.yaml`);
    assert.equal(s.code, 1);
    assert.match(
      s.stderr + s.stdout,
      /APIService\.apiregistration\.k8s\.io "v1beta1\.metrics\.k8s\.io" is invalid: spec\.service\.namespace: Required value/,
    );
  });

  test('the released form (the Service named with its namespace) is accepted', () => {
    assert.deepEqual(
      lines(validate(apiService({ service: { name: 'metrics-server', namespace: 'kube-system' } }))),
      [],
    );
  });

  test('name, priorities, a local APIService with insecureSkipTLSVerify, and the Service port', () => {
    assert.deepEqual(lines(validate(apiService({ groupPriorityMinimum: 0, versionPriority: 1001 }, 'metrics'))), [
      'api-service | metadata.name: Invalid value: "metrics": must be `spec.version+"."+spec.group`: "v1beta1.metrics.k8s.io"',
      'api-service | spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000',
      'api-service | spec.versionPriority: Invalid value: 1001: must be positive and less than 1000',
    ]);
    assert.deepEqual(lines(validate(apiService({ insecureSkipTLSVerify: true }))), [
      'api-service | spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have insecureSkipTLSVerify',
    ]);
    assert.deepEqual(
      lines(validate(apiService({ service: { name: 'm', namespace: 'kube-system', port: 70000 } }))),
      [
        'api-service | spec.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
      ],
    );
    assert.deepEqual(lines(validate(apiService({ group: '', version: 'v2' }, 'v2.'))), [
      'api-service | spec.group: Required value: only v1 may have an empty group and it better be legacy kube',
    ]);
  });
});
