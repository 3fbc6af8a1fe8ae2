/**
 * Field paths as the API server prints them, computed from a YAML path and
 * the schema (only the schema knows whether a key is a field or a map key).
 */
import { resolveRef } from '../../schema/schema';
import type { Definition, SchemaType } from '../../schema/types';

/** `spec.template.spec.containers[0].ports[0].containerPort`, `metadata.labels[app]` (k8s field.Path notation). */
export function upstreamFieldPath(root: Definition, path: readonly (string | number)[]): string {
  let out = '';
  let type: SchemaType | undefined = { kind: 'ref', name: root.name };
  for (const seg of path) {
    if (typeof seg === 'number' || type?.kind === 'map') out += `[${seg}]`;
    else out += out === '' ? seg : `.${seg}`;
    type = next(type, seg);
  }
  return out;
}

/**
 * `EnvVar.spec.template.spec.containers.env.value`: the innermost struct and
 * the field names from the root, as Go's encoding/json names a field in its
 * "cannot unmarshal" errors (list indices and map keys left out).
 */
export function goStructField(root: Definition, path: readonly (string | number)[]): string {
  const names: string[] = [];
  let struct = root.title;
  let type: SchemaType | undefined = { kind: 'ref', name: root.name };
  for (const seg of path) {
    if (typeof seg === 'string' && type?.kind === 'ref') {
      names.push(seg);
      struct = resolveRef(type)?.title ?? struct;
    }
    type = next(type, seg);
  }
  return `${struct}.${names.join('.')}`;
}

function next(type: SchemaType | undefined, seg: string | number): SchemaType | undefined {
  if (type === undefined) return undefined;
  if (type.kind === 'array') return typeof seg === 'number' ? type.items : undefined;
  if (type.kind === 'map') return type.values;
  const def = resolveRef(type);
  return def !== undefined && typeof seg === 'string' && Object.hasOwn(def.properties, seg)
    ? def.properties[seg].type
    : undefined;
}
