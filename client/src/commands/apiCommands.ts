/**
 * The sandbox's Kubernetes HTTP API for kubectl, on the host side: its
 * settings, sending them to the worker (at start, on change, after a worker
 * restart), telling the user when it fails, and the two commands that hand
 * the kubeconfig to the user: Copy Kubeconfig Path and Open Terminal with
 * KUBECONFIG.
 */
import { rmSync } from 'node:fs';
import { exportKubeconfig } from '../../../sandbox/http/kubeconfig';
import type { Disposable } from '../sandbox/connection';
import type { ApiStatus } from '../sandbox/protocol';
import type { CommandContext, CommandFactory } from './context';
import { errorMessage } from './context';

/** `kubeReconcile.api.enabled` and `kubeReconcile.api.port`. */
export interface ApiConfig {
  enabled: boolean;
  /** 0: any free port. */
  port: number;
}

export const DEFAULT_API_CONFIG: Readonly<ApiConfig> = { enabled: true, port: 0 };

/** The API settings from `get(key)`; a missing or out-of-range value falls back to its default. */
export function readApiConfig(get: (key: 'api.enabled' | 'api.port') => unknown): ApiConfig {
  const enabled = get('api.enabled');
  const port = get('api.port');
  return {
    enabled: typeof enabled === 'boolean' ? enabled : DEFAULT_API_CONFIG.enabled,
    port:
      typeof port === 'number' && Number.isInteger(port) && port >= 0 && port <= 65535 ? port : DEFAULT_API_CONFIG.port,
  };
}

export const API_OFF =
  "The sandbox's Kubernetes API is off: turn on the setting kubeReconcile.api.enabled to use kubectl with the sandbox.";
export const API_STARTING = "The sandbox's Kubernetes API is starting: try again in a moment.";
export const TERMINAL_NAME = 'kubectl (Kube Reconcile)';

/** One line saying where the API stands, for the status bar's tooltip and the output channel. */
export function describeApi(status: ApiStatus | undefined): string | undefined {
  switch (status?.state) {
    case 'serving':
      return `Kubernetes API at ${status.url} (kubectl: ${exportKubeconfig(status.kubeconfig)})`;
    case 'failed':
      return `Kubernetes API not available: ${status.error}`;
    case 'off':
      return 'Kubernetes API off (setting kubeReconcile.api.enabled)';
    case 'starting':
      return 'Kubernetes API starting…';
    default:
      return undefined;
  }
}

/** The serving API, or says why there is none and returns undefined. */
function servingApi(ctx: CommandContext): { url: string; kubeconfig: string } | undefined {
  const status = ctx.connection.status?.api;
  if (ctx.api?.().enabled !== true || status?.state === 'off') {
    ctx.ui.info(API_OFF);
    return undefined;
  }
  if (status?.state === 'serving') return status;
  if (status?.state === 'failed') ctx.ui.error(`The sandbox's Kubernetes API could not start: ${status.error}`);
  else ctx.ui.info(API_STARTING);
  return undefined;
}

export const copyKubeconfigPath: CommandFactory = (ctx) => async () => {
  const api = servingApi(ctx);
  if (!api) return;
  await ctx.ui.copy(api.kubeconfig);
  ctx.ui.notify(`Copied the kubeconfig path: ${exportKubeconfig(api.kubeconfig)}`);
};

export const openKubectlTerminal: CommandFactory = (ctx) => async () => {
  const api = servingApi(ctx);
  if (!api) return;
  ctx.ui.openTerminal({
    name: TERMINAL_NAME,
    env: { KUBECONFIG: api.kubeconfig },
    message: `KUBECONFIG points at the Kube Reconcile sandbox (${api.url}). Try: kubectl get pods -A`,
  });
};

/** Sends the current API settings to the worker (a failure to listen arrives as a status: see `connectApi`). */
export async function sendApiSettings(ctx: CommandContext): Promise<void> {
  const api = ctx.api?.();
  if (!api) return;
  try {
    await ctx.connection.request('setApi', api);
  } catch (e) {
    ctx.ui.error(`Kube Reconcile could not apply the API settings: ${errorMessage(e)}`);
  }
}

export interface ApiEvents {
  /** `kubeReconcile.api.*` changed. */
  onDidChangeSettings(listener: () => void): Disposable;
  /** The worker died; the host restarts it and re-sends its last `init`. */
  onDidCrash(listener: (error: Error) => void): Disposable;
}

/**
 * Keeps the worker's API in line with the settings: on change; after a worker
 * restart (the host's re-`init` carries the settings of the last init, which a
 * later change may have superseded); tells the user when the API fails after
 * starting in the background; removes the kubeconfig when the extension stops.
 */
export function connectApi(ctx: CommandContext, events: ApiEvents): Disposable[] {
  let shownError: string | undefined;
  return [
    events.onDidChangeSettings(() => void sendApiSettings(ctx)),
    // After the host has posted its re-init to the new worker (synchronously after firing this event).
    events.onDidCrash(() => queueMicrotask(() => void sendApiSettings(ctx))),
    ctx.connection.onDidStatus((status) => {
      const api = status.api;
      if (api?.state !== 'failed') shownError = undefined;
      else if (api.error !== shownError)
        ctx.ui.error(`The sandbox's Kubernetes API could not start: ${(shownError = api.error)}`);
    }),
    {
      dispose: () => {
        const file = ctx.api?.().kubeconfig;
        if (file) rmSync(file, { force: true });
      },
    },
  ];
}
