/**
 * `simulate` of an operator bundle: prometheus-operator's CRDs, RBAC, webhook configurations, Deployment and custom
 * resources (test/fixtures/public/prometheus-operator) apply cleanly — CRDs first, whatever the files' order — the
 * operator's pod runs, the custom resources are printed with their CRDs' columns, and the report says what the
 * sandbox stores without acting on it. Then a custom resource that breaks its schema is rejected at its line.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliFixture } from './cliFixture';

const ROOT = join(__dirname, '..', 'fixtures', 'public', 'prometheus-operator');

describe('simulate with custom resources', () => {
  test('an operator bundle applies cleanly: exit 0, CRs printed with their columns, unreconciled kinds said', async () => {
    const fixture = await cliFixture('kube-reconcile-crd-', {});
    try {
      const r = await fixture.run('simulate', ROOT);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, '');
      const out = r.stdout;
      assert.match(
        out,
        /^customresourcedefinition\.apiextensions\.k8s\.io\/alertmanagerconfigs\.monitoring\.coreos\.com created\n/,
      );
      assert.match(out, /\nprometheus\.monitoring\.coreos\.com\/main created\n/);
      assert.match(out, /\npod\/prometheus-operator-[a-z0-9]+-[a-z0-9]{5}\s+1\/1\s+Running/);
      assert.match(
        out,
        /\nNAME\s+VERSION\s+DESIRED\s+READY\s+RECONCILED\s+AVAILABLE\s+AGE\nprometheus\.monitoring\.coreos\.com\/main\s+v3\.5\.0\s+2\s+\d+s\n/,
      );
      assert.match(out, /\nNot acted on in this sandbox:\n/);
      assert.match(
        out,
        /\n {2}validatingwebhookconfiguration\/prometheus-operator-admission-webhook: stored; the API server calls no webhook server in this sandbox: a webhook with no ready endpoint fails as its failurePolicy says, one that a real cluster would reach is skipped \(the write is admitted, with a warning\)\n/,
      );
      assert.match(
        out,
        /\n {2}servicemonitor\.monitoring\.coreos\.com\/example-app: stored; no controller for ServiceMonitor runs in this sandbox/,
      );
    } finally {
      await fixture.dispose();
    }
  });

  test('a custom resource that breaks its schema is rejected at the line of the field, the rest applies', async () => {
    const crd = readFileSync(join(ROOT, 'crds', 'monitoring.coreos.com_servicemonitors.yaml'), 'utf8');
    const fixture = await cliFixture('kube-reconcile-crd-bad-', {
      'app/crd.yaml': crd,
      'app/sm.yaml': [
        'apiVersion: monitoring.coreos.com/v1',
        'kind: ServiceMonitor',
        'metadata:',
        '  name: web',
        'spec:',
        '  selector: {}',
        '  endpoints:',
        '  - port: web',
        '    scheme: ftp',
        '',
      ].join('\n'),
    });
    try {
      const r = await fixture.run('simulate', 'app');
      assert.equal(r.code, 1);
      assert.match(
        r.stderr,
        /^app\/sm\.yaml:9: ServiceMonitor\.monitoring\.coreos\.com "web" is invalid: spec\.endpoints\[0\]\.scheme: Unsupported value: "ftp": supported values: "http", "https", "HTTP", "HTTPS"\n$/,
      );
      assert.match(
        r.stdout,
        /customresourcedefinition\.apiextensions\.k8s\.io\/servicemonitors\.monitoring\.coreos\.com created/,
      );
    } finally {
      await fixture.dispose();
    }
  });
});
