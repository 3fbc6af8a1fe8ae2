/**
 * Plan Against Cluster's plan in the sandbox worker (`planLive`): the host sends a real cluster's snapshot and the
 * editor's text, the worker answers the report's text. Through a real worker thread: the answer is the text the
 * engine gives in this process (what the extension host computed itself before), without `init`; malformed and bad
 * requests are error replies that leave the worker up; a request the host gives up on (shut down) rejects at once.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseYaml } from 'yaml';
import type { KubeObject } from '../../../sandbox/api/types';
import { takeSnapshot } from '../../../sandbox/apiserver/snapshot';
import type { Snapshot } from '../../../sandbox/apiserver/snapshot';
import { Cluster } from '../../../sandbox/cluster/cluster';
import { manifestObjects } from '../../../sandbox/manifests/parseManifests';
import { placeManifests } from '../../../sandbox/manifests/placedManifests';
import { formatPlanText } from '../../../sandbox/plan/format';
import { runPlan } from '../../../sandbox/plan/plan';
import { DEFAULT_KUBERNETES_VERSION, kubernetesVersion, setKubernetesVersion } from '../../../sandbox/schema/schema';
import { SandboxHost, SandboxRequestError } from '../../../client/src/sandbox/host';
import type { LivePlanNode, LivePlanRequest } from '../../../client/src/sandbox/protocol';
import { planLive } from '../../../client/src/worker/livePlan';
import { SETTINGS, WORKER } from './harness';

const hosts: SandboxHost[] = [];
after(() => hosts.forEach((h) => h.dispose()));

function host(): SandboxHost {
  const h = new SandboxHost({ workerPath: WORKER });
  hosts.push(h);
  return h;
}

/** Two small nodes as live/snapshot.ts shapes them, and a cluster state with a web Deployment on them. */
const NODES: LivePlanNode[] = ['node-1', 'node-2'].map((name, index) => ({
  name,
  index,
  capacity: { cpu: '2', memory: '4Gi', pods: '110' },
  labels: { 'topology.kubernetes.io/zone': `zone-${index}` },
  taints: [],
}));

function liveState(): Snapshot {
  const cluster = new Cluster({ nodes: NODES, seed: 3 });
  cluster.apply(
    parseYaml(
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata: {name: web, namespace: default}',
        'spec:',
        '  replicas: 2',
        '  selector: {matchLabels: {app: web}}',
        '  template:',
        '    metadata: {labels: {app: web}}',
        '    spec: {containers: [{name: app, image: nginx:1.27, resources: {requests: {cpu: 500m}}}]}',
      ].join('\n'),
    ) as KubeObject,
  );
  cluster.runUntilSettled();
  return JSON.parse(JSON.stringify(takeSnapshot(cluster.api))) as Snapshot;
}

const TEXT = [
  'apiVersion: apps/v1',
  'kind: Deployment',
  'metadata: {name: web, namespace: default}',
  'spec:',
  '  replicas: 5',
  '  selector: {matchLabels: {app: web}}',
  '  template:',
  '    metadata: {labels: {app: web}}',
  '    spec: {containers: [{name: app, image: nginx:1.28, resources: {requests: {cpu: 500m}}}]}',
  '---',
  'apiVersion: v1',
  'kind: Pod',
  'metadata: {name: huge, namespace: default}',
  'spec: {containers: [{name: app, image: nginx:1.27, resources: {requests: {cpu: "64"}}}]}',
  '',
].join('\n');

const request = (snapshot = liveState()): LivePlanRequest => ({
  source: 'web.yaml',
  text: TEXT,
  snapshot,
  nodes: NODES,
});

/** The engine as the extension host ran it before the plan moved to the worker (live/planText.ts). */
function inProcess(r: LivePlanRequest): string {
  const manifests = placeManifests(manifestObjects(r.text).manifests, r.source);
  return formatPlanText(runPlan({ manifests, snapshot: r.snapshot, nodes: r.nodes }));
}

describe('planLive', () => {
  test('round trip through the worker thread: the text the engine gives in-process, with no init', async () => {
    const r = request();
    const expected = inProcess(structuredClone(r));
    assert.match(expected, /\nPlan: .*1 pod would stay Pending/);
    assert.match(expected, /Insufficient cpu/);
    const { text } = await host().request('planLive', r);
    assert.equal(text, expected);
  });

  test('a sandbox serving another release plans a real cluster at the default one, and keeps its own', async () => {
    const r = request();
    const expected = inProcess(structuredClone(r));
    const h = host();
    await h.request('init', { settings: { ...SETTINGS, kubernetesVersion: '1.30' } });
    assert.equal((await h.request('planLive', r)).text, expected);
    // in this process: the active release is put back after the plan
    setKubernetesVersion('1.30');
    try {
      assert.equal(planLive(structuredClone(r)).text, expected);
      assert.equal(kubernetesVersion(), '1.30');
    } finally {
      setKubernetesVersion(DEFAULT_KUBERNETES_VERSION);
    }
  });

  test('malformed or bad requests are error replies naming what is wrong; the worker answers on', async () => {
    const h = host();
    const fails = async (params: unknown, message: RegExp) => {
      const e = await h.request('planLive', params as LivePlanRequest).then(
        () => assert.fail('expected an error reply'),
        (err: unknown) => err,
      );
      assert.ok(e instanceof SandboxRequestError);
      assert.equal(e.method, 'planLive');
      assert.match(e.message, message);
    };
    const r = request();
    await fails({ ...r, snapshot: undefined }, /^snapshot must be an object$/);
    await fails({ ...r, nodes: [{}] }, /^nodes\[0\]\.name must be a non-empty string$/);
    await fails({ ...r, source: '' }, /^source must be a non-empty string$/);
    await fails({ ...r, text: 'kind: [' }, /^web\.yaml has errors \(line 1: /);
    await fails({ ...r, text: '' }, /^web\.yaml has no manifest to plan$/);
    // the snapshot is checked whole before the fork starts (sandbox/apiserver/snapshot.ts)
    await fails(
      { ...r, snapshot: { ...r.snapshot, apiVersion: 'v1' } },
      /expected apiVersion sandbox\.kube-reconcile\.dev/,
    );
    assert.equal((await h.request('planLive', r)).text, inProcess(structuredClone(request())));
  });

  test('a plan the host gives up on (the sandbox shut down) rejects at once, naming why', async () => {
    const h = host();
    const pending = h.request('planLive', request());
    h.dispose();
    await assert.rejects(pending, (e: unknown) => {
      assert.ok(e instanceof SandboxRequestError);
      assert.equal(e.message, 'the sandbox has been shut down');
      assert.equal(e.method, 'planLive');
      return true;
    });
    await assert.rejects(h.request('planLive', request()), /the sandbox has been shut down/);
  });
});
