/**
 * The Kubernetes releases a schema is generated for (scripts/generate-schema.mjs) and how a release is
 * written. Apart from the schemas themselves, so that code that only names a release (settings, flags) does
 * not bundle them.
 */
import releases from './generated/kubernetes-releases.json';

/** The Kubernetes minor releases a schema is generated for, oldest first: `['1.30', …, '1.34']`. */
export const KUBERNETES_VERSIONS: readonly string[] = Object.freeze([...releases.versions]);
/** The release the sandbox serves unless told otherwise. */
export const DEFAULT_KUBERNETES_VERSION: string = releases.defaultVersion;

/** Whether a schema exists for this release (`1.32`). */
export function isSupportedKubernetesVersion(version: string): boolean {
  return KUBERNETES_VERSIONS.includes(version);
}

/**
 * `1.32`, `v1.32`, `1.32.4` → `1.32`; undefined for anything else. The minor release is what a schema is
 * for (patch releases do not change the API).
 */
export function normalizeKubernetesVersion(text: string): string | undefined {
  const m = /^v?(\d+)\.(\d+)(?:\.\d+)?$/.exec(text.trim());
  return m === null ? undefined : `${Number(m[1])}.${Number(m[2])}`;
}

/** `unsupported Kubernetes version "1.29": use one of 1.30, 1.31, 1.32, 1.33, 1.34` */
export function unsupportedVersionMessage(text: string): string {
  return `unsupported Kubernetes version "${text}": use one of ${KUBERNETES_VERSIONS.join(', ')}`;
}

/** `1.30` < `1.4` is false: compares minor releases numerically. */
export function compareKubernetesVersions(a: string, b: string): number {
  const [am, an] = a.split('.').map(Number);
  const [bm, bn] = b.split('.').map(Number);
  return am - bm || an - bn;
}
