/**
 * `kubectl scale` (kubectl pkg/cmd/scale and pkg/scale `genericScaler.ScaleSimple`):
 * through the `/scale` subresource — a merge patch of `spec.replicas`, or,
 * with preconditions (`--current-replicas`, `--resource-version`), a read of
 * the Scale, the checks, and an update.
 */
import type { ApiServer, ResourceRef } from '../apiserver/apiServer';
import { qualifiedKind } from '../api/resources';
import type { KubeObject } from '../api/types';

export interface ScaleOptions {
  /** `--current-replicas`: scale only if the Scale's spec.replicas is this. */
  currentReplicas?: number;
  /** `--resource-version`: scale only if the Scale's resourceVersion is this. */
  resourceVersion?: string;
  dryRun?: boolean;
}

export interface ScaleResult {
  /** The Scale after the write. */
  scale: KubeObject;
  /** kubectl's line: `deployment.apps/web scaled`. */
  message: string;
}

/** The precondition failure kubectl reports (`PreconditionError`). */
export class ScalePreconditionError extends Error {
  constructor(precondition: string, expected: string, actual: string) {
    super(`Expected ${precondition} to be ${expected}, was ${actual}`);
    this.name = 'ScalePreconditionError';
  }
}

/**
 * Sets the replicas of a Deployment, ReplicaSet, StatefulSet (any kind with `/scale`). Throws the API server's
 * errors: 404 for a missing object or a kind without the subresource, 409 on a stale resourceVersion.
 */
export function scale(
  api: ApiServer,
  resource: ResourceRef,
  namespace: string | undefined,
  name: string,
  replicas: number,
  options: ScaleOptions = {},
): ScaleResult {
  if (!Number.isInteger(replicas) || replicas < 0)
    throw new RangeError('The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0');
  const r = api.resolve(resource);
  const write = { dryRun: options.dryRun };
  let result: KubeObject;
  if (options.currentReplicas !== undefined || options.resourceVersion !== undefined) {
    const current = api.getScale(r, namespace, name);
    const have = (current.spec as { replicas?: number }).replicas ?? 0;
    if (options.currentReplicas !== undefined && options.currentReplicas !== have)
      throw new ScalePreconditionError('replicas', String(options.currentReplicas), String(have));
    const rv = current.metadata.resourceVersion ?? '';
    if (options.resourceVersion !== undefined && options.resourceVersion !== rv)
      throw new ScalePreconditionError('resource version', options.resourceVersion, rv);
    result = api.updateScale(r, namespace, name, { ...current, spec: { replicas } }, write);
  } else {
    result = api.patchScale(r, namespace, name, 'merge', { spec: { replicas } }, write);
  }
  return { scale: result, message: `${qualifiedKind(r).toLowerCase()}/${name} scaled` };
}
