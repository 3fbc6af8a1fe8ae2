/**
 * "Configure Multiple Schedulers" (test/fixtures/docs/nbadmin/admin/sched, see SOURCE.md): a pod naming a scheduler
 * the sandbox does not run stays Pending, as on a cluster without that scheduler — and the settled report says why.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { Cluster } from '../../../sandbox/cluster/cluster';
import type { KubeObject } from '../../../sandbox/api/types';

const DIR = join(__dirname, '..', '..', 'fixtures', 'docs', 'nbadmin', 'admin', 'sched');

function example(file: string): KubeObject {
  const obj = parse(readFileSync(join(DIR, file), 'utf8')) as KubeObject;
  return { ...obj, metadata: { ...obj.metadata, namespace: 'default' } };
}

describe('pods naming another scheduler', () => {
  test('pod3.yaml (schedulerName: my-scheduler) stays Pending and the report says no such scheduler runs', () => {
    const c = new Cluster({ seed: 1 });
    c.start();
    c.apply(example('pod2.yaml'));
    c.apply(example('pod3.yaml'));
    const r = c.runUntilSettled();
    assert.ok(c.api.get('pods', 'default', 'annotation-default-scheduler').spec?.nodeName);
    assert.equal(c.api.get('pods', 'default', 'annotation-second-scheduler').spec?.nodeName, undefined);
    assert.deepEqual(r.pending, [
      'pod default/annotation-second-scheduler: Pending (0/1 ready) — not modelled by the sandbox: it runs only ' +
        'default-scheduler, so no scheduler named "my-scheduler" binds this pod',
    ]);
  });
});
