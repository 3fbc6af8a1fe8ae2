/** Object references as the commands receive them: a tree node (from a context menu) or a plain `ObjectRef`. */
import { resourceByName } from '../../../sandbox/api/resources';
import type { ObjectRef } from '../sandbox/protocol';

function isRef(value: unknown): value is ObjectRef {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.resource === 'string' &&
    typeof v.name === 'string' &&
    (v.namespace === undefined || typeof v.namespace === 'string')
  );
}

/** The object a command was invoked on: the `ref` of a tree node, or the argument itself when it is an `ObjectRef`. */
export function refFromArg(arg: unknown): ObjectRef | undefined {
  if (isRef(arg)) return arg;
  if (typeof arg === 'object' && arg !== null && isRef((arg as { ref?: unknown }).ref))
    return (arg as { ref: ObjectRef }).ref;
  return undefined;
}

/** `deployment/web`, `pod/web-7d9f-x2x`, `node/node-1`: how kubectl names an object. */
export function refText(ref: ObjectRef): string {
  return `${singular(ref.resource)}/${ref.name}`;
}

function singular(resource: string): string {
  return resourceByName(resource)?.singular ?? resource;
}
