/**
 * Pod Security Admission (upstream: staging/src/k8s.io/pod-security-admission): the namespace labels
 * `pod-security.kubernetes.io/enforce|warn|audit` (and `-version`) choose a level — privileged, baseline or
 * restricted — and pods are checked against it. `enforce` refuses a pod (`violates PodSecurity
 * "restricted:latest": allowPrivilegeEscalation != false (container "app" must set
 * securityContext.allowPrivilegeEscalation=false), …`); `warn` — and, for workload resources whose pod template
 * would be refused, `enforce` too — returns a warning (`would violate PodSecurity …`). `audit` only annotates
 * audit events, which the sandbox does not write.
 *
 * The checks are those of policy/check_*.go at their latest version, baseline first then restricted, each sorted by
 * check ID (registry.go: populate), restricted checks replacing the baseline checks they override (capabilities,
 * hostPath volumes, seccomp). Not modelled: the Windows hostProcess check (never failed here), version pinning
 * (`-version` is shown but the latest checks run), and the warning on labelling an exempt namespace. A namespace's
 * labels are checked (`namespaceLabelErrors`), and tightening its `enforce` level warns about the existing pods that
 * break it (`existingPodWarnings`).
 */
import type { KubeObject } from '../../api/types';
import { isObj, type Obj } from '../validation/access';

export type PodSecurityLevel = 'privileged' | 'baseline' | 'restricted';

const LABEL_PREFIX = 'pod-security.kubernetes.io/';

export interface NamespacePolicy {
  enforce?: string;
  warn?: string;
  audit?: string;
}

/**
 * The API server's PodSecurity configuration (upstream: pod-security.admission.config.k8s.io/v1
 * PodSecurityConfiguration, given in the AdmissionConfiguration file): the levels of namespaces without labels, and
 * what is exempt — pods with a runtimeClassName, whole namespaces. Exempt requests are neither refused nor warned
 * about. Upstream's `usernames` exemption is not offered: the sandbox authenticates no one.
 */
export interface PodSecurityConfiguration {
  defaults?: {
    enforce?: string;
    'enforce-version'?: string;
    warn?: string;
    'warn-version'?: string;
    audit?: string;
    'audit-version'?: string;
  };
  exemptions?: { runtimeClasses?: string[]; namespaces?: string[] };
}

/**
 * The level and version of each mode, as `level:version` (`latest` when no version label); undefined = privileged.
 * A mode the namespace does not label takes the configuration's default.
 */
export function namespacePolicy(ns: KubeObject | undefined, config?: PodSecurityConfiguration): NamespacePolicy {
  const labels = ns?.metadata.labels ?? {};
  const defaults = (config?.defaults ?? {}) as Record<string, string | undefined>;
  const out: NamespacePolicy = {};
  for (const mode of ['enforce', 'warn', 'audit'] as const) {
    const labelled = labels[LABEL_PREFIX + mode] !== undefined;
    const level = labelled ? labels[LABEL_PREFIX + mode] : defaults[mode];
    if (level !== 'baseline' && level !== 'restricted') continue;
    const version = labelled ? labels[`${LABEL_PREFIX}${mode}-version`] : defaults[`${mode}-version`];
    out[mode] = `${level}:${version ?? 'latest'}`;
  }
  return out;
}

interface CheckResult {
  reason: string;
  detail: string;
}

type Check = (meta: KubeObject['metadata'], spec: Obj) => CheckResult | undefined;

function objs(v: unknown): Obj[] {
  return Array.isArray(v) ? v.filter(isObj) : [];
}

/** `visitContainers`: init containers, containers, then ephemeral containers. */
function containers(spec: Obj): Obj[] {
  return [...objs(spec.initContainers), ...objs(spec.containers), ...objs(spec.ephemeralContainers)];
}

function nameOf(c: Obj): string {
  return typeof c.name === 'string' ? c.name : '';
}

function sc(o: Obj): Obj | undefined {
  return isObj(o.securityContext) ? o.securityContext : undefined;
}

function joinQuote(items: readonly string[]): string {
  return items.length === 0 ? '' : `"${items.join('", "')}"`;
}

function pluralize(singular: string, plural: string, n: number): string {
  return n === 1 ? singular : plural;
}

function containersPhrase(names: readonly string[]): string {
  return `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;
}

function sortedSet(items: Iterable<string>): string[] {
  return [...new Set(items)].sort();
}

// ---- baseline --------------------------------------------------------------------------------------------------

const BASELINE_CAPABILITIES = new Set([
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
]);

function capabilitiesOf(c: Obj): { add: string[]; drop: string[] } | undefined {
  const caps = sc(c)?.capabilities;
  if (!isObj(caps)) return undefined;
  const strings = (v: unknown): string[] =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  return { add: strings(caps.add), drop: strings(caps.drop) };
}

/** check_capabilities_baseline.go */
const capabilitiesBaseline: Check = (_m, spec) => {
  const bad: string[] = [];
  const caps: string[] = [];
  for (const c of containers(spec)) {
    const added = capabilitiesOf(c)?.add.filter((x) => !BASELINE_CAPABILITIES.has(x)) ?? [];
    if (added.length > 0) {
      bad.push(nameOf(c));
      caps.push(...added);
    }
  }
  if (bad.length === 0) return undefined;
  return {
    reason: 'non-default capabilities',
    detail: `${containersPhrase(bad)} must not include ${joinQuote(sortedSet(caps))} in securityContext.capabilities.add`,
  };
};

/** check_hostNamespaces.go */
const hostNamespaces: Check = (_m, spec) => {
  const set: string[] = [];
  if (spec.hostNetwork === true) set.push('hostNetwork=true');
  if (spec.hostPID === true) set.push('hostPID=true');
  if (spec.hostIPC === true) set.push('hostIPC=true');
  return set.length === 0 ? undefined : { reason: 'host namespaces', detail: set.join(', ') };
};

/** check_hostPathVolumes.go */
const hostPathVolumes: Check = (_m, spec) => {
  const names = objs(spec.volumes)
    .filter((v) => v.hostPath !== undefined && v.hostPath !== null)
    .map(nameOf);
  if (names.length === 0) return undefined;
  return { reason: 'hostPath volumes', detail: `${pluralize('volume', 'volumes', names.length)} ${joinQuote(names)}` };
};

/** check_hostPorts.go */
const hostPorts: Check = (_m, spec) => {
  const bad: string[] = [];
  const ports: string[] = [];
  for (const c of containers(spec)) {
    const used = objs(c.ports)
      .map((p) => p.hostPort)
      .filter((p): p is number => typeof p === 'number' && p !== 0);
    if (used.length > 0) {
      bad.push(nameOf(c));
      ports.push(...used.map(String));
    }
  }
  if (bad.length === 0) return undefined;
  const unique = sortedSet(ports);
  return {
    reason: 'hostPort',
    detail:
      `${containersPhrase(bad)} ${pluralize('uses', 'use', bad.length)} ` +
      `${pluralize('hostPort', 'hostPorts', unique.length)} ${unique.join(', ')}`,
  };
};

/** check_privileged.go */
const privileged: Check = (_m, spec) => {
  const bad = containers(spec)
    .filter((c) => sc(c)?.privileged === true)
    .map(nameOf);
  if (bad.length === 0) return undefined;
  return { reason: 'privileged', detail: `${containersPhrase(bad)} must not set securityContext.privileged=true` };
};

/** check_procMount.go: only `Default` (or unset) is allowed. */
const procMount: Check = (_m, spec) => {
  const bad: string[] = [];
  const types: string[] = [];
  for (const c of containers(spec)) {
    const t = sc(c)?.procMount;
    if (typeof t === 'string' && t !== 'Default') {
      bad.push(nameOf(c));
      types.push(t);
    }
  }
  if (bad.length === 0) return undefined;
  return {
    reason: 'procMount',
    detail: `${containersPhrase(bad)} must not set securityContext.procMount to ${joinQuote(sortedSet(types))}`,
  };
};

function validSeccomp(t: unknown): boolean {
  return t === 'RuntimeDefault' || t === 'Localhost';
}

function seccompTypeOf(o: Obj | undefined): unknown {
  const p = o?.seccompProfile;
  return isObj(p) ? p.type : undefined;
}

function hasSeccomp(o: Obj | undefined): boolean {
  return isObj(o?.seccompProfile);
}

/** The explicitly bad setters of seccompProfile.type, shared by the baseline and restricted checks. */
function badSeccompSetters(spec: Obj): { setters: string[]; values: string[]; podSet: boolean; implicit: string[] } {
  const setters: string[] = [];
  const values: string[] = [];
  let podSet = false;
  const podSc = isObj(spec.securityContext) ? spec.securityContext : undefined;
  if (hasSeccomp(podSc)) {
    if (!validSeccomp(seccompTypeOf(podSc))) {
      setters.push('pod');
      values.push(String(seccompTypeOf(podSc) ?? ''));
    } else podSet = true;
  }
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of containers(spec)) {
    if (hasSeccomp(sc(c))) {
      if (!validSeccomp(seccompTypeOf(sc(c)))) {
        explicit.push(nameOf(c));
        values.push(String(seccompTypeOf(sc(c)) ?? ''));
      }
    } else if (!podSet) implicit.push(nameOf(c));
  }
  if (explicit.length > 0) setters.push(containersPhrase(explicit));
  return { setters, values, podSet, implicit };
}

/** check_seccompProfile_baseline.go (the field; the alpha annotations are long gone from pods). */
const seccompBaseline: Check = (_m, spec) => {
  const { setters, values } = badSeccompSetters(spec);
  if (setters.length === 0) return undefined;
  return {
    reason: 'seccompProfile',
    detail: `${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(values))}`,
  };
};

/** check_sysctls.go: the safe sysctls of 1.32. */
const SAFE_SYSCTLS = new Set([
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_local_reserved_ports',
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
  'net.ipv4.tcp_rmem',
  'net.ipv4.tcp_wmem',
]);

const sysctls: Check = (_m, spec) => {
  const podSc = isObj(spec.securityContext) ? spec.securityContext : {};
  const bad = objs(podSc.sysctls)
    .map((s) => (typeof s.name === 'string' ? s.name : ''))
    .filter((n) => !SAFE_SYSCTLS.has(n));
  return bad.length === 0 ? undefined : { reason: 'forbidden sysctls', detail: bad.join(', ') };
};

// ---- restricted ------------------------------------------------------------------------------------------------

/** check_allowPrivilegeEscalation.go */
const allowPrivilegeEscalation: Check = (_m, spec) => {
  const bad = containers(spec)
    .filter((c) => sc(c)?.allowPrivilegeEscalation !== false)
    .map(nameOf);
  if (bad.length === 0) return undefined;
  return {
    reason: 'allowPrivilegeEscalation != false',
    detail: `${containersPhrase(bad)} must set securityContext.allowPrivilegeEscalation=false`,
  };
};

/** check_capabilities_restricted.go */
const capabilitiesRestricted: Check = (_m, spec) => {
  const missingDrop: string[] = [];
  const adding: string[] = [];
  const forbidden: string[] = [];
  for (const c of containers(spec)) {
    const caps = capabilitiesOf(c);
    if (!caps) {
      missingDrop.push(nameOf(c));
      continue;
    }
    if (!caps.drop.includes('ALL')) missingDrop.push(nameOf(c));
    const bad = caps.add.filter((x) => x !== 'NET_BIND_SERVICE');
    if (bad.length > 0) {
      adding.push(nameOf(c));
      forbidden.push(...bad);
    }
  }
  const details: string[] = [];
  if (missingDrop.length > 0)
    details.push(`${containersPhrase(missingDrop)} must set securityContext.capabilities.drop=["ALL"]`);
  if (adding.length > 0)
    details.push(
      `${containersPhrase(adding)} must not include ${joinQuote(sortedSet(forbidden))} in securityContext.capabilities.add`,
    );
  return details.length === 0 ? undefined : { reason: 'unrestricted capabilities', detail: details.join('; ') };
};

const ALLOWED_VOLUME_SOURCES = [
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'persistentVolumeClaim',
  'projected',
  'secret',
];
const NAMED_VOLUME_TYPES: [string, string][] = [
  ['hostPath', 'hostPath'],
  ['gcePersistentDisk', 'gcePersistentDisk'],
  ['awsElasticBlockStore', 'awsElasticBlockStore'],
  ['gitRepo', 'gitRepo'],
  ['nfs', 'nfs'],
  ['iscsi', 'iscsi'],
  ['glusterfs', 'glusterfs'],
  ['rbd', 'rbd'],
  ['flexVolume', 'flexVolume'],
  ['cinder', 'cinder'],
  ['cephfs', 'cephfs'],
  ['flocker', 'flocker'],
  ['fc', 'fc'],
  ['azureFile', 'azureFile'],
  ['vsphereVolume', 'vsphereVolume'],
  ['quobyte', 'quobyte'],
  ['azureDisk', 'azureDisk'],
  ['photonPersistentDisk', 'photonPersistentDisk'],
  ['portworxVolume', 'portworxVolume'],
  ['scaleIO', 'scaleIO'],
  ['storageos', 'storageos'],
];

/** check_restrictedVolumes.go */
const restrictedVolumes: Check = (_m, spec) => {
  const bad: string[] = [];
  const types: string[] = [];
  for (const v of objs(spec.volumes)) {
    const has = (k: string): boolean => v[k] !== undefined && v[k] !== null;
    if (ALLOWED_VOLUME_SOURCES.some(has)) continue;
    bad.push(nameOf(v));
    types.push(NAMED_VOLUME_TYPES.find(([k]) => has(k))?.[1] ?? 'unknown');
  }
  if (bad.length === 0) return undefined;
  const unique = sortedSet(types);
  return {
    reason: 'restricted volume types',
    detail:
      `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)} ${pluralize('uses', 'use', bad.length)} ` +
      `${pluralize('restricted volume type', 'restricted volume types', unique.length)} ${joinQuote(unique)}`,
  };
};

/** check_runAsNonRoot.go */
const runAsNonRoot: Check = (_m, spec) => {
  const setters: string[] = [];
  let podNonRoot = false;
  const podSc = isObj(spec.securityContext) ? spec.securityContext : undefined;
  if (typeof podSc?.runAsNonRoot === 'boolean') {
    if (!podSc.runAsNonRoot) setters.push('pod');
    else podNonRoot = true;
  }
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of containers(spec)) {
    const v = sc(c)?.runAsNonRoot;
    if (typeof v === 'boolean') {
      if (!v) explicit.push(nameOf(c));
    } else if (!podNonRoot) implicit.push(nameOf(c));
  }
  if (explicit.length > 0) setters.push(containersPhrase(explicit));
  if (setters.length > 0)
    return {
      reason: 'runAsNonRoot != true',
      detail: `${setters.join(' and ')} must not set securityContext.runAsNonRoot=false`,
    };
  if (implicit.length > 0)
    return {
      reason: 'runAsNonRoot != true',
      detail: `pod or ${containersPhrase(implicit)} must set securityContext.runAsNonRoot=true`,
    };
  return undefined;
};

/** check_runAsUser.go */
const runAsUser: Check = (_m, spec) => {
  const setters: string[] = [];
  const podSc = isObj(spec.securityContext) ? spec.securityContext : undefined;
  if (podSc?.runAsUser === 0) setters.push('pod');
  const explicit = containers(spec)
    .filter((c) => sc(c)?.runAsUser === 0)
    .map(nameOf);
  if (explicit.length > 0) setters.push(containersPhrase(explicit));
  if (setters.length === 0) return undefined;
  return { reason: 'runAsUser=0', detail: `${setters.join(' and ')} must not set runAsUser=0` };
};

/** check_seccompProfile_restricted.go */
const seccompRestricted: Check = (_m, spec) => {
  const { setters, values, implicit } = badSeccompSetters(spec);
  if (setters.length > 0)
    return {
      reason: 'seccompProfile',
      detail: `${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(values))}`,
    };
  if (implicit.length > 0)
    return {
      reason: 'seccompProfile',
      detail: `pod or ${containersPhrase(implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
    };
  return undefined;
};

/** check_appArmorProfile.go: the AppArmor profile type (pod and containers) and the deprecated beta annotations. */
const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';
const appArmorProfile: Check = (meta, spec) => {
  const allowedType = (t: unknown): boolean => t === 'RuntimeDefault' || t === 'Localhost';
  const profileType = (o: Obj | undefined): { set: boolean; type: string } => {
    const p = o?.appArmorProfile;
    return isObj(p) ? { set: true, type: typeof p.type === 'string' ? p.type : '' } : { set: false, type: '' };
  };
  const setters: string[] = [];
  const values = new Set<string>();
  const podProfile = profileType(isObj(spec.securityContext) ? spec.securityContext : undefined);
  if (podProfile.set && !allowedType(podProfile.type)) {
    setters.push('pod');
    values.add(podProfile.type);
  }
  const bad: string[] = [];
  for (const c of containers(spec)) {
    const p = profileType(sc(c));
    if (p.set && !allowedType(p.type)) {
      bad.push(nameOf(c));
      values.add(p.type);
    }
  }
  if (bad.length > 0) setters.push(containersPhrase(bad));
  const annotations = Object.entries(meta.annotations ?? {})
    .filter(
      ([k, v]) =>
        k.startsWith(APPARMOR_ANNOTATION_PREFIX) &&
        !(v === '' || v === 'runtime/default' || v.startsWith('localhost/')),
    )
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .sort();
  const list = [...[...values].sort(), ...annotations];
  if (annotations.length > 0) setters.push(pluralize('annotation', 'annotations', annotations.length));
  if (setters.length === 0) return undefined;
  return {
    reason: pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', list.length),
    detail: `${setters.join(' and ')} must not set AppArmor profile type to ${joinQuote(list)}`,
  };
};

/**
 * check_seLinuxOptions.go: the type (empty, container_t, container_init_t, container_kvm_t) and no user or role. As
 * upstream, "user/role may not be set" is said only alongside a forbidden type.
 */
const SELINUX_TYPES = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);
const seLinuxOptions: Check = (_m, spec) => {
  const types = new Set<string>();
  let user = false;
  let role = false;
  const valid = (o: Obj | undefined): boolean => {
    const opts = o?.seLinuxOptions;
    if (!isObj(opts)) return true;
    let ok = true;
    const type = typeof opts.type === 'string' ? opts.type : '';
    if (!SELINUX_TYPES.has(type)) {
      ok = false;
      types.add(type);
    }
    if (typeof opts.user === 'string' && opts.user !== '') {
      ok = false;
      user = true;
    }
    if (typeof opts.role === 'string' && opts.role !== '') {
      ok = false;
      role = true;
    }
    return ok;
  };
  const setters: string[] = [];
  if (!valid(isObj(spec.securityContext) ? spec.securityContext : undefined)) setters.push('pod');
  const bad = containers(spec)
    .filter((c) => !valid(sc(c)))
    .map(nameOf);
  if (bad.length > 0) setters.push(containersPhrase(bad));
  if (setters.length === 0) return undefined;
  const data: string[] = [];
  if (types.size > 0) {
    data.push(`${pluralize('type', 'types', types.size)} ${joinQuote(sortedSet(types))}`);
    if (user) data.push('user may not be set');
    if (role) data.push('role may not be set');
  }
  return {
    reason: 'seLinuxOptions',
    detail: `${setters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${data.join('; ')}`,
  };
};

/** Baseline checks by ID (sorted), and the restricted ones with the baseline IDs each overrides. */
const BASELINE: [string, Check][] = [
  ['appArmorProfile', appArmorProfile],
  ['capabilities_baseline', capabilitiesBaseline],
  ['hostNamespaces', hostNamespaces],
  ['hostPathVolumes', hostPathVolumes],
  ['hostPorts', hostPorts],
  ['privileged', privileged],
  ['procMount', procMount],
  ['seLinuxOptions', seLinuxOptions],
  ['seccompProfile_baseline', seccompBaseline],
  ['sysctls', sysctls],
];
const RESTRICTED: [string, Check, string[]][] = [
  ['allowPrivilegeEscalation', allowPrivilegeEscalation, []],
  ['capabilities_restricted', capabilitiesRestricted, ['capabilities_baseline']],
  ['restrictedVolumes', restrictedVolumes, ['hostPathVolumes']],
  ['runAsNonRoot', runAsNonRoot, []],
  ['runAsUser', runAsUser, []],
  ['seccompProfile_restricted', seccompRestricted, ['seccompProfile_baseline']],
];

function checksFor(level: string): Check[] {
  if (level === 'baseline') return BASELINE.map(([, c]) => c);
  if (level !== 'restricted') return [];
  const overridden = new Set(RESTRICTED.flatMap(([, , o]) => o));
  return [...BASELINE.filter(([id]) => !overridden.has(id)).map(([, c]) => c), ...RESTRICTED.map(([, c]) => c)];
}

/**
 * The pod's violations of `levelVersion` (`restricted:latest`), joined as upstream's `ForbiddenDetail`:
 * `reason (detail), reason (detail)`; undefined when it complies.
 */
export function podSecurityViolations(
  levelVersion: string,
  meta: KubeObject['metadata'],
  spec: Obj,
): string | undefined {
  const failed = failedChecks(levelVersion, meta, spec);
  if (failed.length === 0) return undefined;
  return failed.map((r) => (r.detail ? `${r.reason} (${r.detail})` : r.reason)).join(', ');
}

function failedChecks(levelVersion: string, meta: KubeObject['metadata'], spec: Obj): CheckResult[] {
  const level = levelVersion.split(':')[0];
  return checksFor(level)
    .map((check) => check(meta, spec))
    .filter((r): r is CheckResult => r !== undefined);
}

const LEVELS = ['privileged', 'baseline', 'restricted'];
const VERSION = /^v1\.([0-9]|[1-9][0-9]*)$/;

/** A namespace label the API server refuses, as upstream's `field.Invalid` (api/helpers.go: appendErr). */
export interface LabelError {
  field: string;
  value: string;
  detail: string;
}

/**
 * The PodSecurity labels of a namespace that do not parse (api/helpers.go: PolicyToEvaluate, ParseLevel,
 * ParseVersion), in upstream's order: enforce, enforce-version, audit, audit-version, warn, warn-version.
 */
export function namespaceLabelErrors(labels: Record<string, string> | undefined): LabelError[] {
  const errs: LabelError[] = [];
  for (const mode of ['enforce', 'audit', 'warn']) {
    const level = labels?.[LABEL_PREFIX + mode];
    if (level !== undefined && !LEVELS.includes(level))
      errs.push({
        field: `metadata.labels[${LABEL_PREFIX}${mode}]`,
        value: level,
        detail: `must be one of ${LEVELS.join(', ')}`,
      });
    const version = labels?.[`${LABEL_PREFIX}${mode}-version`];
    if (version !== undefined && version !== 'latest' && !VERSION.test(version))
      errs.push({
        field: `metadata.labels[${LABEL_PREFIX}${mode}-version]`,
        value: version,
        detail: 'must be "latest" or "v1.x"',
      });
  }
  return errs;
}

/** The enforce level and version of a namespace's labels (or the configuration's defaults): `restricted:latest`. */
function enforceOf(labels: Record<string, string>, config?: PodSecurityConfiguration): [string, string] {
  const level = labels[LABEL_PREFIX + 'enforce'] ?? config?.defaults?.enforce ?? 'privileged';
  const version = labels[LABEL_PREFIX + 'enforce-version'] ?? config?.defaults?.['enforce-version'] ?? 'latest';
  // "If labels cannot be parsed correctly, the values of "restricted" and "latest" are used"
  return [LEVELS.includes(level) ? level : 'restricted', VERSION.test(version) ? version : 'latest'];
}

/**
 * The warnings of a namespace update that tightens its `enforce` level (admission.go: ValidateNamespace, then
 * EvaluatePodsInNamespace and decoratePodWarnings): none when the level is unchanged, privileged, or relaxed at
 * the same version; otherwise `existing pods in namespace "ns" violate the new PodSecurity enforce level
 * "restricted:latest"`, then one warning per distinct set of failed checks, `pod (and N other pods): reasons`,
 * sorted. Upstream stops after 3,000 pods or one second; every pod is checked here.
 */
export function existingPodWarnings(
  namespace: string,
  labels: Record<string, string>,
  oldLabels: Record<string, string>,
  pods: readonly KubeObject[],
  config?: PodSecurityConfiguration,
): string[] {
  const [level, version] = enforceOf(labels, config);
  const [oldLevel, oldVersion] = enforceOf(oldLabels, config);
  if (level === oldLevel && version === oldVersion) return [];
  if (level === 'privileged') return [];
  if (version === oldVersion && LEVELS.indexOf(level) <= LEVELS.indexOf(oldLevel)) return [];
  const enforce = `${level}:${version}`;
  const byReasons = new Map<string, { name: string; count: number }>();
  for (const pod of pods) {
    if (!isObj(pod.spec)) continue;
    const failed = failedChecks(enforce, pod.metadata, pod.spec);
    if (failed.length === 0) continue;
    const reasons = failed.map((r) => r.reason).join(', ');
    const name = pod.metadata.name ?? '';
    const seen = byReasons.get(reasons);
    if (!seen) byReasons.set(reasons, { name, count: 1 });
    else {
      seen.count++;
      if (name < seen.name) seen.name = name;
    }
  }
  if (byReasons.size === 0) return [];
  const podWarnings = [...byReasons].map(([reasons, { name, count }]) =>
    count === 1
      ? `${name}: ${reasons}`
      : `${name} (and ${count - 1} other ${count === 2 ? 'pod' : 'pods'}): ${reasons}`,
  );
  // sort.Strings: byte order
  podWarnings.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return [
    `existing pods in namespace "${namespace}" violate the new PodSecurity enforce level "${enforce}"`,
    ...podWarnings,
  ];
}
