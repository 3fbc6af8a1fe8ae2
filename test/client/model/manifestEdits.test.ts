/** Writing live values into a saved manifest at the right line, leaving the rest as written. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cluster } from '../../../sandbox/cluster/cluster';
import { manifestObjects } from '../../../sandbox/manifests/parseManifests';
import { liveValuesFromDiff, manifestEditsFromLive } from '../../../client/src/model/manifestEdits';
import type { ManifestEdit } from '../../../client/src/model/manifestEdits';

const WEB = readFileSync(join(__dirname, '..', '..', '..', 'examples', 'web.yaml'), 'utf8');

/** Applies LSP-shaped edits to a text (from the last to the first). */
function applyEdits(text: string, edits: readonly ManifestEdit[]): string {
  const lines = text.split('\n');
  const offset = (p: { line: number; character: number }) =>
    lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  return [...edits]
    .sort((a, b) => offset(b.range.start) - offset(a.range.start))
    .reduce((t, e) => t.slice(0, offset(e.range.start)) + e.newText + t.slice(offset(e.range.end)), text);
}

const DEPLOYMENT_LINE = WEB.split('\n').indexOf('apiVersion: apps/v1');

describe('manifestEditsFromLive', () => {
  test('a hand-scaled Deployment: replicas is replaced in place, comments and the rest kept', () => {
    const result = manifestEditsFromLive(WEB, DEPLOYMENT_LINE, [{ segments: ['spec', 'replicas'], value: 5 }]);
    assert.ok(result);
    assert.deepEqual(result.written, ['spec.replicas: 5']);
    assert.deepEqual(result.skipped, []);
    assert.equal(applyEdits(WEB, result.edits), WEB.replace('  replicas: 3\n', '  replicas: 5\n'));
  });

  test('a field the manifest leaves out goes under its parent, at its siblings’ indentation; strings quoted as YAML needs', () => {
    const result = manifestEditsFromLive(WEB, DEPLOYMENT_LINE, [
      { segments: ['metadata', 'labels', 'tier'], value: 'front end: 1' },
      { segments: ['spec', 'template', 'spec', 'containers', 0, 'imagePullPolicy'], value: 'Always' },
      { segments: ['spec', 'template', 'spec', 'containers', 0, 'image'], value: 'nginx:1.28' },
    ]);
    assert.ok(result);
    const text = applyEdits(WEB, result.edits);
    assert.match(text, /\n {4}app: web\n {4}tier: "front end: 1"\n/);
    assert.match(text, /\n {8}- name: nginx\n {10}imagePullPolicy: Always\n {10}image: nginx:1\.28\n/);
    const [doc] = manifestObjects(text).manifests.filter((m) => m.object.kind === 'Deployment');
    const spec = doc.object.spec as { template: { spec: { containers: Record<string, unknown>[] } } };
    assert.equal(spec.template.spec.containers[0].imagePullPolicy, 'Always');
    assert.equal((doc.object.metadata.labels as Record<string, string>).tier, 'front end: 1');
  });

  test('what cannot be written on one line is listed, not guessed', () => {
    const result = manifestEditsFromLive(WEB, DEPLOYMENT_LINE, [
      { segments: ['spec', 'template', 'spec', 'containers', 0, 'ports'], value: [{ containerPort: 8080 }] },
      { segments: ['spec', 'strategy', 'type'], value: 'Recreate' },
      { segments: ['spec', 'template', 'spec', 'containers', 0, 'resources', 'limits', 'memory'], value: undefined },
    ]);
    assert.deepEqual(result?.edits, []);
    assert.deepEqual(result?.skipped, [
      'spec.template.spec.containers[0].ports: not a one-line value; copy it from the live YAML',
      'spec.strategy.type: its parent is not a block mapping in the manifest',
      'spec.template.spec.containers[0].resources.limits.memory: not in the live object; remove it by hand',
    ]);
  });

  test('no manifest starts at the recorded line (the file changed): undefined', () => {
    assert.equal(manifestEditsFromLive(WEB, DEPLOYMENT_LINE + 1, []), undefined);
  });

  test('from Desired vs Actual: the live values of the drifted fields of a real object', () => {
    const c = new Cluster({ seed: 2 });
    c.start();
    const [deployment] = manifestObjects(WEB).manifests.map((m) => m.object);
    c.apply(deployment);
    c.runUntilSettled();
    c.scale('deployments', 'default', 'web', 4);
    const values = liveValuesFromDiff(deployment, c.api.get('deployments', 'default', 'web'));
    assert.deepEqual(values, [{ segments: ['spec', 'replicas'], value: 4 }]);
    const text = applyEdits(WEB, manifestEditsFromLive(WEB, DEPLOYMENT_LINE, values)!.edits);
    assert.match(text, /\n {2}replicas: 4\n/);
  });
});
