/**
 * kubectl against custom resources: prometheus-operator's CRDs (test/fixtures/public/prometheus-operator) applied
 * with the real kubectl, then their custom resources read with the CRDs' printer columns, by short name and
 * category, explained from the published OpenAPI, patched, scaled through `/scale`, refused with the schema's
 * field path, and deleted with their CRD. Skipped, with the reason, only where neither the packaged kubectl nor
 * one on PATH runs.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { findKubectl, kubectlMissing, startKubectlSandbox, tableRows } from './harness';
import type { KubectlSandbox } from './harness';

const skip = findKubectl() === undefined ? kubectlMissing() : false;
const FIXTURES = join(__dirname, '..', 'fixtures', 'public', 'prometheus-operator');

describe('kubectl with custom resources', { skip }, () => {
  let sb: KubectlSandbox;

  before(async () => {
    sb = await startKubectlSandbox({ speed: 50 });
  });
  after(async () => {
    await sb?.dispose();
  });

  it('apply creates the CRDs; they are established at once', async () => {
    const r = await sb.kubectl('apply', '-f', join(FIXTURES, 'crds'));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim().split('\n').length, 10);
    assert.match(
      r.stdout,
      /^customresourcedefinition\.apiextensions\.k8s\.io\/servicemonitors\.monitoring\.coreos\.com created$/m,
    );
    const crd = sb.cluster.api.get('customresourcedefinitions', undefined, 'prometheuses.monitoring.coreos.com');
    const conditions = (crd.status as { conditions: { type: string; status: string; reason: string }[] }).conditions;
    assert.deepEqual(
      conditions.map((c) => [c.type, c.status, c.reason]),
      [
        ['NamesAccepted', 'True', 'NoConflicts'],
        ['Established', 'True', 'InitialNamesAccepted'],
      ],
    );
    const get = await sb.kubectl('get', 'crd', 'servicemonitors.monitoring.coreos.com');
    assert.equal(get.code, 0, get.stderr);
    assert.deepEqual(tableRows(get.stdout)[0], ['NAME', 'CREATED AT']);
  });

  it('the operator bundle and its custom resources apply', async () => {
    const bundle = await sb.kubectl('apply', '-f', join(FIXTURES, 'bundle', 'operator.yaml'));
    assert.equal(bundle.code, 0, bundle.stderr);
    assert.match(
      bundle.stdout,
      /validatingwebhookconfiguration\.admissionregistration\.k8s\.io\/prometheus-operator-admission-webhook created/,
    );
    const r = await sb.kubectl('apply', '-f', join(FIXTURES, 'bundle', 'monitoring.yaml'));
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.stdout.trim().split('\n'), [
      'prometheus.monitoring.coreos.com/main created',
      'servicemonitor.monitoring.coreos.com/example-app created',
      'prometheusrule.monitoring.coreos.com/example-rules created',
    ]);
  });

  it('get prints the CRD’s printer columns; -o wide adds the priority ones', async () => {
    const r = await sb.kubectl('get', 'prometheuses');
    assert.equal(r.code, 0, r.stderr);
    const [header, line] = r.stdout.split('\n');
    assert.deepEqual(tableRows(header)[0], ['NAME', 'VERSION', 'DESIRED', 'READY', 'RECONCILED', 'AVAILABLE', 'AGE']);
    // No operator acts in the sandbox: status is empty, so READY and the conditions are empty cells.
    const ageAt = header.indexOf('AGE');
    assert.deepEqual(tableRows(line.slice(0, ageAt))[0], ['main', 'v3.5.0', '2']);
    assert.match(line.slice(ageAt), /^\d+s$/);
    const wide = await sb.kubectl('get', 'prom', '-o', 'wide');
    assert.equal(tableRows(wide.stdout)[0].at(-1), 'PAUSED');
  });

  it('short names and categories resolve as discovery publishes them', async () => {
    const r = await sb.kubectl('get', 'smon');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      tableRows(r.stdout).map((row) => row[0]),
      ['NAME', 'example-app'],
    );
    const category = await sb.kubectl('get', 'prometheus-operator');
    assert.equal(category.code, 0, category.stderr);
    assert.match(category.stdout, /prometheus\.monitoring\.coreos\.com\/main/);
    assert.match(category.stdout, /servicemonitor\.monitoring\.coreos\.com\/example-app/);
    const resources = await sb.kubectl('api-resources', '--api-group=monitoring.coreos.com');
    assert.deepEqual(
      tableRows(resources.stdout).find((row) => row[0] === 'servicemonitors'),
      ['servicemonitors', 'smon', 'monitoring.coreos.com/v1', 'true', 'ServiceMonitor'],
    );
  });

  it('explain reads the CRD’s schema from the OpenAPI documents', async () => {
    const r = await sb.kubectl('explain', 'servicemonitor.spec');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^GROUP:\s+monitoring\.coreos\.com$/m);
    assert.match(r.stdout, /^KIND:\s+ServiceMonitor$/m);
    assert.match(r.stdout, /^FIELD: spec <Object>$/m);
    assert.match(r.stdout, /^ {2}selector\t<Object> -required-$/m);
    assert.match(r.stdout, /^ {2}endpoints\t<\[\]Object>$/m);
  });

  it('patch --type merge applies; a strategic merge patch is 415; a schema violation is 422 at its field', async () => {
    const ok = await sb.kubectl(
      'patch',
      'smon',
      'example-app',
      '--type',
      'merge',
      '-p',
      '{"spec":{"sampleLimit":100}}',
    );
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stdout.trim(), 'servicemonitor.monitoring.coreos.com/example-app patched');
    const sm = sb.cluster.api.get('servicemonitors', 'default', 'example-app');
    assert.equal((sm.spec as { sampleLimit: number }).sampleLimit, 100);
    assert.equal(sm.metadata.generation, 2);

    const strategic = await sb.kubectl('patch', 'smon', 'example-app', '-p', '{"spec":{"sampleLimit":1}}');
    assert.equal(strategic.code, 1);
    assert.match(
      strategic.stderr,
      /the body of the request was in an unknown format - accepted media types include: application\/json-patch\+json, application\/merge-patch\+json, application\/apply-patch\+yaml/,
    );

    const bad = await sb.kubectl(
      'patch',
      'smon',
      'example-app',
      '--type',
      'merge',
      '-p',
      '{"spec":{"endpoints":[{"port":"web","scheme":"ftp"}]}}',
    );
    assert.equal(bad.code, 1);
    assert.equal(
      bad.stderr.trim(),
      'The ServiceMonitor "example-app" is invalid: spec.endpoints[0].scheme: Unsupported value: "ftp": supported values: "http", "https", "HTTP", "HTTPS"',
    );
  });

  it('scale writes the CRD’s specReplicasPath through /scale', async () => {
    const r = await sb.kubectl('scale', 'prometheus/main', '--replicas=3');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'prometheus.monitoring.coreos.com/main scaled');
    const prom = sb.cluster.api.get('prometheuses', 'default', 'main');
    assert.equal((prom.spec as { shards: number }).shards, 3);
    const scale = sb.cluster.api.getScale('prometheuses', 'default', 'main');
    assert.deepEqual(scale.spec, { replicas: 3 });
  });

  it('delete crd deletes its custom resources first, then the CRD; the kind is no longer served', async () => {
    const r = await sb.kubectl('delete', 'crd', 'servicemonitors.monitoring.coreos.com');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout.trim(),
      'customresourcedefinition.apiextensions.k8s.io "servicemonitors.monitoring.coreos.com" deleted',
    );
    assert.equal(
      sb.cluster.api.tryGet('customresourcedefinitions', undefined, 'servicemonitors.monitoring.coreos.com'),
      undefined,
    );
    assert.equal(sb.cluster.api.resources.byName('servicemonitors'), undefined);
    assert.equal(sb.cluster.api.objectStore.list('monitoring.coreos.com/ServiceMonitor').length, 0);
    const resources = await sb.kubectl('api-resources', '--api-group=monitoring.coreos.com');
    assert.equal(
      tableRows(resources.stdout).some((row) => row[0] === 'servicemonitors'),
      false,
    );
  });
});
