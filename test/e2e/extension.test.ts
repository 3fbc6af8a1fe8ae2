/**
 * The extension in a real VS Code (code-server 4.100.3 = VS Code 1.100.3),
 * driven through headless Chromium as a user would: the activity bar, the
 * Cluster tree and its context menus, the editor, the command palette, the
 * Problems panel and the Desired vs Actual webview. Run by
 * `npm run test:e2e` (scripts/e2e/run.mjs), which installs code-server,
 * packages the VSIX and passes their paths in E2E_CODE_SERVER and E2E_VSIX.
 * The steps share one session and run in order; each waits on what a user
 * would see, with a deadline, and leaves a screenshot in test-artifacts/e2e/.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSession } from './harness/session';
import type { ConsoleMessage } from 'playwright-core';
import type { Session } from './harness/session';
import { until } from './harness/wait';
import type { Workbench } from './harness/workbench';
import { findKubeconfigs, findKubectl, kubectl, parseTable } from './harness/kubectl';
import {
  allWebPods,
  deploymentRow,
  EXTENSION_ID,
  nodeRows,
  replicasLine,
  runningWebPods,
  SANDBOX_SETTINGS,
  WEB_YAML,
  WORKSPACE_FILES,
} from './scenario';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Deadline of one wait inside a step; the node:test timeout of a step is above it. */
const WAIT_MS = 90_000;
const STEP = { timeout: 180_000 };
const skip = process.env.E2E_SKIP;
/** What a tree command shows when it was invoked without a tree item (client/src/commands/objectArg.ts). */
const NO_TREE_ITEM = /: right-click .+ in the Cluster view\.$/;
/** The real kubectl, for the step that uses the sandbox's Kubernetes API. */
const KUBECTL = findKubectl();

describe(
  'Kube Reconcile in VS Code 1.100 (code-server + Chromium)',
  { skip: skip ? `skipped: ${skip}` : false },
  () => {
    let session: Session | undefined;
    let wb: Workbench;

    /**
     * Runs a step's body; on failure leaves a screenshot named after the step before
     * rethrowing. Fails at once when the extension reports that a context-menu command
     * reached it without its tree item, instead of waiting out the deadline.
     */
    async function step(name: string, body: () => Promise<void>): Promise<void> {
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
      try {
        await Promise.race([body(), lostItem]);
        await wb.screenshot(name);
      } catch (e) {
        await wb?.screenshot(`${name}-FAILED`).catch(() => undefined);
        if (session && session.browser.errors.length > 0)
          console.error(`browser errors so far:\n${session.browser.errors.slice(-10).join('\n')}`);
        throw e;
      } finally {
        if (onConsole) page.off('console', onConsole);
        lostItem.catch(() => undefined);
      }
    }

    before(
      async () => {
        const codeServer = process.env.E2E_CODE_SERVER;
        const vsix = process.env.E2E_VSIX;
        assert.ok(codeServer && vsix, 'E2E_CODE_SERVER and E2E_VSIX are unset: run the suite with `npm run test:e2e`');
        session = await startSession({
          codeServer,
          vsix,
          files: WORKSPACE_FILES,
          settings: SANDBOX_SETTINGS,
          artifactsDir: process.env.E2E_ARTIFACTS ?? join(ROOT, 'test-artifacts', 'e2e'),
          keepTemp: process.env.E2E_KEEP_TEMP === '1',
        });
        wb = session.workbench;
        wb.timeout = WAIT_MS;
        console.log(`workbench ready in ${session.workbenchReadyMs} ms (${session.workspace})`);
      },
      { timeout: 180_000 },
    );

    after(
      async () => {
        await session?.stop();
      },
      { timeout: 60_000 },
    );

    test('1. the Kube Reconcile view shows the sandbox nodes', STEP, () =>
      step('nodes', async () => {
        await wb.openViewContainer('Kube Reconcile');
        const nodes = await wb.waitForTree('three Ready nodes', (rows) => {
          const ready = nodeRows(rows).filter((r) => r.description.startsWith('Ready'));
          return ready.length === 3 ? ready.map((r) => r.label) : undefined;
        });
        assert.deepEqual(nodes, ['node-1', 'node-2', 'node-3']);
      }),
    );

    test('2. saving web.yaml at 3 replicas brings up 3 running pods', STEP, () =>
      step('saved-3-replicas', async () => {
        // The workspace was applied at start: web at 2/2. Open it down to its pods, as a user would.
        await wb.waitForTree('the Deployment applied from the workspace at start, 2/2', (rows) =>
          deploymentRow(rows)?.description === '2/2' ? true : undefined,
        );
        await wb.expand('web', /^\d+\/\d+$/);
        const replicaSet = await wb.waitForTree(
          'its ReplicaSet',
          (rows) => rows.find((r) => /^web-[a-z0-9]+$/.test(r.label) && /^\d+\/\d+$/.test(r.description))?.label,
        );
        await wb.expand(replicaSet);
        await wb.waitForTree('its 2 pods, running and ready', (rows) =>
          runningWebPods(rows).length === 2 ? true : undefined,
        );
        await wb.quickOpen('web.yaml');
        await wb.goToLine(replicasLine(WEB_YAML));
        await wb.page.keyboard.press('End');
        await wb.page.keyboard.press('Backspace');
        await wb.page.keyboard.type('3');
        await wb.page.keyboard.press('Control+S');
        await wb.waitDirty(false);
        const pods = await wb.waitForTree('3 running, ready web pods and the Deployment at 3/3', (rows) => {
          const running = runningWebPods(rows);
          return running.length === 3 && deploymentRow(rows)?.description === '3/3' ? running : undefined;
        });
        assert.equal(new Set(pods.map((p) => p.name)).size, 3);
      }),
    );

    test('3. Kill Pod on a pod: its ReplicaSet replaces it', STEP, () =>
      step('killed-pod-replaced', async () => {
        const before = runningWebPods(await wb.treeRows());
        const victim = before[0].name;
        await wb.contextMenu(victim, 'Kill Pod');
        const after = await wb.waitForTree(`a replacement for ${victim}, running and ready`, (rows) => {
          const running = runningWebPods(rows);
          return running.length === 3 && !running.some((p) => p.name === victim) ? running : undefined;
        });
        const fresh = after.filter((p) => !before.some((b) => b.name === p.name));
        assert.equal(fresh.length, 1, `one new pod: ${JSON.stringify(after)}`);
      }),
    );

    test('4. Desired vs Actual for the Deployment shows its health', STEP, () =>
      step('desired-vs-actual', async () => {
        await wb.contextMenu('web', 'Show Desired vs Actual', /^\d+\/\d+$/);
        const frame = wb.webview();
        await frame.locator('h1', { hasText: 'Desired vs Actual' }).waitFor({ state: 'visible', timeout: WAIT_MS });
        const health = frame.locator('p.health');
        const line = await until(
          'a health line',
          async () => {
            const text = (await health.innerText()).trim();
            return /^(Healthy|Progressing)\b/.test(text) ? text : undefined;
          },
          WAIT_MS,
          () => health.innerText(),
        );
        assert.match(line, /^(Healthy|Progressing)\b/);
      }),
    );

    test('5. a misspelled field shows "Unknown field" in the Problems panel', STEP, () =>
      step('unknown-field-reverted', async () => {
        await wb.quickOpen('web.yaml');
        await wb.goToLine(replicasLine(WEB_YAML));
        await wb.page.keyboard.press('End');
        await wb.page.keyboard.press('Enter');
        await wb.page.keyboard.type('replicsa: 3');
        await wb.page.keyboard.press('Escape');
        const problem = await until(
          'an Unknown field problem for replicsa',
          async () => (await wb.problems()).find((p) => p.includes('Unknown field') && p.includes('replicsa')),
          WAIT_MS,
          async () => (await wb.problems()).join(' | '),
        );
        assert.match(problem, /Unknown field `replicsa`/);
        await wb.screenshot('unknown-field-problem');
        // Put the file back as saved, so that the later steps' desired state is the 3 replicas.
        await wb.runCommand('File: Revert File');
        await wb.waitDirty(false);
      }),
    );

    test('6. Fail Node: its pods are rescheduled on the other nodes', STEP, () =>
      step('failed-node-rescheduled', async () => {
        await wb.openViewContainer('Kube Reconcile');
        const before = runningWebPods(await wb.treeRows());
        const node = before[0].node;
        await wb.contextMenu(node, 'Fail Node');
        await wb.waitForTree(`${node} NotReady`, (rows) =>
          nodeRows(rows)
            .find((r) => r.label === node)
            ?.description.startsWith('NotReady')
            ? true
            : undefined,
        );
        await wb.runCommand('Kube Reconcile: Fast-forward Until Settled');
        const after = await wb.waitForTree(`3 running web pods, none on ${node}`, (rows) => {
          const running = runningWebPods(rows);
          return running.length === 3 && running.every((p) => p.node !== node) ? running : undefined;
        });
        const moved = before.filter((p) => p.node === node);
        assert.ok(moved.length > 0);
        assert.ok(
          moved.every((p) => !after.some((a) => a.name === p.name)),
          `pods that were on ${node} were replaced: ${JSON.stringify({ before, after })}`,
        );
      }),
    );

    test('7. Scale… to 5 by hand is reverted to 3 by self-heal', STEP, () =>
      step('scale-reverted', async () => {
        await wb.contextMenu('web', 'Scale…', /^\d+\/\d+$/);
        await wb.answerInput('5');
        // Evidence that the scale happened and was put back: the sync loop's event in the Deployment's view.
        await wb.contextMenu('web', 'Show Desired vs Actual', /^\d+\/\d+$/);
        const reverted = wb.webview().locator('tr', { hasText: 'DriftReverted' }).first();
        await reverted.waitFor({ state: 'visible', timeout: WAIT_MS });
        await reverted.scrollIntoViewIfNeeded();
        assert.match(await reverted.innerText(), /replicas/);
        await wb.openViewContainer('Kube Reconcile');
        await wb.waitForTree('the Deployment back at 3/3 with 3 running pods and no others', (rows) => {
          const running = runningWebPods(rows);
          const shown = allWebPods(rows).filter(
            (name) => !rows.some((r) => r.label === name && /^(Terminating|Unknown)/.test(r.description)),
          );
          return deploymentRow(rows)?.description === '3/3' && running.length === 3 && shown.length === 3
            ? true
            : undefined;
        });
      }),
    );

    test(
      '8. kubectl with the kubeconfig the extension wrote sees the sandbox',
      { ...STEP, skip: KUBECTL ? false : 'kubectl is not on PATH: nothing to run against the Kubernetes API' },
      () =>
        step('kubectl', async () => {
          const bin = KUBECTL!;
          const dirs = session!.dirs;
          // Written to the extension's workspace storage once the API serves; polled, as a user would wait for it.
          const kubeconfig = await until(
            `${EXTENSION_ID}'s kubeconfig under ${dirs.userDataDir}`,
            async () => {
              const found = findKubeconfigs(dirs.userDataDir, EXTENSION_ID);
              if (found.length > 1) throw new Error(`more than one kubeconfig: ${found.join(', ')}`);
              return found[0];
            },
            WAIT_MS,
          );
          const cacheDir = join(dirs.homeDir, 'kube-cache');
          const get = async (what: string) => parseTable(await kubectl(bin, kubeconfig, cacheDir, ['get', what]));
          let seen = '';
          const describeSeen = () => Promise.resolve(seen);

          // The pods the earlier steps left: kubectl lists the tree's running web pods as Running, 1/1.
          await wb.openViewContainer('Kube Reconcile');
          const pods = await until(
            'kubectl get pods to list the running web pods the tree shows',
            async () => {
              const tree = runningWebPods(await wb.treeRows()).map((p) => p.name);
              const rows = await get('pods');
              seen = `tree: ${tree.join(' ')}; kubectl: ${rows.map((r) => `${r.NAME} ${r.READY} ${r.STATUS}`).join(', ')}`;
              const running = rows
                .filter((r) => /^web-/.test(r.NAME) && r.READY === '1/1' && r.STATUS === 'Running')
                .map((r) => r.NAME)
                .sort();
              return tree.length === 3 && JSON.stringify(running) === JSON.stringify(tree) ? running : undefined;
            },
            WAIT_MS,
            describeSeen,
          );
          assert.equal(pods.length, 3);

          // The nodes as the tree shows them: step 6's node NotReady in both.
          const statusOf = (rows: Record<string, string>[]) =>
            Object.fromEntries(rows.map((r) => [r.NAME, r.STATUS.split(',')[0]]));
          const failed = await until(
            'kubectl get nodes to agree with the tree',
            async () => {
              const tree = Object.fromEntries(
                nodeRows(await wb.treeRows()).map((r) => [r.label, r.description.split(' ')[0]]),
              );
              const cli = statusOf(await get('nodes'));
              seen = `tree: ${JSON.stringify(tree)}; kubectl: ${JSON.stringify(cli)}`;
              return Object.keys(cli).length === 3 && JSON.stringify(cli) === JSON.stringify(tree)
                ? Object.keys(cli).filter((n) => cli[n] !== 'Ready')
                : undefined;
            },
            WAIT_MS,
            describeSeen,
          );
          assert.equal(failed.length, 1, `one node failed in step 6: ${seen}`);

          // Recover Node in the tree: kubectl sees all three Ready.
          await wb.contextMenu(failed[0], 'Recover Node');
          const nodes = await until(
            'kubectl get nodes to show node-1..node-3 Ready',
            async () => {
              const cli = statusOf(await get('nodes'));
              seen = JSON.stringify(cli);
              return Object.values(cli).every((s) => s === 'Ready') ? Object.keys(cli) : undefined;
            },
            WAIT_MS,
            describeSeen,
          );
          assert.deepEqual(nodes, ['node-1', 'node-2', 'node-3']);
          console.log(
            `kubectl (${kubeconfig}): pods ${pods.join(' ')}; ${failed[0]} NotReady, then after Recover Node: ${seen}`,
          );
          await wb.waitForTree('three Ready nodes', (rows) =>
            nodeRows(rows).filter((r) => r.description.startsWith('Ready')).length === 3 ? true : undefined,
          );
        }),
    );
  },
);
