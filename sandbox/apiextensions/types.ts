/** The apiextensions.k8s.io/v1 CustomResourceDefinition, as the API server reads it (only what it uses). */
import type { KubeObject } from '../api/types';
import type { JSONSchemaProps } from './schema/types';

export interface CrdNames {
  plural?: string;
  singular?: string;
  kind?: string;
  listKind?: string;
  shortNames?: string[];
  categories?: string[];
}

export interface CrdColumn {
  name?: string;
  type?: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath?: string;
}

export interface CrdScale {
  specReplicasPath?: string;
  statusReplicasPath?: string;
  labelSelectorPath?: string;
}

export interface CrdVersion {
  name?: string;
  served?: boolean;
  storage?: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: { status?: object; scale?: CrdScale };
  additionalPrinterColumns?: CrdColumn[];
  selectableFields?: { jsonPath?: string }[];
}

export interface CrdCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface CrdSpec {
  group?: string;
  names?: CrdNames;
  scope?: string;
  versions?: CrdVersion[];
  conversion?: { strategy?: string; webhook?: { clientConfig?: unknown; conversionReviewVersions?: string[] } };
  preserveUnknownFields?: boolean;
}

export interface CrdStatus {
  acceptedNames?: CrdNames;
  conditions?: CrdCondition[];
  storedVersions?: string[];
}

export type CustomResourceDefinition = KubeObject & { spec?: CrdSpec; status?: CrdStatus };

export const CRD_GROUP = 'apiextensions.k8s.io';
export const CRD_KIND = 'CustomResourceDefinition';
/** The finalizer the API server puts on a CRD being deleted, until its custom resources are gone. */
export const CRD_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

export function isCrd(obj: { apiVersion?: unknown; kind?: unknown }): boolean {
  return obj.kind === CRD_KIND && typeof obj.apiVersion === 'string' && obj.apiVersion.startsWith(`${CRD_GROUP}/`);
}

export function conditionOf(crd: CustomResourceDefinition, type: string): CrdCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}

export function isEstablished(crd: CustomResourceDefinition): boolean {
  return conditionOf(crd, 'Established')?.status === 'True';
}
