/**
 * Applying a manifest the way `kubectl apply` does: create it when absent;
 * otherwise three-way merge it with the live object (a strategic merge patch for
 * built-in kinds, a JSON merge patch for custom resources), remembering it in the
 * `kubectl.kubernetes.io/last-applied-configuration` annotation. Like kubectl
 * (`--validate=strict`, its default), every request asks for strict field
 * validation: a manifest with a field the API server does not know is
 * refused, never applied without it. The extension's save-to-apply, the
 * GitOps sync, `simulate` and `serve` use this.
 */
import type { ApiServer } from '../../apiserver/apiServer';
import type { FieldValidationOptions } from '../../apiserver/fieldValidation';
import type { KubeObject } from '../../api/types';
import { LAST_APPLIED } from '../../api/annotations';
import { qualifiedKind } from '../../api/resources';
import { cloneJson, isPlainObject } from '../../util/json';
import { canonicalJson, threeWayMergePatch } from './threeWayMerge';
import { kindType, threeWayStrategicPatch } from './strategicThreeWay';

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

export interface ApplyOptions extends FieldValidationOptions {
  namespace?: string;
  dryRun?: boolean;
}

/**
 * Applies one manifest. Throws the API server's ApiError (400 for an unknown field, 422, 404, 403, …) when it is
 * rejected; nothing is changed then. Field validation is Strict unless `options` says otherwise.
 */
export function applyManifest(api: ApiServer, manifest: KubeObject, options: ApplyOptions = {}): ApplyResult {
  const fields: FieldValidationOptions = { fieldValidation: options.fieldValidation ?? 'Strict', warn: options.warn };
  const r = api.resourceOf(manifest);
  // No metadata object: nothing to record or look up; the API server's own refusal says what is wrong.
  if (!isPlainObject(manifest.metadata as unknown)) {
    const object = api.create(manifest, { dryRun: options.dryRun, ...fields });
    return { action: 'created', object, message: `${objectRef(object, api)} created` };
  }
  const recorded = canonicalJson(recordable(manifest));
  const desired = withAnnotation(manifest, recorded);
  const ns = r.namespaced ? manifest.metadata.namespace || options.namespace || 'default' : undefined;
  if (r.namespaced) desired.metadata.namespace = ns;
  const name = manifest.metadata.name;
  const live = name ? api.tryGet(r, ns, name) : undefined;
  if (!live) {
    const object = api.create(desired, { dryRun: options.dryRun, ...fields });
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
  const desiredMap = desired as unknown as Record<string, unknown>;
  const liveMap = live as unknown as Record<string, unknown>;
  // upstream: staging/src/k8s.io/kubectl/pkg/cmd/apply/patcher.go: buildMergePatch — a strategic three-way patch for
  // the built-in kinds; a JSON merge patch for custom resources (no patch strategies to follow).
  const strategic = r.custom === undefined;
  const patch = strategic
    ? threeWayStrategicPatch(lastApplied, desiredMap, liveMap, kindType(desiredMap))
    : threeWayMergePatch(lastApplied, desiredMap, liveMap);
  if (Object.keys(patch).length === 0)
    return { action: 'unchanged', object: live, message: `${objectRef(live, api)} unchanged` };
  const object = api.patch(r, ns, name!, strategic ? 'strategic' : 'merge', patch, {
    dryRun: options.dryRun,
    ...fields,
  });
  const action: ApplyAction =
    object.metadata.resourceVersion === live.metadata.resourceVersion ? 'unchanged' : 'configured';
  return { action, object, message: `${objectRef(object, api)} ${action}` };
}
