/**
 * The kubeconfig that points kubectl (or any client-go program) at the
 * sandbox's HTTP API: one cluster, one user with the bearer token, one
 * context using both, selected as the current context. Written to a file of
 * its own (never the user's ~/.kube/config), readable by its owner only,
 * because the token is the only thing guarding the API.
 *
 * Note: client-go sends the user's credentials only to https:// servers;
 * against http:// it sends no token at all (clientcmd skips the user's
 * credentials unless the transport is TLS).
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export const DEFAULT_CONTEXT = 'kube-reconcile';

export interface KubeconfigOptions {
  /** The API's URL, e.g. `http://127.0.0.1:41234`. */
  server: string;
  /** Bearer token the server accepts. */
  token: string;
  /** Name of the cluster, user and context entries (default `kube-reconcile`). */
  context?: string;
  /** Namespace kubectl uses when none is given (kubectl's default is `default`). */
  namespace?: string;
  /**
   * PEM certificate(s) that sign the server's certificate (for a self-signed
   * server, its own). Without it an https:// server is trusted without
   * verification (`insecure-skip-tls-verify`), as it only listens on loopback.
   */
  certificateAuthority?: string;
}

/** A YAML scalar: JSON strings are valid YAML double-quoted scalars, so any text round-trips. */
function quote(text: string): string {
  return JSON.stringify(text);
}

function serverTrust(o: KubeconfigOptions): string[] {
  if (o.certificateAuthority)
    return [`    certificate-authority-data: ${quote(Buffer.from(o.certificateAuthority, 'utf8').toString('base64'))}`];
  return /^https:/i.test(o.server) ? ['    insecure-skip-tls-verify: true'] : [];
}

/** The kubeconfig as YAML text (`apiVersion: v1`, `kind: Config`). */
export function renderKubeconfig(o: KubeconfigOptions): string {
  const name = quote(o.context ?? DEFAULT_CONTEXT);
  return [
    'apiVersion: v1',
    'kind: Config',
    'preferences: {}',
    'clusters:',
    `- name: ${name}`,
    '  cluster:',
    `    server: ${quote(o.server)}`,
    ...serverTrust(o),
    'users:',
    `- name: ${name}`,
    '  user:',
    `    token: ${quote(o.token)}`,
    'contexts:',
    `- name: ${name}`,
    '  context:',
    `    cluster: ${name}`,
    `    user: ${name}`,
    ...(o.namespace ? [`    namespace: ${quote(o.namespace)}`] : []),
    `current-context: ${name}`,
    '',
  ].join('\n');
}

/** The shell line that makes kubectl use the kubeconfig at `path` (POSIX shells; the path quoted when needed). */
export function exportKubeconfig(path: string): string {
  const word = /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
  return `export KUBECONFIG=${word}`;
}

/**
 * Writes `text` to `path` readable by its owner only (0600), creating missing
 * folders 0700. Atomic: a temporary file in the same folder is renamed over
 * the target, so a reader never sees half a file and an existing file's
 * looser mode is not kept.
 */
export async function writePrivateFile(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text, { mode: 0o600, flag: 'wx' });
    await chmod(temp, 0o600);
    await rename(temp, path);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
}
