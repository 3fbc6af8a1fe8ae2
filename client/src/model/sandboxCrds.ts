/**
 * The CustomResourceDefinitions the running sandbox serves, for the language server: the host's mirror holds every
 * CRD (applied from the workspace, by kubectl over HTTP, or from a snapshot); the established ones go to the server
 * as the `kubeReconcile/sandboxCrds` notification (server/src/services/customSchema/externalCrds.ts), which gives
 * their kinds a schema in the editor. The server lets a workspace CRD win over the sandbox's for the same kind, so
 * the CRDs the workspace contains need no filtering here. No `vscode` import: the wiring is languageClient.ts's.
 */
import type { KubeObject } from '../../../sandbox/api/types';

/** The notification's method (the language server's SANDBOX_CRDS_NOTIFICATION; a test keeps them equal). */
export const SANDBOX_CRDS_NOTIFICATION = 'kubeReconcile/sandboxCrds';

export interface SandboxCrdsParams {
  readonly crds: readonly KubeObject[];
}

/**
 * The params for `crds` (the mirror's `customresourcedefinitions`): only the CRDs whose kinds the sandbox serves —
 * `Established` True and not being deleted, as the API server serves them (upstream: apiextensions-apiserver
 * `crdHandler` serves a CRD once `Established`, and refuses creates once it is terminating) —, each reduced to what
 * describes its kinds (`apiVersion`, `kind`, `metadata.name`, `spec`: no status, managedFields or annotations such
 * as last-applied-configuration, which would double the size), sorted by name.
 */
export function sandboxCrdsParams(crds: readonly KubeObject[]): SandboxCrdsParams {
  return {
    crds: crds
      .filter(served)
      .map((c) => ({
        apiVersion: c.apiVersion,
        kind: c.kind,
        metadata: { name: c.metadata.name },
        spec: (c as KubeObject & { spec?: unknown }).spec,
      }))
      .sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : a.metadata.name! > b.metadata.name! ? 1 : 0)),
  };
}

function served(crd: KubeObject): boolean {
  if (crd.metadata.deletionTimestamp !== undefined) return false;
  const conditions = (crd as KubeObject & { status?: { conditions?: { type?: string; status?: string }[] } }).status
    ?.conditions;
  return conditions?.some((c) => c.type === 'Established' && c.status === 'True') === true;
}

/**
 * Sends the sandbox's CRDs when they change as the server sees them: a CRD's status or resourceVersion changing
 * (every write) sends nothing, a new served version or a schema edit does.
 */
export class SandboxCrdFeed {
  private last: string | undefined;

  constructor(private readonly send: (params: SandboxCrdsParams) => void) {}

  /** The mirror's CRDs now; true when the params changed and were sent. */
  update(crds: readonly KubeObject[]): boolean {
    const params = sandboxCrdsParams(crds);
    const key = JSON.stringify(params);
    if (key === this.last) return false;
    this.last = key;
    this.send(params);
    return true;
  }

  /** Forgets what was sent (the language server restarted): the next update sends. */
  reset(): void {
    this.last = undefined;
  }
}
