/**
 * DELETE of one object and of a collection (upstream handlers/delete.go and
 * the registry store's finalizeDelete): an object still present afterwards
 * (graceful pod deletion, finalizers, a terminating namespace) is returned as
 * it now is; one that is gone is answered with its last state for kinds whose
 * registry returns deleted objects (pods, services, …) and otherwise with a
 * `Success` Status naming it. Always 200, except 202 for the deprecated
 * `orphanDependents: false` when the object lingers.
 */
import { isApiError, methodNotSupported } from '../../api/errors';
import { apiVersionOf } from '../../api/resources';
import type { ResourceType } from '../../api/resources';
import type { KubeObject } from '../../api/types';
import { decodeOptionsBody } from '../body';
import type { RequestContext } from '../context';
import { deleteOptions, listQuery } from '../query';
import { successStatus } from '../respond';

/** Registries with `ReturnDeletedObject: true`. */
const RETURNS_DELETED = new Set([
  'Pod',
  'Service',
  'ServiceAccount',
  'Namespace',
  'StorageClass',
  'PersistentVolume',
  'Node',
]);

const JOB_ORPHAN_WARNING =
  'child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning';

/** Deletes one object; `gone` says whether it no longer exists (or would not, in a dry run). */
function deleteOne(
  ctx: RequestContext,
  r: ResourceType,
  namespace: string | undefined,
  name: string,
  body: Record<string, unknown> | undefined,
): { result: KubeObject; gone: boolean } {
  const options = deleteOptions(ctx.query, body);
  const before = ctx.api.get(r, namespace, name);
  const result = ctx.api.delete(r, namespace, name, options);
  const still = ctx.api.tryGet(r, namespace, name);
  // A dry run that would remove the object returns it unchanged; one that would only mark it sets deletionTimestamp.
  const gone = options.dryRun
    ? result.metadata.deletionTimestamp === undefined
    : still === undefined || still.metadata.uid !== before.metadata.uid;
  return { result, gone };
}

export async function deleteObject(ctx: RequestContext): Promise<void> {
  const { resource, namespace, name } = ctx.info;
  const body = decodeOptionsBody(await ctx.body(), ctx.req.headers['content-type']);
  if (
    resource.kind === 'Job' &&
    resource.group === 'batch' &&
    deleteOptions(ctx.query, body).propagationPolicy === undefined
  )
    ctx.warnings.push(JOB_ORPHAN_WARNING);
  const { result, gone } = deleteOne(ctx, resource, namespace, name!, body);
  if (!gone) {
    ctx.send(body?.orphanDependents === false ? 202 : 200, result);
    return;
  }
  if (RETURNS_DELETED.has(resource.kind)) ctx.send(200, result);
  else
    ctx.send(
      200,
      successStatus({
        name: result.metadata.name,
        group: resource.group,
        kind: resource.plural,
        uid: result.metadata.uid,
      }),
    );
}

/** DELETE on a collection: every object the selectors match; answers the list of their last states. */
export async function deleteCollection(ctx: RequestContext): Promise<void> {
  const { resource, namespace } = ctx.info;
  if (resource.kind === 'Namespace') throw methodNotSupported(resource, 'deletecollection');
  const body = decodeOptionsBody(await ctx.body(), ctx.req.headers['content-type']);
  const q = listQuery(ctx.query, false);
  deleteOptions(ctx.query, body); // 422 for bad options before anything is deleted
  const targets = ctx.api.list(resource, {
    namespace,
    labelSelector: q.labelSelector,
    fieldSelector: q.fieldSelector,
  }).items;
  const items: KubeObject[] = [];
  for (const obj of targets) {
    try {
      items.push(deleteOne(ctx, resource, obj.metadata.namespace, obj.metadata.name!, body).result);
    } catch (e) {
      if (!isApiError(e, 404)) throw e; // gone meanwhile (a cascade): nothing to delete
    }
  }
  ctx.send(200, {
    apiVersion: apiVersionOf(resource),
    kind: `${resource.kind}List`,
    metadata: { resourceVersion: ctx.api.resourceVersion },
    items,
  });
}
