/**
 * Whether a CRD version's OpenAPI v3 schema is one apiextensions.k8s.io/v1 accepts: structural (every specified
 * field has a type, the root is an object, value validations under allOf/anyOf/oneOf/not add no structure),
 * within the subset of OpenAPI CRDs allow, with coherent `x-kubernetes-*` extensions, `metadata` constrained to
 * `name` and `generateName` only, and `default`s that are pruned and valid. Errors carry upstream's paths
 * (`spec.versions[0].schema.openAPIV3Schema.properties[spec].type`) and words.
 *
 * upstream: apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go
 * (`ValidateCustomResourceDefinitionOpenAPISchema`, `specStandardValidatorV3.validate`) and
 * pkg/apiserver/schema/validation.go (`ValidateStructural`, `validateStructuralInvariants`,
 * `validateValueValidation`), pkg/apiserver/schema/defaulting/validation.go (`ValidateDefaults`).
 */
import type { FieldError } from '../../admission/validation/fieldError';
import { goLiteral } from '../../admission/validation/fieldError';
import { celSchemaErrors } from './cel';
import { prune } from './prune';
import type { JSONSchemaProps } from './types';
import { additionalSchema, isObject, itemsSchema } from './types';
import { validateValue } from './validate';

const CODE = 'crd-schema';

type Level = 'root' | 'field' | 'item' | 'metadata';

function req(field: string, detail: string): FieldError {
  return { code: CODE, type: 'FieldValueRequired', field, detail };
}
function inv(field: string, value: unknown, detail: string): FieldError {
  return { code: CODE, type: 'FieldValueInvalid', field, value, detail };
}
function forb(field: string, detail: string): FieldError {
  return { code: CODE, type: 'FieldValueForbidden', field, detail };
}

const SCALARS = new Set(['string', 'integer', 'number', 'boolean']);

interface Ctx {
  /** Inside allOf / anyOf / oneOf / not: value validation only. */
  valueValidation: boolean;
  /** Inside the schema of an ObjectMeta (`metadata` of the root or of an embedded resource). */
  insideMeta: boolean;
}

/** The errors of one CRD version's `openAPIV3Schema` at `path` (`spec.versions[0].schema.openAPIV3Schema`). */
export function structuralSchemaErrors(schema: JSONSchemaProps, path: string): FieldError[] {
  const out: FieldError[] = [];
  node(schema, path, 'root', { valueValidation: false, insideMeta: false }, out);
  if (out.length === 0) out.push(...defaultErrors(schema, path, true));
  if (out.length === 0) out.push(...celSchemaErrors(schema, path));
  return out;
}

function node(s: JSONSchemaProps, path: string, level: Level, ctx: Ctx, out: FieldError[]): void {
  // The OpenAPI subset (specStandardValidatorV3).
  if (s.id !== undefined) out.push(forb(`${path}.id`, 'id is not supported'));
  if (s.$ref !== undefined) out.push(forb(`${path}.$ref`, '$ref is not supported'));
  if (s.additionalItems !== undefined) out.push(forb(`${path}.additionalItems`, 'additionalItems is not supported'));
  if (s.patternProperties !== undefined)
    out.push(forb(`${path}.patternProperties`, 'patternProperties is not supported'));
  if (s.definitions !== undefined) out.push(forb(`${path}.definitions`, 'definitions is not supported'));
  if (s.dependencies !== undefined) out.push(forb(`${path}.dependencies`, 'dependencies is not supported'));
  if (s.type === 'null') out.push(forb(`${path}.type`, 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s.items)) out.push(forb(`${path}.items`, 'items must be a schema object and not an array'));
  if (s.uniqueItems === true)
    out.push(
      forb(`${path}.uniqueItems`, 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'),
    );
  if (ctx.insideMeta && s.default !== undefined) out.push(forb(`${path}.default`, 'must not be set inside metadata'));
  const props = s.properties ?? {};
  if (s.additionalProperties !== undefined && Object.keys(props).length > 0 && s.additionalProperties !== true)
    out.push(forb(`${path}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'));

  if (ctx.valueValidation) valueValidationNode(s, path, out);
  else structuralNode(s, path, level, out);

  for (const [key, prop] of Object.entries(props)) {
    const meta =
      !ctx.valueValidation && (level === 'root' || s['x-kubernetes-embedded-resource'] === true) && key === 'metadata';
    node(prop, `${path}.properties[${key}]`, 'field', { ...ctx, insideMeta: ctx.insideMeta || meta }, out);
  }
  const additional = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
  if (additional !== undefined) node(additional, `${path}.additionalProperties`, 'field', ctx, out);
  const items = itemsSchema(s);
  if (items !== undefined) node(items, `${path}.items`, 'item', ctx, out);
  if (s.not !== undefined) node(s.not, `${path}.not`, 'field', { ...ctx, valueValidation: true }, out);
  for (const [name, list] of [
    ['allOf', s.allOf],
    ['anyOf', s.anyOf],
    ['oneOf', s.oneOf],
  ] as const) {
    // upstream: an int-or-string may say so the OpenAPI way, `anyOf: [{type: integer}, {type: string}]` (or allOf).
    if (s['x-kubernetes-int-or-string'] === true && name !== 'oneOf' && isIntOrStringPair(list)) continue;
    (list ?? []).forEach((sub, i) =>
      node(sub, `${path}.${name}[${i}]`, 'field', { ...ctx, valueValidation: true }, out),
    );
  }
}

function isIntOrStringPair(list: readonly JSONSchemaProps[] | undefined): boolean {
  if (list === undefined || list.length !== 2) return false;
  const only = (x: JSONSchemaProps, t: string) => x.type === t && Object.keys(x).length === 1;
  return only(list[0], 'integer') && only(list[1], 'string');
}

/** upstream: schema/validation.go validateStructuralInvariants and validateStructuralMetadataInvariants. */
function structuralNode(s: JSONSchemaProps, path: string, level: Level, out: FieldError[]): void {
  const preserve = s['x-kubernetes-preserve-unknown-fields'];
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const type = s.type ?? '';
  if (type === 'array' && s.items === undefined) out.push(req(`${path}.items`, 'must be specified'));
  if (intOrString && type !== '')
    out.push(inv(`${path}.type`, type, 'must be empty if x-kubernetes-int-or-string is true'));
  if (preserve === false)
    out.push(inv(`${path}.x-kubernetes-preserve-unknown-fields`, false, 'must be true or undefined'));
  if (embedded && type !== 'object') {
    if (type === '') out.push(req(`${path}.type`, 'must be object if x-kubernetes-embedded-resource is true'));
    else out.push(inv(`${path}.type`, type, 'must be object if x-kubernetes-embedded-resource is true'));
  }
  if (embedded && preserve !== true && Object.keys(s.properties ?? {}).length === 0)
    out.push(
      req(
        `${path}.properties`,
        'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
      ),
    );
  if (type === '' && !embedded && !intOrString && preserve !== true) {
    if (level === 'root') out.push(req(`${path}.type`, 'must not be empty at the root'));
    else if (level === 'item') out.push(req(`${path}.type`, 'must not be empty for specified array items'));
    else out.push(req(`${path}.type`, 'must not be empty for specified object fields'));
  }
  if (level === 'root' && type !== '' && type !== 'object')
    out.push(inv(`${path}.type`, type, 'must be object at the root'));
  if (level === 'root' || embedded) metadataInvariants(s, path, level === 'root', out);
  listInvariants(s, path, out);
  const mapType = s['x-kubernetes-map-type'];
  if (mapType !== undefined && mapType !== 'granular' && mapType !== 'atomic')
    out.push({
      code: CODE,
      type: 'FieldValueNotSupported',
      field: `${path}.x-kubernetes-map-type`,
      value: mapType,
      supported: ['atomic', 'granular'],
    });
}

function metadataInvariants(s: JSONSchemaProps, path: string, root: boolean, out: FieldError[]): void {
  const props = s.properties ?? {};
  for (const key of ['kind', 'apiVersion']) {
    const p = props[key];
    if (p !== undefined && p.type !== undefined && p.type !== 'string')
      out.push(inv(`${path}.properties[${key}].type`, p.type, 'must be string'));
  }
  const meta = props.metadata;
  if (meta === undefined) return;
  const mpath = `${path}.properties[metadata]`;
  if (meta.type !== undefined && meta.type !== 'object') out.push(inv(`${mpath}.type`, meta.type, 'must be object'));
  if (!root) return;
  // Only name and generateName may be constrained; everything else of ObjectMeta is the API server's.
  const allowed = new Set(['type', 'properties', 'description']);
  const extra = Object.keys(meta).some((k) => !allowed.has(k));
  const extraProps = Object.keys(meta.properties ?? {}).some((k) => k !== 'name' && k !== 'generateName');
  if (extra || extraProps)
    out.push(
      forb(mpath, 'must not specify anything other than name and generateName, but metadata is implicitly specified'),
    );
}

/** upstream: schema/validation.go: the list-type and map-key rules. */
function listInvariants(s: JSONSchemaProps, path: string, out: FieldError[]): void {
  const listType = s['x-kubernetes-list-type'];
  const keys = s['x-kubernetes-list-map-keys'];
  if (listType !== undefined && listType !== 'atomic' && listType !== 'set' && listType !== 'map') {
    out.push({
      code: CODE,
      type: 'FieldValueNotSupported',
      field: `${path}.x-kubernetes-list-type`,
      value: listType,
      supported: ['atomic', 'map', 'set'],
    });
    return;
  }
  if (listType !== undefined && s.type !== 'array')
    out.push(inv(`${path}.x-kubernetes-list-type`, listType, 'must only be used if type is array'));
  if (keys !== undefined && listType !== 'map')
    out.push(forb(`${path}.x-kubernetes-list-map-keys`, 'must not be set if x-kubernetes-list-type is not map'));
  const items = itemsSchema(s);
  if (listType === 'map') {
    if (keys === undefined || keys.length === 0)
      out.push(req(`${path}.x-kubernetes-list-map-keys`, 'must not be empty if x-kubernetes-list-type is map'));
    if (items !== undefined && items.type !== 'object')
      out.push(
        inv(`${path}.items.type`, items.type ?? '', "must be object if parent array's x-kubernetes-list-type is map"),
      );
    else if (items !== undefined && keys !== undefined) {
      keys.forEach((k, i) => {
        const p = items.properties?.[k];
        if (p === undefined)
          out.push(inv(`${path}.x-kubernetes-list-map-keys[${i}]`, k, 'entries must all be names of item properties'));
        else if (p.type !== undefined && !SCALARS.has(p.type))
          out.push(
            inv(
              `${path}.items.properties[${k}].type`,
              p.type,
              "must be a scalar type if parent array's x-kubernetes-list-type is map",
            ),
          );
      });
    }
  }
  if (
    listType === 'set' &&
    items !== undefined &&
    items.type === 'object' &&
    items['x-kubernetes-map-type'] !== 'atomic'
  )
    out.push(
      inv(
        `${path}.items.x-kubernetes-map-type`,
        items['x-kubernetes-map-type'] ?? '',
        'must be atomic as item of a list with x-kubernetes-list-type=set',
      ),
    );
  if (
    listType === 'set' &&
    items !== undefined &&
    items.type === 'array' &&
    items['x-kubernetes-list-type'] !== 'atomic'
  )
    out.push(
      inv(
        `${path}.items.x-kubernetes-list-type`,
        items['x-kubernetes-list-type'] ?? '',
        'must be atomic as item of a list with x-kubernetes-list-type=set',
      ),
    );
}

/** upstream: schema/validation.go validateValueValidation: allOf/anyOf/oneOf/not may not add structure. */
function valueValidationNode(s: JSONSchemaProps, path: string, out: FieldError[]): void {
  const undefinedFields: (keyof JSONSchemaProps)[] = [
    'type',
    'default',
    'description',
    'title',
    'additionalProperties',
  ];
  for (const f of undefinedFields)
    if (s[f] !== undefined) out.push(forb(`${path}.${f}`, 'must be empty to be structural'));
  for (const f of [
    'nullable',
    'x-kubernetes-preserve-unknown-fields',
    'x-kubernetes-embedded-resource',
    'x-kubernetes-int-or-string',
  ] as const) {
    if (s[f] === true) out.push(forb(`${path}.${f}`, 'must be false to be structural'));
  }
  for (const f of [
    'x-kubernetes-list-type',
    'x-kubernetes-list-map-keys',
    'x-kubernetes-map-type',
    'x-kubernetes-validations',
  ] as const)
    if (s[f] !== undefined) out.push(forb(`${path}.${f}`, 'must be undefined to be structural'));
}

/**
 * upstream: defaulting/validation.go ValidateDefaults: every default is pruned (no field the schema does not
 * specify) and valid against its own schema.
 */
function defaultErrors(s: JSONSchemaProps, path: string, root: boolean): FieldError[] {
  const out: FieldError[] = [];
  if (s.default !== undefined && !root) {
    const copy = JSON.parse(JSON.stringify(s.default)) as unknown;
    const pruned = prune(copy, s, s['x-kubernetes-embedded-resource'] === true);
    if (pruned.length > 0) out.push(inv(`${path}.default`, goInterface(s.default), 'must not have unknown fields'));
    else
      for (const e of validateValue(s.default, s)) {
        const field = e.field === '' ? `${path}.default` : `${path}.default.${e.field}`;
        const detail = e.detail
          ?.replace(/^body/, `${field} in body`)
          .replace(/^(\S+) in body/, (m, p: string) => (p === e.field ? `${field} in body` : m));
        out.push({ ...e, code: CODE, field, ...(detail === undefined ? {} : { detail }) });
      }
  }
  for (const [k, p] of Object.entries(s.properties ?? {}))
    out.push(...defaultErrors(p, `${path}.properties[${k}]`, false));
  const additional = additionalSchema(s);
  if (additional !== undefined && typeof s.additionalProperties === 'object')
    out.push(...defaultErrors(additional, `${path}.additionalProperties`, false));
  const items = itemsSchema(s);
  if (items !== undefined) out.push(...defaultErrors(items, `${path}.items`, false));
  return out;
}

/** Go's `%#v` of a decoded JSON value: `map[string]interface {}{"b":1}`, `[]interface {}{…}`. */
function goInterface(v: unknown): unknown {
  const inner = (x: unknown): string => {
    if (isObject(x))
      return `map[string]interface {}{${Object.keys(x)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${inner(x[k])}`)
        .join(', ')}}`;
    if (Array.isArray(x)) return `[]interface {}{${x.map(inner).join(', ')}}`;
    if (x === null) return 'interface {}(nil)';
    return typeof x === 'string' ? JSON.stringify(x) : String(x);
  };
  return isObject(v) || Array.isArray(v) ? goLiteral(inner(v)) : v;
}
