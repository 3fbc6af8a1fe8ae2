/**
 * `kubectl describe` for pods, deployments, replicasets, statefulsets, daemonsets, horizontalpodautoscalers,
 * nodes and services,
 * section by section as kubectl 1.32 prints them
 * (upstream: staging/src/k8s.io/kubectl/pkg/describe/describe.go — describePod,
 * describeContainers, DescribePodTemplate, describeReplicaSet,
 * DeploymentDescriber, describeStatefulSet, describeDaemonSet,
 * describeHorizontalPodAutoscalerV2, describeNode, describeNodeResource, describeService,
 * DescribeEvents), aligned by Go's tabwriter. It reads what a client would
 * have listed — the object, its events, the pods, ReplicaSets, EndpointSlices
 * and Lease it refers to — through `DescribeInputs`, so that the extension
 * describes from its mirror cache exactly what kubectl would from the API.
 */
import type {
  Container,
  ContainerState,
  ContainerStatus,
  Event,
  Node,
  Pod,
  Probe,
  Service,
  Toleration,
  Volume,
} from 'kubernetes-types/core/v1';
import type { DaemonSet, Deployment, ReplicaSet, StatefulSet } from 'kubernetes-types/apps/v1';
import type {
  HorizontalPodAutoscaler,
  HPAScalingRules,
  MetricSpec,
  MetricStatus,
} from 'kubernetes-types/autoscaling/v2';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import type { KubeObject, Typed } from '../../api/types';
import { asResource } from '../../api/resourceObjects';
import { parseQuantity, quantityToMilli, quantityValue } from '../../api/quantity';
import { podQosClass } from '../../admission/defaults/podQos';
import { parseTimestamp } from '../../clock/clock';
import { hpaToV2 } from '../../apiserver/conversion';
import { humanDuration } from '../duration';
import { nodeRolesText } from '../kinds/cluster';
import { tabwriter } from './tabwriter';

/** What describe reads besides the object itself, as kubectl lists it. */
export interface DescribeInputs {
  /** Events whose involved object is the described one (kubectl: searchEvents by uid, name, namespace). */
  events: readonly KubeObject[];
  /** Pods of the namespace (controllers: selector and owner) or of the cluster (nodes: spec.nodeName). */
  pods?: readonly KubeObject[];
  /** ReplicaSets of the namespace (a Deployment's old and new ones). */
  replicaSets?: readonly KubeObject[];
  /** EndpointSlices of the namespace (a Service's endpoints). */
  endpointSlices?: readonly KubeObject[];
  /** A node's Lease in kube-node-lease. */
  lease?: KubeObject;
}

/** The kinds with a describer here. */
export const DESCRIBED_KINDS: readonly string[] = [
  'Pod',
  'Deployment',
  'ReplicaSet',
  'StatefulSet',
  'DaemonSet',
  'HorizontalPodAutoscaler',
  'Node',
  'Service',
];

/** kubectl's describe text, or undefined for a kind without a describer here. `now` is the clock for ages. */
export function describeObject(obj: KubeObject, inputs: DescribeInputs, now: number): string | undefined {
  const w = new PrefixWriter();
  switch (obj.kind) {
    case 'Pod':
      describePod(w, asResource('pods', obj), now);
      break;
    case 'ReplicaSet':
      describeReplicaSet(w, asResource('replicasets', obj), inputs, now);
      break;
    case 'Deployment':
      describeDeployment(w, asResource('deployments', obj), inputs);
      break;
    case 'StatefulSet':
      describeStatefulSet(w, asResource('statefulsets', obj), inputs);
      break;
    case 'DaemonSet':
      describeDaemonSet(w, asResource('daemonsets', obj), inputs);
      break;
    case 'HorizontalPodAutoscaler':
      describeHpa(w, asResource('horizontalpodautoscalers', obj.apiVersion === 'autoscaling/v1' ? hpaToV2(obj) : obj));
      break;
    case 'Node':
      describeNode(w, asResource('nodes', obj), inputs, now);
      break;
    case 'Service':
      describeService(w, asResource('services', obj), inputs);
      break;
    default:
      return undefined;
  }
  describeEvents(w, inputs.events, now);
  return w.text();
}

// ---- output: PrefixWriter's levels over Go's tabwriter, flushed before the events table ----

class PrefixWriter {
  private done = '';
  private pending = '';

  write(level: number, text: string): void {
    this.pending += '  '.repeat(level) + text;
  }

  flush(): void {
    if (this.pending === '') return;
    this.done += tabwriter(this.pending);
    this.pending = '';
  }

  text(): string {
    this.flush();
    return this.done;
  }
}

const L0 = 0;
const L1 = 1;
const L2 = 2;
const L3 = 3;

// ---- helpers ----

const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Go's `time.RFC1123Z` in UTC; Go's zero time for an absent timestamp. */
function rfc1123z(timestamp: string | undefined): string {
  const ms = timestamp ? parseTimestamp(timestamp) : NaN;
  if (!Number.isFinite(ms)) return 'Mon, 01 Jan 0001 00:00:00 +0000';
  const d = new Date(ms);
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${DAY_NAMES[d.getUTCDay()]}, ${p(d.getUTCDate())} ${MONTH_NAMES[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

/** translateTimestampSince. */
function since(timestamp: string | undefined, now: number): string {
  const ms = timestamp ? parseTimestamp(timestamp) : NaN;
  return Number.isFinite(ms) ? humanDuration(now - ms) : '<unknown>';
}

function sortedKeys(m: Readonly<Record<string, string>> | undefined): string[] {
  return Object.keys(m ?? {}).sort();
}

/** printLabelsMultilineWithIndent. */
function labelsMultiline(w: PrefixWriter, title: string, labels: Readonly<Record<string, string>> | undefined): void {
  w.write(L0, `${title}:\t`);
  const keys = sortedKeys(labels);
  if (keys.length === 0) return w.write(L0, '<none>\n');
  keys.forEach((k, i) => {
    if (i > 0) w.write(L0, '\t');
    w.write(L0, `${k}=${labels![k]}\n`);
  });
}

/** Annotations kubectl leaves out (skipAnnotations). */
const SKIP_ANNOTATIONS = new Set(['kubectl.kubernetes.io/last-applied-configuration']);
const MAX_ANNOTATION_LEN = 140;

/** printAnnotationsMultiline. */
function annotationsMultiline(
  w: PrefixWriter,
  title: string,
  annotations: Readonly<Record<string, string>> | undefined,
): void {
  w.write(L0, `${title}:\t`);
  const keys = sortedKeys(annotations).filter((k) => !SKIP_ANNOTATIONS.has(k));
  if (keys.length === 0) return w.write(L0, '<none>\n');
  keys.forEach((k, i) => {
    if (i > 0) w.write(L0, '\t');
    const value = annotations![k].replace(/\n$/, '');
    if (value.length + k.length + 2 > MAX_ANNOTATION_LEN || value.includes('\n')) {
      w.write(L0, `${k}:\n`);
      for (const s of value.split('\n'))
        w.write(L0, `\t  ${s.length > MAX_ANNOTATION_LEN - 2 ? `${s.slice(0, MAX_ANNOTATION_LEN - 2)}...` : s}\n`);
    } else w.write(L0, `${k}: ${value}\n`);
  });
}

/** printPodTolerationsMultiline. */
function tolerationsMultiline(w: PrefixWriter, title: string, tolerations: readonly Toleration[] | undefined): void {
  w.write(L0, `${title}:\t`);
  const list = tolerations ?? [];
  if (list.length === 0) return w.write(L0, '<none>\n');
  list.forEach((t, i) => {
    if (i > 0) w.write(L0, '\t');
    let s = t.key ?? '';
    if (t.value) s += `=${t.value}`;
    if (t.effect) s += `:${t.effect}`;
    if (t.operator === 'Exists' && !t.value) s += t.key ? ' op=Exists' : 'op=Exists';
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null) s += ` for ${t.tolerationSeconds}s`;
    w.write(L0, `${s}\n`);
  });
}

function taintsMultiline(w: PrefixWriter, title: string, node: Node): void {
  w.write(L0, `${title}:\t`);
  const taints = [...(node.spec?.taints ?? [])].sort((a, b) =>
    `${a.effect},${a.key}` < `${b.effect},${b.key}` ? -1 : 1,
  );
  if (taints.length === 0) return w.write(L0, '<none>\n');
  taints.forEach((t, i) => {
    if (i > 0) w.write(L0, '\t');
    w.write(L0, `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}\n`);
  });
}

function controllerOf(obj: KubeObject): string {
  const ref = obj.metadata.ownerReferences?.find((r) => r.controller);
  return ref ? `${ref.kind}/${ref.name}` : '';
}

/** metav1.FormatLabelSelector. */
function formatSelector(
  selector:
    | {
        matchLabels?: Record<string, string>;
        matchExpressions?: { key: string; operator: string; values?: string[] }[];
      }
    | undefined,
): string {
  if (!selector) return '<none>';
  const parts = sortedKeys(selector.matchLabels).map((k) => `${k}=${selector.matchLabels![k]}`);
  for (const e of selector.matchExpressions ?? []) {
    const values = [...(e.values ?? [])].sort().join(',');
    if (e.operator === 'In') parts.push(`${e.key} in (${values})`);
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${values})`);
    else if (e.operator === 'Exists') parts.push(e.key);
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`);
  }
  return parts.length === 0 ? '<none>' : parts.join(',');
}

function matchesSelector(
  labels: Record<string, string> | undefined,
  selector: { matchLabels?: Record<string, string> } | undefined,
): boolean {
  if (!selector) return false;
  return Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels?.[k] === v);
}

const RESOURCE_ORDER = ['cpu', 'memory', 'ephemeral-storage'];

/** SortedResourceNames: cpu, memory and storage first, then the rest by name. */
function sortedResources(list: Record<string, unknown> | undefined): string[] {
  return Object.keys(list ?? {}).sort((a, b) => {
    const ia = RESOURCE_ORDER.indexOf(a);
    const ib = RESOURCE_ORDER.indexOf(b);
    if (ia >= 0 || ib >= 0) return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
    return a < b ? -1 : a > b ? 1 : 0;
  });
}

function quantityText(value: unknown): string {
  const q = typeof value === 'string' || typeof value === 'number' ? parseQuantity(value) : undefined;
  return q ? q.toString() : String(value);
}

// ---- pods ----

function describePod(w: PrefixWriter, pod: Typed<Pod>, now: number): void {
  const meta = pod.metadata ?? {};
  const spec = pod.spec ?? { containers: [] };
  const status = pod.status ?? {};
  w.write(L0, `Name:\t${meta.name}\n`);
  w.write(L0, `Namespace:\t${meta.namespace}\n`);
  if (spec.priority !== undefined) w.write(L0, `Priority:\t${spec.priority}\n`);
  if (spec.priorityClassName) w.write(L0, `Priority Class Name:\t${spec.priorityClassName}\n`);
  if (spec.runtimeClassName) w.write(L0, `Runtime Class Name:\t${spec.runtimeClassName}\n`);
  if (spec.serviceAccountName) w.write(L0, `Service Account:\t${spec.serviceAccountName}\n`);
  w.write(L0, spec.nodeName ? `Node:\t${spec.nodeName}/${status.hostIP ?? ''}\n` : 'Node:\t<none>\n');
  if (status.startTime) w.write(L0, `Start Time:\t${rfc1123z(status.startTime)}\n`);
  labelsMultiline(w, 'Labels', meta.labels);
  annotationsMultiline(w, 'Annotations', meta.annotations);
  if (meta.deletionTimestamp && status.phase !== 'Failed' && status.phase !== 'Succeeded') {
    w.write(L0, `Status:\tTerminating (lasts ${since(meta.deletionTimestamp, now)})\n`);
    w.write(L0, `Termination Grace Period:\t${meta.deletionGracePeriodSeconds ?? 0}s\n`);
  } else w.write(L0, `Status:\t${status.phase ?? ''}\n`);
  if (status.reason) w.write(L0, `Reason:\t${status.reason}\n`);
  if (status.message) w.write(L0, `Message:\t${status.message}\n`);
  w.write(L0, `IP:\t${status.podIP ?? ''}\n`);
  const ips = status.podIPs ?? [];
  if (ips.length === 0) w.write(L0, 'IPs:\t<none>\n');
  else {
    w.write(L0, 'IPs:\n');
    for (const ip of ips) w.write(L1, `IP:\t${ip.ip}\n`);
  }
  const controlledBy = controllerOf(pod);
  if (controlledBy) w.write(L0, `Controlled By:\t${controlledBy}\n`);
  if (status.nominatedNodeName) w.write(L0, `NominatedNodeName:\t${status.nominatedNodeName}\n`);
  if ((spec.initContainers ?? []).length > 0)
    describeContainers(w, 'Init Containers', spec.initContainers!, status.initContainerStatuses, '');
  describeContainers(w, 'Containers', spec.containers ?? [], status.containerStatuses, '');
  if ((status.conditions ?? []).length > 0) {
    w.write(L0, 'Conditions:\n  Type\tStatus\n');
    for (const c of status.conditions!) w.write(L1, `${c.type} \t${c.status} \n`);
  }
  describeVolumes(w, spec.volumes, '');
  w.write(L0, `QoS Class:\t${status.qosClass || podQosClass(pod)}\n`);
  labelsMultiline(w, 'Node-Selectors', spec.nodeSelector);
  tolerationsMultiline(w, 'Tolerations', spec.tolerations);
}

function describeContainers(
  w: PrefixWriter,
  label: string,
  containers: readonly Container[],
  statuses: readonly ContainerStatus[] | undefined,
  space: string,
): void {
  w.write(L0, `${space}${label}:${containers.length === 0 ? ' <none>' : ''}\n`);
  const byName = new Map((statuses ?? []).map((s) => [s.name, s]));
  for (const c of containers) {
    const status = byName.get(c.name);
    w.write(L1, `${space ? ' ' : ''}${c.name}:\n`);
    if (status) w.write(L2, `Container ID:\t${status.containerID ?? ''}\n`);
    w.write(L2, `Image:\t${c.image ?? ''}\n`);
    if (status) w.write(L2, `Image ID:\t${status.imageID ?? ''}\n`);
    const ports = (c.ports ?? []).map(
      (p) => `${p.containerPort}/${p.protocol ?? 'TCP'}${p.name ? ` (${p.name})` : ''}`,
    );
    const hostPorts = (c.ports ?? []).map(
      (p) => `${p.hostPort ?? 0}/${p.protocol ?? 'TCP'}${p.name ? ` (${p.name})` : ''}`,
    );
    w.write(L2, ports.length > 1 ? `Ports:\t${ports.join(', ')}\n` : `Port:\t${ports[0] ?? '<none>'}\n`);
    w.write(
      L2,
      hostPorts.length > 1 ? `Host Ports:\t${hostPorts.join(', ')}\n` : `Host Port:\t${hostPorts[0] ?? '<none>'}\n`,
    );
    if ((c.command ?? []).length > 0) {
      w.write(L2, 'Command:\n');
      for (const s of c.command!.flatMap((x) => x.split('\n'))) w.write(L3, `${s}\n`);
    }
    if ((c.args ?? []).length > 0) {
      w.write(L2, 'Args:\n');
      for (const s of c.args!.flatMap((x) => x.split('\n'))) w.write(L3, `${s}\n`);
    }
    if (status) {
      describeState(w, 'State', status.state);
      if (status.lastState?.terminated) describeState(w, 'Last State', status.lastState);
      w.write(L2, `Ready:\t${status.ready ? 'True' : 'False'}\n`);
      w.write(L2, `Restart Count:\t${status.restartCount ?? 0}\n`);
    }
    const res = c.resources ?? {};
    if (Object.keys(res.limits ?? {}).length > 0) w.write(L2, 'Limits:\n');
    for (const name of sortedResources(res.limits)) w.write(L3, `${name}:\t${quantityText(res.limits![name])}\n`);
    if (Object.keys(res.requests ?? {}).length > 0) w.write(L2, 'Requests:\n');
    for (const name of sortedResources(res.requests)) w.write(L3, `${name}:\t${quantityText(res.requests![name])}\n`);
    if (c.livenessProbe) w.write(L2, `Liveness:\t${describeProbe(c.livenessProbe)}\n`);
    if (c.readinessProbe) w.write(L2, `Readiness:\t${describeProbe(c.readinessProbe)}\n`);
    if (c.startupProbe) w.write(L2, `Startup:\t${describeProbe(c.startupProbe)}\n`);
    if ((c.envFrom ?? []).length > 0) {
      w.write(L2, 'Environment Variables from:\n');
      for (const e of c.envFrom!) {
        const from = e.configMapRef ? 'ConfigMap' : 'Secret';
        const ref = e.configMapRef ?? e.secretRef;
        const kind = e.prefix ? `${from} with prefix '${e.prefix}'` : from;
        w.write(L3, `${ref?.name ?? ''}\t${kind}\tOptional: ${ref?.optional === true}\n`);
      }
    }
    w.write(L2, `Environment:${(c.env ?? []).length === 0 ? '\t<none>' : ''}\n`);
    for (const e of c.env ?? []) {
      const from = e.valueFrom;
      if (!from) {
        (e.value ?? '').split('\n').forEach((s, i) => w.write(L3, i === 0 ? `${e.name}:\t${s}\n` : `\t${s}\n`));
      } else if (from.fieldRef)
        w.write(L3, `${e.name}:\t (${from.fieldRef.apiVersion ?? 'v1'}:${from.fieldRef.fieldPath})\n`);
      else if (from.resourceFieldRef) w.write(L3, `${e.name}:\t (${from.resourceFieldRef.resource})\n`);
      else if (from.secretKeyRef)
        w.write(
          L3,
          `${e.name}:\t<set to the key '${from.secretKeyRef.key}' in secret '${from.secretKeyRef.name}'>\tOptional: ${from.secretKeyRef.optional === true}\n`,
        );
      else if (from.configMapKeyRef)
        w.write(
          L3,
          `${e.name}:\t<set to the key '${from.configMapKeyRef.key}' of config map '${from.configMapKeyRef.name}'>\tOptional: ${from.configMapKeyRef.optional === true}\n`,
        );
    }
    const mounts = [...(c.volumeMounts ?? [])].sort((a, b) => (a.mountPath < b.mountPath ? -1 : 1));
    w.write(L2, `Mounts:${mounts.length === 0 ? '\t<none>' : ''}\n`);
    for (const m of mounts) {
      const flags = [m.readOnly ? 'ro' : 'rw', ...(m.subPath ? [`path=${JSON.stringify(m.subPath)}`] : [])];
      w.write(L3, `${m.mountPath} from ${m.name} (${flags.join(',')})\n`);
    }
  }
}

/** describeStatus. */
function describeState(w: PrefixWriter, name: string, state: ContainerState | undefined): void {
  if (state?.running) {
    w.write(L2, `${name}:\tRunning\n`);
    w.write(L3, `Started:\t${rfc1123z(state.running.startedAt)}\n`);
  } else if (state?.waiting) {
    w.write(L2, `${name}:\tWaiting\n`);
    if (state.waiting.reason) w.write(L3, `Reason:\t${state.waiting.reason}\n`);
  } else if (state?.terminated) {
    const t = state.terminated;
    w.write(L2, `${name}:\tTerminated\n`);
    if (t.reason) w.write(L3, `Reason:\t${t.reason}\n`);
    if (t.message) w.write(L3, `Message:\t${t.message}\n`);
    w.write(L3, `Exit Code:\t${t.exitCode}\n`);
    if (t.signal) w.write(L3, `Signal:\t${t.signal}\n`);
    w.write(L3, `Started:\t${rfc1123z(t.startedAt)}\n`);
    w.write(L3, `Finished:\t${rfc1123z(t.finishedAt)}\n`);
  } else w.write(L2, `${name}:\tWaiting\n`);
}

/** DescribeProbe. */
export function describeProbe(p: Probe): string {
  const attrs = `delay=${p.initialDelaySeconds ?? 0}s timeout=${p.timeoutSeconds ?? 1}s period=${p.periodSeconds ?? 10}s #success=${p.successThreshold ?? 1} #failure=${p.failureThreshold ?? 3}`;
  if (p.exec) return `exec [${(p.exec.command ?? []).join(' ')}] ${attrs}`;
  if (p.httpGet) {
    const scheme = (p.httpGet.scheme ?? 'HTTP').toLowerCase();
    const port = String(p.httpGet.port);
    const host = p.httpGet.host ?? '';
    const hostPort = port ? (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`) : host;
    return `http-get ${scheme}://${hostPort}${p.httpGet.path ?? ''} ${attrs}`;
  }
  if (p.tcpSocket) return `tcp-socket ${p.tcpSocket.host ?? ''}:${String(p.tcpSocket.port)} ${attrs}`;
  if (p.grpc) return `grpc <pod>:${p.grpc.port} ${p.grpc.service ?? ''} ${attrs}`;
  return `unknown ${attrs}`;
}

/** describeVolumes for the volume sources the sandbox runs. */
function describeVolumes(w: PrefixWriter, volumes: readonly Volume[] | undefined, space: string): void {
  const list = volumes ?? [];
  if (list.length === 0) return w.write(L0, `${space}Volumes:\t<none>\n`);
  w.write(L0, `${space}Volumes:\n`);
  for (const v of list) {
    w.write(L1, `${space ? ' ' : ''}${v.name}:\n`);
    if (v.configMap)
      w.write(
        L2,
        `Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t${v.configMap.name ?? ''}\n    Optional:\t${v.configMap.optional === true}\n`,
      );
    else if (v.secret)
      w.write(
        L2,
        `Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t${v.secret.secretName ?? ''}\n    Optional:\t${v.secret.optional === true}\n`,
      );
    else if (v.emptyDir)
      w.write(
        L2,
        `Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t${v.emptyDir.medium ?? ''}\n    SizeLimit:\t${v.emptyDir.sizeLimit ? quantityText(v.emptyDir.sizeLimit) : '<unset>'}\n`,
      );
    else if (v.persistentVolumeClaim)
      w.write(
        L2,
        `Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t${v.persistentVolumeClaim.claimName}\n    ReadOnly:\t${v.persistentVolumeClaim.readOnly === true}\n`,
      );
    else if (v.hostPath)
      w.write(
        L2,
        `Type:\tHostPath (bare host directory volume)\n    Path:\t${v.hostPath.path}\n    HostPathType:\t${v.hostPath.type || '<none>'}\n`,
      );
    else if (v.projected) {
      w.write(L2, 'Type:\tProjected (a volume that contains injected data from multiple sources)\n');
      for (const s of v.projected.sources ?? []) {
        if (s.secret)
          w.write(
            L2,
            `SecretName:\t${s.secret.name ?? ''}\n    SecretOptionalName:\t${optionalText(s.secret.optional)}\n`,
          );
        else if (s.downwardAPI) w.write(L2, 'DownwardAPI:\ttrue\n');
        else if (s.configMap)
          w.write(
            L2,
            `ConfigMapName:\t${s.configMap.name ?? ''}\n    ConfigMapOptional:\t${optionalText(s.configMap.optional)}\n`,
          );
        else if (s.serviceAccountToken)
          w.write(L2, `TokenExpirationSeconds:\t${s.serviceAccountToken.expirationSeconds ?? 3607}\n`);
      }
    } else w.write(L1, '<unknown>\n');
  }
}

/**
 * printProjectedVolumeSource prints the `*bool` with `%v`: `<nil>` when unset (what every kube-api-access volume
 * shows); a set one is a pointer address there, its value here.
 */
function optionalText(optional: boolean | undefined): string {
  return optional === undefined ? '<nil>' : String(optional);
}

/** DescribePodTemplate. */
function describePodTemplate(
  w: PrefixWriter,
  template:
    | { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: Pod['spec'] }
    | undefined,
): void {
  w.write(L0, 'Pod Template:\n');
  if (!template) return w.write(L1, '<unset>');
  labelsMultiline(w, '  Labels', template.metadata?.labels);
  if (Object.keys(template.metadata?.annotations ?? {}).length > 0)
    annotationsMultiline(w, '  Annotations', template.metadata?.annotations);
  const spec = template.spec ?? { containers: [] };
  if (spec.serviceAccountName) w.write(L1, `Service Account:\t${spec.serviceAccountName}\n`);
  if ((spec.initContainers ?? []).length > 0)
    describeContainers(w, 'Init Containers', spec.initContainers!, undefined, '  ');
  describeContainers(w, 'Containers', spec.containers ?? [], undefined, '  ');
  describeVolumes(w, spec.volumes, '  ');
  if (spec.priorityClassName) w.write(L1, `Priority Class Name:\t${spec.priorityClassName}\n`);
  labelsMultiline(w, '  Node-Selectors', spec.nodeSelector);
  tolerationsMultiline(w, '  Tolerations', spec.tolerations);
}

// ---- workloads ----

/** getPodStatusForController: pods the controller owns, by phase. */
function podsStatus(pods: readonly KubeObject[], owner: KubeObject): string {
  const uid = owner.metadata.uid;
  const selector = (owner.spec as { selector?: { matchLabels?: Record<string, string> } } | undefined)?.selector;
  const counts = { Running: 0, Pending: 0, Succeeded: 0, Failed: 0 };
  for (const p of pods) {
    if (!matchesSelector(p.metadata.labels, selector)) continue;
    const ref = p.metadata.ownerReferences?.find((r) => r.controller);
    if (!ref || ref.uid !== uid) continue;
    const phase = asResource('pods', p).status?.phase as keyof typeof counts | undefined;
    if (phase && phase in counts) counts[phase]++;
  }
  return `${counts.Running} Running / ${counts.Pending} Waiting / ${counts.Succeeded} Succeeded / ${counts.Failed} Failed`;
}

function describeReplicaSet(w: PrefixWriter, rs: Typed<ReplicaSet>, inputs: DescribeInputs, _now: number): void {
  const obj: KubeObject = rs;
  w.write(L0, `Name:\t${rs.metadata?.name}\n`);
  w.write(L0, `Namespace:\t${rs.metadata?.namespace}\n`);
  w.write(L0, `Selector:\t${formatSelector(rs.spec?.selector)}\n`);
  labelsMultiline(w, 'Labels', rs.metadata?.labels);
  annotationsMultiline(w, 'Annotations', rs.metadata?.annotations);
  const controlledBy = controllerOf(obj);
  if (controlledBy) w.write(L0, `Controlled By:\t${controlledBy}\n`);
  w.write(L0, `Replicas:\t${rs.status?.replicas ?? 0} current / ${rs.spec?.replicas ?? 1} desired\n`);
  w.write(L0, 'Pods Status:\t');
  w.write(L0, `${podsStatus(inputs.pods ?? [], obj)}\n`);
  describePodTemplate(w, rs.spec?.template);
  if ((rs.status?.conditions ?? []).length > 0) {
    w.write(L0, 'Conditions:\n  Type\tStatus\tReason\n');
    w.write(L1, '----\t------\t------\n');
    for (const c of rs.status!.conditions!) w.write(L1, `${c.type} \t${c.status}\t${c.reason ?? ''}\n`);
  }
}

const REVISION = 'deployment.kubernetes.io/revision';

/** printReplicaSetsByLabels. */
function replicaSetsText(list: readonly ReplicaSet[]): string {
  const text = list
    .map((rs) => `${rs.metadata?.name} (${rs.status?.replicas ?? 0}/${rs.spec?.replicas ?? 1} replicas created)`)
    .join(', ');
  return text === '' ? '<none>' : text;
}

function describeDeployment(w: PrefixWriter, d: Deployment, inputs: DescribeInputs): void {
  const meta = d.metadata ?? {};
  const spec = d.spec ?? { selector: {}, template: {} };
  const status = d.status ?? {};
  w.write(L0, `Name:\t${meta.name}\n`);
  w.write(L0, `Namespace:\t${meta.namespace}\n`);
  w.write(L0, `CreationTimestamp:\t${rfc1123z(meta.creationTimestamp)}\n`);
  labelsMultiline(w, 'Labels', meta.labels);
  annotationsMultiline(w, 'Annotations', meta.annotations);
  w.write(L0, `Selector:\t${formatSelector(spec.selector)}\n`);
  w.write(
    L0,
    `Replicas:\t${spec.replicas ?? 1} desired | ${status.updatedReplicas ?? 0} updated | ${status.replicas ?? 0} total | ${status.availableReplicas ?? 0} available | ${status.unavailableReplicas ?? 0} unavailable\n`,
  );
  w.write(L0, `StrategyType:\t${spec.strategy?.type ?? ''}\n`);
  w.write(L0, `MinReadySeconds:\t${spec.minReadySeconds ?? 0}\n`);
  const ru = spec.strategy?.rollingUpdate;
  if (ru)
    w.write(
      L0,
      `RollingUpdateStrategy:\t${String(ru.maxUnavailable ?? '')} max unavailable, ${String(ru.maxSurge ?? '')} max surge\n`,
    );
  describePodTemplate(w, spec.template);
  if ((status.conditions ?? []).length > 0) {
    w.write(L0, 'Conditions:\n  Type\tStatus\tReason\n');
    w.write(L1, '----\t------\t------\n');
    for (const c of status.conditions!) w.write(L1, `${c.type} \t${c.status}\t${c.reason ?? ''}\n`);
  }
  // upstream: deploymentutil.GetAllReplicaSetsInChunks — the new one is the current revision; old ones with replicas.
  const owned = (inputs.replicaSets ?? [])
    .map((r) => asResource('replicasets', r))
    .filter((r) => r.metadata?.ownerReferences?.some((o) => o.controller && o.uid === meta.uid));
  const revision = meta.annotations?.[REVISION];
  const isNew = (r: ReplicaSet) => revision !== undefined && r.metadata?.annotations?.[REVISION] === revision;
  const old = owned.filter((r) => !isNew(r) && (r.spec?.replicas ?? 1) !== 0);
  w.write(L0, `OldReplicaSets:\t${replicaSetsText(old)}\n`);
  w.write(L0, `NewReplicaSet:\t${replicaSetsText(owned.filter(isNew))}\n`);
}

/** upstream: describeStatefulSet and describeVolumeClaimTemplates. */
function describeStatefulSet(w: PrefixWriter, sts: Typed<StatefulSet>, inputs: DescribeInputs): void {
  const meta = sts.metadata;
  const spec = sts.spec;
  w.write(L0, `Name:\t${meta.name}\n`);
  w.write(L0, `Namespace:\t${meta.namespace}\n`);
  w.write(L0, `CreationTimestamp:\t${rfc1123z(meta.creationTimestamp)}\n`);
  w.write(L0, `Selector:\t${formatSelector(spec?.selector)}\n`);
  labelsMultiline(w, 'Labels', meta.labels);
  annotationsMultiline(w, 'Annotations', meta.annotations);
  w.write(L0, `Replicas:\t${spec?.replicas ?? 1} desired | ${sts.status?.replicas ?? 0} total\n`);
  w.write(L0, `Update Strategy:\t${spec?.updateStrategy?.type ?? ''}\n`);
  const ru = spec?.updateStrategy?.rollingUpdate;
  if (ru?.partition !== undefined) {
    w.write(L1, `Partition:\t${ru.partition}\n`);
    if (ru.maxUnavailable !== undefined) w.write(L1, `MaxUnavailable:\t${String(ru.maxUnavailable)}\n`);
  }
  w.write(L0, `Pods Status:\t${podsStatus(inputs.pods ?? [], sts)}\n`);
  describePodTemplate(w, spec?.template);
  const templates = spec?.volumeClaimTemplates ?? [];
  if (templates.length === 0) return w.write(L0, 'Volume Claims:\t<none>\n');
  w.write(L0, 'Volume Claims:\n');
  for (const pvc of templates) {
    w.write(L1, `Name:\t${pvc.metadata?.name ?? ''}\n`);
    // storageutil.GetPersistentVolumeClaimClass: the beta annotation first, then spec.storageClassName.
    const cls = pvc.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? pvc.spec?.storageClassName;
    w.write(L1, `StorageClass:\t${cls ?? ''}\n`);
    indentedLabels(w, 'Labels', pvc.metadata?.labels);
    indentedLabels(w, 'Annotations', pvc.metadata?.annotations);
    const capacity = pvc.spec?.resources?.requests?.storage;
    w.write(L1, `Capacity:\t${capacity === undefined ? '<default>' : quantityText(capacity)}\n`);
    // Go's %s of a []PersistentVolumeAccessMode.
    w.write(L1, `Access Modes:\t[${(pvc.spec?.accessModes ?? []).join(' ')}]\n`);
  }
}

/** printLabelsMultilineWithIndent(w, "  ", title, "\t", …) of a claim template. */
function indentedLabels(w: PrefixWriter, title: string, labels: Readonly<Record<string, string>> | undefined): void {
  w.write(L0, `  ${title}:\t`);
  const keys = sortedKeys(labels);
  if (keys.length === 0) return w.write(L0, '<none>\n');
  keys.forEach((k, i) => {
    if (i > 0) w.write(L0, '  \t');
    w.write(L0, `${k}=${labels![k]}\n`);
  });
}

/** labels.FormatLabels: sorted k=v pairs, `<none>` when empty. */
function formatLabels(labels: Readonly<Record<string, string>> | undefined): string {
  const keys = sortedKeys(labels);
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${labels![k]}`).join(',');
}

/** upstream: describeDaemonSet. */
function describeDaemonSet(w: PrefixWriter, ds: Typed<DaemonSet>, inputs: DescribeInputs): void {
  const status = ds.status;
  w.write(L0, `Name:\t${ds.metadata.name}\n`);
  w.write(L0, `Namespace:\t${ds.metadata.namespace}\n`);
  w.write(L0, `Selector:\t${formatSelector(ds.spec?.selector)}\n`);
  w.write(L0, `Node-Selector:\t${formatLabels(ds.spec?.template.spec?.nodeSelector)}\n`);
  labelsMultiline(w, 'Labels', ds.metadata.labels);
  annotationsMultiline(w, 'Annotations', ds.metadata.annotations);
  w.write(L0, `Desired Number of Nodes Scheduled: ${status?.desiredNumberScheduled ?? 0}\n`);
  w.write(L0, `Current Number of Nodes Scheduled: ${status?.currentNumberScheduled ?? 0}\n`);
  w.write(L0, `Number of Nodes Scheduled with Up-to-date Pods: ${status?.updatedNumberScheduled ?? 0}\n`);
  w.write(L0, `Number of Nodes Scheduled with Available Pods: ${status?.numberAvailable ?? 0}\n`);
  w.write(L0, `Number of Nodes Misscheduled: ${status?.numberMisscheduled ?? 0}\n`);
  w.write(L0, `Pods Status:\t${podsStatus(inputs.pods ?? [], ds)}\n`);
  describePodTemplate(w, ds.spec?.template);
}

const UNKNOWN = '<unknown>';

/** Go's `%v` of a *resource.Quantity: its text, `<nil>` when unset. */
function quantityOrNil(q: unknown): string {
  return q === undefined || q === null ? '<nil>' : quantityText(q);
}

/** One line of describeHorizontalPodAutoscalerV2's Metrics section (current / target). */
function hpaMetricLine(w: PrefixWriter, metric: MetricSpec, status: MetricStatus | undefined): void {
  switch (metric.type) {
    case 'External': {
      const e = metric.external!;
      const current = status?.external?.current;
      if (e.target.averageValue !== undefined) {
        const now = current?.averageValue !== undefined ? quantityText(current.averageValue) : UNKNOWN;
        return w.write(
          L1,
          `"${e.metric.name}" (target average value):\t${now} / ${quantityText(e.target.averageValue)}\n`,
        );
      }
      const now = current !== undefined ? quantityOrNil(current.value) : UNKNOWN;
      return w.write(L1, `"${e.metric.name}" (target value):\t${now} / ${quantityOrNil(e.target.value)}\n`);
    }
    case 'Pods': {
      const p = metric.pods!;
      const now = status?.pods !== undefined ? quantityOrNil(status.pods.current.averageValue) : UNKNOWN;
      return w.write(L1, `"${p.metric.name}" on pods:\t${now} / ${quantityOrNil(p.target.averageValue)}\n`);
    }
    case 'Object': {
      const o = metric.object!;
      w.write(L1, `"${o.metric.name}" on ${o.describedObject.kind}/${o.describedObject.name} `);
      const current = status?.object?.current;
      if (o.target.type === 'AverageValue') {
        const now = current !== undefined ? quantityOrNil(current.averageValue) : UNKNOWN;
        return w.write(L0, `(target average value):\t${now} / ${quantityOrNil(o.target.averageValue)}\n`);
      }
      const now = current !== undefined ? quantityOrNil(current.value) : UNKNOWN;
      return w.write(L0, `(target value):\t${now} / ${quantityOrNil(o.target.value)}\n`);
    }
    case 'Resource':
    case 'ContainerResource': {
      const r = metric.type === 'Resource' ? metric.resource! : metric.containerResource!;
      const current = metric.type === 'Resource' ? status?.resource?.current : status?.containerResource?.current;
      const present = metric.type === 'Resource' ? status?.resource : status?.containerResource;
      const container =
        metric.type === 'ContainerResource' ? ` of container "${metric.containerResource!.container}"` : '';
      w.write(L1, `resource ${r.name}${container} on pods`);
      if (r.target.averageValue !== undefined) {
        const now = present !== undefined ? quantityOrNil(current?.averageValue) : UNKNOWN;
        return w.write(L0, `:\t${now} / ${quantityText(r.target.averageValue)}\n`);
      }
      const now =
        current?.averageUtilization !== undefined
          ? `${current.averageUtilization}% (${quantityOrNil(current.averageValue)})`
          : UNKNOWN;
      const want = r.target.averageUtilization !== undefined ? `${r.target.averageUtilization}%` : '<auto>';
      return w.write(L1, `(as a percentage of request):\t${now} / ${want}\n`);
    }
    default:
      return w.write(L1, `<unknown metric type "${metric.type}">\n`);
  }
}

/** printDirectionBehavior. */
function directionBehavior(w: PrefixWriter, direction: string, rules: HPAScalingRules | undefined): void {
  if (!rules) return;
  w.write(L1, `${direction}:\n`);
  if (rules.stabilizationWindowSeconds !== undefined)
    w.write(L2, `Stabilization Window: ${rules.stabilizationWindowSeconds} seconds\n`);
  if ((rules.policies ?? []).length === 0) return;
  w.write(L2, `Select Policy: ${rules.selectPolicy ?? 'Max'}\n`);
  w.write(L2, 'Policies:\n');
  for (const p of rules.policies!)
    w.write(L3, `- Type: ${p.type}\tValue: ${p.value}\tPeriod: ${p.periodSeconds} seconds\n`);
}

/** upstream: describeHorizontalPodAutoscalerV2 (v1 objects are converted to v2 first, as kubectl reads v2). */
function describeHpa(w: PrefixWriter, hpa: Typed<HorizontalPodAutoscaler>): void {
  const spec = hpa.spec;
  const status = hpa.status;
  w.write(L0, `Name:\t${hpa.metadata.name}\n`);
  w.write(L0, `Namespace:\t${hpa.metadata.namespace}\n`);
  labelsMultiline(w, 'Labels', hpa.metadata.labels);
  annotationsMultiline(w, 'Annotations', hpa.metadata.annotations);
  w.write(L0, `CreationTimestamp:\t${rfc1123z(hpa.metadata.creationTimestamp)}\n`);
  w.write(L0, `Reference:\t${spec?.scaleTargetRef.kind ?? ''}/${spec?.scaleTargetRef.name ?? ''}\n`);
  w.write(L0, 'Metrics:\t( current / target )\n');
  (spec?.metrics ?? []).forEach((m, i) => hpaMetricLine(w, m, status?.currentMetrics?.[i]));
  w.write(L0, `Min replicas:\t${spec?.minReplicas ?? '<unset>'}\n`);
  w.write(L0, `Max replicas:\t${spec?.maxReplicas ?? 0}\n`);
  if (spec?.behavior) {
    w.write(L0, 'Behavior:\n');
    directionBehavior(w, 'Scale Up', spec.behavior.scaleUp);
    directionBehavior(w, 'Scale Down', spec.behavior.scaleDown);
  }
  w.write(L0, `${spec?.scaleTargetRef.kind ?? ''} pods:\t`);
  w.write(L0, `${status?.currentReplicas ?? 0} current / ${status?.desiredReplicas ?? 0} desired\n`);
  if ((status?.conditions ?? []).length > 0) {
    w.write(L0, 'Conditions:\n');
    w.write(L1, 'Type\tStatus\tReason\tMessage\n');
    w.write(L1, '----\t------\t------\t-------\n');
    for (const c of status!.conditions!) w.write(L1, `${c.type}\t${c.status}\t${c.reason ?? ''}\t${c.message ?? ''}\n`);
  }
}

// ---- nodes ----

function describeNode(w: PrefixWriter, node: Node, inputs: DescribeInputs, now: number): void {
  const meta = node.metadata ?? {};
  const status = node.status ?? {};
  w.write(L0, `Name:\t${meta.name}\n`);
  w.write(L0, `Roles:\t${nodeRolesText(node)}\n`);
  labelsMultiline(w, 'Labels', meta.labels);
  annotationsMultiline(w, 'Annotations', meta.annotations);
  w.write(L0, `CreationTimestamp:\t${rfc1123z(meta.creationTimestamp)}\n`);
  taintsMultiline(w, 'Taints', node);
  w.write(L0, `Unschedulable:\t${node.spec?.unschedulable === true}\n`);
  const lease = inputs.lease && asResource('leases', inputs.lease);
  w.write(L0, 'Lease:\n');
  w.write(L1, `HolderIdentity:\t${lease?.spec?.holderIdentity ?? '<unset>'}\n`);
  w.write(L1, `AcquireTime:\t${lease?.spec?.acquireTime ? rfc1123z(lease.spec.acquireTime) : '<unset>'}\n`);
  w.write(L1, `RenewTime:\t${lease?.spec?.renewTime ? rfc1123z(lease.spec.renewTime) : '<unset>'}\n`);
  if ((status.conditions ?? []).length > 0) {
    w.write(L0, 'Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n');
    w.write(L1, '----\t------\t-----------------\t------------------\t------\t-------\n');
    for (const c of status.conditions!)
      w.write(
        L1,
        `${c.type} \t${c.status} \t${rfc1123z(c.lastHeartbeatTime)} \t${rfc1123z(c.lastTransitionTime)} \t${c.reason ?? ''} \t${c.message ?? ''}\n`,
      );
  }
  w.write(L0, 'Addresses:\n');
  for (const a of status.addresses ?? []) w.write(L1, `${a.type}:\t${a.address}\n`);
  const resourceList = (title: string, list: Record<string, unknown> | undefined) => {
    if (!list || Object.keys(list).length === 0) return;
    w.write(L0, `${title}:\n`);
    for (const r of Object.keys(list).sort()) w.write(L1, `${r}:\t${quantityText(list[r])}\n`);
  };
  resourceList('Capacity', status.capacity);
  resourceList('Allocatable', status.allocatable);
  const info = status.nodeInfo;
  w.write(L0, 'System Info:\n');
  w.write(L0, `  Machine ID:\t${info?.machineID ?? ''}\n`);
  w.write(L0, `  System UUID:\t${info?.systemUUID ?? ''}\n`);
  w.write(L0, `  Boot ID:\t${info?.bootID ?? ''}\n`);
  w.write(L0, `  Kernel Version:\t${info?.kernelVersion ?? ''}\n`);
  w.write(L0, `  OS Image:\t${info?.osImage ?? ''}\n`);
  w.write(L0, `  Operating System:\t${info?.operatingSystem ?? ''}\n`);
  w.write(L0, `  Architecture:\t${info?.architecture ?? ''}\n`);
  w.write(L0, `  Container Runtime Version:\t${info?.containerRuntimeVersion ?? ''}\n`);
  w.write(L0, `  Kubelet Version:\t${info?.kubeletVersion ?? ''}\n`);
  w.write(L0, `  Kube-Proxy Version:\t${info?.kubeProxyVersion ?? ''}\n`);
  if (node.spec?.podCIDR) w.write(L0, `PodCIDR:\t${node.spec.podCIDR}\n`);
  if ((node.spec?.podCIDRs ?? []).length > 0) w.write(L0, `PodCIDRs:\t${node.spec!.podCIDRs!.join(',')}\n`);
  if (node.spec?.providerID) w.write(L0, `ProviderID:\t${node.spec.providerID}\n`);
  describeNodeResource(w, node, inputs.pods ?? [], now);
}

interface Totals {
  requests: Map<string, number>;
  limits: Map<string, number>;
}

/** A pod's requests and limits as the scheduler counts them (resourcehelper.PodRequestsAndLimits), in milli-units. */
export function podRequestsAndLimits(pod: Pod): Totals {
  const sum = (field: 'requests' | 'limits') => {
    const total = new Map<string, number>();
    for (const c of pod.spec?.containers ?? []) {
      for (const [name, value] of Object.entries(c.resources?.[field] ?? {})) {
        const q = parseQuantity(value as string | number);
        if (q) total.set(name, (total.get(name) ?? 0) + quantityToMilli(q));
      }
    }
    // An init container runs alone: the pod needs the larger of it and the sum of the app containers.
    for (const c of pod.spec?.initContainers ?? []) {
      for (const [name, value] of Object.entries(c.resources?.[field] ?? {})) {
        const q = parseQuantity(value as string | number);
        if (q) total.set(name, Math.max(total.get(name) ?? 0, quantityToMilli(q)));
      }
    }
    for (const [name, value] of Object.entries(pod.spec?.overhead ?? {})) {
      const q = parseQuantity(value as string | number);
      if (q && total.has(name)) total.set(name, total.get(name)! + quantityToMilli(q));
    }
    return total;
  };
  const requests = sum('requests');
  const limits = sum('limits');
  // Requests default to limits (upstream defaulting); the sandbox stores defaulted pods, but a template may not be.
  for (const [name, v] of limits) if (!requests.has(name)) requests.set(name, v);
  return { requests, limits };
}

/** A milli-unit amount in the canonical quantity form of its resource (`300m`, `192Mi`). */
function milliText(resource: string, milli: number): string {
  if (milli === 0) return '0';
  if (resource === 'cpu') {
    const q = parseQuantity(milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`);
    return q ? q.toString() : String(milli);
  }
  const bytes = Math.ceil(milli / 1000);
  const binary = bytes % 1024 === 0 ? parseQuantity(`${bytes / 1024}Ki`) : undefined;
  return (binary ?? parseQuantity(String(bytes)))?.toString() ?? String(bytes);
}

function percent(milli: number, allocatable: unknown, resource: string): number {
  const q = typeof allocatable === 'string' || typeof allocatable === 'number' ? parseQuantity(allocatable) : undefined;
  if (!q) return 0;
  const total = resource === 'cpu' ? quantityToMilli(q) : quantityValue(q) * 1000;
  return total === 0 ? 0 : Math.trunc((milli / total) * 100);
}

/** describeNodeResource: the non-terminated pods on the node and what they request. */
function describeNodeResource(w: PrefixWriter, node: Node, allPods: readonly KubeObject[], now: number): void {
  const pods = allPods
    .map((p) => asResource('pods', p))
    .filter(
      (p) =>
        p.spec?.nodeName === node.metadata?.name && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed',
    );
  const allocatable = (node.status?.allocatable ?? node.status?.capacity ?? {}) as Record<string, unknown>;
  w.write(L0, `Non-terminated Pods:\t(${pods.length} in total)\n`);
  w.write(L1, 'Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n');
  w.write(L1, '---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n');
  const totals: Totals = { requests: new Map(), limits: new Map() };
  for (const p of pods) {
    const { requests, limits } = podRequestsAndLimits(p);
    for (const [k, v] of requests) totals.requests.set(k, (totals.requests.get(k) ?? 0) + v);
    for (const [k, v] of limits) totals.limits.set(k, (totals.limits.get(k) ?? 0) + v);
    const cell = (m: Map<string, number>, r: string) =>
      `${milliText(r, m.get(r) ?? 0)} (${percent(m.get(r) ?? 0, allocatable[r], r)}%)`;
    w.write(
      L1,
      `${p.metadata?.namespace}\t${p.metadata?.name}\t\t${cell(requests, 'cpu')}\t${cell(limits, 'cpu')}\t${cell(requests, 'memory')}\t${cell(limits, 'memory')}\t${since(p.metadata?.creationTimestamp, now)}\n`,
    );
  }
  w.write(L0, 'Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n');
  w.write(L1, 'Resource\tRequests\tLimits\n');
  w.write(L1, '--------\t--------\t------\n');
  const extended = Object.keys(allocatable).filter((r) => r !== 'cpu' && r !== 'memory' && r !== 'pods');
  for (const r of ['cpu', 'memory', ...extended.sort()]) {
    const req = totals.requests.get(r) ?? 0;
    const lim = totals.limits.get(r) ?? 0;
    w.write(
      L1,
      `${r}\t${milliText(r, req)} (${percent(req, allocatable[r], r)}%)\t${milliText(r, lim)} (${percent(lim, allocatable[r], r)}%)\n`,
    );
  }
}

// ---- services ----

function describeService(w: PrefixWriter, svc: Service, inputs: DescribeInputs): void {
  const meta = svc.metadata ?? {};
  const spec = svc.spec ?? {};
  w.write(L0, `Name:\t${meta.name}\n`);
  w.write(L0, `Namespace:\t${meta.namespace}\n`);
  labelsMultiline(w, 'Labels', meta.labels);
  annotationsMultiline(w, 'Annotations', meta.annotations);
  w.write(
    L0,
    `Selector:\t${
      sortedKeys(spec.selector)
        .map((k) => `${k}=${spec.selector![k]}`)
        .join(',') || '<none>'
    }\n`,
  );
  w.write(L0, `Type:\t${spec.type ?? 'ClusterIP'}\n`);
  if (spec.ipFamilyPolicy) w.write(L0, `IP Family Policy:\t${spec.ipFamilyPolicy}\n`);
  if ((spec.ipFamilies ?? []).length > 0) w.write(L0, `IP Families:\t${spec.ipFamilies!.join(',')}\n`);
  w.write(L0, `IP:\t${spec.clusterIP ?? ''}\n`);
  if ((spec.clusterIPs ?? []).length > 0) w.write(L0, `IPs:\t${spec.clusterIPs!.join(',')}\n`);
  if ((spec.externalIPs ?? []).length > 0) w.write(L0, `External IPs:\t${spec.externalIPs!.join(',')}\n`);
  if (spec.type === 'ExternalName') w.write(L0, `External Name:\t${spec.externalName ?? ''}\n`);
  const slices = (inputs.endpointSlices ?? [])
    .map((s) => asResource('endpointslices', s))
    .filter((s) => s.metadata?.labels?.['kubernetes.io/service-name'] === meta.name);
  for (const sp of spec.ports ?? []) {
    const name = sp.name || '<unset>';
    w.write(L0, `Port:\t${name}\t${sp.port}/${sp.protocol ?? 'TCP'}\n`);
    const target = sp.targetPort ?? sp.port;
    w.write(L0, `TargetPort:\t${String(target)}/${sp.protocol ?? 'TCP'}\n`);
    if (sp.nodePort) w.write(L0, `NodePort:\t${name}\t${sp.nodePort}/${sp.protocol ?? 'TCP'}\n`);
    w.write(L0, `Endpoints:\t${formatEndpoints(slices, sp.name ?? '')}\n`);
  }
  w.write(L0, `Session Affinity:\t${spec.sessionAffinity ?? 'None'}\n`);
  if (spec.externalTrafficPolicy) w.write(L0, `External Traffic Policy:\t${spec.externalTrafficPolicy}\n`);
  if (spec.internalTrafficPolicy) w.write(L0, `Internal Traffic Policy:\t${spec.internalTrafficPolicy}\n`);
}

/** formatEndpointSlices: ready addresses of the port, at most three, then `+ N more...`. */
function formatEndpoints(slices: readonly EndpointSlice[], portName: string): string {
  const list: string[] = [];
  let count = 0;
  for (const s of slices) {
    const port = (s.ports ?? []).find((p) => (p.name ?? '') === portName);
    for (const e of s.endpoints ?? []) {
      if (e.conditions?.ready === false) continue;
      for (const address of e.addresses ?? []) {
        count++;
        if (list.length < 3) list.push(port?.port !== undefined ? `${address}:${port.port}` : address);
      }
    }
  }
  if (count === 0) return '<none>';
  return count > 3 ? `${list.join(',')} + ${count - 3} more...` : list.join(',');
}

// ---- events ----

function eventTime(e: Event): number {
  const t = e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? e.metadata?.creationTimestamp;
  return t ? parseTimestamp(t) : 0;
}

/** DescribeEvents: the table after a flush, oldest first (event.SortableEvents). */
function describeEvents(w: PrefixWriter, list: readonly KubeObject[], now: number): void {
  if (list.length === 0) return w.write(L0, 'Events:\t<none>\n');
  w.flush();
  const events = list.map((e) => asResource('events', e)).sort((a, b) => eventTime(a) - eventTime(b));
  w.write(L0, 'Events:\n  Type\tReason\tAge\tFrom\tMessage\n');
  w.write(L1, '----\t------\t----\t----\t-------\n');
  for (const e of events) {
    const first = e.eventTime ? since(e.eventTime, now) : since(e.firstTimestamp, now);
    let interval = first;
    if (e.series) interval = `${since(e.series.lastObservedTime, now)} (x${e.series.count} over ${first})`;
    else if ((e.count ?? 0) > 1) interval = `${since(e.lastTimestamp, now)} (x${e.count} over ${first})`;
    const source = e.source?.component || e.reportingComponent || '';
    w.write(L1, `${e.type ?? ''}\t${e.reason ?? ''}\t${interval}\t${source}\t${(e.message ?? '').trim()}\n`);
  }
}
