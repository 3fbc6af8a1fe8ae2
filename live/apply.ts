/**
 * Apply to a real cluster, only when the user asks: a server-side dry run of each manifest first (the cluster's own
 * admission, defaults and webhooks answer, nothing is stored), the diff `kubectl diff` would show, then — on a
 * connection opened for writes, and for a protected context only with its name typed back — server-side apply with
 * field manager `kube-reconcile` (upstream: `kubectl apply --server-side --field-manager=kube-reconcile`, a PATCH
 * with `application/apply-patch+yaml`; `kubectl diff` is the same PATCH with `dryRun=All`).
 */
import { resourceFor } from '../sandbox/api/resources';
import type { KubeObject } from '../sandbox/api/types';
import { objectDiff } from '../sandbox/plan/diff';
import { LiveError } from './connection';
import type { LiveConnection } from './connection';

export const FIELD_MANAGER = 'kube-reconcile';
/** `kubeReconcile.protectedContexts`' default: contexts whose name matches need it typed before an apply. */
export const DEFAULT_PROTECTED_CONTEXTS = 'prod|production';

/** True when the context's name matches the pattern (a regular expression, any case); a bad pattern protects all. */
export function isProtectedContext(context: string, pattern: string = DEFAULT_PROTECTED_CONTEXTS): boolean {
  if (pattern.trim() === '') return false;
  try {
    return new RegExp(pattern, 'i').test(context);
  } catch {
    return true;
  }
}

export interface ApplyPreview {
  /** `deployment.apps/web`, as kubectl names it. */
  ref: string;
  namespace?: string;
  action: 'created' | 'configured' | 'unchanged';
  /** `kubectl diff`'s unified diff against the live object (empty when unchanged or created). */
  diff: string;
  /** The object as the server answered the dry run (defaults filled in). */
  merged: KubeObject;
}

interface Target {
  path: string;
  ref: string;
  namespace?: string;
}

function target(object: KubeObject, defaultNamespace: string): Target {
  const r = resourceFor(object.apiVersion ?? '', object.kind ?? '');
  const name = object.metadata?.name;
  if (!r)
    throw new LiveError(
      'server',
      `${object.apiVersion ?? '?'}/${object.kind ?? '?'}: not a kind Kube Reconcile knows; apply it with kubectl`,
    );
  if (!name) throw new LiveError('server', `${r.kind}: metadata.name is required`);
  const base = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  const namespace = r.namespaced ? object.metadata.namespace || defaultNamespace : undefined;
  const scope = namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  const group = r.group ? `.${r.group}` : '';
  return {
    path: `${base}${scope}/${r.plural}/${encodeURIComponent(name)}`,
    ref: `${r.kind.toLowerCase()}${group}/${name}`,
    ...(namespace ? { namespace } : {}),
  };
}

async function current(conn: LiveConnection, path: string): Promise<KubeObject | undefined> {
  try {
    return await conn.request<KubeObject>('GET', path);
  } catch (e) {
    if (e instanceof LiveError && e.status === 404) return undefined;
    throw e;
  }
}

function patch(conn: LiveConnection, t: Target, object: KubeObject, dryRun: boolean): Promise<KubeObject> {
  return conn.request<KubeObject>('PATCH', t.path, {
    // JSON is YAML: the apply configuration is sent as the manifest itself
    body: { ...object, metadata: { ...object.metadata, ...(t.namespace ? { namespace: t.namespace } : {}) } },
    contentType: 'application/apply-patch+yaml',
    query: { fieldManager: FIELD_MANAGER, ...(dryRun ? { dryRun: 'All' } : {}) },
  });
}

/**
 * What applying would change, answered by the cluster (server-side dry run; needs a connection opened for writes,
 * as the dry run is a PATCH — nothing is stored). Rejects with the server's message for a manifest it refuses.
 */
export async function previewApply(
  conn: LiveConnection,
  manifests: readonly KubeObject[],
  defaultNamespace = conn.context.namespace ?? 'default',
): Promise<ApplyPreview[]> {
  const out: ApplyPreview[] = [];
  for (const m of manifests) {
    const t = target(m, defaultNamespace);
    const live = await current(conn, t.path);
    const merged = await patch(conn, t, m, true);
    const diff = live ? objectDiff(live, merged) : '';
    const action = !live ? 'created' : diff === '' ? 'unchanged' : 'configured';
    out.push({
      ref: t.ref,
      ...(t.namespace ? { namespace: t.namespace } : {}),
      action,
      diff,
      merged,
    });
  }
  return out;
}

export interface ApplyOptions {
  /** The name the user typed; required when the context is protected, and must equal it. */
  typedContext?: string;
  /** `kubeReconcile.protectedContexts` (default `prod|production`). */
  protectedContexts?: string;
}

/**
 * Server-side apply of each manifest with field manager `kube-reconcile`. Refused before anything is sent when the
 * connection is read-only, or the context is protected and its name was not typed back exactly.
 */
export async function applyToCluster(
  conn: LiveConnection,
  manifests: readonly KubeObject[],
  options: ApplyOptions = {},
  defaultNamespace = conn.context.namespace ?? 'default',
): Promise<string[]> {
  const ctx = conn.context.name;
  if (isProtectedContext(ctx, options.protectedContexts) && options.typedContext !== ctx)
    throw new LiveError(
      'read-only',
      `context "${ctx}" is protected (kubeReconcile.protectedContexts): type its name to apply; nothing was sent`,
    );
  const lines: string[] = [];
  for (const m of manifests) {
    const t = target(m, defaultNamespace);
    await patch(conn, t, m, false);
    // upstream (kubectl apply --server-side, printer operation "serverside-applied")
    lines.push(`${t.ref} serverside-applied`);
  }
  return lines;
}
