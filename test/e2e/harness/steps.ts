/**
 * What a file of e2e steps shares: a session started lazily by the first step
 * that runs (so a `--test-name-pattern` that selects none of a file's steps
 * starts no code-server for it), each step run with a screenshot of its end
 * or of its failure, and the known state every step starts from (see
 * `Steps.baseline`), so that steps never depend on one another.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ConsoleMessage } from 'playwright-core';
import { allWebPods, deploymentRow, nodeRows, runningWebPods, webYaml } from '../scenario';
import type { PodRow } from '../scenario';
import { startSession } from './session';
import type { Session, SessionOptions } from './session';
import { interruptWaits, resumeWaits } from './wait';
import type { Workbench } from './workbench';

/** Deadline of one wait inside a step; the node:test timeout of a step is above it. */
export const WAIT_MS = 90_000;
/** A step's node:test options (the first one also starts VS Code). */
export const STEP = { timeout: 240_000 };
/** What a tree command shows when it was invoked without a tree item (client/src/commands/objectArg.ts). */
const NO_TREE_ITEM = /: right-click .+ in the Cluster view\.$/;
export const NODES = ['node-1', 'node-2', 'node-3'];
/** A node row as every step starts with it: Ready and schedulable (`Ready · 2 pods`). */
const HEALTHY_NODE = /^Ready · \d+ pods?$/;
export const READY = /^\d+\/\d+$/;

export class Steps {
  private started: Promise<Session> | undefined;
  private current: Session | undefined;

  constructor(private readonly options: () => SessionOptions) {}

  /** The session, started on first use. */
  async session(): Promise<Session> {
    this.started ??= startSession(this.options()).then((s) => {
      s.workbench.timeout = WAIT_MS;
      console.log(`workbench ready in ${s.workbenchReadyMs} ms (${s.workspace})`);
      return (this.current = s);
    });
    return this.started;
  }

  /** Stops the session, if a step started one. */
  async stop(): Promise<void> {
    if (!this.started) return;
    const s = await this.started.catch(() => undefined);
    await s?.stop();
  }

  /**
   * Runs a step's body on the workbench; on failure leaves a screenshot named after the step before rethrowing. Fails
   * at once when the extension reports that a context-menu command reached it without its tree item.
   */
  async run(name: string, body: (wb: Workbench, session: Session) => Promise<void>): Promise<void> {
    const session = await this.session();
    const wb = session.workbench;
    const page = wb.page;
    let onConsole: ((m: ConsoleMessage) => void) | undefined;
    const lostItem = new Promise<never>((_, reject) => {
      onConsole = (m) => {
        if (NO_TREE_ITEM.test(m.text()))
          reject(new Error(`the command reached the extension without its tree item: "${m.text()}"`));
      };
      page.on('console', onConsole);
    });
    const running = body(wb, session);
    try {
      await Promise.race([running, lostItem]);
      await wb.screenshot(name);
    } catch (e) {
      interruptWaits(e instanceof Error ? e : new Error(String(e)));
      await running.catch(() => undefined);
      resumeWaits();
      await wb.screenshot(`${name}-FAILED`).catch(() => undefined);
      if (this.current && this.current.browser.errors.length > 0)
        console.error(`browser errors so far:\n${this.current.browser.errors.slice(-10).join('\n')}`);
      throw e;
    } finally {
      if (onConsole) page.off('console', onConsole);
      lostItem.catch(() => undefined);
    }
  }

  /**
   * The state a step starts from, as test/e2e/extension.test.ts's `baseline`: the workbench tidied, the sandbox
   * running, the workspace settings file empty (`.vscode/settings.json`: no auto-save, self-heal on), web.yaml on disk
   * at `replicas` and applied, every node Ready and schedulable, and the tree showing web at `replicas`/`replicas`
   * with that many running, ready pods and no other web pod. Returns the running web pods.
   */
  async baseline(wb: Workbench, workspace: string, replicas: number): Promise<PodRow[]> {
    await wb.tidy();
    writeWorkspaceSettings(workspace, {});
    await wb.openViewContainer('Kube Reconcile');
    await wb.waitForTree('the three nodes', (rows) => (nodeRows(rows).length === NODES.length ? true : undefined));
    if (/Sandbox paused/.test(await wb.statusBarText())) await wb.runCommand('Kube Reconcile: Resume Sandbox');
    const file = join(workspace, 'web.yaml');
    if (readFileSync(file, 'utf8') !== webYaml(replicas)) {
      writeFileSync(file, webYaml(replicas));
      await wb.runCommand('Kube Reconcile: Apply Workspace to Sandbox');
    }
    for (const node of nodeRows(await wb.treeRows())) {
      if (node.description.startsWith('NotReady')) await wb.contextMenu(node.label, 'Recover Node');
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
  }
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
