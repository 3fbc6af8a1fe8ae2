/**
 * The OpenAPI v3 schema of a CustomResourceDefinition version (apiextensions.k8s.io/v1 `JSONSchemaProps`), as
 * written in the CRD. Everything here is read-only input: the functions of this folder never change a schema.
 */

export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

export interface JSONSchemaProps {
  id?: string;
  $schema?: string;
  $ref?: string;
  description?: string;
  type?: string;
  format?: string;
  title?: string;
  default?: unknown;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  enum?: unknown[];
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  items?: JSONSchemaProps | JSONSchemaProps[];
  allOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  patternProperties?: Record<string, JSONSchemaProps>;
  dependencies?: Record<string, unknown>;
  additionalItems?: JSONSchemaProps | boolean;
  definitions?: Record<string, JSONSchemaProps>;
  externalDocs?: { description?: string; url?: string };
  example?: unknown;
  nullable?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: ValidationRule[];
}

/** A schema node, or undefined where a CRD says nothing. */
export type Schema = JSONSchemaProps | undefined;

/** `additionalProperties` as a schema: `true` allows anything (an empty schema), `false` and absence say nothing. */
export function additionalSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  const a = s.additionalProperties;
  if (a === undefined || a === false) return undefined;
  return a === true ? {} : a;
}

/** `items` as one schema (CRDs refuse the array form). */
export function itemsSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  const i = s.items;
  return i === undefined || Array.isArray(i) ? undefined : i;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
