/**
 * Routes a parsed resource request to its handler: the verbs of the object
 * and collection, and the subresources (`status`, `scale`, `pods/binding`,
 * `pods/eviction`, `pods/log`, `pods/exec`, `pods/attach`,
 * `pods/portforward`, `namespaces/finalize`). A subresource the kind
 * lacks is 404; a verb the route does not take is 405.
 */
import { methodNotAllowed, resourceNotFound } from '../../api/errors';
import type { RequestContext } from '../context';
import type { Verb } from '../requestInfo';
import { bindPod } from './binding';
import { deleteCollection, deleteObject } from './delete';
import { evictPod } from './eviction';
import { podAttach, podExec, podPortForward } from './exec';
import { finalizeNamespace } from './finalize';
import { podLog } from './podLog';
import { getObject, listObjects } from './read';
import { getScale, patchScale, updateScale } from './scale';
import { watchObjects } from './watch';
import { createObject, patchObject, updateObject } from './write';

type Handler = (ctx: RequestContext) => void | Promise<void>;
type Routes = Partial<Record<Verb, Handler>>;

const COLLECTION: Routes = {
  list: listObjects,
  watch: watchObjects,
  create: createObject,
  deletecollection: deleteCollection,
};
const OBJECT: Routes = {
  get: getObject,
  watch: watchObjects,
  update: updateObject,
  patch: patchObject,
  delete: deleteObject,
};
const STATUS: Routes = { get: getObject, update: updateObject, patch: patchObject };
const SCALE: Routes = { get: getScale, update: updateScale, patch: patchScale };

/** The routes of a subresource of `kind`, or undefined when the kind has no such subresource. */
function subresourceRoutes(ctx: RequestContext): Routes | undefined {
  const { resource: r, subresource } = ctx.info;
  switch (subresource) {
    case 'status':
      return r.statusSubresource ? STATUS : undefined;
    case 'scale':
      return r.scaleSubresource ? SCALE : undefined;
    case 'binding':
      return r.kind === 'Pod' ? { create: bindPod } : undefined;
    case 'eviction':
      return r.kind === 'Pod' ? { create: evictPod } : undefined;
    case 'log':
      return r.kind === 'Pod' ? { get: podLog } : undefined;
    case 'exec':
      return r.kind === 'Pod' ? { get: podExec, create: podExec } : undefined;
    case 'attach':
      return r.kind === 'Pod' ? { get: podAttach, create: podAttach } : undefined;
    case 'portforward':
      return r.kind === 'Pod' ? { get: podPortForward, create: podPortForward } : undefined;
    case 'finalize':
      return r.kind === 'Namespace' ? { update: finalizeNamespace } : undefined;
    default:
      return undefined;
  }
}

export async function handleResource(ctx: RequestContext): Promise<void> {
  const { name, subresource, verb } = ctx.info;
  const routes = subresource !== undefined ? subresourceRoutes(ctx) : name !== undefined ? OBJECT : COLLECTION;
  if (!routes) throw resourceNotFound();
  const handler = routes[verb];
  if (!handler) throw methodNotAllowed();
  await handler(ctx);
}
