/**
 * The object model shared by every part of the sandbox: plain JSON objects in
 * the shape the Kubernetes API uses. The store, admission and patches work on
 * `KubeObject` (any kind); components see each kind through `Typed<T>` over
 * the `kubernetes-types` package (`resourceObjects.ts` maps each resource to
 * its type, so `api.get('pods', …)` returns a `Typed<Pod>`).
 */
import type { PodCondition, PodStatus } from 'kubernetes-types/core/v1';
import type { ObjectMeta as ApiObjectMeta } from 'kubernetes-types/meta/v1';

export type JsonPrimitive = null | boolean | number | string;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue | undefined;
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: JsonValue[];
}

/** Any Kubernetes object: apiVersion, kind, metadata, and kind-specific fields. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

/**
 * One kind's `kubernetes-types` shape (`Pod`, `Deployment`, …) as the API
 * server stores and returns it: `apiVersion`, `kind` and `metadata` are always
 * there. A `Typed<Pod>` is both a `Pod` (for the helpers typed against
 * `kubernetes-types`) and a `KubeObject` (for the code that handles any kind).
 */
export type Typed<T extends { apiVersion?: string; kind?: string }> = Writable<
  Omit<T, 'apiVersion' | 'kind' | 'metadata'>
> & {
  apiVersion: NonNullable<T['apiVersion']>;
  kind: NonNullable<T['kind']>;
  metadata: TypedObjectMeta;
};

/** The metadata of a `Typed` object: the sandbox's `ObjectMeta` and `kubernetes-types`' at once. */
export type TypedObjectMeta = ObjectMeta & ApiObjectMeta;

/**
 * `kubernetes-types` marks `status` read-only (the server's to fill in); controllers write it, so `Typed` does not.
 * (Stored objects are deep-frozen all the same: copy before changing.)
 */
type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A pod condition as upstream serializes it: Go's zero `lastProbeTime` is written as `null`, which
 * `kubernetes-types` (an optional string) does not allow.
 */
export type WirePodCondition = Omit<PodCondition, 'lastProbeTime'> & { lastProbeTime?: string | null };

/** A pod status whose conditions are as upstream serializes them. */
export type WirePodStatus = Omit<PodStatus, 'conditions'> & { conditions?: WirePodCondition[] };

/** A `List` as the API returns it (`PodList`, `DeploymentList`, …). */
export interface KubeList<T extends KubeObject = KubeObject> {
  apiVersion: string;
  kind: string;
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
  items: T[];
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent<T extends KubeObject = KubeObject> {
  type: WatchEventType;
  object: T;
}

/** Identifies a kind: `{group: 'apps', version: 'v1', kind: 'Deployment'}`; core group is `''`. */
export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** Splits `apps/v1` into group and version (`v1` → core group `''`). */
export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  if (slash < 0) return { group: '', version: apiVersion };
  return { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

export function formatApiVersion(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}
