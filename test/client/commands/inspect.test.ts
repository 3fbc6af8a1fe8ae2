/** Show Logs, Describe, the tree's filters and the Delete key, with a scripted sandbox and editor. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { COMMANDS } from '../../../client/src/commands/table';
import type { TreeControl } from '../../../client/src/commands/context';
import { podsOf, prefixLines } from '../../../client/src/commands/inspectCommands';
import { DEFAULT_TREE_OPTIONS } from '../../../client/src/model/treeOptions';
import type { TreeOptions } from '../../../client/src/model/treeOptions';
import type { ObjectRef } from '../../../client/src/sandbox/protocol';
import { webCluster } from '../model/fixtures';
import { FakeConnection, FakeUi, contextOf } from './fakes';

const DEPLOYMENT = { ref: { resource: 'deployments', namespace: 'default', name: 'web' } };

function tree(selected?: ObjectRef): TreeControl & { set: TreeOptions[] } {
  let options: TreeOptions = { ...DEFAULT_TREE_OPTIONS };
  const set: TreeOptions[] = [];
  return {
    set,
    options: () => options,
    setOptions: async (o) => {
      set.push(o);
      options = o;
    },
    selected: () => selected,
  };
}

function run(id: string, connection: FakeConnection, ui: FakeUi, t?: TreeControl, ...args: unknown[]): Promise<void> {
  return COMMANDS[id]({ ...contextOf(connection, ui), tree: t })(...args);
}

describe('Show Logs', () => {
  test("a Deployment's logs are every container of every pod it runs, each line prefixed, followed until closed", async () => {
    const connection = new FakeConnection(webCluster());
    let next = 10;
    connection.replies.podLogs = (p) => {
      if (p.name === 'web-7d9f-b')
        throw new Error('container "app" in pod "web-7d9f-b" is waiting to start: ContainerCreating');
      return { text: `${p.name} started\npartial`, stream: next++ };
    };
    connection.replies.stopPodLogs = () => ({});
    const ui = new FakeUi();
    await run('kubeReconcile.showLogs', connection, ui, undefined, DEPLOYMENT);
    assert.deepEqual(
      connection.sent.map((s) => s.params),
      ['web-7d9f-a', 'web-7d9f-b', 'web-7d9f-c'].map((name) => ({
        namespace: 'default',
        name,
        container: 'app',
        follow: true,
      })),
    );
    connection.firePodLog({ kind: 'podLog', stream: 10, text: ' line\nnext\n' });
    connection.firePodLog({ kind: 'podLog', stream: 11, end: 'the container stopped' });
    connection.firePodLog({ kind: 'podLog', stream: 99, text: 'not ours\n' });
    const [stream] = ui.streams;
    assert.equal(stream.name, 'Logs deployment/web');
    assert.equal(
      stream.text,
      [
        '# kubectl logs -f --all-containers --prefix deployment/web -n default',
        '[pod/web-7d9f-a/app] web-7d9f-a started',
        '# [pod/web-7d9f-b/app] container "app" in pod "web-7d9f-b" is waiting to start: ContainerCreating',
        '[pod/web-7d9f-c/app] web-7d9f-c started',
        '[pod/web-7d9f-a/app] partial line',
        '[pod/web-7d9f-a/app] next',
        '# [pod/web-7d9f-c/app] stream ended: the container stopped',
        '',
      ].join('\n'),
    );
    stream.close();
    assert.deepEqual(
      connection.sent.slice(3).map((s) => [s.method, s.params]),
      [
        ['stopPodLogs', { stream: 10 }],
        ['stopPodLogs', { stream: 11 }],
      ],
    );
  });

  test("a pod's previous logs: one container, no prefix, not followed", async () => {
    const connection = new FakeConnection(webCluster());
    connection.replies.podLogs = () => ({ text: 'crashed\n' });
    const ui = new FakeUi();
    await run('kubeReconcile.showPreviousLogs', connection, ui, undefined, {
      ref: { resource: 'pods', namespace: 'default', name: 'web-7d9f-c' },
    });
    assert.deepEqual(connection.sent[0].params, {
      namespace: 'default',
      name: 'web-7d9f-c',
      container: 'app',
      previous: true,
    });
    assert.equal(ui.streams[0].text, '# kubectl logs --previous pod/web-7d9f-c -n default\ncrashed\n');
  });

  test('podsOf follows Deployment → ReplicaSets → Pods; prefixLines keeps a partial line for the next chunk', () => {
    const cache = webCluster();
    assert.deepEqual(
      podsOf(cache, DEPLOYMENT.ref).map((p) => p.metadata.name),
      ['web-7d9f-a', 'web-7d9f-b', 'web-7d9f-c'],
    );
    assert.deepEqual(podsOf(cache, { resource: 'cronjobs', namespace: 'default', name: 'tick' }), []);
    const carry = { partial: '' };
    assert.equal(prefixLines('a\nb', '[x] ', carry), '[x] a\n');
    assert.equal(prefixLines('c\n', '[x] ', carry), '[x] bc\n');
    assert.equal(prefixLines('as is', undefined, carry), 'as is');
  });
});

describe('Describe', () => {
  test('opens kubectl describe of the object from the cache; other kinds say what to use instead', async () => {
    const connection = new FakeConnection(webCluster());
    const ui = new FakeUi();
    await run('kubeReconcile.describe', connection, ui, undefined, DEPLOYMENT);
    assert.equal(ui.texts[0].name, 'Describe deployment/web');
    assert.match(ui.texts[0].text, /^# kubectl describe deployment web -n default\nName: +web\nNamespace: +default\n/);
    await run('kubeReconcile.describe', connection, ui, undefined, {
      ref: { resource: 'cronjobs', namespace: 'default', name: 'tick' },
    });
    assert.deepEqual(ui.shown, [
      'info: Describe shows pods, deployments, replicasets, statefulsets, daemonsets, horizontalpodautoscalers, nodes, services; for cronjob/tick use Show Desired vs Actual or Copy as YAML.',
    ]);
  });
});

describe('keyboard: commands act on the selected row', () => {
  test('Delete kills a selected pod and asks before deleting a selected Deployment; d describes the selection', async () => {
    const connection = new FakeConnection(webCluster());
    connection.replies.action = () => ({ message: 'done' });
    const ui = new FakeUi();
    ui.answers = [false];
    await run(
      'kubeReconcile.deleteSelected',
      connection,
      ui,
      tree({ resource: 'pods', namespace: 'default', name: 'web-7d9f-a' }),
    );
    await run('kubeReconcile.deleteSelected', connection, ui, tree(DEPLOYMENT.ref));
    await run('kubeReconcile.describe', connection, ui, tree({ resource: 'nodes', name: 'node-1' }));
    await run('kubeReconcile.deleteSelected', connection, ui, tree(undefined));
    assert.deepEqual(
      connection.sent.map((s) => s.params),
      [{ type: 'killPod', namespace: 'default', name: 'web-7d9f-a' }],
    );
    assert.deepEqual(ui.shown, [
      'notify: done',
      'confirm: Delete deployment/web in namespace default? [Delete]',
      'error: Delete: right-click a pod or a deployment or a replicaset or a statefulset or a daemonset or a job or a cronjob or a service or a configmap or a secret in the Cluster view.',
    ]);
    assert.match(ui.texts[0].text, /^# kubectl describe node node-1\nName: +node-1\n/);
  });
});

describe('tree filters', () => {
  test('each command changes one option; Show Everything clears the filters; a namespace is picked', async () => {
    const connection = new FakeConnection(webCluster());
    const ui = new FakeUi();
    const t = tree();
    await run('kubeReconcile.filterUnhealthy', connection, ui, t);
    await run('kubeReconcile.groupByNode', connection, ui, t);
    await run('kubeReconcile.showEmptyReplicaSets', connection, ui, t);
    ui.answers = ['empty'];
    await run('kubeReconcile.filterNamespace', connection, ui, t);
    await run('kubeReconcile.filterShowAll', connection, ui, t);
    assert.deepEqual(t.set.at(-2), {
      groupBy: 'node',
      unhealthyOnly: true,
      hideEmptyReplicaSets: false,
      namespace: 'empty',
    });
    assert.deepEqual(t.set.at(-1), { groupBy: 'node', unhealthyOnly: false, hideEmptyReplicaSets: false });
    assert.deepEqual(ui.shown, ['pick: Show one namespace in the Cluster view [All namespaces, default, empty]']);
  });
});
