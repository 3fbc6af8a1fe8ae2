/**
 * What every e2e test file shares besides the workbench: one session per file,
 * `step` (a screenshot after each step, one named …-FAILED on failure, and an
 * early failure when a context-menu command loses its tree item), and
 * `baseline`, the known state every step starts from (see extension.test.ts,
 * whose steps follow the same rules).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConsoleMessage } from 'playwright-core';
import { allWebPods, deploymentRow, nodeRows, runningWebPods, webYaml } from '../scenario';
import type { PodRow } from '../scenario';
import { startSession } from './session';
import type { Session } from './session';
import { interruptWaits, resumeWaits } from './wait';
import type { Workbench } from './workbench';

/** Deadline of one wait inside a step; the node:test timeout of a step is above it. */
export const WAIT_MS = 90_000;
export const STEP = { timeout: 180_000 };
/** What a tree command shows when it was invoked without a tree item (client/src/commands/objectArg.ts). */
const NO_TREE_ITEM = /: right-click .+ in the Cluster view\.$/;
export const NODES = ['node-1', 'node-2', 'node-3'];
/** A node row as every step starts with it: Ready, schedulable, kubelet running (`Ready · 2 pods`). */
export const HEALTHY_NODE = /^Ready · \d+ pods?$/;
export const READY = /^\d+\/\d+$/;

export interface Suite {
  readonly session: Session;
  readonly wb: Workbench;
  start(options: {
    files: Readonly<Record<string, string>>;
    settings: Readonly<Record<string, unknown>>;
    artifactsDir: string;
  }): Promise<void>;
  stop(): Promise<void>;
  step(name: string, body: () => Promise<void>): Promise<void>;
  baseline(replicas: number): Promise<PodRow[]>;
}

/**
 * False when the run was asked for chosen steps (`--test-name-pattern`) and none of `names` is one of them: Node's
 * test runner still runs a file's `before` hook then, and starting VS Code for nothing takes a minute.
 */
export function anyWanted(names: readonly string[], execArgv: readonly string[] = process.execArgv): boolean {
  const patterns = execArgv.flatMap((a) => (a.startsWith('--test-name-pattern=') ? [a.slice(20)] : []));
  return patterns.length === 0 || names.some((n) => patterns.some((p) => new RegExp(p).test(n)));
}

export function createSuite(): Suite {
  let session: Session | undefined;
  const suite: Suite = {
    get session() {
      assert.ok(session, 'the session has not started');
      return session;
    },
    get wb() {
      return suite.session.workbench;
    },
    async start({ files, settings, artifactsDir }) {
      const codeServer = process.env.E2E_CODE_SERVER;
      const vsix = process.env.E2E_VSIX;
      assert.ok(codeServer && vsix, 'E2E_CODE_SERVER and E2E_VSIX are unset: run the suite with `npm run test:e2e`');
      session = await startSession({
        codeServer,
        vsix,
        files,
        settings,
        artifactsDir,
        keepTemp: process.env.E2E_KEEP_TEMP === '1',
      });
      session.workbench.timeout = WAIT_MS;
      console.log(`workbench ready in ${session.workbenchReadyMs} ms (${session.workspace})`);
    },
    async stop() {
      await session?.stop();
    },

    async step(name, body) {
      const wb = suite.wb;
      const page = wb.page;
      let onConsole: ((m: ConsoleMessage) => void) | undefined;
      const lostItem = new Promise<never>((_, reject) => {
        onConsole = (m) => {
          if (NO_TREE_ITEM.test(m.text()))
            reject(new Error(`the command reached the extension without its tree item: "${m.text()}"`));
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

    async baseline(replicas) {
      const wb = suite.wb;
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
