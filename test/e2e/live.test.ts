/**
 * A real cluster in a real VS Code (code-server + Chromium), as a user meets it:
 * - L1: `kube-reconcile serve` (run in this process, 2 nodes, examples/web.yaml applied) is the stand-in cluster,
 *   its kubeconfig given to VS Code through `KUBECONFIG`; Connect to Cluster… picks its context and All namespaces;
 *   the Cluster tree shows the served cluster (its two nodes, web at 3/3); web scaled to 4 through the API (an HTTP
 *   merge patch, as `kubectl scale` would send) shows 4/4 in the tree; Describe on that row shows kubectl describe's
 *   text for the live Deployment.
 * Waits with deadlines, leaves screenshots in test-artifacts/e2e/. Run with
 * `npm run test:e2e -- --test-name-pattern="^L1\."`.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runServe } from '../../cli/serve';
import type { ServeListening } from '../../cli/serve';
import { createSuite, STEP, WAIT_MS } from './harness/suite';
import { until } from './harness/wait';
import type { TreeRow } from './harness/workbench';
import { SANDBOX_SETTINGS, WORKSPACE_FILES } from './scenario';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const skip = process.env.E2E_SKIP;
/** The context `serve` writes into its kubeconfig (sandbox/http/kubeconfig.ts). */
const CONTEXT = 'kube-reconcile';
const CONNECT = 'Kube Reconcile: Connect to Cluster…';

const suite = createSuite({
  files: WORKSPACE_FILES,
  settings: SANDBOX_SETTINGS,
  artifactsDir: process.env.E2E_ARTIFACTS ?? join(ROOT, 'test-artifacts', 'e2e'),
});

interface Served {
  listening: ServeListening;
  /** The server's certificate authority, read from the kubeconfig it wrote. */
  ca: string;
  stop(): Promise<void>;
}

let served: Served | undefined;
const home = mkdtempSync(join(tmpdir(), 'kube-reconcile-e2e-live-'));

/** `kube-reconcile serve examples/web.yaml --nodes 2 --speed 20`, its kubeconfig in a temp folder. */
function serve(): Promise<Served> {
  let err = '';
  const io = { stdout: { write: () => true }, stderr: { write: (s: string) => (err += s) }, cwd: ROOT };
  const controller = new AbortController();
  const args = ['examples/web.yaml', '--kubeconfig', join(home, 'config'), '--nodes', '2', '--speed', '20'];
  return new Promise((resolve, reject) => {
    const done = runServe(args, io, {
      stop: controller.signal,
      home,
      onListening: (listening) => {
        const data = /certificate-authority-data: *"?([A-Za-z0-9+/=]+)/.exec(
          readFileSync(listening.kubeconfig, 'utf8'),
        );
        resolve({
          listening,
          ca: data ? Buffer.from(data[1], 'base64').toString('utf8') : '',
          stop: async () => {
            controller.abort();
            await done;
          },
        });
      },
    });
    done.then(
      (code) => reject(new Error(`serve exited with ${code} before listening: ${err}`)),
      (e: unknown) => reject(e instanceof Error ? e : new Error(String(e))),
    );
  });
}

/** A merge patch of `path` on the served API, as kubectl sends it; resolves with the status and body. */
function patch(s: Served, path: string, body: unknown): Promise<{ status: number; body: string }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${s.listening.url}${path}`,
      {
        method: 'PATCH',
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${s.listening.token}`,
          'content-type': 'application/merge-patch+json',
        },
        ...(s.ca ? { ca: s.ca } : { rejectUnauthorized: false }),
        agent: false,
      },
      (res) => {
        let answer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (answer += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: answer }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/** The text of the quick input's rows (icons are not text: `$(cloud) name` reads `name`). */
async function quickRows(): Promise<string[]> {
  return (await suite.wb.page.locator('.quick-input-list .monaco-list-row .label-name').allInnerTexts()).map((t) =>
    t.trim(),
  );
}

/** Waits until the quick input's placeholder contains `text`. */
async function quickInput(text: string): Promise<void> {
  const input = suite.wb.page.locator('.quick-input-widget input').first();
  await until(
    `a quick input "${text}…"`,
    async () => ((await input.getAttribute('placeholder'))?.includes(text) ? true : undefined),
    WAIT_MS,
    async () => `placeholder: ${await input.getAttribute('placeholder')}, rows: ${(await quickRows()).join(' | ')}`,
  );
}

/** Moves the quick input's highlight with Down until it is on the row labelled exactly `label`. */
async function highlight(label: string): Promise<void> {
  const page = suite.wb.page;
  const focused = async () =>
    (await page.locator('.quick-input-list .monaco-list-row.focused .label-name').allInnerTexts())[0]?.trim();
  await until(
    `a quick input row labelled ${label}`,
    async () => ((await quickRows()).includes(label) ? true : undefined),
    WAIT_MS,
    async () => (await quickRows()).join(' | '),
  );
  for (let moves = 0; (await focused()) !== label; moves++) {
    if (moves > 20) throw new Error(`could not highlight ${label}`);
    const before = await focused();
    await page.keyboard.press('ArrowDown');
    await until('the highlight to move', async () => ((await focused()) !== before ? true : undefined), WAIT_MS);
  }
}

/** The served cluster's `web` Deployment row, READY first (`3/3`, then what the sync status adds). */
function webRow(rows: readonly TreeRow[]): TreeRow | undefined {
  return rows.find((r) => r.label === 'web' && /^\d+\/\d+\b/.test(r.description));
}

describe('Kube Reconcile: a real cluster (code-server + Chromium)', { skip: skip ? `skipped: ${skip}` : false }, () => {
  after(
    async () => {
      await suite.stop();
      await served?.stop();
      rmSync(home, { recursive: true, force: true });
    },
    { timeout: 60_000 },
  );

  test(
    'L1. Connect to Cluster… shows the served cluster; a scale through its API updates the tree; Describe shows it',
    STEP,
    async () => {
      // The cluster first: VS Code (started by the first step) reads KUBECONFIG from the environment it inherits.
      served ??= await serve();
      process.env.KUBECONFIG = served.listening.kubeconfig;
      const s = served;
      await suite.step('live-connect', async () => {
        const { wb } = suite;
        const page = wb.page;
        await wb.tidy();
        await wb.openViewContainer('Kube Reconcile');
        // Connect to Cluster…: the kubeconfig's context (the current one), then All namespaces (selected at first).
        await wb.closeMenus();
        await page.keyboard.press('F1');
        const input = page.locator('.quick-input-widget input').first();
        await input.waitFor({ state: 'visible', timeout: WAIT_MS });
        await input.fill(`>${CONNECT}`);
        await highlight(CONNECT);
        await page.keyboard.press('Enter');
        await quickInput('Show which cluster in the Kube Reconcile views?');
        await highlight(CONTEXT);
        await page.keyboard.press('Enter');
        await quickInput(`Watch which namespaces of "${CONTEXT}"?`);
        await highlight('All namespaces');
        const all = page
          .locator('.quick-input-list .monaco-list-row', {
            has: page.locator('.label-name', { hasText: /^\s*All namespaces\s*$/ }),
          })
          .first();
        assert.equal(await all.getAttribute('aria-checked'), 'true', 'All namespaces is selected');
        await page.keyboard.press('Enter');
        await page.locator('.quick-input-widget').first().waitFor({ state: 'hidden', timeout: WAIT_MS });
        // The tree shows the served cluster: its two nodes (the sandbox has three) and web at 3/3.
        await wb.waitForTree('the served cluster: node-1, node-2 and web at 3/3', (rows) => {
          const nodes = rows.filter((r) => /^node-\d+$/.test(r.label)).map((r) => r.label);
          return nodes.join(',') === 'node-1,node-2' && webRow(rows)?.description.startsWith('3/3') ? true : undefined;
        });
        assert.match(await wb.statusBarText(), new RegExp(CONTEXT));
        await wb.screenshot('live-connected');
        // kubectl scale deployment web --replicas=4, as a merge patch on the served API.
        const answer = await patch(s, '/apis/apps/v1/namespaces/default/deployments/web', { spec: { replicas: 4 } });
        assert.equal(answer.status, 200, answer.body);
        const row = await wb.waitForTree('web at 4/4 in the tree', (rows) =>
          webRow(rows)?.description.startsWith('4/4') ? webRow(rows) : undefined,
        );
        console.log(`web row after the scale: ${row.description}`);
        // Describe on that row: kubectl describe's text of the live Deployment.
        await wb.contextMenu('web', 'Describe', /^4\/4/);
        await page
          .locator('.part.editor .tabs-container .tab.active', { hasText: /Describe deployment.web/ })
          .first()
          .waitFor({ state: 'visible', timeout: WAIT_MS });
        await until(
          'the describe text of web',
          async () => {
            const lines = await wb.editorLines();
            return lines.some((l) => /^Name:\s+web$/.test(l)) &&
              lines.some((l) => /^Replicas:\s+4 desired \| 4 updated \| 4 total \| 4 available/.test(l))
              ? true
              : undefined;
          },
          WAIT_MS,
          async () => (await wb.editorLines()).slice(0, 25).join(' | '),
        );
      });
    },
  );
});
