/**
 * POST (create, 201), PUT (update, 200; 201 when a kind that allows it is
 * created by the PUT) and PATCH (json, merge, strategic, apply) of an object
 * or its `/status`, with `?dryRun`, `?fieldManager`, `?fieldValidation` and
 * `?force`.
 */
import { invalidOptions } from '../../api/errors';
import { apiVersionOf } from '../../api/resources';
import type { ResourceType } from '../../api/resources';
import type { KubeObject } from '../../api/types';
import type { WriteOptions } from '../../apiserver/options';
import { checkObjectShape } from '../../apiserver/metaShape';
import { decodePatchBody } from '../body';
import type { RequestContext } from '../context';
import { convertObject, includeObjectOf } from '../convert';
import { negotiateOutput } from '../negotiate';
import { boolParam, dryRunParam, fieldManagerParam, fieldValidationParam, updateManager } from '../query';
import { checkName, decodeTyped } from './decode';

type Write = WriteOptions & { subresource?: 'status' };

/** Kinds whose PUT creates a missing object (AllowCreateOnUpdate in their registry strategies). */
const CREATE_ON_UPDATE = new Set(['Endpoints', 'Lease', 'Event']);

function reply(ctx: RequestContext, code: number, obj: KubeObject): void {
  const format = negotiateOutput(ctx.req.headers.accept, 'object');
  ctx.send(code, convertObject(obj, format, includeObjectOf(ctx.query), ctx.now, true, ctx.info.resource), {
    encoding: format.encoding,
  });
}

function typeOf(r: ResourceType) {
  return { apiVersion: apiVersionOf(r), kind: r.kind };
}

/** `?fieldValidation`, with its warnings going on the response. */
function fieldValidation(ctx: RequestContext, optionsKind: string): Pick<Write, 'fieldValidation' | 'warn'> {
  return { fieldValidation: fieldValidationParam(ctx.query, optionsKind), warn: (text) => ctx.warnings.push(text) };
}

export async function createObject(ctx: RequestContext): Promise<void> {
  const { resource, namespace } = ctx.info;
  const options: Write = {
    dryRun: dryRunParam(ctx.query, 'CreateOptions'),
    namespace,
    fieldManager: updateManager(ctx.query, 'CreateOptions', ctx.clientKey),
    ...fieldValidation(ctx, 'CreateOptions'),
  };
  const obj = await decodeTyped(ctx, typeOf(resource), true);
  checkObjectShape(obj);
  reply(ctx, 201, ctx.api.create(obj, options));
}

export async function updateObject(ctx: RequestContext): Promise<void> {
  const { resource, namespace, name, subresource } = ctx.info;
  const options: Write = {
    dryRun: dryRunParam(ctx.query, 'UpdateOptions'),
    namespace,
    fieldManager: updateManager(ctx.query, 'UpdateOptions', ctx.clientKey),
    ...fieldValidation(ctx, 'UpdateOptions'),
  };
  const obj = await decodeTyped(ctx, typeOf(resource), true);
  checkObjectShape(obj);
  checkName(obj, name!, namespace);
  if (subresource === 'status') {
    reply(ctx, 200, ctx.api.updateStatus(obj, options));
    return;
  }
  if (CREATE_ON_UPDATE.has(resource.kind) && !ctx.api.tryGet(resource, namespace, name!)) {
    const fresh = { ...obj, metadata: { ...obj.metadata } };
    delete fresh.metadata.resourceVersion;
    reply(ctx, 201, ctx.api.create(fresh, options));
    return;
  }
  reply(ctx, 200, ctx.api.update(obj, options));
}

export async function patchObject(ctx: RequestContext): Promise<void> {
  const { resource, namespace, name, subresource } = ctx.info;
  const { type, patch } = decodePatchBody(await ctx.body(), ctx.req.headers['content-type']);
  const force = boolParam(ctx.query, 'force');
  if (force !== undefined && type !== 'apply') {
    throw invalidOptions('PatchOptions', [
      { reason: 'FieldValueForbidden', field: 'force', message: 'Forbidden: may not be specified for non-apply patch' },
    ]);
  }
  const options: Write = {
    dryRun: dryRunParam(ctx.query, 'PatchOptions'),
    fieldManager:
      type === 'apply'
        ? fieldManagerParam(ctx.query, 'PatchOptions', true)
        : updateManager(ctx.query, 'PatchOptions', ctx.clientKey),
    force: force ?? false,
  };
  if (subresource === 'status') options.subresource = 'status';
  Object.assign(options, fieldValidation(ctx, 'PatchOptions'));
  if (type === 'apply') {
    const { object, created } = ctx.api.apply(resource, namespace, name!, patch, options);
    reply(ctx, created ? 201 : 200, object);
  } else reply(ctx, 200, ctx.api.patch(resource, namespace, name!, type, patch, options));
}
