/**
 * The shape of the Kubernetes schema the language server works from. It is
 * generated at build time (scripts/generate-schema.mjs) from the
 * `kubernetes-models` package's type declarations — every built-in kind, with
 * each field's type, required-ness, enum values and description — and never
 * written by hand.
 */

/** A field's type. `ref` points at a named definition; `intOrString` and `quantity` follow Kubernetes' own rules. */
export type SchemaType =
  | { kind: 'string'; enum?: readonly string[]; format?: 'date-time' | 'byte' }
  | { kind: 'integer' }
  | { kind: 'number' }
  | { kind: 'boolean' }
  | { kind: 'intOrString' }
  | { kind: 'quantity' }
  /** Free-form JSON (RawExtension, JSON, JSONSchemaProps parts): anything goes. */
  | { kind: 'any' }
  | { kind: 'array'; items: SchemaType }
  /** An object with arbitrary keys (`additionalProperties`): labels, data, nodeSelector… */
  | { kind: 'map'; values: SchemaType }
  | { kind: 'ref'; name: string };

export interface PropertySchema {
  type: SchemaType;
  description?: string;
}

export interface Definition {
  /** Fully qualified: `io.k8s.api.core.v1.Container`. */
  name: string;
  /** Short display name: `Container`. */
  title: string;
  description?: string;
  properties: Readonly<Record<string, PropertySchema>>;
  /** Property names that must be present. */
  required: readonly string[];
}

export interface KindEntry {
  apiVersion: string;
  kind: string;
  /** The definition of the object itself. */
  definition: string;
  namespaced?: boolean;
  /**
   * A pre-release version that older Kubernetes releases served and current
   * ones no longer do (`extensions/v1beta1 Deployment`): kept so that old
   * manifests are recognised and pointed at the replacement, never offered.
   */
  removed?: boolean;
}

export interface KubeSchema {
  /** Where it was generated from, e.g. `kubernetes-models 5.1.0`. */
  source: string;
  definitions: Readonly<Record<string, Definition>>;
  /** Every apiVersion/kind pair, in a stable order. */
  kinds: readonly KindEntry[];
}
