/**
 * The Kubernetes documentation's Cassandra StatefulSet tutorial (test/fixtures/public/kubernetes-website, see its
 * SOURCE.md) through `simulate`, against what the tutorial shows on a real cluster (minikube, whose
 * `k8s.io/minikube-hostpath` provisioner its StorageClass names): `kubectl get statefulset cassandra` READY 3/3,
 * pods cassandra-0, -1, -2 created one at a time, each only once the one before is Ready (OrderedReady), and one
 * Bound claim per pod named `<claim>-<set>-<ordinal>`.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { main } from '../../cli/main';
import type { KubeObject } from '../../sandbox/api/types';

const ROOT = join(__dirname, '..', '..');
const DIR = 'test/fixtures/public/kubernetes-website/application/cassandra';

interface Pod extends KubeObject {
  status?: { phase?: string; conditions?: { type: string; status: string; lastTransitionTime?: string }[] };
}

async function simulate(): Promise<{ code: number; items: KubeObject[] }> {
  let stdout = '';
  const code = await main(
    ['simulate', '-o', 'json', `${DIR}/cassandra-service.yaml`, `${DIR}/cassandra-statefulset.yaml`],
    { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: () => undefined }, cwd: ROOT },
  );
  return { code, items: (JSON.parse(stdout) as { items: KubeObject[] }).items };
}

describe('the Cassandra tutorial reconciles as on a real cluster', () => {
  test('3/3 ready, pods created in order after the previous one is Ready, one Bound claim each', async () => {
    const { code, items } = await simulate();
    assert.equal(code, 0);
    const set = items.find((o) => o.kind === 'StatefulSet' && o.metadata.name === 'cassandra') as
      | (KubeObject & { status?: { readyReplicas?: number; replicas?: number } })
      | undefined;
    assert.equal(set?.status?.replicas, 3);
    assert.equal(set?.status?.readyReplicas, 3);

    const pods = (items.filter((o) => o.kind === 'Pod') as Pod[]).sort((a, b) =>
      (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''),
    );
    assert.deepEqual(
      pods.map((p) => [p.metadata.name, p.status?.phase]),
      [
        ['cassandra-0', 'Running'],
        ['cassandra-1', 'Running'],
        ['cassandra-2', 'Running'],
      ],
    );
    // OrderedReady: each pod is created no earlier than its predecessor became Ready.
    const readyAt = (p: Pod) =>
      Date.parse(
        p.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'True')?.lastTransitionTime ?? '',
      );
    for (let i = 1; i < pods.length; i++) {
      const created = Date.parse(pods[i].metadata.creationTimestamp ?? '');
      assert.ok(created >= readyAt(pods[i - 1]), `${pods[i].metadata.name} created before its predecessor was Ready`);
    }

    const claims = items.filter((o) => o.kind === 'PersistentVolumeClaim') as (KubeObject & {
      status?: { phase?: string };
      spec?: { storageClassName?: string };
    })[];
    assert.deepEqual(claims.map((c) => [c.metadata.name, c.status?.phase, c.spec?.storageClassName]).sort(), [
      ['cassandra-data-cassandra-0', 'Bound', 'fast'],
      ['cassandra-data-cassandra-1', 'Bound', 'fast'],
      ['cassandra-data-cassandra-2', 'Bound', 'fast'],
    ]);
  });

  test('the report says the sandbox stands in for the minikube provisioner a real cluster would need', async () => {
    let stdout = '';
    const code = await main(['simulate', `${DIR}/cassandra-service.yaml`, `${DIR}/cassandra-statefulset.yaml`], {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: () => undefined },
      cwd: ROOT,
    });
    assert.equal(code, 0);
    const section = stdout.slice(stdout.indexOf('Not acted on in this sandbox:'));
    assert.match(
      section,
      /storageclass\.storage\.k8s\.io\/fast: provisioner 'k8s\.io\/minikube-hostpath' does not run in this sandbox; its claims get volumes from the sandbox's stand-in \(rancher\.io\/local-path\)/,
    );
    // kind's default class is the provisioner the sandbox runs: no note for it.
    assert.doesNotMatch(section, /storageclass\.storage\.k8s\.io\/standard:/);
  });
});
