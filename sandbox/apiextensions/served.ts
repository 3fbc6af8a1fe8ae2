/**
 * The resources an established CRD serves: one ResourceType per served version, preferred version first, named
 * by the CRD's accepted names (`status.acceptedNames`), with its subresources, printer columns, selectable
 * fields and schema — what the registry (sandbox/api/registry.ts) adds to discovery, OpenAPI, the HTTP routes
 * and the API server's verbs.
 *
 * upstream: apiextensions-apiserver pkg/apiserver/customresource_discovery_controller.go (served versions,
 * sorted with `version.CompareKubeAwareVersionStrings`; only established CRDs) and customresource_handler.go.
 */
import type { PrinterColumn, ResourceType } from '../api/resources';
import type { CustomResourceDefinition } from './types';
import { isEstablished } from './types';

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/**
 * upstream: apimachinery version.CompareKubeAwareVersionStrings, as a sort comparator (the preferred version
 * first): GA before beta before alpha, higher numbers first; other names after, alphabetically.
 */
export function compareKubeAwareVersions(a: string, b: string): number {
  const ma = KUBE_VERSION.exec(a);
  const mb = KUBE_VERSION.exec(b);
  if (ma === null && mb === null) return a < b ? -1 : a > b ? 1 : 0;
  if (ma === null) return 1;
  if (mb === null) return -1;
  const rank = (m: RegExpExecArray) => (m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0);
  if (rank(ma) !== rank(mb)) return rank(mb) - rank(ma);
  if (Number(ma[1]) !== Number(mb[1])) return Number(mb[1]) - Number(ma[1]);
  return Number(mb[3] ?? 0) - Number(ma[3] ?? 0);
}

/** The printer column of a CRD version that declares none: `Age` from creationTimestamp. */
const AGE: PrinterColumn = {
  name: 'Age',
  type: 'date',
  description:
    'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
  priority: 0,
  jsonPath: '.metadata.creationTimestamp',
};

/** The resources of a CRD: none until it is established (a terminating CRD still serves its resources). */
export function crdResources(crd: CustomResourceDefinition): ResourceType[] {
  if (!isEstablished(crd)) return [];
  const spec = crd.spec ?? {};
  const names = crd.status?.acceptedNames ?? {};
  const group = spec.group ?? '';
  const kind = names.kind ?? '';
  const plural = names.plural ?? '';
  if (group === '' || kind === '' || plural === '') return [];
  const versions = (spec.versions ?? []).filter((v) => v.served === true && typeof v.name === 'string');
  const storage = (spec.versions ?? []).find((v) => v.storage === true)?.name ?? versions[0]?.name ?? '';
  const servedVersions = versions.map((v) => v.name!).sort(compareKubeAwareVersions);
  const note = `no controller for ${kind} runs in this sandbox (an operator’s pods run as simulated containers)`;
  return versions
    .sort((a, b) => compareKubeAwareVersions(a.name!, b.name!))
    .map((v): ResourceType => {
      const columns: PrinterColumn[] = (v.additionalPrinterColumns ?? []).map((c) => ({
        name: c.name ?? '',
        type: c.type ?? 'string',
        ...(c.format ? { format: c.format } : {}),
        ...(c.description ? { description: c.description } : {}),
        priority: c.priority ?? 0,
        jsonPath: c.jsonPath ?? '',
      }));
      const scale = v.subresources?.scale;
      return Object.freeze({
        group,
        version: v.name!,
        kind,
        plural,
        singular: names.singular ?? kind.toLowerCase(),
        namespaced: spec.scope === 'Namespaced',
        shortNames: Object.freeze([...(names.shortNames ?? [])]),
        categories: Object.freeze([...(names.categories ?? [])]),
        statusSubresource: v.subresources?.status !== undefined,
        scaleSubresource: scale !== undefined,
        hasGeneration: true,
        storageVersion: storage,
        serving: 'stored',
        reconciliation: { note },
        custom: Object.freeze({
          crdName: crd.metadata.name ?? '',
          crdUid: crd.metadata.uid ?? '',
          listKind: names.listKind ?? `${kind}List`,
          schema: v.schema?.openAPIV3Schema,
          // upstream: a version without printer columns gets the Age column alone (customresource_handler.go).
          printerColumns: Object.freeze(columns.length === 0 ? [AGE] : columns),
          selectableFields: Object.freeze((v.selectableFields ?? []).map((f) => f.jsonPath ?? '')),
          ...(scale !== undefined
            ? {
                scale: Object.freeze({
                  specReplicasPath: scale.specReplicasPath ?? '.spec.replicas',
                  statusReplicasPath: scale.statusReplicasPath ?? '.status.replicas',
                  ...(scale.labelSelectorPath ? { labelSelectorPath: scale.labelSelectorPath } : {}),
                }),
              }
            : {}),
          ...(v.deprecated === true
            ? { deprecationWarning: v.deprecationWarning ?? `${group}/${v.name!} ${kind} is deprecated` }
            : {}),
          servedVersions: Object.freeze(servedVersions),
        }),
      });
    });
}
