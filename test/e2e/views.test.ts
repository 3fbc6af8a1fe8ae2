/**
 * The views as people live in them (issue 17), in a real VS Code driven
 * through Chromium like extension.test.ts: a pod's Desired vs Actual against
 * its template and a Pending pod's why with numbers, menus that follow a
 * node's state, Fail Node marked at once, Drain and Fast-forward progress,
 * the webview following a theme switch without words broken mid-word, one
 * editor group for the panels, Problems without Markdown backticks and no
 * second diagnostic on the document's first line, logs and describe from the
 * keyboard, filters, the status bar's health and paused state, a scale that
 * self-heal reverts — and the marketplace pictures, captured from the same
 * run (`npm run media` copies them into media/readme/). Each step starts from
 * `baseline` and leaves a screenshot in test-artifacts/e2e/.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import type { ConsoleMessage, Locator } from 'playwright-core';
import { createSuite, READY, STEP, WAIT_MS } from './harness/suite';
import { until } from './harness/wait';
import {
  allWebPods,
  nodeRows,
  replicasLine,
  runningWebPods,
  SANDBOX_SETTINGS,
  webYaml,
  WORKSPACE_FILES,
} from './scenario';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ARTIFACTS = process.env.E2E_ARTIFACTS ?? join(ROOT, 'test-artifacts', 'e2e');
const skip = process.env.E2E_SKIP;
/** Set by `npm run media`: the pictures go into media/readme/ (README) and walkthrough/media/ (walkthrough). */
const MEDIA = process.env.E2E_MEDIA === '1';

/** A Deployment no node has room for: 64 CPU against 4 per node. */
const BIG_YAML = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: big
spec:
  replicas: 1
  selector:
    matchLabels:
      app: big
  template:
    metadata:
      labels:
        app: big
    spec:
      containers:
        - name: app
          image: nginx:1.27
          resources:
            requests:
              cpu: "64"
              memory: 64Mi
`;

const SELECTOR_ITEM = '.context-view .monaco-menu .action-item .action-label';

/** The steps' names (each `test` below uses one of them). */
const STEP_NAMES = [
  'V1. a pod is compared with its ReplicaSet template; a Pending pod says why with numbers, first',
  'V2. node menus follow its state; Fail Node shows the countdown at once and offers Recover',
  'V3. Drain and Fast-forward report progress in a notification and say how they ended',
  'V4. Desired vs Actual follows a theme switch, keeps words whole, shows the timeline, and a node says why it has no manifest',
  'V5. Desired vs Actual panels share one editor group; a second open reveals the same panel',
  'V6. an invalid port: one problem, at the port, never on the first line; messages read without backticks',
  "V7. from the keyboard: l shows a pod's logs, d describes it, Enter opens the manifest line",
  'V8. filters: only what needs attention, then everything; paused shows in the view and status bar',
  'V9. Scale… by hand: the status bar says self-heal will revert it, then that it did',
  'M. marketplace pictures: the tree, Desired vs Actual, and save → pods → Kill Pod → replaced',
];

describe('Kube Reconcile views (issue 17) in VS Code 1.100', { skip: skip ? `skipped: ${skip}` : false }, () => {
  const suite = createSuite({ files: WORKSPACE_FILES, settings: SANDBOX_SETTINGS, artifactsDir: ARTIFACTS });
  const wb = () => suite.wb;

  after(() => suite.stop(), { timeout: 60_000 });

  /** The labels of a tree row's context menu, closed again with Escape. */
  async function menuOf(label: string, description?: RegExp): Promise<string[]> {
    await wb().closeMenus();
    const row = wb().treeRow(label, description);
    await row.waitFor({ state: 'visible', timeout: WAIT_MS });
    await wb().dismissHover();
    await row.click({ button: 'right' });
    await wb().page.locator(SELECTOR_ITEM).first().waitFor({ state: 'visible', timeout: WAIT_MS });
    const labels = (await wb().page.locator(SELECTOR_ITEM).allInnerTexts()).map((t) => t.trim()).filter(Boolean);
    await wb().closeMenus();
    return labels;
  }

  /** The visible webview's text at `selector`, once `check` accepts it. */
  async function webviewText(selector: string, what: string, check: (t: string) => boolean): Promise<string> {
    const loc = wb().webview().locator(selector).first();
    return until(
      what,
      async () => {
        const t = (await loc.innerText({ timeout: 2_000 }).catch(() => '')).trim();
        return check(t) ? t : undefined;
      },
      WAIT_MS,
      () => loc.innerText({ timeout: 2_000 }).catch(() => '(not there)'),
    );
  }

  /** Drags the side bar's edge until it is `width` px wide, so that the tree's descriptions show whole. */
  async function widenSideBar(width: number): Promise<void> {
    const page = wb().page;
    const side = (await page.locator('.part.sidebar').first().boundingBox())!;
    const edge = side.x + side.width;
    const boxes = await page
      .locator('.monaco-sash.vertical')
      .evaluateAll((sashes) =>
        sashes.map((s) => s.getBoundingClientRect()).map((r) => ({ x: r.x, w: r.width, y: r.y, h: r.height })),
      );
    const sash = boxes.find((b) => Math.abs(b.x + b.w / 2 - edge) < 6 && b.h > 100);
    if (!sash) return;
    await page.mouse.move(sash.x + sash.w / 2, sash.y + sash.h / 2);
    await page.mouse.down();
    await page.mouse.move(side.x + width, sash.y + sash.h / 2, { steps: 8 });
    await page.mouse.up();
  }

  /** Moves the quick input's highlight with Down until it is on the row labelled exactly `label`. */
  async function highlight(label: string): Promise<void> {
    const page = wb().page;
    const focused = async () =>
      (await page.locator('.quick-input-list .monaco-list-row.focused .label-name').allInnerTexts())[0]?.trim();
    await until(
      `a row labelled ${label}`,
      async () =>
        (await page.locator('.quick-input-list .monaco-list-row .label-name').allInnerTexts()).some(
          (t) => t.trim() === label,
        )
          ? true
          : undefined,
      WAIT_MS,
    );
    for (let moves = 0; (await focused()) !== label; moves++) {
      if (moves > 20) throw new Error(`could not highlight ${label}`);
      const before = await focused();
      await page.keyboard.press('ArrowDown');
      await until('the highlight to move', async () => ((await focused()) !== before ? true : undefined), WAIT_MS);
    }
  }

  /** Preferences: Color Theme, then the theme picker it opens, filtered to `theme` and chosen with Enter. */
  async function chooseTheme(theme: string): Promise<void> {
    const page = wb().page;
    await wb().closeMenus();
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input').first();
    await input.waitFor({ state: 'visible', timeout: WAIT_MS });
    await input.fill('>Preferences: Color Theme');
    await highlight('Preferences: Color Theme');
    await page.keyboard.press('Enter');
    await until(
      'the theme picker',
      async () =>
        (await page.locator('.quick-input-widget input').first().getAttribute('placeholder'))?.includes('Theme')
          ? true
          : undefined,
      WAIT_MS,
    );
    await input.fill(theme);
    await highlight(theme);
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget').first().waitFor({ state: 'hidden', timeout: WAIT_MS });
  }

  /** Writes a workspace file and applies the workspace (as a save would). */
  async function writeAndApply(file: string, text: string): Promise<void> {
    writeFileSync(join(suite.session.workspace, file), text);
    await wb().runCommand('Kube Reconcile: Apply Workspace to Sandbox');
  }

  /** Saves a PNG of a part of the workbench into test-artifacts/e2e/media/ (`npm run media` publishes them). */
  async function capture(name: string, target: Locator | { x: number; y: number; width: number; height: number }) {
    const dir = join(ARTIFACTS, 'media');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${name}.png`);
    if ('screenshot' in target) await target.screenshot({ path: file });
    else await wb().page.screenshot({ path: file, clip: target });
    return file;
  }

  test(STEP_NAMES[0], STEP, () =>
    suite.step('pod-desired-vs-actual', async () => {
      const pods = await suite.baseline(3);
      await wb().contextMenu(pods[0].name, 'Show Desired vs Actual');
      const meta = await webviewText('p.meta', 'the pod view to name its template', (t) => /pod template/.test(t));
      assert.match(meta, /compared with the pod template of replicaset\/web-[a-z0-9]+, managed by deployment\/web/);
      assert.match(meta, /declared in \/?web\.yaml:9/);
      const summary = await webviewText('p.summary', 'the comparison summary', (t) => t !== '');
      assert.equal(summary, 'In sync: the live object matches its pod template (defaults aside).');
      await wb().tidy();

      // A pod no node has room for: its view starts with the why, in numbers.
      const tree = (m: ConsoleMessage) => /Data tree node not found/.test(m.text());
      const treeErrors: string[] = [];
      const onConsole = (m: ConsoleMessage) => void (tree(m) && treeErrors.push(m.text()));
      wb().page.on('console', onConsole);
      try {
        await writeAndApply('big.yaml', BIG_YAML);
        await wb().expand('big', /^0\/1$/);
        const rs = await wb().waitForTree(
          "big's ReplicaSet",
          (rows) => rows.find((r) => /^big-[a-z0-9]+$/.test(r.label))?.label,
        );
        await wb().expand(rs);
        const pending = await wb().waitForTree(
          "big's pod, Pending",
          (rows) =>
            rows.find((r) => /^big-[a-z0-9]+-[a-z0-9]{5}$/.test(r.label) && r.description.startsWith('Pending'))?.label,
        );
        await wb().contextMenu(pending, 'Show Desired vs Actual');
        const first = await webviewText('#object-shell > section', 'the first section to be the why', (t) =>
          t.startsWith('Why is this pod Pending?'),
        );
        assert.match(first, /This pod requests 64 CPU and 64Mi memory; no schedulable node has that much free\./);
        for (const node of ['node-1', 'node-2', 'node-3'])
          assert.match(
            first,
            new RegExp(`${node}\\s+4 allocatable − \\S+ requested = \\S+ free[\\s\\S]*?too little cpu`),
          );
        await capture('pending-why', wb().page.locator('.part.editor').first());
        await wb().screenshot('pending-why');
        await wb().tidy();
        // Pruning the Deployment (its file deleted) removes its rows without VS Code losing track of them.
        rmSync(join(suite.session.workspace, 'big.yaml'));
        await wb().waitForTree('big pruned from the tree', (rows) =>
          rows.some((r) => r.label === 'big') ? undefined : true,
        );
        await wb().waitForTree('and its pods', (rows) =>
          rows.some((r) => r.label.startsWith('big-')) ? undefined : true,
        );
      } finally {
        wb().page.off('console', onConsole);
      }
      assert.deepEqual(treeErrors, [], 'the workbench logged no "Data tree node not found"');
    }),
  );

  test(STEP_NAMES[1], STEP, () =>
    suite.step('node-menus-fail-countdown', async () => {
      const pods = await suite.baseline(3);
      const node = pods[0].node;
      const healthy = await menuOf(node);
      for (const item of ['Fail Node', 'Cordon', 'Drain', 'Describe'])
        assert.ok(healthy.includes(item), `${item}: ${healthy.join(' | ')}`);
      for (const item of ['Recover Node', 'Uncordon'])
        assert.ok(!healthy.includes(item), `no ${item}: ${healthy.join(' | ')}`);
      await wb().contextMenu(node, 'Fail Node');
      // At 20× the 50 s grace is 2.5 s: the first tree refresh after the action already says so.
      const marked = await wb().waitForTree(
        `${node} marked as failed`,
        (rows) => nodeRows(rows).find((r) => r.label === node && /kubelet stopped/.test(r.description))?.description,
      );
      assert.match(marked, /kubelet stopped( — NotReady in \S+| — NotReady any moment| — evicting pods in \S+)?$/);
      const failed = await menuOf(node);
      assert.ok(failed.includes('Recover Node') && !failed.includes('Fail Node'), failed.join(' | '));
      await wb().contextMenu(node, 'Cordon');
      const cordoned = await menuOf(node, /SchedulingDisabled/);
      assert.ok(cordoned.includes('Uncordon') && !cordoned.includes('Cordon'), cordoned.join(' | '));
    }),
  );

  test(STEP_NAMES[2], STEP, () =>
    suite.step('drain-fast-forward-progress', async () => {
      const pods = await suite.baseline(3);
      // kubectl drain (no --force) refuses a node that runs a pod no controller owns: config.yaml's bare
      // configured-app pod lands wherever the scheduler put it, so drain a web pod's node it is not on (CI once drew
      // its node, and the drain rightly stopped at the cordon).
      const bare = (await wb().treeRows()).find((r) => r.label === 'configured-app')?.description.split(' · ') ?? [];
      const node = (pods.find((p) => !bare.includes(p.node)) ?? pods[0]).node;
      await wb().contextMenu(node, 'Drain');
      const drained = await until(
        `a notification that ${node} is drained`,
        async () => (await wb().notifications()).find((n) => n.includes(`node/${node} drained`)),
        WAIT_MS,
        async () => (await wb().notifications()).join(' | '),
      );
      assert.equal(drained.trim(), `node/${node} drained`);
      assert.ok(!(await wb().statusBarText()).includes('evicting'), 'no drain line left in the status bar');
      await wb().runCommand('Kube Reconcile: Fast-forward Until Settled');
      // Settled (a status-bar message), or stopped at its 10-minute limit (a notification that says why): config.yaml's
      // pod runs `sleep 3600`, whose exit is work the sandbox has scheduled, so this workspace may end either way.
      const ff = await until(
        'Fast-forward to say how it ended',
        async () =>
          (await wb().statusBarText()).match(/Fast-forwarded \S+ of sandbox time: the cluster settled/)?.[0] ??
          (await wb().notifications()).find((n) =>
            /^Fast-forward stopped after \S+ of sandbox time without settling: .+\.$/.test(n.trim()),
          ),
        WAIT_MS,
        async () => `${await wb().statusBarText()} | ${(await wb().notifications()).join(' | ')}`,
      );
      assert.match(ff.trim(), /^Fast-forward(ed \S+ of sandbox time: the cluster settled| stopped after 10m )/);
    }),
  );

  test(STEP_NAMES[3], STEP, () =>
    suite.step('webview-theme-wrap', async () => {
      await suite.baseline(3);
      await wb().contextMenu('web', 'Show Desired vs Actual', READY);
      await webviewText('p.health', 'Healthy', (t) => t.startsWith('Healthy'));
      const frame = wb().webview();
      const editorBackground = () =>
        frame
          .locator('.monaco-editor')
          .first()
          .evaluate((el) => getComputedStyle(el).backgroundColor);
      const before = await editorBackground();
      // Words in the tables stay whole at this width (~800 px): "Normal" on one line.
      const broken = await frame.locator('table.events td').evaluateAll((cells) =>
        cells
          .filter((c) => /^(Normal|Warning)$/.test(c.textContent ?? ''))
          .filter((c) => {
            const range = c.ownerDocument.createRange();
            range.selectNodeContents(c);
            return range.getClientRects().length > 1;
          })
          .map((c) => c.textContent),
      );
      assert.deepEqual(broken, [], 'no event type broken over two lines');
      // The Timeline: the Deployment's chain starts at the apply of web.yaml, whose link opens the file at its line.
      const applyRow = frame.locator('table.timeline tr', { hasText: /(created|configured) deployment\/web/ }).first();
      await applyRow.waitFor({ state: 'visible', timeout: WAIT_MS });
      assert.match(await applyRow.innerText(), /Apply[\s\S]*web\.yaml:9/);
      assert.ok(
        (await frame.locator('table.timeline tr', { hasText: 'ScalingReplicaSet' }).count()) > 0,
        'the Deployment controller scaling its ReplicaSet',
      );
      await applyRow.scrollIntoViewIfNeeded();
      await wb().screenshot('webview-timeline');
      await applyRow.locator('a.step-link').click();
      await until(
        'web.yaml to open at the Deployment',
        async () =>
          (await wb().page.locator('.tab.active').first().innerText()).includes('web.yaml') ? true : undefined,
        WAIT_MS,
      );
      await wb().contextMenu('web', 'Show Desired vs Actual', READY);
      // The panel comes back to the front and takes the keyboard focus a moment later (its webview's frame): a picker
      // opened before that would close as the focus moves. Wait for the panel and the focus first.
      await webviewText('p.health', 'the Deployment view back in front', (t) => t.startsWith('Healthy'));
      await wb().dismissHover();
      await until(
        'the Desired vs Actual panel to take the keyboard focus',
        () => wb().page.evaluate(() => (document.activeElement?.tagName === 'IFRAME' ? true : undefined)),
        WAIT_MS,
      );
      // code-server starts on a light theme: a dark one, then a light one, each taken by the open editors.
      const switched = async (theme: string, from: string) => {
        await chooseTheme(theme);
        return until(
          `the open editors to take ${theme}`,
          async () => {
            const now = await editorBackground();
            return now !== from ? now : undefined;
          },
          WAIT_MS,
          editorBackground,
        );
      };
      const dark = await switched('Dark Modern', before);
      await wb().screenshot('webview-dark-theme');
      const light = await switched('Light Modern', dark);
      assert.notEqual(light, dark);
      await wb().tidy();
      await wb().contextMenu('node-1', 'Show Desired vs Actual');
      const meta = await webviewText('p.meta', 'the node view', (t) => t.includes('saved manifest'));
      assert.match(meta, /not declared in a saved manifest: nodes are the cluster's own/);
      assert.doesNotMatch(meta, /desired from not/);
    }),
  );

  test(STEP_NAMES[4], STEP, () =>
    suite.step('webview-one-group', async () => {
      await suite.baseline(3);
      const groups = () => wb().page.locator('.part.editor .editor-group-container').count();
      const tabs = (title: string) => wb().page.locator('.part.editor .tab', { hasText: title }).count();
      await wb().contextMenu('web', 'Show Desired vs Actual', READY);
      await webviewText('h1', 'the Deployment view', (t) => t.endsWith('deployment/web'));
      const afterFirst = await groups();
      await wb().contextMenu('node-2', 'Show Desired vs Actual');
      await webviewText('h1', 'the node view', (t) => t.endsWith('node/node-2'));
      await wb().contextMenu('web', 'Show Desired vs Actual', READY);
      await webviewText('h1', 'the Deployment view again', (t) => t.endsWith('deployment/web'));
      assert.equal(await groups(), afterFirst, 'no new split');
      assert.equal(await tabs('Desired vs Actual: deployment/web'), 1, 'one panel per object');
      assert.equal(await tabs('Desired vs Actual: node/node-2'), 1);
    }),
  );

  test(STEP_NAMES[5], STEP, () =>
    suite.step('problems-plain-text', async () => {
      await suite.baseline(3);
      await wb().quickOpen('web.yaml');
      const text = webYaml(3);
      const portLine = text.split('\n').findIndex((l) => l.includes('containerPort: 80')) + 1;
      await wb().goToLine(portLine);
      await wb().page.keyboard.press('End');
      await wb().page.keyboard.press('Backspace');
      await wb().page.keyboard.press('Backspace');
      await wb().page.keyboard.type('70000');
      await wb().page.keyboard.press('Control+S');
      await wb().waitDirty(false);
      const problems = await until(
        'the port problem',
        async () => {
          const all = await wb().problems();
          return all.some((p) => p.includes('must be between 1 and 65535')) ? all : undefined;
        },
        WAIT_MS,
        async () => (await wb().problems()).join(' | '),
      );
      assert.deepEqual(
        problems.filter((p) => /\[Ln 9, Col 1\]/.test(p)),
        [],
        `nothing on the Deployment's first line: ${problems.join(' | ')}`,
      );
      for (const p of problems.filter((x) => x.includes('65535')))
        assert.match(p, new RegExp(`\\[Ln ${portLine}, Col \\d+\\]`), `at the port: ${p}`);
      await wb().runCommand('File: Revert File');
      await wb().waitDirty(false);
      writeFileSync(join(suite.session.workspace, 'web.yaml'), webYaml(3));
      await wb().runCommand('Kube Reconcile: Apply Workspace to Sandbox');
      // The did-you-mean fix, as the README shows it.
      await wb().quickOpen('web.yaml');
      await wb().goToLine(replicasLine(text));
      await wb().page.keyboard.press('End');
      await wb().page.keyboard.press('Enter');
      await wb().page.keyboard.type('replicsa: 3');
      const typo = await until(
        'the unknown-field problem',
        async () => (await wb().problems()).find((p) => p.includes('replicsa')),
        WAIT_MS,
        async () => (await wb().problems()).join(' | '),
      );
      assert.match(typo, /Unknown field "replicsa" in \S+; did you mean "replicas"\?/);
      assert.ok(!typo.includes('`'), `no Markdown backticks: ${typo}`);
      await wb().page.keyboard.press('Control+.');
      await wb()
        .page.locator('.action-widget', { hasText: 'Change "replicsa" to "replicas"' })
        .first()
        .waitFor({ timeout: WAIT_MS });
      const editorBox = (await wb().page.locator('.part.editor').first().boundingBox())!;
      const panelBox = (await wb().page.locator('.part.panel').first().boundingBox())!;
      await capture('problems-did-you-mean', {
        x: editorBox.x,
        y: editorBox.y,
        width: editorBox.width,
        height: Math.min(panelBox.y + 120, panelBox.y + panelBox.height) - editorBox.y,
      });
      await wb().page.keyboard.press('Escape');
      await wb().runCommand('File: Revert File');
      await wb().waitDirty(false);
    }),
  );

  test(STEP_NAMES[6], STEP, () =>
    suite.step('keyboard-logs-describe', async () => {
      const pods = await suite.baseline(3);
      await wb().selectRow(pods[0].name);
      await wb().page.keyboard.press('l');
      // The tab title is the document's name, its slash a look-alike (a read-only document's path has no folders).
      const logsTab = wb()
        .page.locator('.part.editor .tab', { hasText: new RegExp(`Logs pod.${pods[0].name}`) })
        .first();
      await logsTab.waitFor({ timeout: WAIT_MS });
      const logs = await until(
        'the log document to show the command and nginx starting',
        async () => {
          const lines = await wb().editorLines();
          if (lines[0]?.startsWith('# kubectl logs -f pod/') && lines.length > 2) return lines;
          // The document follows its end as lines arrive (as `kubectl logs -f` does); at 20× the probe's access
          // lines can scroll the header out of view before the first look. Going to line 1 stops the following.
          if (lines.length > 2) await wb().goToLine(1);
          return undefined;
        },
        WAIT_MS,
        async () => (await wb().editorLines()).join('⏎'),
      );
      assert.match(logs.join('\n'), /nginx/);
      await wb().selectRow(pods[0].name);
      await wb().page.keyboard.press('d');
      await wb()
        .page.locator('.part.editor .tab', { hasText: new RegExp(`Describe pod.${pods[0].name}`) })
        .first()
        .waitFor({ timeout: WAIT_MS });
      const described = await until(
        'the describe document',
        async () => {
          const lines = await wb().editorLines();
          return lines[0]?.startsWith('# kubectl describe pod') && lines.some((l) => l.startsWith('Controlled By:'))
            ? lines
            : undefined;
        },
        WAIT_MS,
        async () => (await wb().editorLines()).join('⏎'),
      );
      assert.match(described[1], new RegExp(`^Name: +${pods[0].name}$`));
      assert.ok(described.some((l) => /^Controlled By: +ReplicaSet\/web-/.test(l)));
      // kubectl prints the events last, below what the editor shows at first: its end.
      await wb().page.locator('.part.editor .editor-instance .view-lines').first().click();
      await wb().page.keyboard.press('Control+End');
      const end = await until(
        'the events at the end of the describe document',
        async () => {
          const lines = await wb().editorLines();
          return lines.some((l) => l.startsWith('Events:')) ? lines : undefined;
        },
        WAIT_MS,
        async () => (await wb().editorLines()).join('⏎'),
      );
      assert.match(end.find((l) => l.startsWith('Events:'))!, /^Events:( +<none>)?$/);
      await wb().tidy();
      // Enter on a pod (a click on it opens nothing: a controller made it) opens the manifest that declares it.
      await wb().tidy();
      await wb().openViewContainer('Kube Reconcile');
      await wb().selectRow(pods[1].name);
      await wb().page.keyboard.press('Enter');
      await wb()
        .page.locator('.part.editor .tab.active', { hasText: 'web.yaml' })
        .first()
        .waitFor({ timeout: WAIT_MS });
    }),
  );

  test(STEP_NAMES[7], STEP, () =>
    suite.step('filters-paused', async () => {
      await suite.baseline(3);
      await wb().runCommand('Kube Reconcile: Show Only What Needs Attention');
      await wb().waitForTree('no healthy web pod shown', (rows) =>
        runningWebPods(rows).length === 0 ? true : undefined,
      );
      const sidebar = wb().page.locator('.part.sidebar').first();
      await until(
        'the view to say its filter',
        async () => ((await sidebar.innerText()).includes('Showing only what needs attention') ? true : undefined),
        WAIT_MS,
      );
      await wb().runCommand('Kube Reconcile: Show Everything');
      await wb().waitForTree('the web pods back', (rows) => (runningWebPods(rows).length === 3 ? true : undefined));
      const item = wb().page.locator('.part.statusbar .statusbar-item', { hasText: 'Sandbox' }).first();
      const background = () => item.evaluate((el) => getComputedStyle(el).backgroundColor);
      const running = await background();
      await wb().runCommand('Kube Reconcile: Pause Sandbox');
      await until(
        'the view to say paused',
        async () => ((await sidebar.innerText()).includes('Sandbox paused: its clock stands still') ? true : undefined),
        WAIT_MS,
      );
      const paused = await until(
        'the status bar item on the warning background',
        async () => {
          const b = await background();
          return b !== running ? b : undefined;
        },
        WAIT_MS,
        background,
      );
      assert.notEqual(paused, running);
      await wb().screenshot('paused');
      await wb().runCommand('Kube Reconcile: Resume Sandbox');
    }),
  );

  test(STEP_NAMES[8], STEP, () =>
    suite.step('scale-honest-status', async () => {
      await suite.baseline(3);
      await wb().contextMenu('web', 'Scale…', READY);
      await wb().answerInput('Scale deployment/web', '5');
      const seen = new Set<string>();
      await until(
        'the status bar to say the revert is coming, then that it came',
        async () => {
          const text = await wb().statusBarText();
          if (/self-heal will put it back to 3 \(web\.yaml declares it\)/.test(text)) seen.add('will');
          if (/self-heal undid the scale to 5/.test(text)) seen.add('did');
          return seen.has('did') ? true : undefined;
        },
        WAIT_MS,
        () => wb().statusBarText(),
      );
      assert.ok(seen.has('did'));
    }),
  );

  /** The side bar down to the tree's last row. */
  async function captureTree(name: string): Promise<void> {
    await wb().dismissHover();
    const side = (await wb().page.locator('.part.sidebar').first().boundingBox())!;
    const lastRow = await wb()
      .page.locator('.part.sidebar .monaco-list-row[role="treeitem"]')
      .evaluateAll((rows) => Math.max(...rows.map((r) => r.getBoundingClientRect().bottom)));
    await capture(name, {
      x: side.x,
      y: side.y,
      width: side.width,
      height: Math.min(side.height, lastRow + 12 - side.y),
    });
  }

  test(STEP_NAMES[9], STEP, () =>
    suite.step('media', async () => {
      const before = await suite.baseline(2);
      await widenSideBar(520);
      await wb().dismissHover();
      await captureTree('tree');
      await wb().contextMenu('web', 'Show Desired vs Actual', READY);
      await webviewText('p.health', 'Healthy', (t) => t.startsWith('Healthy'));
      await capture('desired-vs-actual', wb().page.locator('.part.editor').first());
      await wb().tidy();
      // The animation: frames of the side bar and editor while a save brings a pod up and a killed pod is replaced.
      const box = await wb().page.locator('.part.sidebar').first().boundingBox();
      const editor = await wb().page.locator('.part.editor').first().boundingBox();
      const clip = {
        x: 0,
        y: 0,
        width: Math.round((editor?.x ?? 900) + 560),
        height: Math.round((box?.height ?? 900) + (box?.y ?? 0)),
      };
      const frames: string[] = [];
      const frameDir = join(ARTIFACTS, 'media', 'frames');
      rmSync(frameDir, { recursive: true, force: true });
      mkdirSync(frameDir, { recursive: true });
      const frame = async () => {
        const file = join(frameDir, `${String(frames.length).padStart(3, '0')}.png`);
        await wb().page.screenshot({ path: file, clip });
        frames.push(file);
      };
      await wb().quickOpen('web.yaml');
      await wb().goToLine(replicasLine(webYaml(2)));
      await wb().page.keyboard.press('End');
      await wb().page.keyboard.press('Backspace');
      await wb().page.keyboard.type('3');
      await frame();
      await wb().page.keyboard.press('Control+S');
      await until(
        'a third pod running, framed as it comes up',
        async () => {
          await frame();
          return runningWebPods(await wb().treeRows()).length === 3 ? true : undefined;
        },
        WAIT_MS,
      );
      const victim = runningWebPods(await wb().treeRows()).find((p) => before.some((b) => b.name === p.name))!.name;
      await wb().contextMenu(victim, 'Kill Pod');
      await until(
        'the killed pod replaced, framed',
        async () => {
          await frame();
          const running = runningWebPods(await wb().treeRows());
          return running.length === 3 && !running.some((p) => p.name === victim) ? true : undefined;
        },
        WAIT_MS,
      );
      for (let i = 0; i < 3; i++) await frame();
      // The walkthrough's pictures say what its text says: web.yaml at 3 replicas, from its first line, and 3/3 pods.
      await until(
        'the killed pod gone from the tree',
        async () => (allWebPods(await wb().treeRows()).length === 3 ? true : undefined),
        WAIT_MS,
      );
      await captureTree('walkthrough-tree');
      await wb().quickOpen('web.yaml');
      await wb().goToLine(1);
      await capture('manifest', wb().page.locator('.part.editor').first());
      console.log(`media: ${frames.length} frames of ${clip.width}×${clip.height}`);
      const webp = join(ARTIFACTS, 'media', 'save-kill-replaced.webp');
      if (existsSync('/usr/bin/img2webp')) {
        // Every frame 400 ms, the last held; lossy, mixed with lossless where it is smaller.
        const args = ['-loop', '0', '-lossy', '-q', '50', '-m', '6', '-mixed'];
        frames.forEach((f, i) => args.push('-d', i === frames.length - 1 ? '2500' : '400', f));
        execFileSync('/usr/bin/img2webp', [...args, '-o', webp], { stdio: 'pipe' });
        console.log(`media: ${webp} is ${Math.round(statSync(webp).size / 1024)} kB`);
      } else console.log('media: img2webp is not installed (apt-get install webp): no animation built');
      if (MEDIA) publish(webp);
    }),
  );

  /** Copies the captured pictures into the repository (README and walkthrough), as WebP when cwebp is there. */
  function publish(animation: string): void {
    const readme = join(ROOT, 'media', 'readme');
    const walkthrough = join(ROOT, 'walkthrough', 'media');
    mkdirSync(readme, { recursive: true });
    mkdirSync(walkthrough, { recursive: true });
    const shots = join(ARTIFACTS, 'media');
    const toWebp = (png: string, out: string, width?: number) =>
      execFileSync('/usr/bin/cwebp', [
        '-quiet',
        '-q',
        '80',
        ...(width ? ['-resize', String(width), '0'] : []),
        png,
        '-o',
        out,
      ]);
    for (const name of ['tree', 'desired-vs-actual', 'pending-why', 'problems-did-you-mean'])
      toWebp(join(shots, `${name}.png`), join(readme, `${name}.webp`));
    if (existsSync(animation)) copyFileSync(animation, join(readme, 'save-kill-replaced.webp'));
    // The walkthrough's pictures are small: they sit beside its text.
    toWebp(join(shots, 'manifest.png'), join(walkthrough, 'manifest.webp'), 640);
    toWebp(join(shots, 'walkthrough-tree.png'), join(walkthrough, 'tree.webp'), 360);
    toWebp(join(shots, 'desired-vs-actual.png'), join(walkthrough, 'desired-vs-actual.webp'), 640);
  }
});
