/**
 * PUT `namespaces/<name>/finalize`: replaces the namespace's `spec.finalizers`
 * (what the namespace controller does when a terminating namespace is empty).
 */
import type { RequestContext } from '../context';
import { checkName, decodeTyped } from './decode';

export async function finalizeNamespace(ctx: RequestContext): Promise<void> {
  const name = ctx.info.name!;
  const ns = await decodeTyped(ctx, { apiVersion: 'v1', kind: 'Namespace' });
  checkName(ns, name, undefined);
  const finalizers = (ns.spec as { finalizers?: unknown } | undefined)?.finalizers ?? [];
  const list = Array.isArray(finalizers) ? finalizers.filter((f): f is string => typeof f === 'string') : [];
  ctx.send(200, ctx.api.finalizeNamespace(name, list));
}
