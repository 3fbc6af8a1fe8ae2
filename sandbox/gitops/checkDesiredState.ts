/**
 * Checks a saved desired state (from a snapshot written by an older or
 * damaged session) before it is trusted: a bad one is refused whole.
 */
import type { KubeObject } from '../api/types';
import { isPlainObject } from '../util/json';
import type { DesiredStateData } from './desiredState';

export class DesiredStateError extends Error {
  constructor(message: string) {
    super(`invalid desired state: ${message}`);
    this.name = 'DesiredStateError';
  }
}

function checkObject(o: unknown, where: string): DesiredStateData['sources'][number]['objects'][number] {
  if (!isPlainObject(o)) throw new DesiredStateError(`${where} is not an object`);
  const { resource, namespace, name, line, manifest, source, order } = o;
  if (typeof resource !== 'string' || typeof name !== 'string' || name === '')
    throw new DesiredStateError(`${where} needs a resource and a name`);
  if (namespace !== undefined && typeof namespace !== 'string')
    throw new DesiredStateError(`${where}.namespace must be a string`);
  if (typeof line !== 'number' || !Number.isInteger(line) || line < 0)
    throw new DesiredStateError(`${where}.line must be a non-negative integer`);
  if (typeof source !== 'string') throw new DesiredStateError(`${where}.source must be a string`);
  if (order !== undefined && (typeof order !== 'number' || !Number.isInteger(order) || order < 0))
    throw new DesiredStateError(`${where}.order must be a non-negative integer`);
  if (
    !isPlainObject(manifest) ||
    !isPlainObject(manifest.metadata) ||
    typeof manifest.apiVersion !== 'string' ||
    typeof manifest.kind !== 'string'
  ) {
    throw new DesiredStateError(`${where}.manifest is not a Kubernetes object`);
  }
  const checked = { resource, namespace, name, line, source, manifest: manifest as KubeObject };
  return order === undefined ? checked : { ...checked, order };
}

/** The data, typed, when it is a well-formed desired state; throws DesiredStateError otherwise. */
export function checkDesiredState(data: unknown): DesiredStateData {
  if (!isPlainObject(data) || !Array.isArray(data.sources)) throw new DesiredStateError('expected {sources: [...]}');
  return {
    sources: data.sources.map((s: unknown, i: number) => {
      if (!isPlainObject(s) || typeof s.source !== 'string' || !Array.isArray(s.objects))
        throw new DesiredStateError(`sources[${i}] needs a source and objects`);
      return {
        source: s.source,
        objects: s.objects.map((o: unknown, j: number) => checkObject(o, `sources[${i}].objects[${j}]`)),
      };
    }),
  };
}
