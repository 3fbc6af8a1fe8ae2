/**
 * One end-to-end session: a temp workspace, the VSIX installed into a fresh
 * extensions folder, code-server serving it, and Chromium showing the
 * workbench. `stop()` tears it all down and is safe to call after a failed start.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { launchBrowser } from './browser';
import type { Browser } from './browser';
import { installExtension, startCodeServer, writeUserSettings } from './codeServer';
import type { RunningServer, ServerDirs } from './codeServer';
import { Workbench } from './workbench';

/** The file in the artifacts folder that holds the running code-server's process group id. */
export const PGID_FILE = 'code-server.pgid';

export interface SessionOptions {
  /** The code-server launcher (scripts/e2e/cache.mjs). */
  codeServer: string;
  vsix: string;
  /** Workspace files by relative path. */
  files: Readonly<Record<string, string>>;
  /** User settings on top of the harness's quiet defaults. */
  settings: Readonly<Record<string, unknown>>;
  /** Screenshots and the server log go here. */
  artifactsDir: string;
  /** Keep the temp folder (workspace, profiles) after `stop()`, for debugging. */
  keepTemp?: boolean;
}

export interface Session {
  workbench: Workbench;
  browser: Browser;
  workspace: string;
  dirs: ServerDirs;
  /** code-server's own log (its stdout and stderr). */
  serverLog: string;
  /** Milliseconds from opening the page to the workbench being ready. */
  workbenchReadyMs: number;
  stop(): Promise<void>;
}

function writeFiles(root: string, files: Readonly<Record<string, string>>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** Starts everything; on failure stops what had started and rethrows. */
export async function startSession(o: SessionOptions): Promise<Session> {
  const temp = mkdtempSync(join(tmpdir(), 'kube-reconcile-e2e-'));
  const dirs: ServerDirs = {
    userDataDir: join(temp, 'user-data'),
    extensionsDir: join(temp, 'extensions'),
    homeDir: join(temp, 'home'),
  };
  const workspace = join(temp, 'workspace');
  mkdirSync(o.artifactsDir, { recursive: true });
  const serverLog = join(o.artifactsDir, 'code-server.log');
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  // Where the server's process group is recorded, so that scripts/e2e/run.mjs can stop it
  // even when this process is killed before stop() runs.
  const pgidFile = join(o.artifactsDir, PGID_FILE);
  const stop = async (): Promise<void> => {
    await browser?.context.close().catch(() => undefined);
    await server?.stop();
    rmSync(pgidFile, { force: true });
    if (!o.keepTemp) rmSync(temp, { recursive: true, force: true });
  };
  try {
    writeFiles(workspace, o.files);
    installExtension(o.codeServer, o.vsix, dirs);
    writeUserSettings(dirs, o.settings);
    server = await startCodeServer(o.codeServer, dirs, workspace, serverLog);
    writeFileSync(pgidFile, `${server.pgid}\n`);
    browser = await launchBrowser(join(temp, 'chromium'));
    const workbench = new Workbench(browser.page, o.artifactsDir);
    const opened = Date.now();
    await browser.page.goto(server.url);
    await workbench.ready();
    return { workbench, browser, workspace, dirs, serverLog, workbenchReadyMs: Date.now() - opened, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
