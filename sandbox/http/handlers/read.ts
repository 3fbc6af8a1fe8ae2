/**
 * GET of one object and LIST of a collection, in the negotiated form (the
 * object, a Table, PartialObjectMetadata). Lists honour selectors, paging and
 * `resourceVersion` / `resourceVersionMatch` as far as a store without
 * historical snapshots can: any version up to the current one is served from
 * the current state, except `Exact` for an older one (410).
 */
import { badRequest, expired, timeout } from '../../api/errors';
import type { ApiServer } from '../../apiserver/apiServer';
import type { RequestContext } from '../context';
import type { ResourceType } from '../../api/resources';
import type { IncludeObject } from '../convert';
import { convertList, convertObject, includeObjectOf } from '../convert';
import type { OutputFormat } from '../negotiate';
import { negotiateOutput } from '../negotiate';
import type { ListQuery } from '../query';
import { listQuery } from '../query';

/**
 * The resource to read: a Table whose rows carry no whole object is printed from the stored version, as
 * kube-apiserver's TableConvertor prints the internal object (an `autoscaling/v1` HPA's row is the v2 one's).
 */
function readResource(ctx: RequestContext, format: OutputFormat, includeObject: IncludeObject): ResourceType {
  const { resource } = ctx.info;
  return format.conversion === 'Table' && includeObject !== 'Object' ? ctx.api.storageResourceOf(resource) : resource;
}

export function getObject(ctx: RequestContext): void {
  const { namespace, name } = ctx.info;
  const format = negotiateOutput(ctx.req.headers.accept, 'object');
  const includeObject = includeObjectOf(ctx.query);
  const resource = readResource(ctx, format, includeObject);
  const obj = ctx.api.get(resource, namespace, name!);
  ctx.send(200, convertObject(obj, format, includeObject, ctx.now, true, resource), { encoding: format.encoding });
}

/** A resourceVersion parameter as a revision number; 400 when it is not one. */
export function parseResourceVersion(rv: string): number {
  const n = Number(rv);
  if (!/^\d+$/.test(rv) || !Number.isSafeInteger(n))
    throw badRequest(`invalid resource version: ${JSON.stringify(rv)}`);
  return n;
}

/** 410 or 504 when a list cannot be served at the requested resourceVersion. */
function checkListVersion(api: ApiServer, q: ListQuery): void {
  const rv = q.resourceVersion;
  if (rv === undefined || rv === '' || rv === '0') return;
  const n = parseResourceVersion(rv);
  const current = Number(api.resourceVersion);
  if (n > current) throw timeout(`Timeout: Too large resource version: ${n}, current: ${current}`);
  if (q.resourceVersionMatch === 'Exact' && n !== current) throw expired(n, current);
}

export function listObjects(ctx: RequestContext): void {
  const { namespace } = ctx.info;
  const format = negotiateOutput(ctx.req.headers.accept, 'list');
  const includeObject = includeObjectOf(ctx.query);
  const resource = readResource(ctx, format, includeObject);
  const q = listQuery(ctx.query, false);
  checkListVersion(ctx.api, q);
  const list = ctx.api.list(resource, {
    namespace,
    labelSelector: q.labelSelector,
    fieldSelector: q.fieldSelector,
    limit: q.limit,
    continue: q.continue,
  });
  ctx.send(200, convertList(list, resource, format, includeObject, ctx.now), { encoding: format.encoding });
}
