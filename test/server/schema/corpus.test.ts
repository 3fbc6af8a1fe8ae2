import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeManifestText } from '../../../server/src/services/validateDocument';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const yamlIn = (dir: string): string[] =>
  readdirSync(join(root, dir))
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => join(dir, f));

const FILES = [...yamlIn('test/server/corpus'), ...yamlIn('examples')];

/** Kinds the corpus must cover, so that no file can quietly drop out. */
const COVERED = [
  'Deployment',
  'Service',
  'Ingress',
  'IngressClass',
  'ConfigMap',
  'Secret',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'CronJob',
  'HorizontalPodAutoscaler',
  'PersistentVolumeClaim',
  'PersistentVolume',
  'StorageClass',
  'Role',
  'RoleBinding',
  'ClusterRole',
  'ClusterRoleBinding',
  'ServiceAccount',
  'NetworkPolicy',
  'PodDisruptionBudget',
  'Namespace',
  'LimitRange',
  'ResourceQuota',
  'PriorityClass',
  'Pod',
  'CustomResourceDefinition',
];

describe('no false positives: correct manifests have no diagnostics', () => {
  for (const file of FILES) {
    test(file, () => {
      const report = analyzeManifestText(readFileSync(join(root, file), 'utf8'));
      assert.deepEqual(report.diagnostics, []);
      assert.ok(report.resources > 0);
    });
  }

  test('the corpus covers every common kind', () => {
    const kinds = new Set(
      FILES.flatMap((f) => [...readFileSync(join(root, f), 'utf8').matchAll(/^\s*kind: (\w+)$/gm)].map((m) => m[1])),
    );
    assert.deepEqual(
      COVERED.filter((k) => !kinds.has(k)),
      [],
    );
  });
});
