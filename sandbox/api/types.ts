/**
 * The object model shared by every part of the sandbox: plain JSON objects in
 * the shape the Kubernetes API uses. Typed views of particular kinds come from
 * the `kubernetes-types` package; the store itself only needs this much.
 */

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
