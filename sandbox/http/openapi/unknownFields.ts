/**
 * The fields of an object its kind's schema does not declare, for
 * `?fieldValidation=Strict` (reject) and `Warn` (the default: keep going with a
 * warning). Paths are spelled as upstream's strict JSON decoding reports them —
 * `spec.replicass`, `spec.template.spec.containers[0].imagee` — in the order
 * the object's keys come (a parsed body keeps its document order). Maps
 * (labels, data…) and free-form JSON accept any key.
 */
import type { KubeObject } from '../../api/types';
import { definition, kindEntry } from '../../schema/schema';
import type { SchemaType } from '../../schema/types';
import { isPlainObject } from '../../util/json';

/** One unknown field: its path as upstream prints it, and the keys and indices that lead to it (for removing it). */
export interface UnknownField {
  path: string;
  segments: (string | number)[];
}

/** The unknown fields of `obj`, or none when its apiVersion/kind is not in the schema (that is reported elsewhere). */
export function findUnknownFields(obj: KubeObject): UnknownField[] {
  const entry =
    typeof obj.apiVersion === 'string' && typeof obj.kind === 'string'
      ? kindEntry(obj.apiVersion, obj.kind)
      : undefined;
  if (entry === undefined) return [];
  const found: UnknownField[] = [];
  walk(obj, { kind: 'ref', name: entry.definition }, [], found);
  return found;
}

/** The paths of the unknown fields of `obj`: `['spec.replicass', 'spec.template.spec.containers[1].imagee']`. */
export function unknownFields(obj: KubeObject): string[] {
  return findUnknownFields(obj).map((f) => f.path);
}

function pathText(segments: readonly (string | number)[]): string {
  let out = '';
  for (const s of segments) out += typeof s === 'number' ? `[${s}]` : out === '' ? s : `.${s}`;
  return out;
}

function walk(value: unknown, type: SchemaType, at: (string | number)[], found: UnknownField[]): void {
  switch (type.kind) {
    case 'ref': {
      const def = definition(type.name);
      if (def === undefined || !isPlainObject(value)) return;
      for (const [key, v] of Object.entries(value)) {
        const next = [...at, key];
        if (Object.hasOwn(def.properties, key)) walk(v, def.properties[key].type, next, found);
        else found.push({ path: pathText(next), segments: next });
      }
      return;
    }
    case 'array':
      if (Array.isArray(value)) value.forEach((item, i) => walk(item, type.items, [...at, i], found));
      return;
    case 'map':
      if (isPlainObject(value)) for (const [key, v] of Object.entries(value)) walk(v, type.values, [...at, key], found);
      return;
    default:
      // Scalars, IntOrString, Quantity and free-form JSON have no fields to check.
      return;
  }
}
