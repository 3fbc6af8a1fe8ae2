/**
 * One code-server (VS Code 1.100 served over HTTP) per test run, in its own
 * process group so that stopping it also stops its extension host, file
 * watchers and language server (shared/reference/vscode-host.md, steps 4–6).
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, openSync, closeSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { until } from './wait';

/** The folders one server uses; all inside a temp folder the caller removes. */
export interface ServerDirs {
  userDataDir: string;
  extensionsDir: string;
  /** Where code-server's XDG config/data (logs) go, so that nothing lands in the home folder. */
  homeDir: string;
}

/** Settings for a quiet, predictable workbench: no welcome page, no telemetry, no updates, no trust prompt. */
export const BASE_SETTINGS: Readonly<Record<string, unknown>> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'files.autoSave': 'off',
  // What the steps type goes into the file as typed: no suggestion is accepted by a commit
  // character (`:`) or Enter, no bracket or quote is closed, nothing pops up over the text.
  'editor.quickSuggestions': { other: 'off', comments: 'off', strings: 'off' },
  'editor.suggestOnTriggerCharacters': false,
  'editor.acceptSuggestionOnCommitCharacter': false,
  'editor.acceptSuggestionOnEnter': 'off',
  'editor.inlineSuggest.enabled': false,
  'editor.autoClosingBrackets': 'never',
  'editor.autoClosingQuotes': 'never',
  'editor.formatOnType': false,
  'editor.hover.enabled': false,
};

function serverEnv(dirs: ServerDirs): NodeJS.ProcessEnv {
  return {
    ...process.env,
    XDG_CONFIG_HOME: join(dirs.homeDir, 'config'),
    XDG_DATA_HOME: join(dirs.homeDir, 'data'),
    XDG_CACHE_HOME: join(dirs.homeDir, 'cache'),
  };
}

/** Installs a VSIX into `dirs.extensionsDir`; throws with code-server's output when it fails. */
export function installExtension(bin: string, vsix: string, dirs: ServerDirs): void {
  const r = spawnSync(
    bin,
    [
      '--config',
      '/dev/null',
      '--user-data-dir',
      dirs.userDataDir,
      '--extensions-dir',
      dirs.extensionsDir,
      '--install-extension',
      vsix,
    ],
    {
      env: serverEnv(dirs),
      encoding: 'utf8',
      timeout: 120_000,
    },
  );
  if (r.status !== 0 || !/successfully installed/i.test(r.stdout)) {
    throw new Error(`code-server could not install ${vsix} (exit ${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
  }
}

/** Writes the user settings: `BASE_SETTINGS` overlaid with `extra`. */
export function writeUserSettings(dirs: ServerDirs, extra: Readonly<Record<string, unknown>>): void {
  const dir = join(dirs.userDataDir, 'User');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'settings.json'), `${JSON.stringify({ ...BASE_SETTINGS, ...extra }, null, 2)}\n`);
}

/** A free TCP port on 127.0.0.1 (bound, read, released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no port'))));
    });
  });
}

export interface RunningServer {
  /** `http://127.0.0.1:PORT/?folder=WORKSPACE`. */
  url: string;
  /** The process group id (the main process's pid). */
  pgid: number;
  /** Stops the whole process group; resolves once the main process has exited. Safe to call twice. */
  stop(): Promise<void>;
}

async function isHealthy(base: string): Promise<boolean> {
  try {
    const r = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2_000) });
    return r.ok;
  } catch {
    return false;
  }
}

function stopGroup(child: ChildProcess): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () => {
    if (stopping) return stopping;
    const exited = new Promise<void>((resolve) =>
      child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
    );
    const signal = (s: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, s);
      } catch {
        // The group is already gone.
      }
    };
    signal('SIGTERM');
    const killLater = setTimeout(() => signal('SIGKILL'), 5_000);
    stopping = exited.then(() => {
      clearTimeout(killLater);
      // Children that ignored SIGTERM (extension host, watchers) go with the group.
      signal('SIGKILL');
    });
    return stopping;
  };
}

/**
 * Starts code-server on a free 127.0.0.1 port with `workspace` open, logging
 * to `logFile`, and resolves once `/healthz` answers. The process leads its
 * own process group (`detached`), which `stop()` signals whole.
 */
export async function startCodeServer(
  bin: string,
  dirs: ServerDirs,
  workspace: string,
  logFile: string,
  timeoutMs = 30_000,
): Promise<RunningServer> {
  const port = await freePort();
  const args = [
    '--config',
    '/dev/null',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--user-data-dir',
    dirs.userDataDir,
    '--extensions-dir',
    dirs.extensionsDir,
    workspace,
  ];
  const fd = openSync(logFile, 'a');
  const child = spawn(bin, args, { detached: true, stdio: ['ignore', fd, fd], env: serverEnv(dirs) });
  closeSync(fd);
  const stop = stopGroup(child);
  const base = `http://127.0.0.1:${port}`;
  try {
    await until(
      `code-server to answer on ${base}/healthz`,
      async () => {
        if (child.exitCode !== null) throw new Error(`code-server exited with ${child.exitCode}; see ${logFile}`);
        return (await isHealthy(base)) ? true : undefined;
      },
      timeoutMs,
    );
  } catch (e) {
    await stop();
    throw e;
  }
  return { url: `${base}/?folder=${encodeURIComponent(workspace)}`, pgid: child.pid!, stop };
}
