/**
 * Controllers and kubelets rewrite status all the time; a manifest never
 * sets it, so a status-only update cannot be drift and is not worth a check.
 */
import type { KubeObject } from '../api/types';
import { jsonEqual } from '../util/json';

function withoutStatus(obj: KubeObject): unknown {
  const { status: _status, metadata, ...rest } = obj;
  const { resourceVersion: _rv, managedFields: _mf, ...meta } = metadata;
  return { ...rest, metadata: meta };
}

/** True when `next` differs from `prev` only in status, resourceVersion or managedFields. */
export function onlyStatusChanged(prev: KubeObject, next: KubeObject): boolean {
  return jsonEqual(withoutStatus(prev), withoutStatus(next));
}
