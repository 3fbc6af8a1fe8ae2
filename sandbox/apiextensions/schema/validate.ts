/**
 * Validation of a custom resource against its CRD version's structural schema, with the errors kube-apiserver
 * returns in its 422: types (`spec.replicas: Invalid value: "string": spec.replicas in body must be of type
 * integer: "string"`), required fields, enums, patterns, formats, bounds on numbers, strings, lists and maps,
 * `nullable`, `x-kubernetes-int-or-string`, `x-kubernetes-embedded-resource` (apiVersion and kind required),
 * and the uniqueness of `x-kubernetes-list-type: set` and `map` lists.
 *
 * upstream: apiextensions-apiserver pkg/apiserver/validation/validation.go (`ValidateCustomResource`, which runs
 * kube-openapi's validate package and converts its results with `kubeOpenAPIResultToFieldErrors`) and
 * pkg/apiserver/schema/listtype/validation.go (`ValidateListSetsAndMaps`). Pure: the object is only read.
 *
 * The CEL rules (`x-kubernetes-validations`) are evaluated at one call site, `celValidation` (./cel.ts).
 */
import type { FieldError } from '../../admission/validation/fieldError';
import { goLiteral } from '../../admission/validation/fieldError';
import type { JSONSchemaProps } from './types';
import { additionalSchema, isObject, itemsSchema } from './types';
import { matchesFormat } from './formats';
import type { Segment } from './path';
import { pathText } from './path';

const CODE = 'custom-resource-schema';

/** The JSON type of a value as kube-openapi names it in messages. */
export function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'object') return 'object';
  return typeof v;
}

function typeMatches(type: string, v: unknown): boolean {
  switch (type) {
    case 'object':
      return isObject(v);
    case 'array':
      return Array.isArray(v);
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number';
    case 'boolean':
      return typeof v === 'boolean';
    default:
      return true;
  }
}

/** Go's `%v` of a number in a bound message: `10`, `1.5`. */
function num(n: number): string {
  return String(n);
}

interface Where {
  segments: Segment[];
  /** Indices of `segments` that are map keys (printed in brackets). */
  mapKeys: Set<number>;
}

function child(at: Where, seg: Segment, isMapKey = false): Where {
  const mapKeys = new Set(at.mapKeys);
  if (isMapKey) mapKeys.add(at.segments.length);
  return { segments: [...at.segments, seg], mapKeys };
}

function text(at: Where): string {
  return pathText(at.segments, at.mapKeys);
}

/** `spec.replicas in body` as kube-openapi words the location (the root is `body`). */
function inBody(at: Where): string {
  const p = text(at);
  return p === '' ? 'body' : `${p} in body`;
}

class Validator {
  readonly errors: FieldError[] = [];

  invalid(at: Where, value: unknown, detail: string): void {
    this.errors.push({ code: CODE, type: 'FieldValueInvalid', field: text(at), value, detail });
  }

  value(v: unknown, s: JSONSchemaProps, at: Where): void {
    if (v === null) {
      if (s.nullable === true) return;
      if (s.type !== undefined && s.type !== '') {
        this.invalid(at, 'null', `${inBody(at)} must be of type ${s.type}: "null"`);
        return;
      }
      if (s['x-kubernetes-int-or-string'] === true) {
        this.invalid(at, 'null', `${inBody(at)} must be of type integer,string: "null"`);
        return;
      }
      return;
    }
    if (
      s['x-kubernetes-int-or-string'] === true &&
      !(typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v)))
    ) {
      const t = jsonType(v);
      this.invalid(at, t, `${inBody(at)} must be of type integer,string: ${JSON.stringify(t)}`);
      return;
    }
    if (s.type !== undefined && s.type !== '' && !typeMatches(s.type, v)) {
      const t = jsonType(v);
      this.invalid(at, t, `${inBody(at)} must be of type ${s.type}: ${JSON.stringify(t)}`);
      return;
    }
    if (s.enum !== undefined && s.enum.length > 0 && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))) {
      this.errors.push({
        code: CODE,
        type: 'FieldValueNotSupported',
        field: text(at),
        value: v,
        supported: s.enum.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))),
      });
    }
    if (typeof v === 'string') this.string(v, s, at);
    else if (typeof v === 'number') this.number(v, s, at);
    else if (Array.isArray(v)) this.array(v, s, at);
    else if (isObject(v)) this.object(v, s, at);
    this.combinators(v, s, at);
  }

  private string(v: string, s: JSONSchemaProps, at: Where): void {
    const length = [...v].length;
    if (s.maxLength !== undefined && length > s.maxLength) {
      this.errors.push({
        code: CODE,
        type: 'FieldValueTooLong',
        field: text(at),
        value: v,
        detail: `may not be more than ${s.maxLength} ${s.maxLength === 1 ? 'byte' : 'bytes'}`,
      });
    }
    if (s.minLength !== undefined && length < s.minLength)
      this.invalid(at, v, `${inBody(at)} should be at least ${s.minLength} chars long`);
    if (s.pattern !== undefined) {
      let re: RegExp | undefined;
      try {
        re = new RegExp(s.pattern, 'u');
      } catch {
        re = undefined;
      }
      if (re !== undefined && !re.test(v)) this.invalid(at, v, `${inBody(at)} should match '${s.pattern}'`);
    }
    if (s.format !== undefined && s.format !== '' && !matchesFormat(s.format, v))
      this.invalid(at, v, `${inBody(at)} must be of type ${s.format}: ${JSON.stringify(v)}`);
  }

  private number(v: number, s: JSONSchemaProps, at: Where): void {
    if (s.maximum !== undefined) {
      if (s.exclusiveMaximum === true ? v >= s.maximum : v > s.maximum)
        this.invalid(
          at,
          v,
          `${inBody(at)} should be less than ${s.exclusiveMaximum === true ? '' : 'or equal to '}${num(s.maximum)}`,
        );
    }
    if (s.minimum !== undefined) {
      if (s.exclusiveMinimum === true ? v <= s.minimum : v < s.minimum)
        this.invalid(
          at,
          v,
          `${inBody(at)} should be greater than ${s.exclusiveMinimum === true ? '' : 'or equal to '}${num(s.minimum)}`,
        );
    }
    if (s.multipleOf !== undefined && s.multipleOf > 0) {
      const q = v / s.multipleOf;
      if (Math.abs(q - Math.round(q)) > 1e-9)
        this.invalid(at, v, `${inBody(at)} should be a multiple of ${num(s.multipleOf)}`);
    }
    if (s.type === 'integer' && s.format === 'int32' && (v > 2147483647 || v < -2147483648))
      this.invalid(at, v, `${inBody(at)} must be of type int32: "${v}"`);
  }

  private array(v: unknown[], s: JSONSchemaProps, at: Where): void {
    if (s.maxItems !== undefined && v.length > s.maxItems) {
      this.errors.push({
        code: CODE,
        type: 'FieldValueTooMany',
        field: text(at),
        value: v.length,
        detail: `must have at most ${s.maxItems} items`,
      });
    }
    if (s.minItems !== undefined && v.length < s.minItems)
      this.invalid(at, v.length, `${inBody(at)} should have at least ${s.minItems} items`);
    const items = itemsSchema(s);
    if (items !== undefined) v.forEach((item, i) => this.value(item, items, child(at, i)));
    this.listType(v, s, at);
  }

  /** upstream: schema/listtype/validation.go: duplicates in `set` and `map` lists. */
  private listType(v: unknown[], s: JSONSchemaProps, at: Where): void {
    const type = s['x-kubernetes-list-type'];
    if (type === 'set') {
      const seen = new Set<string>();
      v.forEach((item, i) => {
        const key = JSON.stringify(item);
        if (seen.has(key))
          this.errors.push({ code: CODE, type: 'FieldValueDuplicate', field: text(child(at, i)), value: item });
        seen.add(key);
      });
    } else if (type === 'map') {
      const keys = s['x-kubernetes-list-map-keys'] ?? [];
      const items = itemsSchema(s);
      const seen = new Set<string>();
      v.forEach((item, i) => {
        if (!isObject(item)) return;
        const entry: Record<string, unknown> = {};
        for (const k of keys) {
          const value = Object.hasOwn(item, k) ? item[k] : items?.properties?.[k]?.default;
          if (value !== undefined) entry[k] = value;
        }
        const key = JSON.stringify(keys.map((k) => entry[k]));
        if (seen.has(key)) {
          const shown = Object.entries(entry)
            .map(([k, val]) => `${JSON.stringify(k)}:${typeof val === 'string' ? JSON.stringify(val) : String(val)}`)
            .join(', ');
          this.errors.push({
            code: CODE,
            type: 'FieldValueDuplicate',
            field: text(child(at, i)),
            value: goLiteral(`map[string]interface {}{${shown}}`),
          });
        }
        seen.add(key);
      });
    }
  }

  private object(v: Record<string, unknown>, s: JSONSchemaProps, at: Where): void {
    const count = Object.keys(v).length;
    if (s.maxProperties !== undefined && count > s.maxProperties) {
      this.errors.push({
        code: CODE,
        type: 'FieldValueTooMany',
        field: text(at),
        value: count,
        detail: `must have at most ${s.maxProperties} items`,
      });
    }
    if (s.minProperties !== undefined && count < s.minProperties)
      this.invalid(at, count, `${inBody(at)} should have at least ${s.minProperties} properties`);
    for (const r of s.required ?? []) {
      if (!Object.hasOwn(v, r) || v[r] === undefined)
        this.errors.push({ code: CODE, type: 'FieldValueRequired', field: text(child(at, r)) });
    }
    if (s['x-kubernetes-embedded-resource'] === true) this.embedded(v, at);
    const props = s.properties ?? {};
    const additional = additionalSchema(s);
    for (const [key, value] of Object.entries(v)) {
      if (Object.hasOwn(props, key)) this.value(value, props[key], child(at, key));
      else if (additional !== undefined) this.value(value, additional, child(at, key, true));
    }
  }

  /** upstream: pkg/apiserver/schema/objectmeta/validation.go: an embedded object names its apiVersion and kind. */
  private embedded(v: Record<string, unknown>, at: Where): void {
    for (const key of ['apiVersion', 'kind']) {
      const val = v[key];
      if (val === undefined || val === '')
        this.errors.push({
          code: CODE,
          type: 'FieldValueRequired',
          field: text(child(at, key)),
          detail: 'must not be empty',
        });
    }
  }

  private combinators(v: unknown, s: JSONSchemaProps, at: Where): void {
    for (const sub of s.allOf ?? []) this.value(v, { ...sub, type: sub.type }, at);
    if (s.anyOf !== undefined && s.anyOf.length > 0 && !s.anyOf.some((sub) => passes(v, sub)))
      this.invalid(at, v, `${inBody(at)} must validate at least one schema (anyOf)`);
    if (s.oneOf !== undefined && s.oneOf.length > 0) {
      const n = s.oneOf.filter((sub) => passes(v, sub)).length;
      if (n !== 1)
        this.invalid(
          at,
          v,
          `${inBody(at)} must validate one and only one schema (oneOf). Found ${n === 0 ? 'none' : n} valid`,
        );
    }
    if (s.not !== undefined && passes(v, s.not))
      this.invalid(at, v, `${inBody(at)} must not validate the schema (not)`);
  }
}

function passes(v: unknown, s: JSONSchemaProps): boolean {
  const inner = new Validator();
  inner.value(v, s, { segments: [], mapKeys: new Set() });
  return inner.errors.length === 0;
}

/**
 * The schema errors of `obj` (a whole custom resource, already pruned and defaulted) against `schema`, with
 * upstream's field paths from the root (`spec.endpoints[0].port`). `metadata` is ObjectMeta's: only its `name`
 * and `generateName` are checked against the schema, as upstream.
 */
export function validateCustomResource(obj: unknown, schema: JSONSchemaProps | undefined): FieldError[] {
  if (schema === undefined) return [];
  const v = new Validator();
  const root: Where = { segments: [], mapKeys: new Set() };
  if (!isObject(obj)) {
    v.value(obj, schema, root);
    return v.errors;
  }
  const { metadata, ...rest } = obj;
  const metaSchema = schema.properties?.metadata;
  const restSchema: JSONSchemaProps = {
    ...schema,
    properties: Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([k]) => k !== 'metadata')),
  };
  v.value(rest, restSchema, root);
  if (metaSchema !== undefined && isObject(metadata)) {
    const meta: Record<string, unknown> = {};
    for (const k of ['name', 'generateName']) if (Object.hasOwn(metadata, k)) meta[k] = metadata[k];
    v.value(meta, { ...metaSchema, required: undefined }, child(root, 'metadata'));
  }
  return v.errors;
}

/** The errors of one value against one schema node, with paths under `at` (for defaults and other checks). */
export function validateValue(value: unknown, schema: JSONSchemaProps, at: readonly Segment[] = []): FieldError[] {
  const v = new Validator();
  v.value(value, schema, { segments: [...at], mapKeys: new Set() });
  return v.errors;
}
