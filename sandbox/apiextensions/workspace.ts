/**
 * Custom resources checked against the CustomResourceDefinitions among a set of manifests (a workspace folder in
 * the editor), as the API server would check them on create once those CRDs are established: pruned, defaulted,
 * validated by their version's schema, then by its `x-kubernetes-validations` rules — the same functions the
 * API server runs (sandbox/apiserver/customResources.ts). A CRD the API server would refuse serves nothing here
 * either; its own diagnostics say why.
 */
import type { FieldError } from '../admission/validation/fieldError';
import type { KubeObject } from '../api/types';
import { prepareCrdCreate } from './crdDefaults';
import { validateCrd } from './crdValidation';
import { celValidation } from './schema/cel';
import { applySchemaDefaults } from './schema/defaults';
import { prune, pruneNonNullableNulls } from './schema/prune';
import type { PrunedField } from './schema/prune';
import type { JSONSchemaProps } from './schema/types';
import { validateCustomResource } from './schema/validate';
import type { CustomResourceDefinition } from './types';
import { isCrd } from './types';

/** `group/version|Kind` → the served version's schema (undefined: no schema, anything goes). */
type Served = ReadonlyMap<string, JSONSchemaProps | undefined>;

/** The served versions of one CRD document, memoized by its text: a large CRD is validated once, not per edit. */
const memo = new Map<string, Served>();
const MEMO_LIMIT = 64;

/** The same by object: the language server keeps one object per analysed document, asked on every completion. */
const byObject = new WeakMap<KubeObject, Served>();

function servedBy(crd: KubeObject): Served {
  const seen = byObject.get(crd);
  if (seen !== undefined) return seen;
  const served = servedByText(crd);
  byObject.set(crd, served);
  return served;
}

function servedByText(crd: KubeObject): Served {
  const text = JSON.stringify(crd);
  const known = memo.get(text);
  if (known !== undefined) return known;
  const copy = JSON.parse(text) as CustomResourceDefinition;
  prepareCrdCreate(copy);
  const served = new Map<string, JSONSchemaProps | undefined>();
  if (validateCrd(copy).length === 0) {
    const group = copy.spec?.group ?? '';
    const kind = copy.spec?.names?.kind ?? '';
    for (const v of copy.spec?.versions ?? [])
      if (v.served === true && v.name) served.set(`${group}/${v.name}|${kind}`, v.schema?.openAPIV3Schema);
  }
  if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value!);
  memo.set(text, served);
  return served;
}

export interface WorkspaceCrds {
  /** Whether any CRD of the set serves a kind. */
  readonly empty: boolean;
  /** Whether a CRD of the set serves `apiVersion` `kind`. */
  serves(apiVersion: string, kind: string): boolean;
  /** The schema of the served `apiVersion` `kind` (undefined: not served, or served without a schema). */
  schema(apiVersion: string, kind: string): JSONSchemaProps | undefined;
  /**
   * The fields of a custom resource of a served kind that its schema does not declare: pruned by the API server, or
   * refused with `fieldValidation=Strict` — kubectl's default — as `strict decoding error: unknown field "spec.x"`.
   */
  unknownFields(obj: KubeObject): PrunedField[];
  /** The errors of a custom resource of a served kind (none: it would be created); undefined for other kinds. */
  check(obj: KubeObject): FieldError[] | undefined;
}

/** The kinds the CRDs among `objects` serve (the first CRD serving a kind wins, as the second's names conflict). */
export function workspaceCrds(objects: readonly KubeObject[]): WorkspaceCrds {
  const kinds = new Map<string, JSONSchemaProps | undefined>();
  for (const obj of objects) {
    if (!isCrd(obj)) continue;
    for (const [key, schema] of servedBy(obj)) if (!kinds.has(key)) kinds.set(key, schema);
  }
  return {
    empty: kinds.size === 0,
    serves: (apiVersion, kind) => kinds.has(`${apiVersion}|${kind}`),
    schema: (apiVersion, kind) => kinds.get(`${apiVersion}|${kind}`),
    unknownFields(obj) {
      const schema = kinds.get(`${obj.apiVersion}|${obj.kind}`);
      if (schema === undefined) return [];
      return prune(JSON.parse(JSON.stringify(obj)) as unknown, schema);
    },
    check(obj) {
      const key = `${obj.apiVersion}|${obj.kind}`;
      if (!kinds.has(key)) return undefined;
      const schema = kinds.get(key);
      if (schema === undefined) return [];
      const copy = JSON.parse(JSON.stringify(obj)) as KubeObject;
      prune(copy, schema);
      pruneNonNullableNulls(copy, schema);
      applySchemaDefaults(copy, schema);
      const errors = validateCustomResource(copy, schema);
      return errors.length > 0 ? errors : celValidation(schema, copy, undefined);
    },
  };
}
