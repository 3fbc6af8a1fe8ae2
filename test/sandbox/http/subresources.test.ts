import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { deployment, pod, serve } from './helpers';
import type { Served } from './helpers';

const PODS = '/api/v1/namespaces/default/pods';
const DEPLOYS = '/apis/apps/v1/namespaces/default/deployments';
const PDBS = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';

/** A running, Ready pod on node-1 (the kubelet is not running: its status is written here). */
function readyPod(s: Served, name: string, labels: Record<string, string>): void {
  s.cluster.api.create(pod(name, labels, { nodeName: 'node-1' }), { namespace: 'default' });
  const current = s.cluster.api.get('pods', 'default', name);
  s.cluster.api.updateStatus({
    ...current,
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  });
}

function eviction(name: string, deleteOptions?: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: 'policy/v1',
    kind: 'Eviction',
    metadata: { name, namespace: 'default' },
    ...(deleteOptions ? { deleteOptions } : {}),
  };
}

function pdb(name: string, spec: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name },
    spec: { selector: { matchLabels: { app: 'db' } }, ...spec },
  };
}

describe('HTTP API: subresources', () => {
  let s: Served;
  before(async () => {
    s = await serve();
    await s.request('POST', DEPLOYS, { body: deployment('web', 2) });
  });
  after(() => s.close());

  it('status: GET returns the object; PUT and PATCH change only status', async () => {
    const get = await s.request('GET', `${DEPLOYS}/web/status`);
    assert.equal(get.status, 200);
    assert.equal(get.json.kind, 'Deployment');
    const current = s.cluster.api.get('deployments', 'default', 'web');
    const put = await s.request('PUT', `${DEPLOYS}/web/status`, {
      body: { ...current, spec: { ...(current.spec as object), replicas: 9 }, status: { replicas: 7 } },
    });
    assert.equal(put.status, 200);
    const stored = s.cluster.api.get('deployments', 'default', 'web');
    assert.equal((stored.status as { replicas: number }).replicas, 7);
    assert.equal((stored.spec as { replicas: number }).replicas, 2);
    const patch = await s.request('PATCH', `${DEPLOYS}/web/status`, {
      body: { status: { replicas: 2 } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(patch.status, 200);
    assert.equal((s.cluster.api.get('deployments', 'default', 'web').status as { replicas: number }).replicas, 2);
    assert.equal((await s.request('GET', '/api/v1/namespaces/default/configmaps/x/status')).status, 404);
  });

  it('scale: an autoscaling/v1 Scale; PUT and PATCH set the parent spec.replicas', async () => {
    const get = await s.request('GET', `${DEPLOYS}/web/scale`);
    assert.equal(get.status, 200);
    const parent = s.cluster.api.get('deployments', 'default', 'web');
    assert.deepEqual(get.json, {
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: {
        name: 'web',
        namespace: 'default',
        uid: parent.metadata.uid,
        resourceVersion: parent.metadata.resourceVersion,
        creationTimestamp: parent.metadata.creationTimestamp,
      },
      spec: { replicas: 2 },
      status: { replicas: 2, selector: 'app=web' },
    });
    const put = await s.request('PUT', `${DEPLOYS}/web/scale`, { body: { ...get.json, spec: { replicas: 4 } } });
    assert.equal(put.status, 200);
    assert.equal((put.json.spec as { replicas: number }).replicas, 4);
    assert.equal((s.cluster.api.get('deployments', 'default', 'web').spec as { replicas: number }).replicas, 4);
    const stale = await s.request('PUT', `${DEPLOYS}/web/scale`, { body: { ...get.json, spec: { replicas: 5 } } });
    assert.equal(stale.status, 409);
    assert.match(String(stale.json.message), /^Operation cannot be fulfilled on deployments\.apps "web"/);
    const negative = await s.request('PATCH', `${DEPLOYS}/web/scale`, {
      body: { spec: { replicas: -1 } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(negative.status, 422);
    assert.equal(
      negative.json.message,
      'Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    );
    const patch = await s.request('PATCH', `${DEPLOYS}/web/scale`, {
      body: { spec: { replicas: 1 } },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(patch.status, 200);
    assert.equal((s.cluster.api.get('deployments', 'default', 'web').spec as { replicas: number }).replicas, 1);
    assert.equal((await s.request('GET', '/apis/apps/v1/namespaces/default/daemonsets/x/scale')).status, 404);
  });

  it('binding: assigns a pod to a node with 201 Success; a second binding is 409', async () => {
    s.cluster.api.create(pod('unbound'), { namespace: 'default' });
    const binding = {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'unbound' },
      target: { apiVersion: 'v1', kind: 'Node', name: 'node-2' },
    };
    const r = await s.request('POST', `${PODS}/unbound/binding`, { body: binding });
    assert.equal(r.status, 201);
    assert.deepEqual(r.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    assert.equal((s.cluster.api.get('pods', 'default', 'unbound').spec as { nodeName: string }).nodeName, 'node-2');
    const again = await s.request('POST', `${PODS}/unbound/binding`, { body: binding });
    assert.equal(again.status, 409);
    const wrongName = await s.request('POST', `${PODS}/unbound/binding`, {
      body: { ...binding, metadata: { name: 'other' } },
    });
    assert.equal(wrongName.status, 400);
    assert.equal(wrongName.json.message, 'name in URL does not match name in Binding object');
  });

  it('finalize: replaces a terminating namespace spec.finalizers; with none left it goes', async () => {
    assert.equal((await s.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'fin' } } })).status, 201);
    const del = await s.request('DELETE', '/api/v1/namespaces/fin');
    assert.equal(del.status, 200);
    assert.equal((del.json.status as { phase: string }).phase, 'Terminating');
    const ns = s.cluster.api.get('namespaces', undefined, 'fin');
    const r = await s.request('PUT', '/api/v1/namespaces/fin/finalize', { body: { ...ns, spec: { finalizers: [] } } });
    assert.equal(r.status, 200);
    assert.equal(s.cluster.api.tryGet('namespaces', undefined, 'fin'), undefined);
    assert.equal((await s.request('POST', '/api/v1/namespaces/default/finalize', { body: {} })).status, 405);
  });
});

/**
 * The wire of `pods/eviction`: the Eviction is decoded and handed to the API server's `evict` verb, whose answers
 * become the response (the budget decisions are tested in test/sandbox/apiserver/eviction.test.ts). Budgets' statuses
 * are written here as the disruption controller would write them (the cluster is not started).
 */
describe('HTTP API: eviction', () => {
  let s: Served;
  /** Writes the budget's status as the disruption controller would. */
  function budgetAllows(name: string, allowed: number, current: number, desired: number): void {
    const pdbObj = s.cluster.api.get('poddisruptionbudgets', 'default', name);
    s.cluster.api.updateStatus({
      ...pdbObj,
      status: {
        observedGeneration: pdbObj.metadata.generation,
        disruptionsAllowed: allowed,
        currentHealthy: current,
        desiredHealthy: desired,
        expectedPods: current,
      },
    });
  }
  before(async () => {
    s = await serve();
    readyPod(s, 'db-1', { app: 'db' });
    readyPod(s, 'db-2', { app: 'db' });
    readyPod(s, 'lonely', { app: 'other' });
  });
  after(() => s.close());

  it('evicts a pod no budget covers: 201 Success, pod deleted with the Eviction deleteOptions', async () => {
    const r = await s.request('POST', `${PODS}/lonely/eviction`, {
      body: eviction('lonely', { gracePeriodSeconds: 0 }),
    });
    assert.equal(r.status, 201);
    assert.deepEqual(r.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    assert.equal(s.cluster.api.tryGet('pods', 'default', 'lonely'), undefined);
  });

  it('a budget the controller has not processed yet: 429 with Retry-After 10', async () => {
    await s.request('POST', PDBS, { body: pdb('db-pdb', { minAvailable: 2 }) });
    const r = await s.request('POST', `${PODS}/db-1/eviction`, { body: eviction('db-1') });
    assert.equal(r.status, 429);
    assert.equal(r.headers['retry-after'], '10');
    assert.match(
      JSON.stringify(r.json.details),
      /The disruption budget db-pdb is still being processed by the server\./,
    );
  });

  it('refuses with 429 when the budget allows no disruption, naming the budget; nothing changes', async () => {
    budgetAllows('db-pdb', 0, 2, 2);
    const rv = s.cluster.api.resourceVersion;
    const r = await s.request('POST', `${PODS}/db-1/eviction`, { body: eviction('db-1') });
    assert.equal(r.status, 429);
    assert.equal(r.json.reason, 'TooManyRequests');
    assert.equal(r.json.message, "Cannot evict pod as it would violate the pod's disruption budget.");
    assert.deepEqual((r.json.details as { causes: unknown[] }).causes, [
      { reason: 'DisruptionBudget', message: 'The disruption budget db-pdb needs 2 healthy pods and has 2 currently' },
    ]);
    assert.equal(s.cluster.api.resourceVersion, rv);
  });

  it('?dryRun=All evicts nothing; an allowed eviction takes the disruption and deletes gracefully', async () => {
    budgetAllows('db-pdb', 1, 2, 1);
    const rv = s.cluster.api.resourceVersion;
    const dry = await s.request('POST', `${PODS}/db-1/eviction?dryRun=All`, { body: eviction('db-1') });
    assert.equal(dry.status, 201);
    assert.equal(s.cluster.api.resourceVersion, rv);
    const first = await s.request('POST', `${PODS}/db-1/eviction`, { body: eviction('db-1') });
    assert.equal(first.status, 201);
    assert.ok(s.cluster.api.get('pods', 'default', 'db-1').metadata.deletionTimestamp, 'graceful: terminating');
    const status = s.cluster.api.get('poddisruptionbudgets', 'default', 'db-pdb').status;
    assert.equal(status?.disruptionsAllowed, 0);
    assert.deepEqual(Object.keys(status?.disruptedPods ?? {}), ['db-1']);
    const second = await s.request('POST', `${PODS}/db-2/eviction`, { body: eviction('db-2') });
    assert.equal(second.status, 429);
  });

  it('ignores budgets for pods that are not running yet, and refuses two budgets with 500', async () => {
    s.cluster.api.create(pod('db-pending', { app: 'db' }), { namespace: 'default' });
    const pending = await s.request('POST', `${PODS}/db-pending/eviction`, { body: eviction('db-pending') });
    assert.equal(pending.status, 201);
    await s.request('POST', PDBS, { body: pdb('second-pdb', { minAvailable: 0 }) });
    const two = await s.request('POST', `${PODS}/db-2/eviction`, { body: eviction('db-2') });
    assert.equal(two.status, 500);
    assert.deepEqual(two.json, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      reason: '',
      code: 500,
    });
    assert.ok(s.cluster.api.tryGet('pods', 'default', 'db-2'));
  });

  it('refuses an Eviction for another pod (400) and a missing pod (404)', async () => {
    const other = await s.request('POST', `${PODS}/db-2/eviction`, { body: eviction('db-1') });
    assert.equal(other.status, 400);
    assert.equal(other.json.message, 'name in URL does not match name in Eviction object');
    const missing = await s.request('POST', `${PODS}/ghost/eviction`, { body: eviction('ghost') });
    assert.equal(missing.status, 404);
  });
});

describe('HTTP API: pod logs', () => {
  let s: Served;
  const counter = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'counter' },
    spec: {
      containers: [
        {
          name: 'c',
          image: 'busybox',
          command: ['sh', '-c', 'i=0; while true; do echo "tick $i"; i=$((i+1)); sleep 1; done'],
        },
      ],
    },
  };
  before(async () => {
    s = await serve({ start: true });
    await s.request('POST', PODS, { body: counter });
    await s.request('POST', PODS, {
      body: {
        ...pod('two'),
        spec: {
          containers: [
            { name: 'a', image: 'nginx' },
            { name: 'b', image: 'nginx' },
          ],
        },
      },
    });
    s.cluster.runFor(30_000);
  });
  after(() => s.close());

  it('answers the container log as text/plain, with the options applied', async () => {
    const r = await s.request('GET', `${PODS}/counter/log?tailLines=2`);
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(r.text, s.cluster.podLogs('default', 'counter', { tailLines: 2 }));
    assert.match(r.text, /^tick \d+\ntick \d+\n$/);
  });

  it('reports log errors as Status: 404, 400 for an unnamed container, 422 for bad options', async () => {
    assert.equal((await s.request('GET', `${PODS}/ghost/log`)).status, 404);
    const unnamed = await s.request('GET', `${PODS}/two/log`);
    assert.equal(unnamed.status, 400);
    assert.equal(unnamed.json.message, 'a container name must be specified for pod two, choose one of: [a b]');
    assert.equal((await s.request('GET', `${PODS}/counter/log?limitBytes=0`)).status, 422);
    assert.equal((await s.request('GET', `${PODS}/counter/log?tailLines=x`)).status, 400);
  });

  it('follows: the tail so far, then each new line as simulated time passes', async () => {
    const res = await s.watch(`${PODS}/counter/log?follow=true&tailLines=1`);
    assert.equal(res.status, 200);
    res.response.removeAllListeners('data');
    let text = '';
    const grew = (lines: number) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`log so far: ${JSON.stringify(text)}`)), 5000);
        const check = () => {
          if (text.split('\n').length - 1 >= lines) {
            clearTimeout(timer);
            res.response.off('data', onData);
            resolve();
          }
        };
        const onData = (chunk: string) => {
          text += chunk;
          check();
        };
        res.response.on('data', onData);
        check();
      });
    await grew(1);
    const first = Number(/tick (\d+)/.exec(text)![1]);
    s.cluster.runFor(3000);
    await grew(4);
    assert.deepEqual(
      text.trim().split('\n'),
      [0, 1, 2, 3].map((i) => `tick ${first + i}`),
    );
    res.close();
  });
});
