/**
 * The shape of the Kubernetes schema of one release. It is generated at build
 * time (scripts/generate-schema.mjs, which says where each piece comes from) —
 * every kind the release serves, with each field's type and format,
 * required-ness, enum values and description — and never written by hand.
 */

/** A field's type. `ref` points at a named definition; `intOrString` and `quantity` follow Kubernetes' own rules. */
export type SchemaType =
  | { kind: 'string'; enum?: readonly string[]; format?: 'date-time' | 'byte' }
  /** `int32` or `int64` (a Go int32 refuses 2147483648). */
  | { kind: 'integer'; format?: 'int32' | 'int64' }
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
   * Not served by this release (older releases did): never set by the
   * generator, which lists only what each release serves; kept for callers
   * that filter on it.
   */
  removed?: boolean;
}

export interface KubeSchema {
  /** Where it was generated from, e.g. `@kubernetes/client-node@1.1.2, kubernetes-models 5.1.0`. */
  source: string;
  /** The Kubernetes minor release it describes: `1.32`. */
  version: string;
  definitions: Readonly<Record<string, Definition>>;
  /** Every apiVersion/kind pair, in a stable order. */
  kinds: readonly KindEntry[];
}
