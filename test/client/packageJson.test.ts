import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMANDS } from '../../client/src/commands/table';
import { NAMESPACED_KINDS, NAMESPACE_KIND, NODE_KIND } from '../../client/src/model/kinds';
import { APPLY_ON, APPLY_ON_STARTUP, DEFAULT_SETTINGS, SETTING_KEYS, SPEEDS } from '../../client/src/model/settings';
import { DEFAULT_DESIRED_STATE } from '../../client/src/model/desiredSelection';
import { KUBERNETES_VERSIONS } from '../../sandbox/schema/versions';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface MenuEntry {
  command: string;
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
    walkthroughs: { id: string; steps: { id: string; media: { markdown?: string }; completionEvents?: string[] }[] }[];
  };
}

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;
/**
 * Commands that client/src/apply/registerApply.ts registers itself (it imports vscode, so its constants are read from
 * the source).
 */
const APPLY_COMMANDS = [
  ...readFileSync(join(root, 'client/src/apply/registerApply.ts'), 'utf8').matchAll(
    /export const \w+_COMMAND = '([\w.]+)'/g,
  ),
].map((m) => m[1]);
const contributed = pkg.contributes.commands.map((c) => c.command);
const CONTEXT_VALUES = new Set([
  'group',
  NODE_KIND.contextValue,
  NAMESPACE_KIND.contextValue,
  ...NAMESPACED_KINDS.map((k) => k.contextValue),
]);

/** The `viewItem` values a `when` clause can match: `viewItem == x` or `viewItem =~ /^(a|b)$/`. */
function viewItems(when: string): string[] {
  const eq = [...when.matchAll(/viewItem == (\w+)/g)].map((m) => m[1]);
  const re = [...when.matchAll(/viewItem =~ \/\^\(([\w|]+)\)\$\//g)].flatMap((m) => m[1].split('|'));
  return [...eq, ...re];
}

describe('package.json contributions', () => {
  test('every contributed command has a factory in the table (or is an apply command), and every factory is contributed', () => {
    assert.deepEqual(APPLY_COMMANDS, ['kubeReconcile.applyFile', 'kubeReconcile.applyWorkspace']);
    assert.deepEqual([...contributed].sort(), [...Object.keys(COMMANDS), ...APPLY_COMMANDS].sort());
    for (const c of pkg.contributes.commands) assert.equal(c.category, 'Kube Reconcile', c.command);
  });

  test('menus name contributed commands and match context values the tree sets', () => {
    for (const [menu, entries] of Object.entries(pkg.contributes.menus)) {
      for (const e of entries) {
        assert.ok(contributed.includes(e.command), `${menu}: ${e.command}`);
        for (const v of viewItems(e.when ?? ''))
          assert.ok(CONTEXT_VALUES.has(v), `${menu}: ${e.command} matches unknown viewItem ${v}`);
      }
    }
    const itemMenu = pkg.contributes.menus['view/item/context'];
    const forItem = (v: string) =>
      itemMenu
        .filter((e) => viewItems(e.when!).includes(v) || e.when!.includes('viewItem != group'))
        .map((e) => e.command);
    assert.deepEqual(
      new Set(forItem('pod')),
      new Set([
        'kubeReconcile.killPod',
        'kubeReconcile.crashContainer',
        'kubeReconcile.showDesiredVsActual',
        'kubeReconcile.showEvents',
        'kubeReconcile.copyAsYaml',
      ]),
    );
    assert.deepEqual(
      new Set(forItem('node')),
      new Set([
        'kubeReconcile.failNode',
        'kubeReconcile.recoverNode',
        'kubeReconcile.cordon',
        'kubeReconcile.uncordon',
        'kubeReconcile.drain',
        'kubeReconcile.showDesiredVsActual',
        'kubeReconcile.showEvents',
        'kubeReconcile.copyAsYaml',
      ]),
    );
    assert.deepEqual(
      new Set(forItem('deployment')),
      new Set([
        'kubeReconcile.scale',
        'kubeReconcile.restartRollout',
        'kubeReconcile.rollBack',
        'kubeReconcile.delete',
        'kubeReconcile.showDesiredVsActual',
        'kubeReconcile.showEvents',
        'kubeReconcile.copyAsYaml',
        'kubeReconcile.sync',
        'kubeReconcile.revertLive',
        'kubeReconcile.updateManifestFromLive',
      ]),
    );
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
      assert.ok(existsSync(join(root, step.media.markdown!)), step.media.markdown);
      for (const event of step.completionEvents ?? []) {
        const [kind, arg] = event.split(':');
        if (kind === 'onCommand') assert.ok(contributed.includes(arg), event);
        else assert.equal(event, 'onView:kubeReconcile.cluster');
      }
    }
  });
});
