/**
 * The ServiceAccount admission plugin (upstream: plugin/pkg/admission/serviceaccount/admission.go, `Admit`), on pod
 * creation: `serviceAccountName` defaults to `default`; a pod naming a ServiceAccount that does not exist is refused
 * (`error looking up service account NS/NAME: serviceaccount "NAME" not found`); unless the pod or its ServiceAccount
 * turns automounting off, the projected `kube-api-access-XXXXX` volume (a bound token, the `kube-root-ca.crt`
 * ConfigMap, the namespace through the downward API) is added with a read-only mount at
 * `/var/run/secrets/kubernetes.io/serviceaccount` in every init and app container; the ServiceAccount's
 * `imagePullSecrets` are copied when the pod names none. Mirror pods are left as they are.
 *
 * The `default` ServiceAccount: upstream's `getServiceAccount` retries it for up to ten attempts (100–200 ms apart)
 * because the ServiceAccount controller creates it right after the namespace. The sandbox's API server answers at
 * once, so a missing `default` is taken as that retry finding the account the controller is about to create (no
 * pull secrets, automount on); any other missing name is refused.
 */
import type { KubeObject } from '../../api/types';
import { isObj } from '../validation/access';

export const DEFAULT_SERVICE_ACCOUNT_NAME = 'default';
/** upstream: ServiceAccountVolumeName. */
export const SERVICE_ACCOUNT_VOLUME_PREFIX = 'kube-api-access-';
/** upstream: DefaultAPITokenMountPath. */
export const API_TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
/** upstream: pkg/serviceaccount WarnOnlyBoundTokenExpirationSeconds (one hour and seven seconds). */
const TOKEN_EXPIRATION_SECONDS = 3607;
/** upstream: corev1.ProjectedVolumeSourceDefaultMode (0644). */
const PROJECTED_DEFAULT_MODE = 420;
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

export interface ServiceAccountLookup {
  get(kind: string, namespace: string, name: string): KubeObject | undefined;
}

/** upstream: TokenVolumeSource — the projected source of every `kube-api-access-…` volume. */
export function tokenVolumeSource(): Record<string, unknown> {
  return {
    defaultMode: PROJECTED_DEFAULT_MODE,
    sources: [
      { serviceAccountToken: { path: 'token', expirationSeconds: TOKEN_EXPIRATION_SECONDS } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      {
        downwardAPI: {
          items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
        },
      },
    ],
  };
}

/**
 * `Admit` on a pod being created. Returns the refusal's reason (the caller makes it a 403), or undefined when the pod
 * is admitted (and mutated in place). `suffix` gives the five random characters of a new volume's name.
 */
export function admitServiceAccount(
  pod: KubeObject,
  namespace: string,
  lookup: ServiceAccountLookup,
  suffix: () => string,
): string | undefined {
  const spec = pod.spec;
  if (!isObj(spec)) return undefined;
  // "Don't modify the spec of mirror pods."
  if (pod.metadata.annotations?.[MIRROR_POD_ANNOTATION] !== undefined) return undefined;
  if (typeof spec.serviceAccountName !== 'string' || spec.serviceAccountName === '')
    spec.serviceAccountName = DEFAULT_SERVICE_ACCOUNT_NAME;
  const name: string = spec.serviceAccountName as string;
  const account = lookup.get('ServiceAccount', namespace, name);
  if (!account && name !== DEFAULT_SERVICE_ACCOUNT_NAME)
    return `error looking up service account ${namespace}/${name}: serviceaccount "${name}" not found`;
  if (shouldAutomount(account, spec))
    mountServiceAccountToken(spec, () => `${SERVICE_ACCOUNT_VOLUME_PREFIX}${suffix()}`);
  const pullSecrets = account?.imagePullSecrets;
  const podPullSecrets = spec.imagePullSecrets;
  if ((!Array.isArray(podPullSecrets) || podPullSecrets.length === 0) && Array.isArray(pullSecrets)) {
    if (pullSecrets.length > 0)
      spec.imagePullSecrets = pullSecrets.map((s) => ({ name: isObj(s) && typeof s.name === 'string' ? s.name : '' }));
  }
  return undefined;
}

/** upstream: shouldAutomount — the pod's preference wins, then the ServiceAccount's, then true. */
function shouldAutomount(account: KubeObject | undefined, spec: Record<string, unknown>): boolean {
  if (typeof spec.automountServiceAccountToken === 'boolean') return spec.automountServiceAccountToken;
  if (typeof account?.automountServiceAccountToken === 'boolean') return account.automountServiceAccountToken;
  return true;
}

/**
 * upstream: mountServiceAccountToken — an existing `kube-api-access-…` volume is reused; every init and app container
 * without a mount at the token path gets one; the volume is added when some container needed it.
 */
function mountServiceAccountToken(spec: Record<string, unknown>, newName: () => string): void {
  const existing = tokenVolumeName(spec);
  const volumes = Array.isArray(spec.volumes) ? spec.volumes : [];
  const volumeName = existing ?? newName();
  let needed = false;
  for (const field of ['initContainers', 'containers'] as const) {
    const containers = spec[field];
    if (!Array.isArray(containers)) continue;
    for (const c of containers) {
      if (!isObj(c)) continue;
      const mounts = Array.isArray(c.volumeMounts) ? c.volumeMounts : [];
      // "Existing mounts at the default mount path prevent mounting of the API token"
      if (mounts.some((m) => isObj(m) && m.mountPath === API_TOKEN_MOUNT_PATH)) continue;
      c.volumeMounts = [...mounts, { name: volumeName, readOnly: true, mountPath: API_TOKEN_MOUNT_PATH }];
      needed = true;
    }
  }
  if (existing === undefined && needed)
    spec.volumes = [...volumes, { name: volumeName, projected: tokenVolumeSource() }];
}

/** The name of the spec's `kube-api-access-…` volume, if it has one. */
function tokenVolumeName(spec: Record<string, unknown>): string | undefined {
  const volumes = Array.isArray(spec.volumes) ? spec.volumes : [];
  const found = volumes.find(
    (v) => isObj(v) && typeof v.name === 'string' && v.name.startsWith(SERVICE_ACCOUNT_VOLUME_PREFIX),
  ) as { name: string } | undefined;
  return found?.name;
}

/**
 * A declared pod spec as this plugin admitted it into `live` (for comparing a manifest with the stored pod): the
 * account name defaulted and, when the live pod got a token volume, the same volume and mounts.
 */
export function asAdmittedServiceAccount(spec: Record<string, unknown>, live: Record<string, unknown>): void {
  if ((typeof spec.serviceAccountName !== 'string' || spec.serviceAccountName === '') && !spec.serviceAccount)
    spec.serviceAccountName = DEFAULT_SERVICE_ACCOUNT_NAME;
  const liveVolume = tokenVolumeName(live);
  if (liveVolume !== undefined) mountServiceAccountToken(spec, () => liveVolume);
}

/**
 * A pod update that leaves out what this plugin added at creation keeps it: the account name, the `kube-api-access-…`
 * volume and its mounts. Upstream's `kubectl apply` sends a strategic merge patch that never touches fields the
 * manifest does not mention; the sandbox's apply replaces lists (JSON merge patch), so without this a re-applied pod
 * would lose its token mounts.
 */
export function keepServiceAccountFields(spec: Record<string, unknown>, old: Record<string, unknown>): void {
  if ((typeof spec.serviceAccountName !== 'string' || spec.serviceAccountName === '') && !spec.serviceAccount) {
    if (typeof old.serviceAccountName === 'string') spec.serviceAccountName = old.serviceAccountName;
  }
  const oldVolume = tokenVolumeName(old);
  if (oldVolume === undefined) return;
  const volumes = Array.isArray(spec.volumes) ? spec.volumes : [];
  if (tokenVolumeName(spec) === undefined) {
    const volume = (old.volumes as unknown[]).find((v) => isObj(v) && v.name === oldVolume);
    spec.volumes = [...volumes, volume];
  }
  const hadMount = (field: 'initContainers' | 'containers', name: unknown): boolean => {
    const list = Array.isArray(old[field]) ? (old[field] as unknown[]) : [];
    const c = list.find((x) => isObj(x) && x.name === name);
    return isObj(c) && Array.isArray(c.volumeMounts) && c.volumeMounts.some((m) => isObj(m) && m.name === oldVolume);
  };
  for (const field of ['initContainers', 'containers'] as const) {
    const containers = spec[field];
    if (!Array.isArray(containers)) continue;
    for (const c of containers) {
      if (!isObj(c) || !hadMount(field, c.name)) continue;
      const mounts = Array.isArray(c.volumeMounts) ? c.volumeMounts : [];
      if (mounts.some((m) => isObj(m) && m.mountPath === API_TOKEN_MOUNT_PATH)) continue;
      c.volumeMounts = [...mounts, { name: oldVolume, readOnly: true, mountPath: API_TOKEN_MOUNT_PATH }];
    }
  }
}
