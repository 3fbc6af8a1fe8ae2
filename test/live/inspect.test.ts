/**
 * Events, Describe, Logs, Copy as YAML and Desired vs Actual's events on a real context (`kube-reconcile serve` as
 * the stand-in cluster), through the commands as VS Code runs them (LiveSession.readCommand with a fake Ui); the
 * namespace picker; and, across all of it, not one write request reaching the server.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseYaml } from 'yaml';
import type { KubeObject } from '../../sandbox/api/types';
import { loadKubeconfig } from '../../live/kubeconfig';
import { ALL_NAMESPACES_LABEL, LiveSession, planAgainstCluster } from '../../client/src/live/liveCommands';
import { eventFieldSelector } from '../../client/src/live/liveInspect';
import { LIVE_READ_COMMANDS, ViewedCluster } from '../../client/src/live/viewedCluster';
import { eventRows } from '../../client/src/webview/events';
import { planLive } from '../../client/src/worker/livePlan';
import { SandboxRequestError } from '../../client/src/sandbox/host';
import type { ObjectRef } from '../../client/src/sandbox/protocol';
import { FakeConnection, FakeUi } from '../client/commands/fakes';
import { SERVED_TOKEN, serveCluster, WEB } from './served';
import type { ServedCluster } from './served';

/** Resolves when `predicate` holds (checked every 10 ms; a deadline of 60 s for a loaded machine, not a timing). */
async function eventually(predicate: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 60_000;
  while (!predicate()) {
    if (performance.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const WEB_REF: ObjectRef = { resource: 'deployments', namespace: 'default', name: 'web' };

describe('read commands on a real context (kube-reconcile serve)', () => {
  let served: ServedCluster;
  let viewed: ViewedCluster;
  let ui: FakeUi;
  let session: LiveSession;
  let writesBefore: number;
  let sandbox: FakeConnection;
  const run = (id: string, ref: ObjectRef) =>
    session.readCommand(
      id,
      () => ref,
      () => undefined,
    )!(ref);

  before(async () => {
    served = await serveCluster();
    served.cluster.apply(parseYaml(WEB) as KubeObject);
    served.cluster.runUntilSettled();
    sandbox = new FakeConnection();
    // The worker's handler, the request cloned as it is between threads (test/client/worker/livePlan.test.ts sends it
    // to a real worker thread).
    sandbox.replies.planLive = (p) => planLive(structuredClone(p));
    viewed = new ViewedCluster(sandbox, () => served.cluster.clock.now());
    ui = new FakeUi();
    session = new LiveSession({ ui, viewed, protectedContexts: () => '', batchMs: 0 });
    writesBefore = served.writes().length;
    assert.ok(await session.show(await loadKubeconfig({ file: served.kubeconfig }), 'kube-reconcile'));
  });
  after(async () => {
    session.stop();
    await served.close();
  });

  test('every read command has a real-cluster version; others have none', () => {
    for (const id of LIVE_READ_COMMANDS)
      assert.ok(
        session.readCommand(
          id,
          () => undefined,
          () => undefined,
        ),
        id,
      );
    assert.equal(
      session.readCommand(
        'kubeReconcile.killPod',
        () => undefined,
        () => undefined,
      ),
      undefined,
    );
  });

  test('events are searched as kubectl describe searches them: kind, name, namespace and uid', () => {
    const web = viewed.cache.get('deployments', 'default', 'web')!;
    assert.equal(
      eventFieldSelector(web),
      `involvedObject.name=web,involvedObject.namespace=default,involvedObject.kind=Deployment,involvedObject.uid=${web.metadata.uid}`,
    );
    const node = viewed.cache.list('nodes')[0]!;
    assert.doesNotMatch(eventFieldSelector(node), /namespace/);
  });

  test('Show Events: the table of the object’s events, then new ones as the watch brings them', async () => {
    await run('kubeReconcile.showEvents', WEB_REF);
    const doc = ui.streams.at(-1)!;
    assert.equal(doc.name, 'Events deployment/web (kube-reconcile)');
    const [header, columns, first] = doc.text.split('\n');
    assert.equal(
      header,
      '# kubectl get events --field-selector involvedObject.name=web -n default --context kube-reconcile --watch',
    );
    assert.match(columns!, /^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE/);
    assert.match(first!, /Normal\s+ScalingReplicaSet\s+deployment\/web\s+Scaled up replica set web-\w+ from 0 to 2/);
    // kubectl scale deployment web --replicas=3: the controller records another event, which the watch brings
    served.cluster.scale('deployments', 'default', 'web', 3);
    served.cluster.runUntilSettled();
    await eventually(() => /to 3/.test(doc.text), 'the scale event in the document');
    const added = doc.text.split('\n').filter((l) => /to 3/.test(l));
    assert.equal(added.length, 1);
    assert.doesNotMatch(doc.text.split('\n').slice(3).join('\n'), /^LAST SEEN/m, 'no second header');
    doc.close();
  });

  test('Describe: the sandbox’s kubectl describe printer on the live Deployment, with its events', async () => {
    await run('kubeReconcile.describe', WEB_REF);
    const { name, text } = ui.texts.at(-1)!;
    assert.equal(name, 'Describe deployment/web (kube-reconcile)');
    assert.match(text, /^# kubectl describe deployment web -n default --context kube-reconcile\nName:\s+web\n/);
    assert.match(text, /Replicas:\s+3 desired \| 3 updated \| 3 total/);
    assert.match(text, /NewReplicaSet:\s+web-\w+ \(3\/3 replicas created\)/);
    assert.match(text, /Events:[\s\S]*ScalingReplicaSet/);
  });

  test('Describe a node: its pods are listed from the API by spec.nodeName, in every namespace', async () => {
    const pod = viewed.cache.list('pods', 'default').find((p) => p.metadata.name!.startsWith('web-'))!;
    const nodeName = (pod.spec as { nodeName: string }).nodeName;
    await run('kubeReconcile.describe', { resource: 'nodes', name: nodeName });
    const { text } = ui.texts.at(-1)!;
    assert.match(text, new RegExp(`Name:\\s+${nodeName}`));
    assert.match(text, new RegExp(`default\\s+${pod.metadata.name}`));
    assert.ok(served.requests.some((l) => l.startsWith('GET /api/v1/pods?') && l.includes('spec.nodeName')));
  });

  test('Show Logs follows the pod log API; closing the document ends the stream', async () => {
    const pod = viewed.cache.list('pods', 'default').find((p) => p.metadata.name!.startsWith('web-'))!;
    const name = pod.metadata.name!;
    const expected = served.cluster.podLogs('default', name, { container: 'nginx' });
    assert.ok(expected.length > 0, 'the container printed something');
    await run('kubeReconcile.showLogs', { resource: 'pods', namespace: 'default', name });
    const doc = ui.streams.at(-1)!;
    assert.equal(doc.name, `Logs pod/${name} (kube-reconcile)`);
    await eventually(() => doc.text.includes(expected), 'the log so far');
    assert.equal(doc.text, `# kubectl logs -f pod/${name} -n default --context kube-reconcile\n${expected}`);
    doc.close();
  });

  test('Show Logs of a workload: every pod, each line prefixed as kubectl --prefix does', async () => {
    await run('kubeReconcile.showLogs', WEB_REF);
    const doc = ui.streams.at(-1)!;
    assert.match(doc.text, /^# kubectl logs -f --all-containers --prefix deployment\/web -n default/);
    const pods = viewed.cache.list('pods', 'default').filter((p) => p.metadata.name!.startsWith('web-'));
    assert.equal(pods.length, 3);
    await eventually(
      () => pods.every((p) => doc.text.includes(`[pod/${p.metadata.name}/nginx] `)),
      'a prefixed line of each pod',
    );
    doc.close();
  });

  test('Show Previous Logs of a container that never restarted: the server’s message in its place', async () => {
    const pod = viewed.cache.list('pods', 'default').find((p) => p.metadata.name!.startsWith('web-'))!;
    await run('kubeReconcile.showPreviousLogs', { resource: 'pods', namespace: 'default', name: pod.metadata.name! });
    const doc = ui.streams.at(-1)!;
    await eventually(() => doc.text.split('\n').length > 2, 'the error line');
    assert.match(
      doc.text.split('\n')[1]!,
      /^# Error from server \(BadRequest\): previous terminated container "nginx"/,
    );
    doc.close();
  });

  test('Desired vs Actual’s events: listed and watched into the view’s cache while the panel is open', async () => {
    const stop = session.watchEvents(WEB_REF);
    try {
      await eventually(
        () => eventRows(viewed.cache, 'Deployment', 'default', 'web', Date.now()).length >= 2,
        'the events in the cache',
      );
      served.cluster.scale('deployments', 'default', 'web', 2);
      served.cluster.runUntilSettled();
      await eventually(
        () =>
          eventRows(viewed.cache, 'Deployment', 'default', 'web', Date.now()).some((r) =>
            /from 3 to 2/.test(r.message),
          ),
        'the scale-down event',
      );
    } finally {
      stop();
    }
  });

  test('Copy as YAML copies the live object', async () => {
    await run('kubeReconcile.copyAsYaml', WEB_REF);
    const yaml = parseYaml(ui.copied.at(-1)!) as KubeObject;
    assert.equal(yaml.metadata.name, 'web');
    assert.equal(ui.shown.at(-1), 'notify: Copied deployment/web of context "kube-reconcile" as YAML');
  });

  test('Plan Against Cluster: plan --kubeconfig’s engine on a snapshot of the context, as a read-only document', async () => {
    const big = [
      'apiVersion: v1',
      'kind: Pod',
      'metadata: {name: huge, namespace: default}',
      'spec:',
      '  containers:',
      '    - name: app',
      '      image: nginx:1.27',
      '      resources: {requests: {cpu: "500"}}',
      '',
    ].join('\n');
    const plan = await planAgainstCluster(session, ui, viewed.context, big, 'huge.yaml');
    const { name, text } = ui.texts.at(-1)!;
    assert.equal(name, 'Plan huge.yaml against kube-reconcile');
    assert.ok(text.startsWith('# kube-reconcile plan --context kube-reconcile huge.yaml (nothing was written'));
    assert.match(text, /\nPlanned on a snapshot of context "kube-reconcile" \(https:\/\/127\.0\.0\.1:\d+\): .*2 Nodes/);
    assert.match(text, /\nNothing was written to the cluster\. The snapshot could not see:\n/);
    assert.match(text, /Insufficient cpu/);
    assert.match(plan!, /\nPlan: 1 created; 1 pod would stay Pending\.\n$/);
    assert.equal(served.cluster.api.tryGet('pods', 'default', 'huge'), undefined, 'not created on the cluster');
    // planned by the sandbox worker: the text and the live snapshot went to it, once
    const sent = sandbox.sent.filter((s) => s.method === 'planLive');
    assert.equal(sent.length, 1);
    assert.deepEqual(Object.keys(sent[0]!.params as object).sort(), ['nodes', 'snapshot', 'source', 'text']);
    assert.equal(await planAgainstCluster(session, ui, viewed.context, 'kind: [', 'bad.yaml'), undefined);
    assert.match(ui.shown.at(-1)!, /^error: bad\.yaml has errors \(line 1: .*\): nothing was planned\.$/);
    assert.equal(
      sandbox.sent.filter((s) => s.method === 'planLive').length,
      1,
      'a YAML error is not sent to the worker',
    );
    // the worker's error (here: the sandbox shut down under the plan) is the command's, in its words; progress ends
    sandbox.replies.planLive = () => {
      throw new SandboxRequestError('the sandbox has been shut down', 'planLive');
    };
    assert.equal(await planAgainstCluster(session, ui, viewed.context, big, 'huge.yaml'), undefined);
    assert.deepEqual(ui.shown.slice(-2), [
      'error: Plan against context "kube-reconcile" failed: the sandbox has been shut down',
      'progress Planning huge.yaml against context "kube-reconcile"…: done',
    ]);
    sandbox.replies.planLive = (p) => planLive(structuredClone(p));
  });

  test('none of it sent a write request, and no credential was shown', () => {
    assert.deepEqual(served.writes().slice(writesBefore), []);
    const everything = [...ui.shown, ...ui.texts.map((t) => t.text), ...ui.streams.map((s) => s.text)].join('\n');
    assert.ok(!everything.includes(SERVED_TOKEN));
  });
});

describe('the namespace picker', () => {
  let served: ServedCluster;
  before(async () => {
    served = await serveCluster();
    for (const ns of ['team-a', 'team-b'])
      served.cluster.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    served.cluster.apply(parseYaml(WEB) as KubeObject);
    served.cluster.apply({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'a-settings', namespace: 'team-a' },
    });
    served.cluster.runUntilSettled();
  });
  after(() => served.close());

  test('after the context: all namespaces or some, from the live list; remembered per context; only those watched', async () => {
    const viewed = new ViewedCluster(new FakeConnection(), () => 0);
    const ui = new FakeUi();
    const memory = new Map<string, readonly string[]>();
    const session = new LiveSession({
      ui,
      viewed,
      kubeconfig: () => ({ file: served.kubeconfig }),
      protectedContexts: () => '',
      batchMs: 0,
      namespaces: { get: (c) => memory.get(c), set: (c, ns) => void memory.set(c, ns) },
    });
    try {
      ui.answers = ['$(cloud) kube-reconcile', ['team-a']];
      await session.connect();
      assert.match(ui.shown[1]!, /^pickMany: Watch which namespaces of "kube-reconcile"\?/);
      assert.ok(
        ui.shown[1]!.endsWith(
          '[[x] $(globe) All namespaces, default, kube-node-lease, kube-public, kube-system, team-a, team-b]',
        ),
        ui.shown[1],
      );
      assert.deepEqual(memory.get('kube-reconcile'), ['team-a']);
      assert.equal(viewed.context, 'kube-reconcile');
      assert.ok(viewed.cache.get('configmaps', 'team-a', 'a-settings'));
      assert.equal(viewed.cache.list('deployments').length, 0, 'default is not watched');
      assert.equal(viewed.cache.list('namespaces').length, 6, 'namespaces stay cluster-wide');
      assert.ok(ui.shown.includes('progress: Listing context "kube-reconcile" (namespaces team-a)…'));

      // connect again: the last choice is selected; All namespaces widens it
      ui.answers = ['$(cloud) kube-reconcile', [ALL_NAMESPACES_LABEL, 'team-a']];
      const shownBefore = ui.shown.length;
      await session.connect();
      assert.ok(ui.shown[shownBefore + 1]!.endsWith(', kube-system, [x] team-a, team-b]'), ui.shown[shownBefore + 1]);
      assert.ok(ui.shown[shownBefore + 1]!.includes('[$(globe) All namespaces, default,'), 'all is not selected');
      assert.deepEqual(memory.get('kube-reconcile'), []);
      assert.ok(viewed.cache.get('deployments', 'default', 'web'));

      // cancelled: nothing changes
      ui.answers = ['$(cloud) kube-reconcile', undefined];
      await session.connect();
      assert.deepEqual(memory.get('kube-reconcile'), []);
      assert.ok(viewed.cache.get('deployments', 'default', 'web'));
      assert.deepEqual(served.writes(), []);
    } finally {
      session.stop();
    }
  });
});
