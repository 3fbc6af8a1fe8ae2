/**
 * Custom resources in the cluster tree: the mirror holds them under `plural.group` (worker/changeFeed.ts); each
 * kind is a group under its namespace, and a row's description is the CRD's additionalPrinterColumns for the
 * object's version, as `kubectl get` prints them (sandbox/printers, from the CRD in the cache).
 */
import type { KubeObject } from '../../../sandbox/api/types';
import { parseApiVersion } from '../../../sandbox/api/types';
import { crdResources } from '../../../sandbox/apiextensions/served';
import type { CustomResourceDefinition } from '../../../sandbox/apiextensions/types';
import { tableFor } from '../../../sandbox/printers';
import type { MirrorCache } from '../sandbox/mirror';
import type { KindView } from './kinds';

/** True for the mirror's name of a custom resource (`servicemonitors.monitoring.coreos.com`). */
export function isCustomResource(resource: string): boolean {
  return resource.includes('.');
}

/** The tree's view of a custom resource: a group titled by kind (`ServiceMonitor (monitoring.coreos.com)`). */
export function customKindView(resource: string, sample: KubeObject): KindView {
  const group = resource.slice(resource.indexOf('.') + 1);
  return {
    resource,
    kind: sample.kind,
    title: `${sample.kind} (${group})`,
    icon: 'symbol-class',
    contextValue: 'customresource',
    children: [],
  };
}

/** The printer columns' cells (Name and Age left out) joined as the tree's description; the age when none. */
export function customDescription(cache: MirrorCache, resource: string, o: KubeObject, now: number): string {
  const { group, version } = parseApiVersion(o.apiVersion);
  const plural = resource.slice(0, resource.indexOf('.'));
  const crd = cache.get('customresourcedefinitions', undefined, `${plural}.${group}`) as
    | CustomResourceDefinition
    | undefined;
  const type = crd ? crdResources(crd).find((r) => r.version === version) : undefined;
  if (!type) return '';
  const table = tableFor(type, [o], now);
  const cells = table.rows[0]?.cells ?? [];
  const parts = table.columns
    .map((c, i) => ({ name: c.name, value: String(cells[i] ?? '') }))
    .filter((c) => c.name !== 'Name' && c.value !== '');
  const shown = parts.filter((c) => c.name !== 'Age');
  return (shown.length > 0 ? shown : parts).map((c) => c.value).join(' · ');
}
