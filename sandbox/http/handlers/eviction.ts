/**
 * POST `pods/<name>/eviction`: decodes the `policy/v1` (or v1beta1) Eviction
 * and its deleteOptions, calls the API server's `evict` verb — which alone
 * decides about PodDisruptionBudgets (sandbox/apiserver/eviction.ts) — and
 * answers 201 Success.
 */
import type { KubeObject } from '../../api/types';
import type { RequestContext } from '../context';
import { deleteOptions, dryRunParam } from '../query';
import { successStatus } from '../respond';
import { decodeTyped } from './decode';

const EVICTION = { apiVersion: 'policy/v1', kind: 'Eviction', also: ['policy/v1beta1'] } as const;

export async function evictPod(ctx: RequestContext): Promise<void> {
  const eviction = await decodeTyped(ctx, EVICTION);
  const meta = (eviction.metadata ?? {}) as KubeObject['metadata'];
  const raw = eviction.deleteOptions;
  const options =
    raw && typeof raw === 'object' && !Array.isArray(raw)
      ? deleteOptions(new URLSearchParams(), raw as Record<string, unknown>)
      : undefined;
  ctx.api.evict(
    ctx.info.namespace!,
    ctx.info.name!,
    { metadata: { name: meta.name, namespace: meta.namespace }, deleteOptions: options },
    { dryRun: dryRunParam(ctx.query, 'CreateOptions') },
  );
  ctx.send(201, successStatus(undefined, 201));
}
