/**
 * What every e2e test file shares besides the workbench: one session per file,
 * started by the first step that runs (so a `--test-name-pattern` that selects
 * none of a file's steps starts no VS Code for it), `step` (a screenshot after
 * each step, one named …-FAILED on failure, and an early failure when a
 * context-menu command loses its tree item), and `baseline`, the known state
 * every step starts from, so that steps never depend on one another.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ConsoleMessage } from 'playwright-core';
import { allWebPods, deploymentRow, nodeRows, runningWebPods, webYaml } from '../scenario';
import type { PodRow } from '../scenario';
import { startSession } from './session';
import type { Session } from './session';
import { interruptWaits, resumeWaits } from './wait';
import type { Workbench } from './workbench';

/** Deadline of one wait inside a step; the node:test timeout of a step is above it. */
export const WAIT_MS = 90_000;
/** A step's node:test options (the first step that runs also starts VS Code, most of a minute). */
export const STEP = { timeout: 240_000 };
/** What a tree command shows when it was invoked without a tree item (client/src/commands/objectArg.ts). */
const NO_TREE_ITEM = /: right-click .+ in the Cluster view\.$/;
export const NODES = ['node-1', 'node-2', 'node-3'];
/** A node row as every step starts with it: Ready, schedulable, kubelet running (`Ready · 2 pods`). */
export const HEALTHY_NODE = /^Ready · \d+ pods?$/;
export const READY = /^\d+\/\d+$/;

export interface SuiteOptions {
  files: Readonly<Record<string, string>>;
  settings: Readonly<Record<string, unknown>>;
  artifactsDir: string;
}

export interface Suite {
  readonly session: Session;
  readonly wb: Workbench;
  /** Starts the session now (a `step` starts it otherwise); `options` default to those given to `createSuite`. */
  start(options?: SuiteOptions): Promise<void>;
  stop(): Promise<void>;
  step(name: string, body: () => Promise<void>): Promise<void>;
  baseline(replicas: number): Promise<PodRow[]>;
}

export function createSuite(defaults?: SuiteOptions): Suite {
  let session: Session | undefined;
  let started: Promise<void> | undefined;
  const suite: Suite = {
    get session() {
      assert.ok(session, 'the session has not started');
      return session;
    },
    get wb() {
      return suite.session.workbench;
    },
    start(options = defaults) {
      started ??= (async () => {
        assert.ok(options, 'createSuite was given no session options');
        const codeServer = process.env.E2E_CODE_SERVER;
        const vsix = process.env.E2E_VSIX;
        assert.ok(codeServer && vsix, 'E2E_CODE_SERVER and E2E_VSIX are unset: run the suite with `npm run test:e2e`');
        session = await startSession({
          codeServer,
          vsix,
          ...options,
          keepTemp: process.env.E2E_KEEP_TEMP === '1',
        });
        session.workbench.timeout = WAIT_MS;
        console.log(`workbench ready in ${session.workbenchReadyMs} ms (${session.workspace})`);
      })();
      return started;
    },
    async stop() {
      await started?.catch(() => undefined);
      await session?.stop();
    },

    async step(name, body) {
      await suite.start();
      const wb = suite.wb;
      const page = wb.page;
      let onConsole: ((m: ConsoleMessage) => void) | undefined;
      const lostItem = new Promise<never>((_, reject) => {
        onConsole = (m) => {
          if (NO_TREE_ITEM.test(m.text()))
            reject(
              new Error(
                `the command reached the extension without its tree item: "${m.text()}" (VS Code drops tree-item handles while a refresh of their parent is in flight)`,
              ),
            );
        };
        page.on('console', onConsole);
      });
      const running = body();
      try {
        await Promise.race([running, lostItem]);
        await wb.screenshot(name);
      } catch (e) {
        interruptWaits(e instanceof Error ? e : new Error(String(e)));
        await running.catch(() => undefined);
        resumeWaits();
        await wb.screenshot(`${name}-FAILED`).catch(() => undefined);
        if (session && session.browser.errors.length > 0)
          console.error(`browser errors so far:\n${session.browser.errors.slice(-10).join('\n')}`);
        throw e;
      } finally {
        if (onConsole) page.off('console', onConsole);
        lostItem.catch(() => undefined);
      }
    },

    /**
     * The state a step starts from, whatever the step before it did or left half done: the workbench tidied (no
     * menu, quick input, dialog, notification or editor), the tree showing everything by namespace, the sandbox
     * running, the workspace settings file empty (`.vscode/settings.json`: no auto-save, self-heal on), web.yaml on
     * disk at `replicas` and applied, every node Ready and schedulable (a failed node is recovered, a cordoned one
     * uncordoned, from the tree), and the tree showing, down to the pods, web at `replicas`/`replicas` with that
     * many running, ready pods and no other web pod. That state is stable once reached (nothing moves the cluster
     * away from it), so seeing it in the tree means the tree is current. (Reset Sandbox is no shortcut: a fresh
     * cluster has the same pod names and the tree shows the reset node by node, so its rows cannot tell before from
     * after.) Returns the running web pods.
     */
    async baseline(replicas) {
      const wb = suite.wb;
      writeWorkspaceSettings(suite.session.workspace, {});
      // The keyboard back on the workbench (a webview or a left-over picker may hold it), then the usual tidying.
      await wb.dismissHover();
      await wb.page
        .locator('.part.sidebar .composite.title')
        .first()
        .click({ timeout: 5_000 })
        .catch(() => undefined);
      await wb.tidy();
      await wb.openViewContainer('Kube Reconcile');
      // The tree as it starts: everything shown, by namespace (a step that filtered may have failed before undoing it).
      const sidebar = await wb.page.locator('.part.sidebar').first().innerText();
      if (/Showing (only what needs attention|namespace )/.test(sidebar))
        await wb.runCommand('Kube Reconcile: Show Everything');
      const roots = (await wb.treeRows()).filter((r) => r.level === 1).map((r) => r.label);
      if (roots.length > 0 && !roots.includes('Nodes')) await wb.runCommand('Kube Reconcile: Group by Namespace');
      await wb.waitForTree('the three nodes', (rows) => (nodeRows(rows).length === NODES.length ? true : undefined));
      if (/Sandbox paused/.test(await wb.statusBarText())) await wb.runCommand('Kube Reconcile: Resume Sandbox');
      const file = join(suite.session.workspace, 'web.yaml');
      if (readFileSync(file, 'utf8') !== webYaml(replicas)) {
        writeFileSync(file, webYaml(replicas));
        await wb.runCommand('Kube Reconcile: Apply Workspace to Sandbox');
      }
      for (const node of nodeRows(await wb.treeRows())) {
        // A failed node still reads Ready for its grace period: its kubelet is stopped all the same.
        if (node.description.startsWith('NotReady') || node.description.includes('kubelet stopped'))
          await wb.contextMenu(node.label, 'Recover Node');
        if (node.description.includes('SchedulingDisabled')) await wb.contextMenu(node.label, 'Uncordon');
      }
      await wb.waitForTree(`${NODES.join(', ')} Ready and schedulable, web at ${replicas}/${replicas}`, (rows) => {
        const nodes = nodeRows(rows);
        return nodes.length === NODES.length &&
          nodes.every((n) => HEALTHY_NODE.test(n.description)) &&
          deploymentRow(rows)?.description === `${replicas}/${replicas}`
          ? true
          : undefined;
      });
      await wb.expand('web', READY);
      const replicaSet = await wb.waitForTree(
        'its ReplicaSet',
        (rows) => rows.find((r) => /^web-[a-z0-9]+$/.test(r.label) && READY.test(r.description))?.label,
      );
      await wb.expand(replicaSet);
      // A click on a row that moved can land on its neighbour and collapse it instead (the bare Pods group sits just
      // below web's pods; CI once started with it collapsed, and A3 never saw its new pod): the known state has the
      // groups of `default` open, as the tree first shows them.
      for (const r of await wb.treeRows()) if (r.level === 3 && r.expanded === false) await wb.expand(r.label);
      return wb.waitForTree(`${replicas} running, ready web pods and no other web pod`, (rows) => {
        const running = runningWebPods(rows);
        return running.length === replicas &&
          allWebPods(rows).length === replicas &&
          nodeRows(rows).every((n) => HEALTHY_NODE.test(n.description))
          ? running
          : undefined;
      });
    },
  };
  return suite;
}

/** Writes the workspace's `.vscode/settings.json` (VS Code picks the change up by itself). */
export function writeWorkspaceSettings(workspace: string, settings: Record<string, unknown>): void {
  const file = join(workspace, '.vscode', 'settings.json');
  const text = `${JSON.stringify(settings, null, 2)}\n`;
  let current: string | undefined;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === text) return;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}
