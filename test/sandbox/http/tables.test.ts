import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { tableFor } from '../../../sandbox/printers/tableFor';
import { bodyAs, deployment, serve } from './helpers';
import type { Served } from './helpers';

const TABLE =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

interface Table {
  kind: string;
  apiVersion: string;
  metadata: { resourceVersion?: string; continue?: string };
  columnDefinitions: { name: string; type: string; priority: number }[];
  rows: {
    cells: unknown[];
    object: { kind?: string; apiVersion?: string; metadata?: { name?: string }; spec?: unknown } | null;
  }[];
}

describe('HTTP API: server-side tables and partial metadata', () => {
  let s: Served;
  before(async () => {
    s = await serve({ start: true });
    await s.request('POST', '/apis/apps/v1/namespaces/default/deployments', { body: deployment('web', 3) });
    s.cluster.runFor(60_000);
  });
  after(() => s.close());

  it('lists pods as the Table kubectl prints, with every column of the printer and the clock time the server has', async () => {
    const r = await s.request('GET', '/api/v1/namespaces/default/pods', { accept: TABLE });
    assert.equal(r.status, 200);
    const table = bodyAs<Table>(r);
    assert.equal(table.kind, 'Table');
    assert.equal(table.apiVersion, 'meta.k8s.io/v1');
    assert.equal(table.metadata.resourceVersion, s.cluster.api.resourceVersion);
    const pods = s.cluster.api.list('pods', { namespace: 'default' }).items;
    const expected = tableFor('Pod', pods, s.cluster.clock.now(), { wide: true });
    assert.deepEqual(
      table.columnDefinitions.map((c) => [c.name, c.priority]),
      expected.columns.map((c) => [c.name, c.priority]),
    );
    assert.deepEqual(
      table.rows.map((row) => row.cells),
      expected.rows.map((row) => row.cells),
    );
    assert.equal(table.rows.length, 3);
    const first = table.rows[0].object!;
    assert.equal(first.kind, 'PartialObjectMetadata');
    assert.equal(first.apiVersion, 'meta.k8s.io/v1');
    assert.equal(first.metadata?.name, pods[0].metadata.name);
    assert.equal(first.spec, undefined);
  });

  it('includes the whole object or none with includeObject, and honours v1beta1 and paging', async () => {
    const whole = await s.request('GET', '/api/v1/namespaces/default/pods?includeObject=Object', { accept: TABLE });
    assert.equal(bodyAs<Table>(whole).rows[0].object!.kind, 'Pod');
    const none = await s.request('GET', '/api/v1/namespaces/default/pods?includeObject=None', { accept: TABLE });
    assert.equal(bodyAs<Table>(none).rows[0].object, null);
    const beta = await s.request('GET', '/api/v1/namespaces/default/pods?limit=2', {
      accept: 'application/json;as=Table;v=v1beta1;g=meta.k8s.io',
    });
    const betaTable = bodyAs<Table>(beta);
    assert.equal(betaTable.apiVersion, 'meta.k8s.io/v1beta1');
    assert.equal(betaTable.rows.length, 2);
    assert.ok(betaTable.metadata.continue);
  });

  it('answers a single object as a one-row Table', async () => {
    const r = await s.request('GET', '/apis/apps/v1/namespaces/default/deployments/web', { accept: TABLE });
    const table = bodyAs<Table>(r);
    assert.equal(table.kind, 'Table');
    assert.deepEqual(
      table.columnDefinitions.slice(0, 4).map((c) => c.name),
      ['Name', 'Ready', 'Up-to-date', 'Available'],
    );
    assert.deepEqual(table.rows[0].cells.slice(0, 4), ['web', '3/3', 3, 3]);
  });

  it('answers PartialObjectMetadataList and PartialObjectMetadata', async () => {
    const list = await s.request('GET', '/api/v1/namespaces/default/pods', {
      accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io',
    });
    assert.equal(list.json.kind, 'PartialObjectMetadataList');
    const items = list.json.items as { kind: string; metadata: { name: string }; spec?: unknown }[];
    assert.equal(items.length, 3);
    assert.equal(items[0].kind, 'PartialObjectMetadata');
    assert.equal(items[0].spec, undefined);
    const one = await s.request('GET', '/apis/apps/v1/namespaces/default/deployments/web', {
      accept: 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io',
    });
    assert.equal(one.json.kind, 'PartialObjectMetadata');
    assert.equal((one.json.metadata as { name: string }).name, 'web');
  });

  it('skips conversions it cannot serve and answers 406 when nothing else is offered', async () => {
    const wrongGroup = await s.request('GET', '/api/v1/namespaces/default/pods', {
      accept: 'application/json;as=Table;v=v1;g=example.com',
    });
    assert.equal(wrongGroup.status, 406);
    const listAsObject = await s.request('GET', '/api/v1/namespaces/default/pods', {
      accept: 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io, application/json',
    });
    assert.equal(listAsObject.json.kind, 'PodList');
  });
  it('prints an HPA read through autoscaling/v1 as through v2: the row comes from the stored object', async () => {
    const hpa = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        maxReplicas: 5,
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
          { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } },
        ],
      },
    };
    assert.equal(
      (await s.request('POST', '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers', { body: hpa }))
        .status,
      201,
    );
    const rows = async (version: string): Promise<unknown[][]> =>
      bodyAs<Table>(
        await s.request('GET', `/apis/autoscaling/${version}/namespaces/default/horizontalpodautoscalers`, {
          accept: TABLE,
        }),
      ).rows.map((r) => r.cells);
    const v2 = await rows('v2');
    assert.deepEqual(await rows('v1'), v2);
    // upstream formatHPAMetrics, in the spec's order (v1's round trip would put the CPU target last).
    assert.match(String(v2[0][2]), /^cpu: .*\/50%, memory: .*\/100Mi$/);
    const one = await s.request('GET', '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/web', {
      accept: TABLE,
    });
    assert.deepEqual(bodyAs<Table>(one).rows[0].cells, v2[0]);
  });
});
