import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMANDS } from '../../client/src/commands/table';
import { NAMESPACED_KINDS } from '../../client/src/model/kinds';
import { nodeContextValue, podContextValue } from '../../client/src/model/liveState';
import { APPLY_ON, APPLY_ON_STARTUP, DEFAULT_SETTINGS, SETTING_KEYS, SPEEDS } from '../../client/src/model/settings';
import { DEFAULT_DESIRED_STATE } from '../../client/src/model/desiredSelection';
import { CREATED, node as fixtureNode, pod } from './model/fixtures';

function liveNode(state: 'ready' | 'cordoned' | 'notready') {
  return fixtureNode('node-1', state !== 'notready', state === 'cordoned');
}
import { KUBERNETES_VERSIONS } from '../../sandbox/schema/versions';
import { DEFAULT_SETTINGS as SERVER_DEFAULTS } from '../../server/src/settings';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface MenuEntry {
  command: string;
  submenu?: string;
  when?: string;
  group?: string;
}

interface Manifest {
  icon: string;
  activationEvents: string[];
  contributes: {
    commands: { command: string; title: string; category?: string; icon?: string }[];
    menus: Record<string, MenuEntry[]>;
    views: Record<string, { id: string; icon?: string }[]>;
    viewsContainers: { activitybar: { id: string; title: string; icon: string }[] };
    configuration: { properties: Record<string, { default?: unknown; enum?: unknown[] }> };
    walkthroughs: {
      id: string;
      steps: { id: string; title: string; media: { markdown?: string }; completionEvents?: string[] }[];
    }[];
    keybindings: { command: string; key: string; when: string }[];
  };
}

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;
/**
 * Commands that client/src/apply/registerApply.ts and client/src/live/registerLive.ts register themselves (they
 * import vscode, so their constants are read from the source).
 */
const APPLY_COMMANDS = [
  'client/src/apply/registerApply.ts',
  'client/src/live/registerLive.ts',
  'client/src/foresight/registerForesight.ts',
].flatMap((file) =>
  [...readFileSync(join(root, file), 'utf8').matchAll(/export const \w+_COMMAND = '([\w.]+)'/g)].map((m) => m[1]),
);
const contributed = pkg.contributes.commands.map((c) => c.command);
/**
 * Evaluates a `when` clause of the forms package.json uses (`a && b`, `a || b`, `!key`, `key`, `key == value`,
 * `key != value`, `key =~ /regex/`) against context values, as VS Code does.
 */
function when(clause: string | undefined, context: Record<string, string | boolean | undefined>): boolean {
  if (clause === undefined) return true;
  return clause.split(' || ').some((any) =>
    any.split(' && ').every((term) => {
      const t = term.trim();
      const re = /^([\w.]+) =~ \/(.+)\/$/.exec(t);
      if (re) return new RegExp(re[2]).test(String(context[re[1]] ?? ''));
      const cmp = /^([\w.]+) (==|!=) ([\w.]+)$/.exec(t);
      if (cmp) return (String(context[cmp[1]] ?? '') === cmp[3]) === (cmp[2] === '==');
      if (t.startsWith('!')) return !context[t.slice(1)];
      if (t === 'false') return false;
      return Boolean(context[t]);
    }),
  );
}

/** The context menu of a Cluster view row whose `contextValue` is `viewItem`. */
function menuFor(viewItem: string, live = false): string[] {
  const ctx = { view: 'kubeReconcile.cluster', viewItem, 'kubeReconcile.liveContext': live };
  return pkg.contributes.menus['view/item/context']
    .filter((e) => !e.group?.startsWith('inline') && when(e.when, ctx))
    .map((e) => e.command.replace('kubeReconcile.', ''));
}

describe('package.json contributions', () => {
  test('every contributed command has a factory in the table (or is an apply command), and every factory is contributed', () => {
    assert.deepEqual(APPLY_COMMANDS, [
      'kubeReconcile.applyFile',
      'kubeReconcile.applyWorkspace',
      'kubeReconcile.connectToCluster',
      'kubeReconcile.applyToCluster',
      'kubeReconcile.planAgainstCluster',
      'kubeReconcile.showSandbox',
      'kubeReconcile.showPlan',
    ]);
    assert.deepEqual([...contributed].sort(), [...Object.keys(COMMANDS), ...APPLY_COMMANDS].sort());
    for (const c of pkg.contributes.commands) assert.equal(c.category, 'Kube Reconcile', c.command);
  });

  test('while a real cluster is shown, rows and the title bar offer no sandbox action', () => {
    assert.ok(menuFor('pod.running').includes('killPod'));
    // the read-only commands stay: they read the real context (client/src/live/liveInspect.ts)
    assert.deepEqual(menuFor('pod.running', true), [
      'showLogs',
      'showPreviousLogs',
      'describe',
      'showDesiredVsActual',
      'showEvents',
      'copyAsYaml',
    ]);
    assert.deepEqual(menuFor('deployment', true), [
      'showLogs',
      'describe',
      'showDesiredVsActual',
      'showEvents',
      'copyAsYaml',
    ]);
    const title = (live: boolean) =>
      pkg.contributes.menus['view/title']
        .filter((e) => e.command && when(e.when, { view: 'kubeReconcile.cluster', 'kubeReconcile.liveContext': live }))
        .map((e) => e.command.replace('kubeReconcile.', ''));
    assert.ok(title(false).includes('pause'));
    assert.ok(!title(true).some((c) => ['pause', 'resume', 'step', 'fastForward', 'sandboxControls'].includes(c)));
    assert.ok(title(true).includes('connectToCluster'));
  });

  test('menus name contributed commands', () => {
    for (const [menu, entries] of Object.entries(pkg.contributes.menus))
      for (const e of entries) if (e.command) assert.ok(contributed.includes(e.command), `${menu}: ${e.command}`);
  });

  test('a node offers what its state allows: Cordon or Uncordon, Fail Node or Recover Node', () => {
    const inspect = ['showDesiredVsActual', 'showEvents', 'copyAsYaml'];
    const node = (state: Parameters<typeof liveNode>[0], failed = false) =>
      menuFor(nodeContextValue(liveNode(state), failed ? { name: 'node-1', notReadyAt: 0 } : undefined));
    assert.deepEqual(node('ready'), ['failNode', 'cordon', 'drain', 'describe', ...inspect]);
    assert.deepEqual(node('cordoned'), ['failNode', 'uncordon', 'drain', 'describe', ...inspect]);
    assert.deepEqual(node('ready', true), ['recoverNode', 'cordon', 'drain', 'describe', ...inspect]);
    assert.deepEqual(node('notready', true), ['recoverNode', 'cordon', 'drain', 'describe', ...inspect]);
  });

  test('a pod offers Crash Container only while running, and nothing but inspection once terminating', () => {
    const inspect = ['showDesiredVsActual', 'showEvents', 'copyAsYaml'];
    const logs = ['showLogs', 'showPreviousLogs', 'describe'];
    const running = pod('web-1', 'running', 'node-1');
    assert.deepEqual(menuFor(podContextValue(running)), ['killPod', 'crashContainer', ...logs, ...inspect]);
    assert.deepEqual(menuFor(podContextValue(pod('web-2', 'pending', undefined))), ['killPod', ...logs, ...inspect]);
    const terminating = { ...running, metadata: { ...running.metadata, deletionTimestamp: CREATED } };
    assert.deepEqual(menuFor(podContextValue(terminating)), [...logs, ...inspect]);
  });

  test('workloads, services and namespaces get their actions; folders get none', () => {
    const inspect = ['showDesiredVsActual', 'showEvents', 'copyAsYaml'];
    const sync = ['sync', 'revertLive', 'updateManifestFromLive'];
    assert.deepEqual(menuFor('deployment'), [
      'scale',
      'restartRollout',
      'rollBack',
      'setLoad',
      'showLogs',
      'describe',
      ...inspect,
      ...sync,
      'delete',
    ]);
    assert.deepEqual(menuFor('service'), ['describe', ...inspect, ...sync, 'delete']);
    // kubectl describe prints StatefulSets and DaemonSets too (describeStatefulSet, describeDaemonSet).
    for (const k of ['statefulset', 'daemonset']) assert.ok(menuFor(k).includes('describe'), k);
    assert.deepEqual(menuFor('namespace'), inspect);
    assert.deepEqual(menuFor('group'), []);
    for (const k of NAMESPACED_KINDS.filter((k) => k.resource !== 'pods'))
      assert.ok(menuFor(k.contextValue).includes('showDesiredVsActual'), k.contextValue);
  });

  test('the Filter menu offers the option not in force', () => {
    const filter = (ctx: Record<string, boolean>) =>
      pkg.contributes.menus['kubeReconcile.treeFilter']
        .filter((e) => when(e.when, ctx))
        .map((e) => e.command.replace('kubeReconcile.', ''));
    assert.deepEqual(filter({ 'kubeReconcile.tree.hideEmptyReplicaSets': true }), [
      'filterUnhealthy',
      'filterNamespace',
      'showEmptyReplicaSets',
      'groupByNode',
    ]);
    assert.deepEqual(filter({ 'kubeReconcile.tree.unhealthyOnly': true, 'kubeReconcile.tree.groupByNode': true }), [
      'filterShowAll',
      'filterNamespace',
      'hideEmptyReplicaSets',
      'groupByNamespace',
    ]);
  });

  test('keybindings act on the Cluster view only, never while typing', () => {
    const keys = pkg.contributes.keybindings;
    assert.deepEqual(
      keys.map((k) => [k.key, k.command.replace('kubeReconcile.', '')]),
      [
        ['delete', 'deleteSelected'],
        ['ctrl+backspace', 'deleteSelected'],
        ['l', 'showLogs'],
        ['shift+l', 'showPreviousLogs'],
        ['d', 'describe'],
        ['s', 'scale'],
        ['e', 'showEvents'],
        ['v', 'showDesiredVsActual'],
        ['enter', 'revealManifest'],
      ],
    );
    for (const k of keys) {
      assert.ok(contributed.includes(k.command), k.command);
      assert.ok(k.when.startsWith('focusedView == kubeReconcile.cluster && !inputFocus'), k.when);
    }
  });

  test('commands that need a tree item are hidden from the command palette', () => {
    const hidden = pkg.contributes.menus.commandPalette.filter((e) => e.when === 'false').map((e) => e.command);
    const itemOnly = pkg.contributes.menus['view/item/context'].map((e) => e.command);
    for (const c of itemOnly) assert.ok(hidden.includes(c), c);
  });

  test('the view container, view, icons and activation events are in place', () => {
    assert.deepEqual(
      pkg.contributes.viewsContainers.activitybar.map((c) => [c.id, c.title]),
      [['kubeReconcile', 'Kube Reconcile']],
    );
    assert.deepEqual(
      pkg.contributes.views.kubeReconcile.map((v) => v.id),
      ['kubeReconcile.cluster'],
    );
    for (const file of [pkg.icon, pkg.contributes.viewsContainers.activitybar[0].icon])
      assert.ok(existsSync(join(root, file)), file);
    assert.deepEqual(
      [...readFileSync(join(root, pkg.icon)).subarray(16, 24)],
      [0, 0, 0, 128, 0, 0, 0, 128],
      'icon is 128×128',
    );
    for (const e of ['onLanguage:yaml', 'onView:kubeReconcile.cluster', 'workspaceContains:**/*.{yaml,yml}'])
      assert.ok(pkg.activationEvents.includes(e), e);
    for (const c of contributed) assert.ok(pkg.activationEvents.includes(`onCommand:${c}`), c);
  });

  test('settings defaults and choices agree with the code that reads them', () => {
    const props = pkg.contributes.configuration.properties;
    const defaults = Object.fromEntries(SETTING_KEYS.map((k) => [k, props[`kubeReconcile.${k}`]?.default]));
    assert.deepEqual(defaults, {
      'sandbox.nodes': DEFAULT_SETTINGS.nodes,
      'sandbox.speed': DEFAULT_SETTINGS.speed,
      'sandbox.seed': DEFAULT_SETTINGS.seed,
      applyOn: DEFAULT_SETTINGS.applyOn,
      // The legacy setting keeps its old default: only a `false` someone set migrates (to applyOn: never).
      applyOnSave: true,
      applyOnStartup: DEFAULT_SETTINGS.applyOnStartup,
      selfHeal: DEFAULT_SETTINGS.selfHeal,
      kubernetesVersion: DEFAULT_SETTINGS.kubernetesVersion,
    });
    assert.deepEqual(props['kubeReconcile.applyOn'].enum, APPLY_ON);
    assert.deepEqual(props['kubeReconcile.applyOnStartup'].enum, APPLY_ON_STARTUP);
    assert.deepEqual(props['kubeReconcile.desiredState.include'].default, DEFAULT_DESIRED_STATE.include);
    assert.deepEqual(props['kubeReconcile.desiredState.exclude'].default, DEFAULT_DESIRED_STATE.exclude);
    assert.deepEqual(props['kubeReconcile.kubernetesVersion'].enum, KUBERNETES_VERSIONS);
    assert.deepEqual(props['kubeReconcile.sandbox.speed'].enum, SPEEDS);
    assert.deepEqual(props['kubeReconcile.validation.include'].default, ['**/*.yaml', '**/*.yml']);
    assert.deepEqual(props['kubeReconcile.validation.exclude'].default, ['**/node_modules/**', '**/.git/**']);
    assert.equal(props['kubeReconcile.validation.enable'].default, true);
    assert.deepEqual(props['kubeReconcile.crdFolders'].default, SERVER_DEFAULTS.crdFolders);
    assert.equal(props['kubeReconcile.trace.server'].default, 'off');
  });

  test('the walkthrough steps have their markdown and complete on contributed commands or the view', () => {
    const [walkthrough] = pkg.contributes.walkthroughs;
    assert.equal(walkthrough.id, 'kubeReconcile.welcome');
    assert.deepEqual(
      walkthrough.steps.map((s) => s.id),
      ['openExample', 'applyExample', 'killPod', 'failNode', 'scaleByHand'],
    );
    for (const step of walkthrough.steps) {
      // The walkthrough's column cuts titles longer than this.
      assert.ok(step.title.length <= 32, `title fits: ${step.title}`);
      assert.ok(existsSync(join(root, step.media.markdown!)), step.media.markdown);
      for (const event of step.completionEvents ?? []) {
        const [kind, arg] = event.split(':');
        if (kind === 'onCommand') assert.ok(contributed.includes(arg), event);
        else assert.equal(event, 'onView:kubeReconcile.cluster');
      }
    }
  });

  test("the walkthrough's pictures: each one its markdown links is there, small, and none is shipped unused", () => {
    // VS Code resolves a step's markdown images against the markdown's folder; walkthrough/ is shipped whole.
    const [walkthrough] = pkg.contributes.walkthroughs;
    const linked = new Set<string>();
    for (const step of walkthrough.steps) {
      const md = step.media.markdown!;
      for (const m of readFileSync(join(root, md), 'utf8').matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)) {
        const file = posix.join(dirname(md), m[1]);
        assert.ok(existsSync(join(root, file)), `${md} links ${m[1]}, which is not there`);
        assert.match(file, /\.(webp|png)$/);
        assert.ok(statSync(join(root, file)).size < 48 * 1024, `${file} is over 48 kB`);
        linked.add(file);
      }
    }
    assert.ok(linked.size > 0, 'the walkthrough shows no picture');
    for (const f of readdirSync(join(root, 'walkthrough', 'media')))
      assert.ok(linked.has(`walkthrough/media/${f}`), `walkthrough/media/${f} is packaged but no step shows it`);
  });

  test("the README's pictures are in the repository (vsce links them there), not in the VSIX", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const pictures = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]);
    assert.ok(pictures.length > 0);
    for (const p of pictures) {
      assert.ok(existsSync(join(root, p)), `README.md shows ${p}, which is not there`);
      assert.match(
        p,
        /^media\/readme\//,
        `${p}: README pictures live in media/readme/, which .vscodeignore leaves out`,
      );
    }
  });
});
