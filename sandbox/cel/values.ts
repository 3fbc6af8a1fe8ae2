/**
 * JSON values → the values CEL evaluates, guided by the schema as kube-apiserver's UnstructuredToVal is
 * (upstream: apiserver/pkg/cel/common/values.go): integers are int (bigint), `number` is double even when whole,
 * formatted strings become bytes, durations and timestamps, objects expose their escaped property names and maps
 * their own keys. Without a schema (dyn), whole numbers are int and others double.
 */
import { Duration } from '@marcbachmann/cel-js/evaluator';
import { escapeProperty } from './escaping';
import type { CelSchema } from './schema';
import { isDynamic, mapValues, propertiesOf } from './schema';

export function toCelValue(value: unknown, schema: CelSchema | undefined): unknown {
  if (value === null || value === undefined) return null;
  if (schema === undefined || isDynamic(schema)) return dynValue(value);
  switch (schema.type) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : dynValue(value);
    case 'number':
      return typeof value === 'number' ? value : dynValue(value);
    case 'string':
      return typeof value === 'string' ? formatted(value, schema.format) : dynValue(value);
    case 'array':
      return Array.isArray(value) ? value.map((v) => toCelValue(v, schema.items)) : dynValue(value);
    default:
      break;
  }
  if (typeof value !== 'object' || Array.isArray(value)) return dynValue(value);
  const obj = value as Record<string, unknown>;
  const values = mapValues(schema);
  const out: Record<string, unknown> = {};
  if (values !== undefined && schema.properties === undefined) {
    for (const [k, v] of Object.entries(obj)) out[k] = toCelValue(v, values);
    return out;
  }
  const props = propertiesOf(schema);
  for (const [k, v] of Object.entries(obj)) {
    const child = props[k];
    if (child === undefined) continue;
    const name = escapeProperty(k);
    if (name !== undefined && v !== undefined) out[name] = toCelValue(v, child);
  }
  return out;
}

function dynValue(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(dynValue);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = dynValue(v);
    return out;
  }
  return value;
}

const DURATION_UNITS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

function formatted(s: string, format: string | undefined): unknown {
  switch (format) {
    case 'byte':
      try {
        return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
      } catch {
        return s;
      }
    case 'date':
    case 'date-time': {
      const t = Date.parse(s);
      return Number.isNaN(t) ? s : new Date(t);
    }
    case 'duration': {
      const m = /^([+-]?)((?:\d+(?:\.\d*)?(?:ns|us|µs|ms|s|m|h))+)$/.exec(s);
      if (!m) return s;
      let nanos = 0;
      for (const part of m[2].matchAll(/(\d+(?:\.\d*)?)(ns|us|µs|ms|s|m|h)/g))
        nanos += Number(part[1]) * DURATION_UNITS[part[2]];
      const total = BigInt(Math.round(nanos)) * (m[1] === '-' ? -1n : 1n);
      return new Duration(total / 1_000_000_000n, Number(total % 1_000_000_000n));
    }
    default:
      return s;
  }
}
