/**
 * Plain-words summary of what has not converged, for a run that hit its time
 * limit (and for the extension's status): rollouts in progress (in `kubectl
 * rollout status`'s words for StatefulSets and DaemonSets), pods that are not
 * Running and Ready, nodes that are not Ready, and objects of kinds whose
 * controller the sandbox does not run (never reported as settled).
 */
import type { ApiServer } from '../apiserver/apiServer';
import type { Deployment } from 'kubernetes-types/apps/v1';
import type { Node, Pod } from 'kubernetes-types/core/v1';
import type { KubeObject } from '../api/types';
import { notReconciledNote } from '../api/resources';
import { conversionWebhookNote } from '../apiserver/customResources';
import { podReadyText, podStatusText } from '../printers/podStatus';
import { isPodReady } from '../controllers/util/pods';
import { unsettledAutoscalers } from '../controllers/podautoscaler/unsettled';
import { unsettledClaims } from '../controllers/volume/unsettled';
import { LOCAL_PATH_PROVISIONER } from '../controllers/volume/persistentVolumeController';
import { daemonSetRolloutStatus, statefulSetRolloutStatus } from '../operations/rolloutStatus';
import type { RolloutStatus } from '../operations/rolloutStatus';

/**
 * Kinds the API server stores whose upstream controller the sandbox does not run: their objects' status never moves,
 * so each one is reported instead of counted as settled.
 */
export const UNMODELLED_CONTROLLERS: Readonly<Record<string, string>> = {};

function ref(obj: KubeObject): string {
  return obj.metadata.namespace ? `${obj.metadata.namespace}/${obj.metadata.name}` : obj.metadata.name!;
}

function deploymentLine(d: Deployment & KubeObject): string | undefined {
  const want = d.spec?.replicas ?? 1;
  const s = d.status ?? {};
  if ((s.observedGeneration ?? 0) < (d.metadata.generation ?? 0))
    return `deployment ${ref(d)}: waiting for the spec update to be observed`;
  if ((s.updatedReplicas ?? 0) < want)
    return `deployment ${ref(d)}: ${s.updatedReplicas ?? 0} out of ${want} new replicas have been updated`;
  if ((s.replicas ?? 0) > (s.updatedReplicas ?? 0))
    return `deployment ${ref(d)}: ${(s.replicas ?? 0) - (s.updatedReplicas ?? 0)} old replicas are pending termination`;
  if ((s.availableReplicas ?? 0) < want)
    return `deployment ${ref(d)}: ${s.availableReplicas ?? 0} of ${want} updated replicas are available`;
  return undefined;
}

/** kubectl's status line; a strategy kubectl will not follow (OnDelete) falls back to the ready count. */
function rolloutLine(
  kind: string,
  obj: KubeObject,
  look: () => RolloutStatus,
  ready: () => number,
  want: number,
): string | undefined {
  try {
    const s = look();
    return s.done ? undefined : `${kind} ${ref(obj)}: ${s.message}`;
  } catch {
    const r = ready();
    return r < want ? `${kind} ${ref(obj)}: ${r} of ${want} pods are ready (updateStrategy OnDelete)` : undefined;
  }
}

/**
 * An unbound pod naming another scheduler (`spec.schedulerName: my-scheduler`) waits for that scheduler, which the
 * sandbox never runs — even when the manifests deploy it (the docs' "Configure Multiple Schedulers"): say so.
 */
function otherSchedulerNote(pod: Pod & KubeObject): string {
  const name = pod.spec?.schedulerName;
  if (pod.spec?.nodeName || name === undefined || name === 'default-scheduler') return '';
  return ` — not modelled by the sandbox: it runs only default-scheduler, so no scheduler named "${name}" binds this pod`;
}

/** One line per object that is not where it should be; empty when everything has converged. */
export function describeUnsettled(api: ApiServer, _now: number): string[] {
  const lines: string[] = [];
  for (const d of api.list('deployments').items) {
    const line = deploymentLine(d as Deployment & KubeObject);
    if (line) lines.push(line);
  }
  // ReplicaSets a Deployment owns are reported through it.
  for (const rs of [...api.list('replicasets').items, ...api.list('replicationcontrollers').items]) {
    if (rs.metadata.ownerReferences?.some((r) => r.controller === true)) continue;
    const want = rs.spec?.replicas ?? 1;
    const s = rs.status;
    const kind = rs.kind.toLowerCase();
    if ((s?.observedGeneration ?? 0) < (rs.metadata.generation ?? 0))
      lines.push(`${kind} ${ref(rs)}: waiting for the spec update to be observed`);
    else if ((s?.replicas ?? 0) !== want)
      lines.push(`${kind} ${ref(rs)}: ${s?.replicas ?? 0} of ${want} replicas exist`);
    else if ((s?.availableReplicas ?? 0) < want)
      lines.push(`${kind} ${ref(rs)}: ${s?.availableReplicas ?? 0} of ${want} replicas are available`);
  }
  for (const sts of api.list('statefulsets').items) {
    const line = rolloutLine(
      'statefulset',
      sts,
      () => statefulSetRolloutStatus(sts),
      () => sts.status?.readyReplicas ?? 0,
      sts.spec?.replicas ?? 1,
    );
    if (line) lines.push(line);
  }
  for (const ds of api.list('daemonsets').items) {
    const line = rolloutLine(
      'daemonset',
      ds,
      () => daemonSetRolloutStatus(ds),
      () => ds.status?.numberReady ?? 0,
      ds.status?.desiredNumberScheduled ?? 0,
    );
    if (line) lines.push(line);
  }
  for (const [resource, controller] of Object.entries(UNMODELLED_CONTROLLERS))
    for (const obj of api.list(resource).items)
      lines.push(`${obj.kind.toLowerCase()} ${ref(obj)}: not modelled by the sandbox (it does not run ${controller})`);
  for (const p of api.list('pods').items) {
    const pod = p as Pod & KubeObject;
    const status = podStatusText(pod);
    if (status === 'Completed' || (status === 'Running' && isPodReady(pod))) continue;
    const missing = status === 'ContainerCreating' ? missingVolumeSources(api, pod) : [];
    lines.push(
      `pod ${ref(p)}: ${status} (${podReadyText(pod)} ready)${otherSchedulerNote(pod)}` +
        (missing.length === 0
          ? ''
          : `: ${missing.join(', ')} not found (containers run no program in this sandbox: ` +
            'a Secret or ConfigMap that a Job or an operator would create never appears)'),
    );
  }
  for (const n of api.list('nodes').items) {
    const ready = (n as Node & KubeObject).status?.conditions?.find((c) => c.type === 'Ready');
    if (ready?.status !== 'True')
      lines.push(`node ${ref(n)}: ${ready ? `Ready=${ready.status} (${ready.reason ?? ''})` : 'no Ready condition'}`);
  }
  lines.push(...unsettledAutoscalers(api));
  lines.push(...unsettledClaims(api));
  return lines;
}

/**
 * The Secrets and ConfigMaps a pod's volumes need that do not exist (the kubelet's FailedMount: `secret "x" not
 * found`), as `secret "x"`: ingress-nginx's controller waits for the Secret its admission Job's program creates.
 */
function missingVolumeSources(api: ApiServer, pod: Pod & KubeObject): string[] {
  const ns = pod.metadata.namespace ?? 'default';
  const out: string[] = [];
  const need = (kind: 'secrets' | 'configmaps', name: string | undefined, optional: boolean | undefined): void => {
    if (name === undefined || optional === true || api.tryGet(kind, ns, name) !== undefined) return;
    const text = `${kind === 'secrets' ? 'secret' : 'configmap'} "${name}"`;
    if (!out.includes(text)) out.push(text);
  };
  for (const v of pod.spec?.volumes ?? []) {
    need('secrets', v.secret?.secretName, v.secret?.optional);
    need('configmaps', v.configMap?.name, v.configMap?.optional);
    for (const src of v.projected?.sources ?? []) {
      need('secrets', src.secret?.name, src.secret?.optional);
      need('configmaps', src.configMap?.name, src.configMap?.optional);
    }
  }
  return out;
}

/** Provisioners the sandbox runs as a kind cluster does, or that need none. */
const STOOD_IN_NOT_NEEDED = new Set([LOCAL_PATH_PROVISIONER, 'kubernetes.io/no-provisioner']);

const SYSTEM_OBJECTS = new Set(['scheduling.k8s.io/system-cluster-critical', 'scheduling.k8s.io/system-node-critical']);

/**
 * One line per object that is stored but that nothing in the sandbox acts on, though a real cluster would (the
 * kind's note in sandbox/api/resources.ts: `Reconciliation`): `ingress/web: stored; no Ingress controller runs in
 * this sandbox (as on a cluster without one)`. Custom resources are named with their group.
 */
export function describeNotReconciled(api: ApiServer): string[] {
  const lines: string[] = [];
  for (const r of api.resources.storedKinds()) {
    const note = notReconciledNote(r);
    if (note === undefined) continue;
    const kind = r.custom === undefined ? r.singular : `${r.singular}.${r.group}`;
    for (const obj of api.list(r).items) {
      if (SYSTEM_OBJECTS.has(`${r.group}/${obj.metadata.name ?? ''}`)) continue;
      const where =
        r.namespaced && obj.metadata.namespace !== 'default' ? ` (namespace ${obj.metadata.namespace})` : '';
      lines.push(`${kind}/${obj.metadata.name}${where}: stored; ${note}`);
    }
  }
  // upstream: the service controller of cloud-controller-manager (k8s.io/cloud-provider controllers/service) sets a
  // LoadBalancer Service's status.loadBalancer.ingress; none runs here, as on kind or minikube without a tunnel.
  for (const svc of api.list('services').items) {
    const s = svc as KubeObject & {
      spec?: { type?: string; loadBalancerClass?: string };
      status?: { loadBalancer?: { ingress?: unknown[] } };
    };
    if (s.spec?.type !== 'LoadBalancer' || (s.status?.loadBalancer?.ingress ?? []).length > 0) continue;
    const where = s.metadata.namespace !== 'default' ? ` (namespace ${s.metadata.namespace})` : '';
    lines.push(
      `service/${s.metadata.name}${where}: type LoadBalancer; no cloud load-balancer controller runs in this sandbox: ` +
        'EXTERNAL-IP stays <pending> (as on a cluster without one)',
    );
  }
  // The volume controller provisions for any class (sandbox/controllers/volume): say when it stands in for a
  // provisioner that a real cluster would need to run.
  for (const cls of api.list('storageclasses').items) {
    const provisioner = (cls as KubeObject & { provisioner?: string }).provisioner;
    if (provisioner === undefined || STOOD_IN_NOT_NEEDED.has(provisioner)) continue;
    lines.push(
      `storageclass.storage.k8s.io/${cls.metadata.name}: provisioner '${provisioner}' does not run in this sandbox; ` +
        `its claims get volumes from the sandbox's stand-in (${LOCAL_PATH_PROVISIONER}), where a real cluster ` +
        `without that provisioner leaves them Pending`,
    );
  }
  for (const crd of api.list('customresourcedefinitions').items) {
    const note = conversionWebhookNote(crd);
    if (note !== undefined) lines.push(`customresourcedefinition.apiextensions.k8s.io/${crd.metadata.name}: ${note}`);
  }
  return lines;
}
