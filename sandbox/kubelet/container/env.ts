/**
 * A container's environment as the kubelet builds it before creating the
 * container (pkg/kubelet/kubelet_pods.go `makeEnvironmentVariables`):
 * `envFrom` sources in order, the Service environment variables of the pod's
 * namespace (`enableServiceLinks`, and the `kubernetes` Service's always),
 * then `env` in order with `$(VAR)` expansion, the downward API, resource
 * fields, and ConfigMap and Secret keys. A missing object or key is the error
 * the kubelet reports as `CreateContainerConfigError` — worded as upstream —
 * unless the reference is `optional`.
 */
import type { Container, EnvVar, Pod, Service } from 'kubernetes-types/core/v1';
import { parseQuantity, quantityToMilli, quantityValue } from '../../api/quantity';

/** kubelet `expansion.Expand`: `$(NAME)` becomes the variable when it is defined, `$$` becomes `$`. */
export function expandKubeVars(text: string, vars: ReadonlyMap<string, string>): string {
  return text.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (whole, name: string | undefined) =>
    name === undefined ? '$' : (vars.get(name) ?? whole),
  );
}

/** Reads a ConfigMap or Secret as the API server has it now (undefined when missing). */
export type ReadConfig = (
  resource: 'configmaps' | 'secrets',
  namespace: string,
  name: string,
) => { data?: Record<string, string>; binaryData?: Record<string, string> } | undefined;

export interface PodFacts {
  podIP: string;
  hostIP: string;
  /** The Services of the pod's namespace (and `default/kubernetes`), for the Service links. */
  services?: readonly Service[];
  /** The node's allocatable CPU (millicores) and memory (bytes), for resource fields without a limit. */
  nodeAllocatable?: { cpu: number; memory: number };
}

export type EnvResult = { vars: Map<string, string> } | { error: string };

/** Variables in order, as pairs: what a running container keeps of the kubelet's variables (see `compactEnv`). */
export type EnvEntries = readonly (readonly [string, string])[];

const decode = (resource: 'configmaps' | 'secrets', value: string) =>
  resource === 'secrets' ? Buffer.from(value, 'base64').toString('utf8') : value;

const kindWord = (resource: 'configmaps' | 'secrets') => (resource === 'secrets' ? 'secret' : 'configmap');
const kindTitle = (resource: 'configmaps' | 'secrets') => (resource === 'secrets' ? 'Secret' : 'ConfigMap');

/** The value of a downward API field, or undefined when the pod does not have it. */
export function fieldValue(pod: Pod, path: string, facts: Pick<PodFacts, 'podIP' | 'hostIP'>): string | undefined {
  const meta = pod.metadata ?? {};
  const fields: Record<string, string | undefined> = {
    'metadata.name': meta.name,
    'metadata.namespace': meta.namespace,
    'metadata.uid': meta.uid,
    'spec.nodeName': pod.spec?.nodeName,
    'spec.serviceAccountName': pod.spec?.serviceAccountName,
    'status.podIP': facts.podIP,
    'status.podIPs': facts.podIP,
    'status.hostIP': facts.hostIP,
    'status.hostIPs': facts.hostIP,
  };
  const label = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(path);
  if (label) return (label[1] === 'labels' ? meta.labels : meta.annotations)?.[label[2]] ?? '';
  if (path === 'metadata.labels' || path === 'metadata.annotations') {
    const map = path === 'metadata.labels' ? meta.labels : meta.annotations;
    return Object.entries(map ?? {})
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join('\n');
  }
  return fields[path];
}

/**
 * `resourceFieldRef`: a container's request or limit, divided by the divisor, rounded up (limits default to the node's
 * allocatable).
 */
export function resourceFieldValue(
  pod: Pod,
  container: Container,
  ref: { containerName?: string; resource: string; divisor?: string | number },
  facts: PodFacts,
): string {
  const target =
    [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].find(
      (c) => c.name === (ref.containerName || container.name),
    ) ?? container;
  const [kind, resource] = ref.resource.split('.') as ['limits' | 'requests', string];
  const text = target.resources?.[kind]?.[resource];
  const q = text === undefined ? undefined : parseQuantity(text);
  const divisor = parseQuantity(ref.divisor ?? (resource === 'cpu' ? '1' : '1')) ?? parseQuantity('1')!;
  const isCpu = resource === 'cpu';
  let value: number;
  if (q) value = isCpu ? quantityToMilli(q) : quantityValue(q);
  else if (kind === 'limits' && facts.nodeAllocatable)
    value = isCpu ? facts.nodeAllocatable.cpu : facts.nodeAllocatable.memory;
  else value = 0;
  const div = isCpu ? quantityToMilli(divisor) : quantityValue(divisor);
  return String(Math.ceil(value / (div || 1)));
}

/**
 * The last Service variables worked out, with what they were worked out from: the pods of a namespace read the same
 * stored (frozen) Services one after another, so a fork resuming 300 pods works them out once per namespace.
 */
let lastServiceEnv:
  | { links: boolean; ns: string; services: readonly Service[]; vars: readonly (readonly [string, string])[] }
  | undefined;

/** `getServiceEnvVarMap` + `FromServices`: the docker-link style variables of each Service with a cluster IP. */
function serviceEnv(pod: Pod, services: readonly Service[]): readonly (readonly [string, string])[] {
  const links = pod.spec?.enableServiceLinks ?? true;
  const ns = pod.metadata?.namespace ?? 'default';
  const last = lastServiceEnv;
  if (
    last &&
    last.links === links &&
    last.ns === ns &&
    last.services.length === services.length &&
    last.services.every((s, i) => s === services[i] && Object.isFrozen(s))
  )
    return last.vars;
  const vars = serviceEnvOf(links, ns, services);
  lastServiceEnv = { links, ns, services: [...services], vars };
  return vars;
}

function serviceEnvOf(links: boolean, ns: string, services: readonly Service[]): [string, string][] {
  const out: [string, string][] = [];
  const chosen = services.filter((s) => {
    const ip = s.spec?.clusterIP;
    if (!ip || ip === 'None') return false;
    const isMaster = s.metadata?.namespace === 'default' && s.metadata?.name === 'kubernetes';
    return isMaster || (links && s.metadata?.namespace === ns);
  });
  chosen.sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
  for (const s of chosen) {
    const name = (s.metadata?.name ?? '').toUpperCase().replace(/-/g, '_');
    const ip = s.spec!.clusterIP!;
    const ports = s.spec?.ports ?? [];
    if (ports.length === 0) continue;
    out.push([`${name}_SERVICE_HOST`, ip], [`${name}_SERVICE_PORT`, String(ports[0].port)]);
    for (const p of ports)
      if (p.name) out.push([`${name}_SERVICE_PORT_${p.name.toUpperCase().replace(/-/g, '_')}`, String(p.port)]);
    const proto0 = (ports[0].protocol ?? 'TCP').toLowerCase();
    out.push([`${name}_PORT`, `${proto0}://${ip}:${ports[0].port}`]);
    for (const p of ports) {
      const proto = (p.protocol ?? 'TCP').toUpperCase();
      const prefix = `${name}_PORT_${p.port}_${proto}`;
      out.push(
        [prefix, `${proto.toLowerCase()}://${ip}:${p.port}`],
        [`${prefix}_PROTO`, proto.toLowerCase()],
        [`${prefix}_PORT`, String(p.port)],
        [`${prefix}_ADDR`, ip],
      );
    }
  }
  return out;
}

/**
 * The environment of `container` in `pod`, or the error that stops it from being created
 * (`secret "mysql-pass" not found`, `couldn't find key password in Secret default/mysql-pass`).
 */
export function containerEnvironment(pod: Pod, container: Container, read: ReadConfig, facts: PodFacts): EnvResult {
  const ns = pod.metadata?.namespace ?? 'default';
  const vars = new Map<string, string>();
  const cache = new Map<string, ReturnType<ReadConfig>>();
  const lookup = (resource: 'configmaps' | 'secrets', name: string) => {
    const key = `${resource}/${name}`;
    if (!cache.has(key)) cache.set(key, read(resource, ns, name));
    return cache.get(key);
  };
  for (const from of container.envFrom ?? []) {
    const resource = from.configMapRef ? 'configmaps' : 'secrets';
    const ref = from.configMapRef ?? from.secretRef;
    if (!ref) continue;
    const obj = lookup(resource, ref.name ?? '');
    if (!obj) {
      if (ref.optional) continue;
      return { error: `${kindWord(resource)} "${ref.name ?? ''}" not found` };
    }
    for (const [key, value] of Object.entries(obj.data ?? {}))
      vars.set(`${from.prefix ?? ''}${key}`, decode(resource, value));
  }
  for (const [k, v] of serviceEnv(pod, facts.services ?? [])) if (!vars.has(k)) vars.set(k, v);
  for (const e of container.env ?? []) {
    const value = envValue(pod, container, e, vars, lookup, facts);
    if (value === undefined) continue;
    if (typeof value === 'object') return value;
    vars.set(e.name, value);
  }
  return { vars };
}

function envValue(
  pod: Pod,
  container: Container,
  e: EnvVar,
  vars: ReadonlyMap<string, string>,
  lookup: (resource: 'configmaps' | 'secrets', name: string) => ReturnType<ReadConfig>,
  facts: PodFacts,
): string | { error: string } | undefined {
  const ns = pod.metadata?.namespace ?? 'default';
  if (!e.valueFrom) return expandKubeVars(e.value ?? '', vars);
  const from = e.valueFrom;
  if (from.fieldRef) return fieldValue(pod, from.fieldRef.fieldPath, facts) ?? '';
  if (from.resourceFieldRef) return resourceFieldValue(pod, container, from.resourceFieldRef, facts);
  const ref = from.configMapKeyRef ?? from.secretKeyRef;
  if (!ref) return undefined;
  const resource = from.configMapKeyRef ? 'configmaps' : 'secrets';
  const obj = lookup(resource, ref.name ?? '');
  if (!obj) {
    if (ref.optional) return undefined;
    return { error: `${kindWord(resource)} "${ref.name ?? ''}" not found` };
  }
  const raw = obj.data?.[ref.key] ?? (resource === 'configmaps' ? obj.binaryData?.[ref.key] : undefined);
  if (raw === undefined) {
    if (ref.optional) return undefined;
    return { error: `couldn't find key ${ref.key} in ${kindTitle(resource)} ${ns}/${ref.name ?? ''}` };
  }
  return decode(resource, raw);
}

/**
 * The kubelet's variables as a running container keeps them, the same pairs in the same order: the namespace's shared
 * Service variables when they are all there is (most containers: no `env`, no `envFrom`), else a list of pairs — not a
 * `Map` per container (issue 16: ~0.5 KiB each).
 */
export function compactEnv(vars: ReadonlyMap<string, string>): EnvEntries {
  const shared = lastServiceEnv?.vars;
  if (shared && shared.length === vars.size) {
    let i = 0;
    let same = true;
    for (const [k, v] of vars) {
      const [sk, sv] = shared[i++];
      if (k !== sk || v !== sv) {
        same = false;
        break;
      }
    }
    if (same) return shared;
  }
  return [...vars];
}

/** The process environment: PATH and HOSTNAME first (as the image and runtime set them), the kubelet's, then HOME. */
export function processEnvironment(
  pod: Pod,
  container: Container,
  kubeletVars: Iterable<readonly [string, string]>,
): Map<string, string> {
  const vars = new Map<string, string>([
    ['PATH', '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
    ['HOSTNAME', pod.spec?.hostname ?? pod.metadata?.name ?? ''],
  ]);
  for (const [k, v] of kubeletVars) vars.set(k, v);
  if (!vars.has('HOME')) vars.set('HOME', '/root');
  if (!vars.has('PWD')) vars.set('PWD', container.workingDir || '/');
  return vars;
}
