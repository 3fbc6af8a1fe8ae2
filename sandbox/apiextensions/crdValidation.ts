/**
 * Validation of a CustomResourceDefinition (apiextensions.k8s.io/v1) with upstream's paths and words: the name
 * (`must be spec.names.plural+"."+spec.group`), group, scope, names, versions (unique DNS-1035 names, exactly one
 * storage version, a schema for each), structural schemas (./schema/structural.ts), subresources, printer
 * columns, selectable fields, conversion, the approval annotation of protected groups, stored versions, and
 * the fields that may not change on update. Metadata (name format, labels…) is the shared ObjectMeta rules'.
 *
 * upstream: apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go
 * (`ValidateCustomResourceDefinition`, `ValidateCustomResourceDefinitionUpdate`,
 * `validateCustomResourceDefinitionSpec`, `ValidateCustomResourceDefinitionNames`,
 * `ValidateCustomResourceColumnDefinition`, `validateSimpleJSONPath`, `ValidateCustomResourceDefinitionStoredVersions`)
 * and pkg/apihelpers (`IsProtectedCommunityGroup`).
 */
import type { FieldError } from '../admission/validation/fieldError';
import { goLiteral } from '../admission/validation/fieldError';
import { isDns1035Label, isDns1123Subdomain } from '../api/names';
import { structuralSchemaErrors } from './schema/structural';
import type { JSONSchemaProps } from './schema/types';
import { isObject } from './schema/types';
import type { CrdNames, CrdSpec, CrdVersion, CustomResourceDefinition } from './types';
import { isEstablished } from './types';

const CODE = 'crd';
const PRINTER_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];
export const API_APPROVAL_ANNOTATION = 'api-approved.kubernetes.io';

function req(field: string, detail?: string): FieldError {
  return detail
    ? { code: CODE, type: 'FieldValueRequired', field, detail }
    : { code: CODE, type: 'FieldValueRequired', field };
}
function inv(field: string, value: unknown, detail: string): FieldError {
  return { code: CODE, type: 'FieldValueInvalid', field, value, detail };
}

/** Go's `%#v` of the versions list, as upstream prints it in `spec.versions` errors (pointers as 0xc000000000). */
function goVersions(versions: readonly CrdVersion[]): unknown {
  const ptr = (v: unknown, type: string) => (v === undefined ? `(*${type})(nil)` : `(*${type})(0xc000000000)`);
  const items = versions.map(
    (v) =>
      `apiextensions.CustomResourceDefinitionVersion{Name:${JSON.stringify(v.name ?? '')}, Served:${v.served === true}, Storage:${v.storage === true}, Deprecated:${v.deprecated === true}, DeprecationWarning:${ptr(v.deprecationWarning, 'string')}, Schema:${ptr(v.schema, 'apiextensions.CustomResourceValidation')}, Subresources:${ptr(v.subresources, 'apiextensions.CustomResourceSubresources')}, AdditionalPrinterColumns:[]apiextensions.CustomResourceColumnDefinition${v.additionalPrinterColumns === undefined ? '(nil)' : '{...}'}, SelectableFields:[]apiextensions.SelectableField${v.selectableFields === undefined ? '(nil)' : '{...}'}}`,
  );
  return goLiteral(`[]apiextensions.CustomResourceDefinitionVersion{${items.join(', ')}}`);
}

/** upstream: validateSimpleJSONPath. */
function simpleJsonPath(s: string, field: string): FieldError[] {
  if (s === '') return [inv(field, s, 'must not be empty')];
  if (!s.startsWith('.')) return [inv(field, s, 'must be a simple json path starting with .')];
  return [];
}

/** upstream: IsProtectedCommunityGroup — `k8s.io`, `kubernetes.io` and their subdomains. */
export function isProtectedGroup(group: string): boolean {
  return (
    group === 'k8s.io' || group === 'kubernetes.io' || group.endsWith('.k8s.io') || group.endsWith('.kubernetes.io')
  );
}

function names(n: CrdNames, path: string): FieldError[] {
  const out: FieldError[] = [];
  const dns = (value: string | undefined, field: string, prefix = '') => {
    if (typeof value !== 'string' || value === '') return;
    const errs = isDns1035Label(prefix === '' ? value : value.toLowerCase());
    if (errs.length > 0) out.push(inv(`${path}.${field}`, value, prefix + errs.join(',')));
  };
  dns(n.plural, 'plural');
  dns(n.singular, 'singular');
  dns(n.kind, 'kind', 'may have mixed case, but should otherwise match: ');
  dns(n.listKind, 'listKind', 'may have mixed case, but should otherwise match: ');
  (n.shortNames ?? []).forEach((s, i) => {
    const errs = isDns1035Label(s);
    if (errs.length > 0) out.push(inv(`${path}.shortNames[${i}]`, s, errs.join(',')));
  });
  if (n.kind && n.kind === n.listKind)
    out.push(inv(`${path}.listKind`, n.listKind, 'kind and listKind may not be the same'));
  (n.categories ?? []).forEach((c, i) => {
    const errs = isDns1035Label(c);
    if (errs.length > 0) out.push(inv(`${path}.categories[${i}]`, c, errs.join(',')));
  });
  return out;
}

function scale(v: CrdVersion, path: string): FieldError[] {
  const s = v.subresources?.scale;
  if (s === undefined) return [];
  const out: FieldError[] = [];
  const under = (value: string | undefined, field: string, prefixes: string[], detail: string, optional = false) => {
    if (value === undefined || value === '') {
      if (!optional) out.push(req(`${path}.${field}`));
      return;
    }
    const errs = simpleJsonPath(value, `${path}.${field}`);
    if (errs.length > 0) out.push(...errs);
    else if (!prefixes.some((p) => value.startsWith(p))) out.push(inv(`${path}.${field}`, value, detail));
  };
  under(s.specReplicasPath, 'specReplicasPath', ['.spec.'], 'should be a json path under .spec');
  under(s.statusReplicasPath, 'statusReplicasPath', ['.status.'], 'should be a json path under .status');
  under(
    s.labelSelectorPath,
    'labelSelectorPath',
    ['.spec.', '.status.'],
    'should be a json path under either .spec or .status',
    true,
  );
  return out;
}

function columns(v: CrdVersion, path: string): FieldError[] {
  const out: FieldError[] = [];
  (v.additionalPrinterColumns ?? []).forEach((c, i) => {
    const at = `${path}[${i}]`;
    if (!c.name) out.push(req(`${at}.name`));
    if (!c.type) out.push(req(`${at}.type`, `must be one of ${PRINTER_TYPES.join(',')}`));
    else if (!PRINTER_TYPES.includes(c.type))
      out.push(inv(`${at}.type`, c.type, `must be one of ${PRINTER_TYPES.join(',')}`));
    if (c.format && !COLUMN_FORMATS.includes(c.format))
      out.push(inv(`${at}.format`, c.format, `must be one of ${COLUMN_FORMATS.join(',')}`));
    if (!c.jsonPath) out.push(req(`${at}.jsonPath`));
    else out.push(...simpleJsonPath(c.jsonPath, `${at}.jsonPath`));
  });
  return out;
}

/** The schema node a simple JSONPath (`.spec.color`) names, or undefined. */
export function schemaAtPath(schema: JSONSchemaProps | undefined, path: string): JSONSchemaProps | undefined {
  let s = schema;
  for (const part of path.slice(1).split('.')) {
    if (s === undefined || part === '') return undefined;
    s = s.properties?.[part];
  }
  return s;
}

function selectableFields(v: CrdVersion, path: string): FieldError[] {
  const fields = v.selectableFields ?? [];
  const out: FieldError[] = [];
  if (fields.length > 8)
    out.push({
      code: CODE,
      type: 'FieldValueTooMany',
      field: path,
      value: fields.length,
      detail: 'must have at most 8 items',
    });
  const seen = new Set<string>();
  fields.forEach((f, i) => {
    const at = `${path}[${i}].jsonPath`;
    if (!f.jsonPath) {
      out.push(req(at));
      return;
    }
    const errs = simpleJsonPath(f.jsonPath, at);
    if (errs.length > 0) {
      out.push(...errs);
      return;
    }
    if (f.jsonPath === '.metadata' || f.jsonPath.startsWith('.metadata.'))
      out.push(inv(at, f.jsonPath, 'must not point to fields in metadata'));
    else {
      const target = schemaAtPath(v.schema?.openAPIV3Schema, f.jsonPath);
      if (target === undefined)
        out.push(inv(at, f.jsonPath, 'is an invalid path: does not refer to a field in the schema'));
      else if (!['string', 'boolean', 'integer'].includes(target.type ?? ''))
        out.push(
          inv(
            at,
            f.jsonPath,
            'must point to a field of type string, boolean or integer. Enums and string formats are allowed',
          ),
        );
    }
    if (seen.has(f.jsonPath)) out.push({ code: CODE, type: 'FieldValueDuplicate', field: at, value: f.jsonPath });
    seen.add(f.jsonPath);
  });
  return out;
}

function spec(crd: CustomResourceDefinition): FieldError[] {
  const out: FieldError[] = [];
  const s: CrdSpec = isObject(crd.spec) ? crd.spec : {};
  const group = s.group ?? '';
  if (group === '') out.push(req('spec.group'));
  else {
    const errs = isDns1123Subdomain(group);
    if (errs.length > 0) out.push(inv('spec.group', group, errs.join(',')));
    else if (group.split('.').length < 2)
      out.push(inv('spec.group', group, 'should be a domain with at least one dot'));
  }
  const scope = s.scope ?? '';
  if (scope === '') out.push(req('spec.scope'));
  else if (scope !== 'Cluster' && scope !== 'Namespaced')
    out.push({
      code: CODE,
      type: 'FieldValueNotSupported',
      field: 'spec.scope',
      value: scope,
      supported: ['Cluster', 'Namespaced'],
    });

  const versions = Array.isArray(s.versions) ? s.versions : [];
  let storage = 0;
  const seen = new Set<string>();
  let unique = true;
  versions.forEach((v, i) => {
    const at = `spec.versions[${i}]`;
    if (v.storage === true) storage++;
    const name = v.name ?? '';
    if (seen.has(name)) unique = false;
    seen.add(name);
    const errs = isDns1035Label(name);
    if (errs.length > 0) out.push(inv(`${at}.name`, name, errs.join(',')));
    const schema = v.schema?.openAPIV3Schema;
    if (schema === undefined) out.push(req(`${at}.schema.openAPIV3Schema`, 'schemas are required'));
    else if (!isObject(schema)) out.push(inv(`${at}.schema.openAPIV3Schema`, '', 'must be an object'));
    else out.push(...structuralSchemaErrors(schema, `${at}.schema.openAPIV3Schema`));
    out.push(...scale(v, `${at}.subresources.scale`));
    out.push(...columns(v, `${at}.additionalPrinterColumns`));
    out.push(...selectableFields(v, `${at}.selectableFields`));
  });
  if (!unique) out.push(inv('spec.versions', goVersions(versions), 'must contain unique version names'));
  if (storage !== 1)
    out.push(inv('spec.versions', goVersions(versions), 'must have exactly one version marked as storage version'));

  const n: CrdNames = isObject(s.names) ? s.names : {};
  if (!n.plural) out.push(req('spec.names.plural'));
  if (!n.singular) out.push(req('spec.names.singular'));
  if (!n.kind) out.push(req('spec.names.kind'));
  if (!n.listKind) out.push(req('spec.names.listKind'));
  out.push(...names(n, 'spec.names'));

  const strategy = s.conversion?.strategy ?? 'None';
  if (strategy !== 'None' && strategy !== 'Webhook')
    out.push({
      code: CODE,
      type: 'FieldValueNotSupported',
      field: 'spec.conversion.strategy',
      value: strategy,
      supported: ['None', 'Webhook'],
    });
  if (strategy === 'Webhook' && s.conversion?.webhook === undefined)
    out.push(req('spec.conversion.webhook', 'required when strategy is set to Webhook'));
  if (strategy === 'None' && s.conversion?.webhook !== undefined)
    out.push({
      code: CODE,
      type: 'FieldValueForbidden',
      field: 'spec.conversion.webhook',
      detail: 'should not be set when strategy is not set to Webhook',
    });
  if (s.preserveUnknownFields === true)
    out.push(
      inv(
        'spec.preserveUnknownFields',
        true,
        'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
      ),
    );
  return out;
}

function storedVersions(crd: CustomResourceDefinition): FieldError[] {
  const stored = crd.status?.storedVersions ?? [];
  const path = 'status.storedVersions';
  if (stored.length === 0) return [inv(path, goLiteral('[]string(nil)'), 'must have at least one stored version')];
  const out: FieldError[] = [];
  const versions = crd.spec?.versions ?? [];
  for (const v of versions)
    if (v.storage === true && !stored.includes(v.name ?? ''))
      out.push(inv(path, v.name, `must have the storage version ${v.name ?? ''}`));
  stored.forEach((name, i) => {
    if (!versions.some((v) => v.name === name)) out.push(inv(`${path}[${i}]`, name, 'must appear in spec.versions'));
  });
  return out;
}

function approval(crd: CustomResourceDefinition): FieldError[] {
  const group = crd.spec?.group ?? '';
  if (!isProtectedGroup(group)) return [];
  const value = crd.metadata.annotations?.[API_APPROVAL_ANNOTATION];
  if (value !== undefined && value !== '') return [];
  return [
    req(
      `metadata.annotations[${API_APPROVAL_ANNOTATION}]`,
      `protected groups must have approval annotation "${API_APPROVAL_ANNOTATION}", see https://github.com/kubernetes/enhancements/pull/1111`,
    ),
  ];
}

/** A CRD's errors on create (`old` undefined) or update, beyond the ObjectMeta rules every kind shares. */
export function validateCrd(crd: CustomResourceDefinition, old?: CustomResourceDefinition): FieldError[] {
  const out: FieldError[] = [];
  const name = crd.metadata.name ?? '';
  const required = `${crd.spec?.names?.plural ?? ''}.${crd.spec?.group ?? ''}`;
  if (name !== '' && name !== required)
    out.push(inv('metadata.name', name, 'must be spec.names.plural+"."+spec.group'));
  if (
    old === undefined ||
    old.metadata.annotations?.[API_APPROVAL_ANNOTATION] !== crd.metadata.annotations?.[API_APPROVAL_ANNOTATION]
  )
    out.push(...approval(crd));
  out.push(...spec(crd));
  out.push(...names(isObject(crd.status?.acceptedNames) ? crd.status!.acceptedNames! : {}, 'status.acceptedNames'));
  out.push(...storedVersions(crd));
  if (old !== undefined) {
    const immutable = (field: string, a: unknown, b: unknown) => {
      if (a !== b) out.push(inv(field, a, 'field is immutable'));
    };
    if (isEstablished(old)) {
      immutable('spec.scope', crd.spec?.scope, old.spec?.scope);
      immutable('spec.names.kind', crd.spec?.names?.kind, old.spec?.names?.kind);
    }
    immutable('spec.group', crd.spec?.group, old.spec?.group);
    immutable('spec.names.plural', crd.spec?.names?.plural, old.spec?.names?.plural);
  }
  return out;
}
