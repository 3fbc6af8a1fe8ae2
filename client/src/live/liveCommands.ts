/**
 * Connect to Cluster… and Apply to Cluster…, written against the `Ui` interface and injected kubeconfig/connection
 * functions (no `vscode` import), so that tests drive them with a fake Ui against `kube-reconcile serve`.
 * The informers run in the extension host: they only wait on sockets and hand batches (≤ 10 a second) to the
 * Cluster view, so they never block it, and the sandbox worker's loop never sees them.
 */
import { applyToCluster, isProtectedContext, previewApply } from '../../../live/apply';
import type { ApplyPreview } from '../../../live/apply';
import { LiveConnection } from '../../../live/connection';
import { LiveInformers } from '../../../live/informers';
import { loadKubeconfig } from '../../../live/kubeconfig';
import type { KubeconfigLocation, LoadedKubeconfig } from '../../../live/kubeconfig';
import type { KubeObject } from '../../../sandbox/api/types';
import { manifestObjects } from '../../../sandbox/manifests/parseManifests';
import { errorMessage } from '../commands/context';
import type { Ui } from '../commands/ui';
import { contextPickItems } from './viewedCluster';
import type { ViewedCluster } from './viewedCluster';

export interface LiveDeps {
  ui: Ui;
  viewed: ViewedCluster;
  /** Where the kubeconfig is (default: KUBECONFIG, else ~/.kube/config). */
  kubeconfig?: () => KubeconfigLocation;
  /** `kubeReconcile.protectedContexts`. */
  protectedContexts: () => string;
  /** One line per request (method, path, status, time — never a credential): the output channel. */
  log?: (line: string) => void;
  /** Timers for the informers (tests). */
  batchMs?: number;
}

/** The informers of the context shown, and stopping them. */
export class LiveSession {
  private informers: LiveInformers | undefined;
  private conn: LiveConnection | undefined;
  private loaded: LoadedKubeconfig | undefined;

  constructor(private readonly deps: LiveDeps) {}

  /** The kubeconfig read by the last connect (what Apply uses). */
  get kubeconfig(): LoadedKubeconfig | undefined {
    return this.loaded;
  }

  /** "Kube Reconcile: Connect to Cluster…": picks a context (or the Sandbox) and shows it. */
  async connect(): Promise<void> {
    const { ui, viewed } = this.deps;
    let loaded: LoadedKubeconfig;
    try {
      loaded = await loadKubeconfig(this.deps.kubeconfig?.() ?? {});
    } catch (e) {
      ui.error(`Kube Reconcile cannot read your kubeconfig: ${errorMessage(e)}`);
      return;
    }
    const items = contextPickItems(loaded.contexts, loaded.currentContext, viewed.context).map((i) => ({
      label: i.label,
      description: i.description,
      value: i.context ?? '',
    }));
    const picked = await ui.pick(items, 'Show which cluster in the Kube Reconcile views? (read-only)');
    if (picked === undefined) return;
    if (picked === '') return this.showSandbox();
    await this.show(loaded, picked);
  }

  /** Shows `context` of `loaded`; on failure says why in kubectl's words and shows the sandbox again. */
  async show(loaded: LoadedKubeconfig, context: string): Promise<boolean> {
    const { ui, viewed } = this.deps;
    this.stop();
    this.loaded = loaded;
    let conn: LiveConnection;
    try {
      conn = await LiveConnection.open(loaded, { context, ...(this.deps.log ? { log: this.deps.log } : {}) });
    } catch (e) {
      ui.error(`Kube Reconcile cannot connect to context "${context}": ${errorMessage(e)}`);
      viewed.showSandbox();
      return false;
    }
    const informers = new LiveInformers(
      conn,
      (feed) => viewed.feedFrom(context, feed),
      (status) => viewed.feedStatusFrom(context, status),
      this.deps.batchMs !== undefined ? { batchMs: this.deps.batchMs } : {},
    );
    this.conn = conn;
    this.informers = informers;
    viewed.showContext(context);
    const progress = ui.progress(`Listing context "${context}"…`);
    try {
      await informers.start();
      return true;
    } catch (e) {
      if (this.informers === informers) {
        this.stop();
        viewed.showSandbox();
      }
      ui.error(`Kube Reconcile cannot show context "${context}": ${errorMessage(e)}`);
      return false;
    } finally {
      progress.done();
    }
  }

  /** Stops watching the real cluster and shows the sandbox. */
  showSandbox(): void {
    this.stop();
    this.deps.viewed.showSandbox();
  }

  stop(): void {
    this.informers?.stop();
    this.conn?.close();
    this.informers = undefined;
    this.conn = undefined;
  }

  /**
   * "Kube Reconcile: Apply to Cluster…" for the manifests of `text` (the active editor), on the context shown:
   * a server-side dry run, the diff shown, a confirmation (the context's name typed for a protected context), then
   * server-side apply with field manager `kube-reconcile`. Never runs on save. Returns kubectl's lines when applied.
   */
  async apply(text: string, source: string): Promise<string[] | undefined> {
    const { ui, viewed } = this.deps;
    const context = viewed.context;
    if (context === undefined || !this.loaded) {
      ui.error('Apply to Cluster needs a real cluster: run "Kube Reconcile: Connect to Cluster…" first.');
      return undefined;
    }
    const { manifests, errors } = manifestObjects(text);
    if (errors.length > 0) {
      ui.error(`${source} has errors (line ${errors[0]!.line + 1}: ${errors[0]!.message}): nothing was sent.`);
      return undefined;
    }
    if (manifests.length === 0) {
      ui.error(`${source} has no manifest to apply.`);
      return undefined;
    }
    const objects: KubeObject[] = manifests.map((m) => m.object);
    let conn: LiveConnection | undefined;
    try {
      conn = await LiveConnection.open(this.loaded, {
        context,
        writes: true,
        ...(this.deps.log ? { log: this.deps.log } : {}),
      });
      const previews = await previewApply(conn, objects);
      await ui.showText(`Apply ${source} to ${context} (dry run).diff`, previewText(context, previews));
      if (previews.every((p) => p.action === 'unchanged')) {
        ui.info(`Context "${context}" already matches ${source}: nothing to apply.`);
        return undefined;
      }
      const pattern = this.deps.protectedContexts();
      let typedContext: string | undefined;
      if (isProtectedContext(context, pattern)) {
        typedContext = await ui.input({
          title: `Apply to protected context "${context}"`,
          prompt: `Context "${context}" matches kubeReconcile.protectedContexts: type its name to apply ${source}`,
          value: '',
          validate: (t) => (t === context ? undefined : `Type "${context}" exactly to apply`),
        });
        if (typedContext !== context) return undefined;
      } else if (
        !(await ui.confirm(`Apply ${source} to context "${context}"?`, summary(previews), 'Apply (server-side)'))
      )
        return undefined;
      const lines = await applyToCluster(conn, objects, {
        protectedContexts: pattern,
        ...(typedContext !== undefined ? { typedContext } : {}),
      });
      ui.info(lines.join('\n'));
      return lines;
    } catch (e) {
      ui.error(`Apply to context "${context}" failed: ${errorMessage(e)}`);
      return undefined;
    } finally {
      conn?.close();
    }
  }
}

function summary(previews: readonly ApplyPreview[]): string {
  return previews.map((p) => `${p.ref}${p.namespace ? ` (${p.namespace})` : ''}: ${p.action}`).join('\n');
}

/** The dry run as a document: what the server answered for each object, then `kubectl diff`'s diff. */
export function previewText(context: string, previews: readonly ApplyPreview[]): string {
  const head = `# Server-side dry run on context "${context}" (nothing was stored):\n${summary(previews)
    .split('\n')
    .map((l) => `#   ${l}`)
    .join('\n')}\n`;
  return [head, ...previews.filter((p) => p.diff !== '').map((p) => p.diff)].join('\n');
}
