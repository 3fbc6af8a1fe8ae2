/**
 * The part of an OpenAPI v3 schema (apiextensions `JSONSchemaProps`) that CEL reads: types, formats, bounds, list and
 * map types, the Kubernetes extensions and the rules themselves. A CRD's `openAPIV3Schema` is structurally one of
 * these, so callers pass it as it is.
 */

/** One entry of `x-kubernetes-validations` (apiextensions v1 `ValidationRule`). */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

export interface CelSchema {
  type?: string;
  format?: string;
  properties?: Record<string, CelSchema>;
  /** A schema (a map's values) or `true`/`false`. */
  additionalProperties?: CelSchema | boolean;
  items?: CelSchema;
  required?: string[];
  maxItems?: number;
  maxLength?: number;
  maxProperties?: number;
  enum?: unknown[];
  nullable?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: ValidationRule[];
}

/** A map (`additionalProperties` with a schema), as opposed to an object with named properties. */
export function mapValues(s: CelSchema): CelSchema | undefined {
  return typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
}

/** Any value goes: `x-kubernetes-preserve-unknown-fields` with nothing declared, or `x-kubernetes-int-or-string`. */
export function isDynamic(s: CelSchema | undefined): boolean {
  if (s === undefined) return true;
  if (s['x-kubernetes-int-or-string']) return true;
  return (
    !!s['x-kubernetes-preserve-unknown-fields'] &&
    s.properties === undefined &&
    mapValues(s) === undefined &&
    !s['x-kubernetes-embedded-resource'] &&
    (s.type === undefined || s.type === 'object' || s.type === '')
  );
}

/**
 * The properties an embedded resource always has, besides those it declares (upstream: apiserver/pkg/cel/common:
 * SchemaDeclType — `apiVersion`, `kind`, `metadata.name`, `metadata.generateName`).
 */
export const EMBEDDED_PROPERTIES: Record<string, CelSchema> = {
  apiVersion: { type: 'string' },
  kind: { type: 'string' },
  metadata: { type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' } } },
};

/** The named properties of an object schema, with an embedded resource's implicit ones. */
export function propertiesOf(s: CelSchema): Record<string, CelSchema> {
  if (!s['x-kubernetes-embedded-resource']) return s.properties ?? {};
  return { ...EMBEDDED_PROPERTIES, ...(s.properties ?? {}) };
}
