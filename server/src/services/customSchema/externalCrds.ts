/**
 * CustomResourceDefinitions from outside the workspace folders: the `kubeReconcile.crdFolders` catalogue (files read
 * offline) and the running sandbox's (sent by the extension as {@link SANDBOX_CRDS_NOTIFICATION}). They serve custom
 * resources exactly as a workspace CRD does — validation, completion, hover — but after the workspace's own:
 * `workspaceCrds` keeps the first CRD that serves a kind, and the scope's CRDs come first, then the catalogue's, then
 * the sandbox's. Pure: reading the folders and the wire are the handlers' (handlers/crdFolders.ts).
 */
import type { KubeObject } from '../../../../sandbox/api/types';
import { isCrd } from '../../../../sandbox/apiextensions/types';
import { parseManifestText } from '../../../../sandbox/manifests/parseManifests';
import { normalizeFolderUri } from '../workspace/folders';

/**
 * The extension → server notification with the CRDs the running sandbox serves (client/src/model/sandboxCrds.ts
 * writes the same method name). Its params: {@link SandboxCrdsParams}.
 */
export const SANDBOX_CRDS_NOTIFICATION = 'kubeReconcile/sandboxCrds';

export interface SandboxCrdsParams {
  readonly crds: readonly KubeObject[];
}

/** The CRDs of a notification's untrusted params: anything that is not a CRD object is ignored. */
export function sandboxCrdsOf(params: unknown): KubeObject[] {
  const crds = typeof params === 'object' && params !== null ? (params as { crds?: unknown }).crds : undefined;
  if (!Array.isArray(crds)) return [];
  return crds.filter(isCrdObject);
}

/** The CRDs of a file's text (YAML, several documents, or JSON; a `List`'s items too), in source order. */
export function crdsInText(text: string): KubeObject[] {
  const out: KubeObject[] = [];
  for (const m of parseManifestText(text).manifests) {
    const obj = m.object as unknown as KubeObject;
    if (isCrdObject(obj)) out.push(obj);
    else if (m.kind === 'List' && Array.isArray(m.object.items)) out.push(...m.object.items.filter(isCrdObject));
  }
  return out;
}

function isCrdObject(value: unknown): value is KubeObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const obj = value as { apiVersion?: unknown; kind?: unknown; metadata?: unknown };
  return isCrd(obj) && typeof obj.metadata === 'object' && obj.metadata !== null;
}

/**
 * The `file:` URI of a `kubeReconcile.crdFolders` entry: an absolute path (or a `file:` URI) as is, a relative one
 * under the first workspace folder; undefined when it is relative and there is no workspace folder to resolve it in.
 */
export function resolveCrdFolder(entry: string, workspaceFolders: readonly string[]): string | undefined {
  const trimmed = entry.trim();
  if (trimmed === '') return undefined;
  if (/^file:/i.test(trimmed)) return normalizeFolderUri(trimmed);
  const slashed = trimmed.replace(/\\/g, '/');
  if (slashed.startsWith('/')) return normalizeFolderUri(`file://${encodePath(slashed)}`);
  if (/^[a-zA-Z]:\//.test(slashed)) return normalizeFolderUri(`file:///${encodePath(slashed)}`);
  const base = workspaceFolders[0];
  if (base === undefined) return undefined;
  const parts: string[] = [];
  for (const seg of slashed.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(encodeURIComponent(seg));
  }
  const root = normalizeFolderUri(base);
  return parts.length === 0 ? root : `${root}/${parts.join('/')}`;
}

function encodePath(path: string): string {
  return path
    .split('/')
    .map((seg) => (/^[a-zA-Z]:$/.test(seg) ? seg : encodeURIComponent(seg)))
    .join('/');
}

/** The CRDs from outside the workspace, in the order they serve (after the scope's own). */
export class ExternalCrds {
  private catalogue: readonly KubeObject[] = [];
  private sandbox: readonly KubeObject[] = [];
  private all: readonly KubeObject[] = [];

  /** Replaces the catalogue's CRDs; true when that changed anything. */
  setCatalogue(crds: readonly KubeObject[]): boolean {
    if (sameObjects(this.catalogue, crds)) return false;
    this.catalogue = crds;
    this.all = [...this.catalogue, ...this.sandbox];
    return true;
  }

  /** Replaces the sandbox's CRDs; true when that changed anything. */
  setSandbox(crds: readonly KubeObject[]): boolean {
    if (sameObjects(this.sandbox, crds)) return false;
    this.sandbox = crds;
    this.all = [...this.catalogue, ...this.sandbox];
    return true;
  }

  /** The catalogue's CRDs, then the sandbox's. */
  get objects(): readonly KubeObject[] {
    return this.all;
  }
}

function sameObjects(a: readonly KubeObject[], b: readonly KubeObject[]): boolean {
  return a.length === b.length && JSON.stringify(a) === JSON.stringify(b);
}
