/**
 * A placeholder value of a schema type, for "add missing field": the first
 * enum value, a zero, an empty string, or — for objects and lists of objects —
 * their own required fields, so the inserted text has the right shape.
 */
import { resolveRef } from '../../schema/schema';
import type { SchemaType } from '../../schema/types';
import type { YamlValue } from './yamlValue';

/** How deep required fields of nested objects are filled in. */
const MAX_DEPTH = 3;

/** A placeholder of `type`. */
export function placeholder(type: SchemaType, depth = 0): YamlValue {
  switch (type.kind) {
    case 'string':
      return type.enum?.[0] ?? '""';
    case 'integer':
    case 'number':
    case 'intOrString':
      return '0';
    case 'quantity':
      return '"0"';
    case 'boolean':
      return 'false';
    case 'any':
    case 'map':
      return { map: [] };
    case 'array': {
      const item = placeholder(type.items, depth + 1);
      return typeof item !== 'string' && 'map' in item && item.map.length > 0 ? { list: [item] } : { list: [] };
    }
    case 'ref': {
      const def = resolveRef(type);
      if (def === undefined || depth >= MAX_DEPTH) return { map: [] };
      return { map: def.required.map((f) => [f, placeholder(def.properties[f].type, depth + 1)] as const) };
    }
  }
}

/** A placeholder from a kubectl-explain type text (`integer`, `[]Container`), when the schema type is not at hand. */
export function placeholderForTypeText(type: string): YamlValue {
  if (type === 'string') return '""';
  if (type === 'integer' || type === 'number' || type === 'IntOrString') return '0';
  if (type === 'boolean') return 'false';
  if (type === 'Quantity') return '"0"';
  if (type.startsWith('[]')) return { list: [] };
  return { map: [] };
}
