/**
 * Applying a manifest the way `kubectl apply` does: create it when absent;
 * otherwise three-way merge it with the live object, remembering it in the
 * `kubectl.kubernetes.io/last-applied-configuration` annotation. The extension's
 * save-to-apply and `simulate` use this.
 */
import type { ApiServer } from '../../apiserver/apiServer';
import type { KubeObject } from '../../api/types';
import { LAST_APPLIED } from '../../api/annotations';
import { qualifiedKind } from '../../api/resources';
import { cloneJson, isPlainObject } from '../../util/json';
import { canonicalJson, threeWayMergePatch } from './threeWayMerge';

export { LAST_APPLIED };

export type ApplyAction = 'created' | 'configured' | 'unchanged';

export interface ApplyResult {
  action: ApplyAction;
  object: KubeObject;
  /** kubectl's line: `deployment.apps/web created`. */
  message: string;
}

/** The manifest as recorded in the annotation: without the annotation itself. */
function recordable(manifest: KubeObject): KubeObject {
  const copy = cloneJson(manifest);
  const annotations = copy.metadata.annotations;
  if (annotations) {
    const rest = Object.fromEntries(Object.entries(annotations).filter(([k]) => k !== LAST_APPLIED));
    if (Object.keys(rest).length === 0) delete copy.metadata.annotations;
    else copy.metadata.annotations = rest;
  }
  return copy;
}

function withAnnotation(manifest: KubeObject, recorded: string): KubeObject {
  const copy = cloneJson(manifest);
  copy.metadata.annotations = { ...(copy.metadata.annotations ?? {}), [LAST_APPLIED]: `${recorded}\n` };
  return copy;
}

/** `deployment.apps/web` as kubectl names objects in its messages. */
export function objectRef(obj: KubeObject, api: ApiServer): string {
  const r = api.resourceOf(obj);
  return `${qualifiedKind(r).toLowerCase()}/${obj.metadata.name}`;
}

/**
 * Applies one manifest. Throws the API server's ApiError (422, 404, 403, …)
 * when it is rejected; nothing is changed then.
 */
export function applyManifest(
  api: ApiServer,
  manifest: KubeObject,
  options: { namespace?: string; dryRun?: boolean } = {},
): ApplyResult {
  const r = api.resourceOf(manifest);
  const recorded = canonicalJson(recordable(manifest));
  const desired = withAnnotation(manifest, recorded);
  const ns = r.namespaced ? manifest.metadata.namespace || options.namespace || 'default' : undefined;
  if (r.namespaced) desired.metadata.namespace = ns;
  const name = manifest.metadata.name;
  const live = name ? api.tryGet(r, ns, name) : undefined;
  if (!live) {
    const object = api.create(desired, { dryRun: options.dryRun });
    return { action: 'created', object, message: `${objectRef(object, api)} created` };
  }
  const previousText = live.metadata.annotations?.[LAST_APPLIED];
  let lastApplied: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = previousText ? JSON.parse(previousText) : undefined;
    lastApplied = isPlainObject(parsed) ? parsed : undefined;
  } catch {
    lastApplied = undefined;
  }
  const patch = threeWayMergePatch(
    lastApplied,
    desired as unknown as Record<string, unknown>,
    live as unknown as Record<string, unknown>,
  );
  if (Object.keys(patch).length === 0)
    return { action: 'unchanged', object: live, message: `${objectRef(live, api)} unchanged` };
  const object = api.patch(r, ns, name!, 'merge', patch, { dryRun: options.dryRun });
  const action: ApplyAction =
    object.metadata.resourceVersion === live.metadata.resourceVersion ? 'unchanged' : 'configured';
  return { action, object, message: `${objectRef(object, api)} ${action}` };
}
