/**
 * Foresight in a real VS Code (code-server + Chromium), as a user meets it:
 * - F1: web.yaml open, `replicas` edited beyond what the three nodes hold and not saved: the plan (run in the
 *   sandbox worker on a fork) puts a Warning with the scheduler's message on the container's `resources.requests`
 *   and a save-impact lens above the Deployment; the lens opens the plan as a document; the sandbox is unchanged.
 * Starts from `Suite.baseline`, waits with deadlines, leaves screenshots in test-artifacts/e2e/. Run with
 * `npm run test:e2e -- --test-name-pattern="^F1\."`.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSuite, STEP, WAIT_MS } from './harness/suite';
import { until } from './harness/wait';
import type { Workbench } from './harness/workbench';
import { deploymentRow, replicasLine, SANDBOX_SETTINGS, webYaml, WORKSPACE_FILES } from './scenario';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const skip = process.env.E2E_SKIP;

const suite = createSuite({
  files: WORKSPACE_FILES,
  settings: SANDBOX_SETTINGS,
  artifactsDir: process.env.E2E_ARTIFACTS ?? join(ROOT, 'test-artifacts', 'e2e'),
});

/** The code lenses the active editor shows, top to bottom. */
function lenses(wb: Workbench): Promise<string[]> {
  return wb.page.locator('.part.editor .editor-instance .codelens-decoration').allInnerTexts();
}

/** Waits until a lens of the active editor matches `pattern`. */
function lens(wb: Workbench, pattern: RegExp): Promise<string> {
  return until(
    `a lens ${pattern}`,
    async () => (await lenses(wb)).find((l) => pattern.test(l)),
    WAIT_MS,
    async () => (await lenses(wb)).join(' | '),
  );
}

describe('Kube Reconcile: foresight (code-server + Chromium)', { skip: skip ? `skipped: ${skip}` : false }, () => {
  after(() => suite.stop(), { timeout: 60_000 });

  test(
    'F1. replicas beyond capacity, unsaved: a Pending warning with the scheduler message and a save-impact lens',
    STEP,
    () =>
      suite.step('foresight-beyond-capacity', async () => {
        const { wb, session } = suite;
        await suite.baseline(3);
        const file = join(session.workspace, 'web.yaml');
        await wb.quickOpen('web.yaml');
        // The saved text plans as no change.
        await lens(wb, /^Save: no change$/);
        await wb.goToLine(replicasLine(webYaml(3)));
        await wb.page.keyboard.press('End');
        await wb.page.keyboard.press('Backspace');
        await wb.page.keyboard.type('150');
        await wb.waitDirty(true);
        // 3 nodes of 4 CPUs hold about 120 pods of 100m (config.yaml's pod takes its share): the rest stay Pending,
        // in the scheduler's words, on the container's requests (line 36 of web.yaml).
        const warning = await until(
          'the plan warning in the Problems panel',
          async () => (await wb.problems()).find((p) => / of 150 replicas would stay Pending/.test(p)),
          WAIT_MS,
          async () => (await wb.problems()).join(' | '),
        );
        const m = /(\d+) of 150 replicas would stay Pending: 0\/3 nodes are available: 3 Insufficient cpu\./.exec(
          warning,
        );
        assert.ok(m, warning);
        assert.ok(Number(m[1]) >= 30, warning);
        assert.match(warning, /kube-reconcile plan/);
        assert.match(warning, /\[Ln 36, Col 13\]/);
        await lens(wb, new RegExp(`^Save: scale 3 → 150 · ${m[1]} pods would stay Pending$`));
        await wb.screenshot('foresight-beyond-capacity-lens');
        await wb.page
          .locator('.part.editor .codelens-decoration a', { hasText: 'Save: scale 3 → 150' })
          .first()
          .click();
        // The lens opens the plan as a read-only document beside the manifest: its text form, kubectl diff first.
        await wb.page
          .locator('.part.editor .tabs-container .tab.active', { hasText: 'web.yaml.plan' })
          .first()
          .waitFor({ state: 'visible', timeout: WAIT_MS });
        await until(
          'the plan document',
          async () => {
            const lines = await wb.editorLines();
            return lines.includes('deployment.apps/web configured (web.yaml:9)') && lines.includes('+  replicas: 150')
              ? true
              : undefined;
          },
          WAIT_MS,
          async () => (await wb.editorLines()).slice(0, 25).join(' | '),
        );
        await wb.screenshot('foresight-plan-document');
        // Nothing was saved or applied: the file on disk and the sandbox are as they were.
        assert.equal(readFileSync(file, 'utf8'), webYaml(3));
        assert.equal(deploymentRow(await wb.treeRows())?.description, '3/3');
        // Back to the manifest by closing the plan document beside it. Not Quick Open: its list shows the recently
        // opened web.yaml.plan first and can re-sort under the highlight as file results arrive.
        await wb.runCommand('View: Close Editor');
        await wb.page
          .locator('.part.editor .tabs-container .tab', { hasText: 'web.yaml.plan' })
          .first()
          .waitFor({ state: 'detached', timeout: WAIT_MS });
        await wb.page
          .locator('.part.editor .editor-group-container.active .tabs-container .tab.active', { hasText: 'web.yaml' })
          .first()
          .waitFor({ state: 'visible', timeout: WAIT_MS });
        await wb.runCommand('File: Revert File');
        await wb.waitDirty(false);
      }),
  );
});
