/**
 * The `/scale` subresource over HTTP: decodes the `autoscaling/v1` Scale or
 * the patch and calls the API server's scale verbs
 * (sandbox/apiserver/scale.ts), which write `spec.replicas` to the parent.
 */
import type { RequestContext } from '../context';
import { decodePatchBody } from '../body';
import { dryRunParam, updateManager } from '../query';
import { checkName, decodeTyped } from './decode';

const SCALE = { apiVersion: 'autoscaling/v1', kind: 'Scale' } as const;

function writeOptions(ctx: RequestContext): { dryRun: boolean; fieldManager: string | undefined } {
  return {
    dryRun: dryRunParam(ctx.query, 'UpdateOptions'),
    fieldManager: updateManager(ctx.query, 'UpdateOptions', ctx.clientKey),
  };
}

export function getScale(ctx: RequestContext): void {
  const { resource, namespace, name } = ctx.info;
  ctx.send(200, ctx.api.getScale(resource, namespace, name!));
}

export async function updateScale(ctx: RequestContext): Promise<void> {
  const { resource, namespace, name } = ctx.info;
  ctx.api.getScale(resource, namespace, name!);
  const scale = await decodeTyped(ctx, SCALE);
  checkName(scale, name!, namespace);
  ctx.send(200, ctx.api.updateScale(resource, namespace, name!, scale, writeOptions(ctx)));
}

export async function patchScale(ctx: RequestContext): Promise<void> {
  const { resource, namespace, name } = ctx.info;
  ctx.api.getScale(resource, namespace, name!);
  const { type, patch } = decodePatchBody(await ctx.body(), ctx.req.headers['content-type']);
  ctx.send(200, ctx.api.patchScale(resource, namespace, name!, type, patch, writeOptions(ctx)));
}
