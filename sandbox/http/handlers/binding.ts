/**
 * POST `pods/<name>/binding` (what a scheduler does): assigns the pod to the
 * Binding's target node in one write; answered 201 with a Success Status.
 */
import { badRequest } from '../../api/errors';
import type { RequestContext } from '../context';
import { dryRunParam } from '../query';
import { successStatus } from '../respond';
import { decodeTyped } from './decode';

export async function bindPod(ctx: RequestContext): Promise<void> {
  const namespace = ctx.info.namespace!;
  const name = ctx.info.name!;
  const dryRun = dryRunParam(ctx.query, 'CreateOptions');
  const binding = await decodeTyped(ctx, { apiVersion: 'v1', kind: 'Binding' });
  const meta = (binding.metadata ?? {}) as { name?: unknown; namespace?: unknown; uid?: unknown };
  if (meta.name !== name) throw badRequest('name in URL does not match name in Binding object');
  if (meta.namespace !== undefined && meta.namespace !== '' && meta.namespace !== namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  const target = (binding.target ?? {}) as { kind?: unknown; name?: unknown };
  if (target.kind !== undefined && target.kind !== '' && target.kind !== 'Node')
    throw badRequest(`cannot bind to a ${String(target.kind)}: a pod is bound to a Node`);
  const options: { dryRun: boolean; uid?: string } = { dryRun };
  if (typeof meta.uid === 'string' && meta.uid !== '') options.uid = meta.uid;
  ctx.api.bind(namespace, name, typeof target.name === 'string' ? target.name : '', options);
  ctx.send(201, successStatus(undefined, 201));
}
