/**
 * The user's kubeconfig, read as kubectl reads it (upstream: staging/src/k8s.io/client-go/tools/clientcmd/loader.go,
 * `ClientConfigLoadingRules.Load`): an explicit file (`--kubeconfig`) alone, else every file of `KUBECONFIG` (split
 * on the platform's path separator; files that do not exist are skipped) merged so that the first file to set a
 * cluster, user or context — or the current context — wins, else `~/.kube/config`. The files are only read, never
 * written. Parsing and credentials are @kubernetes/client-node's (`KubeConfig`; imported by name, so the bundles
 * keep only what it needs — about 1.5 MB — and not its generated API clients).
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';

/** A kubeconfig that cannot be used: the message names the file or context, never a credential. */
export class KubeconfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KubeconfigError';
  }
}

/** One context of the merged kubeconfig, as a picker shows it. */
export interface LiveContext {
  name: string;
  cluster: string;
  user: string;
  /** The cluster's API server URL ('' when the cluster entry is missing). */
  server: string;
  namespace?: string;
}

export interface LoadedKubeconfig {
  /** The files read, in precedence order (the first to set a name wins). */
  readonly files: readonly string[];
  readonly contexts: readonly LiveContext[];
  /** The merged `current-context` ('' when no file sets one). */
  readonly currentContext: string;
  /** client-node's merged config; private to `live/` (it holds credentials). */
  readonly config: KubeConfig;
}

export interface KubeconfigLocation {
  /** An explicit file (`--kubeconfig`): used alone, as kubectl does. */
  file?: string;
  /** Environment (default: the process's): `KUBECONFIG`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Home folder for `~/.kube/config` (default: the user's). */
  home?: string;
  /** Folder relative paths are resolved from (default: the process's). */
  cwd?: string;
}

/** The files kubectl would read, in precedence order (existence is checked when loading). */
export function kubeconfigFiles(where: KubeconfigLocation = {}): { files: string[]; explicit: boolean } {
  const cwd = where.cwd ?? process.cwd();
  if (where.file) return { files: [resolve(cwd, where.file)], explicit: true };
  const env = where.env ?? process.env;
  const list = (env.KUBECONFIG ?? '').split(delimiter).filter((f) => f.trim() !== '');
  if (list.length > 0) return { files: [...new Set(list.map((f) => resolve(cwd, f)))], explicit: false };
  return { files: [join(where.home ?? homedir(), '.kube', 'config')], explicit: false };
}

/** Reads and merges the kubeconfig files; throws KubeconfigError when none can be used. */
export async function loadKubeconfig(where: KubeconfigLocation = {}): Promise<LoadedKubeconfig> {
  const { files, explicit } = kubeconfigFiles(where);
  const merged = new KubeConfig();
  merged.loadFromOptions({ clusters: [], users: [], contexts: [], currentContext: '' });
  const read: string[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // upstream (loader.go): a missing file of KUBECONFIG is skipped; an explicit one is an error
      if (code === 'ENOENT' && !explicit) continue;
      throw new KubeconfigError(`cannot read the kubeconfig ${file}: ${code ?? (e as Error).message}`);
    }
    const one = new KubeConfig();
    try {
      one.loadFromString(text);
    } catch (e) {
      // js-yaml's message quotes the text around the error, which may be a credential: only its position is kept
      const mark = (e as { mark?: { line?: number } }).mark;
      throw new KubeconfigError(
        `the kubeconfig ${file} is not valid YAML${mark?.line !== undefined ? ` (line ${mark.line + 1})` : ''}`,
      );
    }
    one.makePathsAbsolute(dirname(file));
    read.push(file);
    for (const c of one.clusters ?? []) if (!merged.getCluster(c.name)) merged.addCluster(c);
    for (const u of one.users ?? []) if (!merged.getUser(u.name)) merged.addUser(u);
    for (const c of one.contexts ?? []) if (!merged.getContextObject(c.name)) merged.addContext(c);
    if (!merged.currentContext && one.currentContext) merged.currentContext = one.currentContext;
  }
  if (read.length === 0)
    throw new KubeconfigError(
      `no kubeconfig found (looked for ${files.join(', ')}); set KUBECONFIG or pass --kubeconfig FILE`,
    );
  const contexts = (merged.contexts ?? []).map((c): LiveContext => {
    const ctx: LiveContext = {
      name: c.name,
      cluster: c.cluster,
      user: c.user,
      server: merged.getCluster(c.cluster)?.server ?? '',
    };
    if (c.namespace) ctx.namespace = c.namespace;
    return ctx;
  });
  return { files: read, contexts, currentContext: merged.currentContext ?? '', config: merged };
}

/** The context named `name` (default: the current one); KubeconfigError naming the choices when there is none. */
export function pickContext(loaded: LoadedKubeconfig, name?: string): LiveContext {
  const wanted = name ?? loaded.currentContext;
  const names = loaded.contexts.map((c) => c.name);
  if (!wanted)
    throw new KubeconfigError(
      `the kubeconfig sets no current context; choose one with --context (${names.join(', ') || 'none defined'})`,
    );
  const ctx = loaded.contexts.find((c) => c.name === wanted);
  // upstream (kubectl): error: context "x" does not exist
  if (!ctx)
    throw new KubeconfigError(
      `context "${wanted}" does not exist in ${loaded.files.join(', ')} (contexts: ${names.join(', ') || 'none'})`,
    );
  if (!ctx.server)
    throw new KubeconfigError(`context "${ctx.name}" names cluster "${ctx.cluster}", which has no server`);
  return ctx;
}
