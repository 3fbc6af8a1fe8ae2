/**
 * The extension in a real VS Code (code-server 4.100.3 = VS Code 1.100.3),
 * driven through headless Chromium as a user would: the activity bar, the
 * Cluster tree and its context menus, the editor, the command palette, the
 * Problems panel and the Desired vs Actual webview. Run by
 * `npm run test:e2e` (scripts/e2e/run.mjs), which installs code-server,
 * packages the VSIX and passes their paths in E2E_CODE_SERVER and E2E_VSIX.
 * The steps share one session (starting VS Code takes most of a minute) but
 * not their state: each starts from a known one (`baseline`: no menu, quick
 * input, dialog, notification or editor open, web.yaml as the step needs it on
 * disk and applied, every node Ready and schedulable, and the tree showing web's
 * pods all running and no other), so that a failed step leaves nothing behind
 * for the next. Each waits on what a user would see,
 * with a deadline, and leaves a screenshot in test-artifacts/e2e/.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSuite, NODES, READY, STEP, WAIT_MS } from './harness/suite';
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
  webYaml,
  WORKSPACE_FILES,
} from './scenario';
import type { PodRow } from './scenario';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const skip = process.env.E2E_SKIP;
/** The real kubectl, for the step that uses the sandbox's Kubernetes API: packaged (v1.32) or on PATH. */
const KUBECTL = findKubectl();
console.log(KUBECTL.bin === undefined ? `# kubectl: none (${KUBECTL.reason})` : `# kubectl: ${KUBECTL.found}`);
const suite = createSuite({
  files: WORKSPACE_FILES,
  settings: SANDBOX_SETTINGS,
  artifactsDir: process.env.E2E_ARTIFACTS ?? join(ROOT, 'test-artifacts', 'e2e'),
});
const step = (name: string, body: () => Promise<void>): Promise<void> => suite.step(name, body);
const baseline = (replicas: number): Promise<PodRow[]> => suite.baseline(replicas);
const wb = (): Workbench => suite.wb;

describe(
  'Kube Reconcile in VS Code 1.100 (code-server + Chromium)',
  { skip: skip ? `skipped: ${skip}` : false },
  () => {
    after(() => suite.stop(), { timeout: 60_000 });

    test('1. the Kube Reconcile view shows the sandbox nodes', STEP, () =>
      step('nodes', async () => {
        await wb().tidy();
        await wb().openViewContainer('Kube Reconcile');
        const nodes = await wb().waitForTree('three Ready nodes', (rows) => {
          const ready = nodeRows(rows).filter((r) => r.description.startsWith('Ready'));
          return ready.length === 3 ? ready.map((r) => r.label) : undefined;
        });
        assert.deepEqual(nodes, NODES);
      }),
    );

    test('2. saving web.yaml at 3 replicas brings up a third running pod', STEP, () =>
      step('saved-3-replicas', async () => {
        const before = await baseline(2);
        await wb().quickOpen('web.yaml');
        const line = replicasLine(webYaml(2));
        await wb().goToLine(line);
        await wb().page.keyboard.press('End');
        await wb().page.keyboard.press('Backspace');
        await wb().page.keyboard.type('3');
        await wb().waitDirty(true);
        await wb().waitForEditorLines('the replicas line to read 3', (lines) => lines.includes('  replicas: 3'));
        await wb().page.keyboard.press('Control+S');
        await wb().waitDirty(false);
        assert.equal(readFileSync(join(suite.session.workspace, 'web.yaml'), 'utf8'), webYaml(3), 'saved to disk');
        const after = await wb().waitForTree('3 running, ready web pods and the Deployment at 3/3', (rows) => {
          const running = runningWebPods(rows);
          return running.length === 3 && deploymentRow(rows)?.description === '3/3' ? running : undefined;
        });
        // Scaling up adds a pod and keeps the two there were.
        const names = (pods: PodRow[]) => pods.map((p) => p.name);
        assert.deepEqual(
          names(after).filter((n) => names(before).includes(n)),
          names(before),
          `the two pods from before stay: ${JSON.stringify({ before, after })}`,
        );
      }),
    );

    test('3. Kill Pod on a pod: its ReplicaSet replaces it', STEP, () =>
      step('killed-pod-replaced', async () => {
        const before = await baseline(3);
        const victim = before[0].name;
        await wb().contextMenu(victim, 'Kill Pod');
        const after = await wb().waitForTree(`a replacement for ${victim}, running and ready`, (rows) => {
          const running = runningWebPods(rows);
          return running.length === 3 && !running.some((p) => p.name === victim) ? running : undefined;
        });
        const fresh = after.filter((p) => !before.some((b) => b.name === p.name));
        assert.equal(fresh.length, 1, `one new pod, the other two kept: ${JSON.stringify({ before, after })}`);
      }),
    );

    test('4. Desired vs Actual for the Deployment: Healthy, in sync with web.yaml', STEP, () =>
      step('desired-vs-actual', async () => {
        await baseline(3);
        await wb().contextMenu('web', 'Show Desired vs Actual', READY);
        const frame = wb().webview();
        const heading = frame.locator('h1', { hasText: 'Desired vs Actual' });
        await heading.waitFor({ state: 'visible', timeout: WAIT_MS });
        assert.equal((await heading.innerText()).trim(), 'Desired vs Actual: deployment/web');
        const health = frame.locator('p.health');
        const line = await until(
          'the health line to say Healthy',
          async () => {
            const text = (await health.innerText()).trim();
            return /^Healthy\b/.test(text) ? text : undefined;
          },
          WAIT_MS,
          () => health.innerText(),
        );
        assert.match(line, /^Healthy\b/);
        // The Deployment's document starts at line 9 of web.yaml.
        assert.match(await frame.locator('p.meta').innerText(), /desired from \/?web\.yaml:9\b/);
        assert.equal(
          (await frame.locator('p.summary').first().innerText()).trim(),
          'In sync: the live object matches the manifest (defaults aside).',
        );
        // Matching fields are folded under drift: open them.
        await frame.locator('details.matching > summary').first().click();
        const replicas = frame.locator('tr', { has: frame.locator('code', { hasText: /^spec\.replicas$/ }) }).first();
        await replicas.waitFor({ state: 'visible', timeout: WAIT_MS });
        assert.deepEqual(
          (await replicas.locator('td').allInnerTexts()).map((t) => t.trim()),
          ['3', '3', 'same'],
          'spec.replicas: desired 3, live 3',
        );
      }),
    );

    test('5. a misspelled field shows "Unknown field" in the Problems panel, and reverting clears it', STEP, () =>
      step('unknown-field', async () => {
        await baseline(3);
        const line = replicasLine(webYaml(3));
        const problemFor = async () => (await wb().problems()).find((p) => p.includes('replicsa'));
        assert.equal(await problemFor(), undefined, 'no problem about replicsa before the edit');
        await wb().quickOpen('web.yaml');
        await wb().goToLine(line);
        await wb().page.keyboard.press('End');
        await wb().page.keyboard.press('Enter');
        await wb().page.keyboard.type('replicsa: 3');
        await wb().waitDirty(true);
        await wb().waitForEditorLines(
          'replicsa: 3 typed on the line below replicas',
          (lines) => lines[lines.indexOf('  replicas: 3') + 1] === '  replicsa: 3',
        );
        const problem = await until(
          'an Unknown field problem for replicsa',
          async () => {
            const p = await problemFor();
            return p?.includes('Unknown field') ? p : undefined;
          },
          WAIT_MS,
          async () => (await wb().problems()).join(' | '),
        );
        assert.match(problem, /Unknown field "replicsa"/);
        assert.match(problem, new RegExp(`\\[Ln ${line + 1}, Col 3\\]`), `at the misspelled key (line ${line + 1})`);
        await wb().screenshot('unknown-field-problem');
        await wb().runCommand('File: Revert File');
        await wb().waitDirty(false);
        await until(
          'the problem to go once the file is reverted',
          async () => ((await problemFor()) === undefined ? true : undefined),
          WAIT_MS,
          async () => (await wb().problems()).join(' | '),
        );
      }),
    );

    test('6. Fail Node: its pods are rescheduled on the other nodes', STEP, () =>
      step('failed-node-rescheduled', async () => {
        const before = await baseline(3);
        const node = before[0].node;
        const moved = before.filter((p) => p.node === node);
        await wb().contextMenu(node, 'Fail Node');
        await wb().waitForTree(`${node} NotReady`, (rows) =>
          nodeRows(rows)
            .find((r) => r.label === node)
            ?.description.startsWith('NotReady')
            ? true
            : undefined,
        );
        await wb().runCommand('Kube Reconcile: Fast-forward Until Settled');
        const after = await wb().waitForTree(`3 running web pods, none on ${node}`, (rows) => {
          const running = runningWebPods(rows);
          return running.length === 3 && running.every((p) => p.node !== node) ? running : undefined;
        });
        const replacements = after.filter((a) => !before.some((b) => b.name === a.name));
        assert.equal(
          replacements.length,
          moved.length,
          `one new pod for each of the ${moved.length} that ran on ${node}: ${JSON.stringify({ before, after })}`,
        );
        assert.ok(
          nodeRows(await wb().treeRows())
            .find((r) => r.label === node)
            ?.description.startsWith('NotReady'),
          `${node} is still NotReady`,
        );
      }),
    );

    test('7. Scale… to 5 by hand is reverted to 3 by self-heal', STEP, () =>
      step('scale-reverted', async () => {
        await baseline(3);
        await wb().contextMenu('web', 'Scale…', READY);
        assert.equal(await wb().inputBox('Scale deployment/web'), '3', 'the input box starts at the live replicas');
        await wb().answerInput('Scale deployment/web', '5');
        // Evidence that the scale happened and was put back: both events in the Deployment's view.
        await wb().contextMenu('web', 'Show Desired vs Actual', READY);
        const events = wb().webview().locator('table.events tbody tr');
        const scaledUp = events
          .filter({ hasText: /ScalingReplicaSet.*Scaled up replica set web-[a-z0-9]+ from 3 to 5/ })
          .first();
        const reverted = events.filter({ hasText: 'DriftReverted' }).first();
        await scaledUp.waitFor({ state: 'visible', timeout: WAIT_MS });
        await reverted.waitFor({ state: 'visible', timeout: WAIT_MS });
        await reverted.scrollIntoViewIfNeeded();
        assert.match(await reverted.innerText(), /spec\.replicas 5 → 3 from web\.yaml/);
        await wb().openViewContainer('Kube Reconcile');
        await wb().waitForTree('the Deployment back at 3/3 with 3 running pods and no other web pod', (rows) => {
          const running = runningWebPods(rows);
          return deploymentRow(rows)?.description === '3/3' && running.length === 3 && allWebPods(rows).length === 3
            ? true
            : undefined;
        });
      }),
    );

    test(
      '8. kubectl with the kubeconfig the extension wrote sees what the tree shows',
      {
        ...STEP,
        skip:
          KUBECTL.bin === undefined
            ? `no kubectl (${KUBECTL.reason}): nothing to run against the Kubernetes API`
            : false,
      },
      () =>
        step('kubectl', async () => {
          const bin = KUBECTL.bin!;
          const dirs = suite.session.dirs;
          const before = await baseline(3);
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
          const statusOf = (rows: Record<string, string>[]) => Object.fromEntries(rows.map((r) => [r.NAME, r.STATUS]));
          let seen = '';
          const describeSeen = () => Promise.resolve(seen);

          // The pods: kubectl lists the tree's running web pods as Running, 1/1, and no other web pod.
          const pods = await until(
            'kubectl get pods to list the 3 running web pods the tree shows',
            async () => {
              const rows = (await get('pods')).filter((r) => /^web-/.test(r.NAME));
              seen = `kubectl: ${rows.map((r) => `${r.NAME} ${r.READY} ${r.STATUS}`).join(', ')}`;
              const running = rows.filter((r) => r.READY === '1/1' && r.STATUS === 'Running').map((r) => r.NAME);
              return rows.length === 3 && running.length === 3 ? running.sort() : undefined;
            },
            WAIT_MS,
            describeSeen,
          );
          assert.deepEqual(
            pods,
            before.map((p) => p.name),
            `kubectl and the tree name the same pods: ${seen}; tree: ${JSON.stringify(before)}`,
          );

          // Fail Node in the tree: kubectl sees that node NotReady and the others Ready.
          const node = before[0].node;
          await wb().contextMenu(node, 'Fail Node');
          const failed = await until(
            `kubectl get nodes to show ${node} NotReady and the others Ready`,
            async () => {
              const cli = statusOf(await get('nodes'));
              seen = JSON.stringify(cli);
              return NODES.every((n) => cli[n] === (n === node ? 'NotReady' : 'Ready')) ? cli : undefined;
            },
            WAIT_MS,
            describeSeen,
          );
          await wb().waitForTree(`the tree to agree: ${node} NotReady`, (rows) =>
            nodeRows(rows)
              .find((r) => r.label === node)
              ?.description.startsWith('NotReady')
              ? true
              : undefined,
          );

          // Recover Node in the tree: kubectl sees all three Ready again.
          await wb().contextMenu(node, 'Recover Node');
          const recovered = await until(
            `kubectl get nodes to show ${NODES.join(', ')} Ready`,
            async () => {
              const cli = statusOf(await get('nodes'));
              seen = JSON.stringify(cli);
              return NODES.every((n) => cli[n] === 'Ready') && Object.keys(cli).length === NODES.length
                ? cli
                : undefined;
            },
            WAIT_MS,
            describeSeen,
          );
          console.log(
            `kubectl (${kubeconfig}): pods ${pods.join(' ')}; after Fail Node ${JSON.stringify(failed)}; after Recover Node ${JSON.stringify(recovered)}`,
          );
          await wb().waitForTree(`the tree to agree: ${NODES.join(', ')} Ready`, (rows) =>
            nodeRows(rows).filter((r) => r.description.startsWith('Ready')).length === NODES.length ? true : undefined,
          );
        }),
    );
  },
);
