/**
 * `kubectl rollout restart` and `kubectl rollout undo` (kubectl
 * pkg/polymorphichelpers: `defaultObjectRestarter` in objectrestarter.go and
 * `DeploymentRollbacker` in rollback.go), built on the API verbs only.
 */
import type { ApiServer, ResourceRef } from '../apiserver/apiServer';
import { qualifiedKind, qualifiedResource } from '../api/resources';
import type { ResourceType } from '../api/resources';
import type { KubeObject } from '../api/types';
import { formatTimestamp } from '../clock/clock';
import { cloneJson, jsonEqual } from '../util/json';
import { LAST_APPLIED } from './apply/apply';
import { rolloutUndoRevision } from './rolloutHistory';

export const RESTARTED_AT = 'kubectl.kubernetes.io/restartedAt';
/** kubectl's deploymentutil names (k8s.io/kubectl/pkg/util/deployment). */
export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
const DEPRECATED_ROLLBACK_TO = 'deprecated.deployment.rollback.to';
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';

/** Annotations a rollback keeps from the Deployment instead of copying them from the ReplicaSet. */
const ANNOTATIONS_TO_SKIP = new Set([
  LAST_APPLIED,
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  DEPRECATED_ROLLBACK_TO,
]);

export interface RolloutResult {
  object: KubeObject;
  /** kubectl's line: `deployment.apps/web restarted`, `deployment.apps/web rolled back`. */
  message: string;
}

interface Template {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

function refOf(r: ResourceType, name: string): string {
  return `${qualifiedKind(r).toLowerCase()}/${name}`;
}

function isPaused(obj: KubeObject): boolean {
  return (obj.spec as { paused?: boolean } | undefined)?.paused === true;
}

/**
 * `kubectl rollout restart`: stamps the pod template with `kubectl.kubernetes.io/restartedAt` (now, RFC 3339), so
 * the workload's controller rolls every pod. Deployments, DaemonSets and StatefulSets; a paused Deployment is refused,
 * and so is a second restart within the same second (the patch would be empty).
 */
export function rolloutRestart(
  api: ApiServer,
  resource: ResourceRef,
  namespace: string | undefined,
  name: string,
): RolloutResult {
  const r = api.resolve(resource);
  const obj = api.get(r, namespace, name);
  const prefix = `${qualifiedResource(r)} "${name}"`;
  if (r.group !== 'apps' || !['Deployment', 'DaemonSet', 'StatefulSet'].includes(r.kind))
    throw new Error(`${prefix} restarting is not supported`);
  if (r.kind === 'Deployment' && isPaused(obj))
    throw new Error(`${prefix} can't restart paused deployment (run rollout resume first)`);
  const at = formatTimestamp(api.clock.now());
  const template = (obj.spec as { template?: Template } | undefined)?.template;
  if (template?.metadata?.annotations?.[RESTARTED_AT] === at)
    throw new Error(
      `failed to create patch for ${name}: if restart has already been triggered within the past second, please wait before attempting to trigger another`,
    );
  const patch = { spec: { template: { metadata: { annotations: { [RESTARTED_AT]: at } } } } };
  const object = api.patch(r, namespace, name, 'strategic', patch);
  return { object, message: `${refOf(r, name)} restarted` };
}

function revisionOf(rs: KubeObject): number | undefined {
  const text = rs.metadata.annotations?.[REVISION_ANNOTATION];
  if (text === undefined || !/^-?\d+$/.test(text)) return undefined;
  return Number(text);
}

function templateOf(obj: KubeObject): Template {
  return ((obj.spec as { template?: Template } | undefined)?.template ?? {}) as Template;
}

/** A copy of the template without the `pod-template-hash` label. */
function dropHashLabel(template: Template): Template {
  const copy = cloneJson(template);
  const labels = copy.metadata?.labels;
  if (labels)
    copy.metadata!.labels = Object.fromEntries(Object.entries(labels).filter(([k]) => k !== POD_TEMPLATE_HASH_LABEL));
  return copy;
}

/** Without the hash label; an emptied label map counts as none, as Semantic equality has it. */
function withoutHash(template: Template): Template {
  const copy = dropHashLabel(template);
  if (copy.metadata?.labels && Object.keys(copy.metadata.labels).length === 0) delete copy.metadata.labels;
  return copy;
}

/** `equalIgnoreHash`. */
function equalIgnoreHash(a: Template, b: Template): boolean {
  return jsonEqual(withoutHash(a), withoutHash(b));
}

/**
 * `deploymentRevision`: the ReplicaSet of `toRevision`, or with 0 the one before the newest. Throws kubectl's
 * messages when there is none.
 */
function replicaSetForRevision(api: ApiServer, deployment: KubeObject, toRevision: number): KubeObject {
  const uid = deployment.metadata.uid;
  const owned = api
    .list('replicasets', { namespace: deployment.metadata.namespace })
    .items.filter((rs) => rs.metadata.ownerReferences?.some((ref) => ref.controller === true && ref.uid === uid));
  let latest: { rs: KubeObject; revision: number } | undefined;
  let previous: { rs: KubeObject; revision: number } | undefined;
  for (const rs of owned) {
    const revision = revisionOf(rs);
    if (revision === undefined) continue;
    if (toRevision > 0) {
      if (revision === toRevision) return rs;
      continue;
    }
    if (!latest || latest.revision < revision) {
      previous = latest;
      latest = { rs, revision };
    } else if (!previous || previous.revision < revision) previous = { rs, revision };
  }
  if (toRevision > 0) throw new Error(`unable to find specified revision ${toRevision} in history`);
  if (!previous) throw new Error(`no rollout history found for deployment "${deployment.metadata.name}"`);
  return previous.rs;
}

/**
 * `kubectl rollout undo deployment/NAME [--to-revision=N]`: copies the pod template of the revision's ReplicaSet
 * (the previous revision by default) into the Deployment, with the ReplicaSet's annotations; the Deployment
 * controller rolls the pods. Skipped when the template already matches. StatefulSets and DaemonSets roll back to a
 * ControllerRevision (rolloutHistory.ts).
 */
export function rolloutUndo(
  api: ApiServer,
  resource: ResourceRef,
  namespace: string | undefined,
  name: string,
  toRevision = 0,
): RolloutResult {
  const r = api.resolve(resource);
  if (r.group === 'apps' && (r.kind === 'StatefulSet' || r.kind === 'DaemonSet'))
    return rolloutUndoRevision(api, r, namespace, name, toRevision);
  if (r.group !== 'apps' || r.kind !== 'Deployment')
    throw new Error(`no rollbacker has been implemented for "${qualifiedKind(r)}"`);
  if (toRevision < 0) throw new Error(`unable to find specified revision ${toRevision} in history`);
  const deployment = api.get(r, namespace, name);
  const rs = replicaSetForRevision(api, deployment, toRevision);
  if (isPaused(deployment))
    throw new Error(
      `you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume deployment/${name}' and try again`,
    );
  if (equalIgnoreHash(templateOf(rs), templateOf(deployment)))
    return {
      object: deployment,
      message: `${refOf(r, name)} skipped rollback (current template already matches revision ${toRevision})`,
    };
  const template = dropHashLabel(templateOf(rs));
  const annotations: Record<string, string> = {};
  const current = deployment.metadata.annotations ?? {};
  for (const key of ANNOTATIONS_TO_SKIP) if (current[key] !== undefined) annotations[key] = current[key];
  for (const [key, value] of Object.entries(rs.metadata.annotations ?? {}))
    if (!ANNOTATIONS_TO_SKIP.has(key)) annotations[key] = value;
  const object = api.patch(r, namespace, name, 'json', [
    { op: 'replace', path: '/spec/template', value: template },
    // `replace` needs the member to exist; `add` sets it either way (RFC 6902), for a Deployment without annotations.
    { op: deployment.metadata.annotations ? 'replace' : 'add', path: '/metadata/annotations', value: annotations },
  ]);
  return { object, message: `${refOf(r, name)} rolled back` };
}
