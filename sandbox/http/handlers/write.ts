/**
 * POST (create, 201), PUT (update, 200; 201 when a kind that allows it is
 * created by the PUT) and PATCH (json, merge, strategic, apply) of an object
 * or its `/status`, with `?dryRun`, `?fieldManager`, `?fieldValidation` and
 * `?force`.
 */
import { badRequest, invalidOptions } from '../../api/errors';
import { applyPatch, createMergePatch } from '../../api/patch/index';
import { apiVersionOf } from '../../api/resources';
import type { ResourceType } from '../../api/resources';
import type { KubeObject } from '../../api/types';
import type { PatchType, WriteOptions } from '../../apiserver/options';
import { checkObjectShape } from '../../apiserver/metaShape';
import { decodePatchBody } from '../body';
import type { RequestContext } from '../context';
import { convertObject, includeObjectOf } from '../convert';
import { pruneFields, strictDecodingError, unknownFieldWarnings } from '../fieldValidation';
import { negotiateOutput } from '../negotiate';
import { boolParam, dryRunParam, fieldManagerParam, fieldValidationParam, updateManager } from '../query';
import { unknownFields } from '../openapi/index';
import { checkName, decodeTyped, validateBodyFields } from './decode';

type Write = WriteOptions & { subresource?: 'status' };

/** Kinds whose PUT creates a missing object (AllowCreateOnUpdate in their registry strategies). */
const CREATE_ON_UPDATE = new Set(['Endpoints', 'Lease', 'Event']);

function reply(ctx: RequestContext, code: number, obj: KubeObject): void {
  const format = negotiateOutput(ctx.req.headers.accept, 'object');
  ctx.send(code, convertObject(obj, format, includeObjectOf(ctx.query), ctx.now), { encoding: format.encoding });
}

function typeOf(r: ResourceType) {
  return { apiVersion: apiVersionOf(r), kind: r.kind };
}

export async function createObject(ctx: RequestContext): Promise<void> {
  const { resource, namespace } = ctx.info;
  const options: Write = {
    dryRun: dryRunParam(ctx.query, 'CreateOptions'),
    namespace,
    fieldManager: updateManager(ctx.query, 'CreateOptions', ctx.clientKey),
  };
  const mode = fieldValidationParam(ctx.query, 'CreateOptions');
  const obj = await decodeTyped(ctx, typeOf(resource));
  checkObjectShape(obj);
  validateBodyFields(ctx, obj, mode);
  reply(ctx, 201, ctx.api.create(obj, options));
}

export async function updateObject(ctx: RequestContext): Promise<void> {
  const { resource, namespace, name, subresource } = ctx.info;
  const options: Write = {
    dryRun: dryRunParam(ctx.query, 'UpdateOptions'),
    namespace,
    fieldManager: updateManager(ctx.query, 'UpdateOptions', ctx.clientKey),
  };
  const mode = fieldValidationParam(ctx.query, 'UpdateOptions');
  const obj = await decodeTyped(ctx, typeOf(resource));
  checkObjectShape(obj);
  checkName(obj, name!, namespace);
  validateBodyFields(ctx, obj, mode);
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

/** Unknown fields a patch introduces (those already stored are not the patch's doing). */
function introducedUnknownFields(
  type: PatchType,
  current: KubeObject | undefined,
  patch: unknown,
): { patched?: KubeObject; fields: string[] } {
  if (type === 'apply') {
    if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return { fields: [] };
    return { fields: unknownFields(patch as KubeObject) };
  }
  if (!current) return { fields: [] };
  const patched = applyPatch(type, current, patch) as KubeObject;
  const before = new Set(unknownFields(current));
  return { patched, fields: unknownFields(patched).filter((f) => !before.has(f)) };
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
  const mode = fieldValidationParam(ctx.query, 'PatchOptions');
  const current = ctx.api.tryGet(resource, namespace, name!);
  if (!current && type !== 'apply') ctx.api.get(resource, namespace, name!); // 404 as upstream words it

  let body = patch;
  let patchType = type;
  const { patched, fields } = introducedUnknownFields(type, current, patch);
  if (fields.length > 0) {
    if (mode === 'Strict') throw badRequest(strictDecodingError(fields));
    if (mode === 'Warn') ctx.warnings.push(...unknownFieldWarnings(fields));
    // Dropped, as upstream's typed decoding drops them: the patch becomes the merge patch to the pruned result.
    const pruned = structuredClone(patched ?? patch);
    pruneFields(pruned, fields);
    if (type === 'apply') body = pruned;
    else {
      body = createMergePatch(current, pruned);
      patchType = 'merge';
    }
  }
  if (patchType === 'apply') {
    const { object, created } = ctx.api.apply(resource, namespace, name!, body, options);
    reply(ctx, created ? 201 : 200, object);
  } else reply(ctx, 200, ctx.api.patch(resource, namespace, name!, patchType, body, options));
}
