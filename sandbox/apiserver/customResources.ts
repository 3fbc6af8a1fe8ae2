/**
 * The API server's side of custom resources (the apiextensions-apiserver inside kube-apiserver): decoding a
 * custom resource by its CRD version's schema (unknown fields pruned — or refused with fieldValidation=Strict —,
 * non-nullable nulls dropped), defaulting and validating it (422 with upstream's paths), converting between the
 * CRD's versions (`conversion: None`: only apiVersion changes), its `/scale`, and the CRD lifecycle: defaults,
 * validation, the names and conditions its controllers set, registering its resources once it is established,
 * and the cleanup finalizer a deletion adds.
 *
 * upstream: apiextensions-apiserver pkg/apiserver/customresource_handler.go (`crdHandler`, the codec with
 * `schemaCoercingDecoder` / `unstructuredDefaulter`), pkg/registry/customresource (strategy, validator,
 * `scaleFromCustomResource`), pkg/registry/customresourcedefinition (strategy, `REST.Delete`),
 * pkg/apiserver/conversion/nop_converter.go.
 */
import { badRequest, statusFailure } from '../api/errors';
import type { ApiError } from '../api/errors';
import type { FieldError } from '../admission/validation/fieldError';
import type { ResourceType } from '../api/resources';
import { apiVersionOf } from '../api/resources';
import type { KubeObject } from '../api/types';
import { formatApiVersion } from '../api/types';
import { applySchemaDefaults } from '../apiextensions/schema/defaults';
import { prune, pruneNonNullableNulls } from '../apiextensions/schema/prune';
import type { JSONSchemaProps } from '../apiextensions/schema/types';
import { validateCustomResource } from '../apiextensions/schema/validate';
import { celValidation } from '../apiextensions/schema/cel';
import { defaultCrd } from '../apiextensions/crdDefaults';
import { validateCrd } from '../apiextensions/crdValidation';
import type { CustomResourceDefinition } from '../apiextensions/types';
import { CRD_CLEANUP_FINALIZER } from '../apiextensions/types';
import type { SchemaDecoding } from './fieldValidation';
import { isPlainObject } from '../util/json';

function schemaOf(r: ResourceType): JSONSchemaProps | undefined {
  return r.custom?.schema as JSONSchemaProps | undefined;
}

/** Decoding of a custom resource of `r`'s version: pruning by its schema and null handling. */
export function customDecoding(r: ResourceType): SchemaDecoding {
  const schema = schemaOf(r);
  return {
    unknownFields(obj) {
      const copy = JSON.parse(JSON.stringify(obj)) as unknown;
      return prune(copy, schema).map((p) => ({ kind: 'unknown', path: p.path, segments: p.segments }));
    },
    nulls(obj) {
      // metadata is ObjectMeta: a null there is the field's zero value, as for every kind.
      const meta = obj.metadata;
      if (isPlainObject(meta)) for (const k of Object.keys(meta)) if (meta[k] === null) Reflect.deleteProperty(meta, k);
      pruneNonNullableNulls(obj, schema);
    },
  };
}

/** Defaults a custom resource (a private copy) by its version's schema. */
export function defaultCustomResource(r: ResourceType, obj: KubeObject): void {
  applySchemaDefaults(obj, schemaOf(r));
}

/** The schema (and CEL) errors of a custom resource at its request version. */
export function validateCustomObject(r: ResourceType, obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  const schema = schemaOf(r);
  if (schema === undefined) return [];
  const errors = validateCustomResource(obj, schema);
  if (errors.length > 0) return errors;
  // The one place CEL rules run (sandbox/apiextensions/schema/cel.ts).
  return celValidation(schema, obj, old);
}

/**
 * `obj` (of any version of `r`'s kind) as `r`'s version. For a custom resource with `conversion: None` only the
 * apiVersion changes (upstream: nopConverter). Built-in kinds with more than one version convert in ./conversion.ts.
 */
export function convertCustom(obj: KubeObject, r: ResourceType): KubeObject {
  const apiVersion = apiVersionOf(r);
  return obj.apiVersion === apiVersion ? obj : { ...obj, apiVersion };
}

/** The storage version's apiVersion of a resource. */
export function storageApiVersion(r: ResourceType): string {
  return formatApiVersion(r.group, r.storageVersion ?? r.version);
}

// ---- /scale of custom resources --------------------------------------------------------------------------

function pathParts(path: string): string[] {
  return path.replace(/^\./, '').split('.');
}

function readPath(obj: unknown, path: string): unknown {
  let v: unknown = obj;
  for (const p of pathParts(path)) v = isPlainObject(v) ? v[p] : undefined;
  return v;
}

/** upstream: registry/customresource/etcd.go scaleFromCustomResource. */
export function customScaleOf(r: ResourceType, parent: KubeObject): KubeObject {
  const s = r.custom!.scale!;
  const spec = readPath(parent, s.specReplicasPath);
  const status = readPath(parent, s.statusReplicasPath);
  const selector = s.labelSelectorPath === undefined ? undefined : readPath(parent, s.labelSelectorPath);
  const m = parent.metadata;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: m.name,
      ...(m.namespace !== undefined ? { namespace: m.namespace } : {}),
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      creationTimestamp: m.creationTimestamp,
    },
    spec: typeof spec === 'number' && spec !== 0 ? { replicas: spec } : {},
    status: {
      replicas: typeof status === 'number' ? status : 0,
      ...(typeof selector === 'string' && selector !== '' ? { selector } : {}),
    },
  };
}

/** The custom resource with the Scale's `spec.replicas` written at `specReplicasPath`. */
export function customScaledParent(r: ResourceType, parent: KubeObject, scale: KubeObject): KubeObject {
  const replicas = (scale.spec as { replicas?: unknown } | undefined)?.replicas ?? 0;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas))
    throw badRequest(
      `Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal ${typeof replicas} into Go struct field ScaleSpec.spec.replicas of type int32`,
    );
  const next = JSON.parse(JSON.stringify(parent)) as KubeObject;
  const parts = pathParts(r.custom!.scale!.specReplicasPath);
  let node = next as unknown as Record<string, unknown>;
  for (const p of parts.slice(0, -1)) {
    if (!isPlainObject(node[p])) node[p] = {};
    node = node[p] as Record<string, unknown>;
  }
  node[parts[parts.length - 1]] = replicas;
  next.metadata.resourceVersion = scale.metadata?.resourceVersion || parent.metadata.resourceVersion;
  return next;
}

// ---- the CRD itself --------------------------------------------------------------------------------------

export { prepareCrdCreate } from '../apiextensions/crdDefaults';

/** upstream: PrepareForUpdate: status is kept, a new storage version joins storedVersions. */
export function prepareCrdUpdate(crd: CustomResourceDefinition, old: CustomResourceDefinition): void {
  defaultCrd(crd);
  const stored = [...(old.status?.storedVersions ?? [])];
  const storage = (crd.spec?.versions ?? []).find((v) => v?.storage === true)?.name;
  if (storage !== undefined && !stored.includes(storage)) stored.push(storage);
  crd.status = { ...(old.status ?? {}), storedVersions: stored };
}

/**
 * What the sandbox says of a CRD whose `spec.conversion.strategy` is `Webhook`: stored and served, but the webhook is
 * never called — objects are read and written in every served version as with `None` (only apiVersion changes), which
 * a real cluster's webhook may not do. Undefined for `None`. Sent as a warning on each write of the CRD and listed by
 * the settled report (never silently wrong).
 */
export function conversionWebhookNote(crd: KubeObject): string | undefined {
  const conversion = (crd as CustomResourceDefinition).spec?.conversion;
  if (conversion?.strategy !== 'Webhook') return undefined;
  return (
    'spec.conversion.strategy Webhook: the conversion webhook is not called in this sandbox; ' +
    'its versions are converted as with strategy None (only apiVersion changes)'
  );
}

/** The CRD's own errors (beyond ObjectMeta's). */
export function crdErrors(crd: KubeObject, old: KubeObject | undefined): FieldError[] {
  return validateCrd(crd as CustomResourceDefinition, old as CustomResourceDefinition | undefined);
}

/**
 * upstream: customresourcedefinition REST.Delete: the first DELETE marks the CRD terminating — the cleanup
 * finalizer and a `Terminating` condition — and the cleanup (sandbox/controllers/crdcleanup) deletes its
 * custom resources before the CRD goes.
 */
export function markCrdTerminating(crd: CustomResourceDefinition, now: string): CustomResourceDefinition {
  const finalizers = [...(crd.metadata.finalizers ?? [])];
  if (!finalizers.includes(CRD_CLEANUP_FINALIZER)) finalizers.push(CRD_CLEANUP_FINALIZER);
  const conditions = (crd.status?.conditions ?? []).filter((c) => c.type !== 'Terminating');
  conditions.push({
    type: 'Terminating',
    status: 'True',
    lastTransitionTime: now,
    reason: 'InstanceDeletionPending',
    message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
  });
  return {
    ...crd,
    metadata: { ...crd.metadata, deletionTimestamp: now, deletionGracePeriodSeconds: 0, finalizers },
    status: { ...(crd.status ?? {}), conditions },
  };
}

/** 405 for creating a custom resource whose CRD is being deleted (upstream: crdHandler). */
export function terminatingCreate(r: ResourceType): ApiError {
  return statusFailure(405, 'MethodNotAllowed', 'create not allowed while custom resource definition is terminating', {
    group: r.group,
    kind: r.plural,
  });
}
