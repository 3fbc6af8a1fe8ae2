/**
 * What `simulate` prints at the end: kubectl tables of the workloads and
 * nodes (`get deploy,rs,pods,nodes`), other kinds the user applied, and the
 * events, oldest first — or everything as a Kubernetes `List` in JSON.
 */
import { stringify } from 'yaml';
import type { ApiServer } from '../../sandbox/apiserver/apiServer';
import type { KubeObject } from '../../sandbox/api/types';
import type { ResourceType } from '../../sandbox/api/resources';
import { formatGet } from '../../sandbox/printers/format';
import type { GetGroup } from '../../sandbox/printers/format';
import { formatTable } from '../../sandbox/printers/format';
import { tableFor } from '../../sandbox/printers/tableFor';
import { describeNotReconciled } from '../../sandbox/cluster/describe';
import { systemPriorityClass } from '../../sandbox/apiserver/priority';

const MAIN_KINDS = ['deployments', 'replicasets', 'pods', 'nodes'];
const HIDDEN = new Set(['events', 'leases', 'namespaces', 'endpointslices', 'endpoints', 'controllerrevisions']);

function userObjects(api: ApiServer, r: ResourceType): KubeObject[] {
  const items = api.list(r).items;
  // The bootstrap `kubernetes` Service and system PriorityClasses are part of every cluster: showing them would
  // only add noise.
  if (r.plural === 'services' && r.group === '')
    return items.filter((s) => !(s.metadata.namespace === 'default' && s.metadata.name === 'kubernetes'));
  if (r.plural === 'priorityclasses') return items.filter((p) => !systemPriorityClass(p.metadata.name ?? ''));
  // Likewise the `default` ServiceAccount and the `kube-root-ca.crt` ConfigMap the controllers put in every namespace
  // (`kubectl get sa,cm -A` lists them; the JSON and YAML Lists carry them).
  if (r.plural === 'serviceaccounts' && r.group === '') return items.filter((o) => !controllerMade(o, 'default'));
  if (r.plural === 'configmaps' && r.group === '') return items.filter((o) => !controllerMade(o, 'kube-root-ca.crt'));
  return items;
}

/** The object a controller created by itself: its name, and never applied from the user's manifests. */
function controllerMade(o: KubeObject, name: string): boolean {
  return (
    o.metadata.name === name &&
    o.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'] === undefined
  );
}

/**
 * The tables, as `kubectl get deploy,rs,pods,nodes` (plus other kinds that have objects) and `kubectl get events` print
 * them.
 */
export function formatReport(api: ApiServer, now: number): string {
  const groups: GetGroup[] = [];
  const kinds = api.resources.storedKinds();
  const main = MAIN_KINDS.map(
    (p) => kinds.find((r) => (r.group === '' || r.group === 'apps' ? r.plural === p : false))!,
  );
  const resources = [
    ...main,
    ...kinds.filter((r) => !main.includes(r) && !(r.custom === undefined && HIDDEN.has(r.plural))),
  ];
  for (const r of resources) {
    const objects = userObjects(api, r);
    if (objects.length > 0) groups.push({ kind: r, objects });
  }
  const namespaces = new Set(
    groups.flatMap((g) => g.objects.map((o) => o.metadata.namespace).filter((n) => n !== undefined)),
  );
  const showNamespace = namespaces.size > 1;
  let out = formatGet(groups, now, { showNamespace });
  const events = [...api.list('events').items].sort(byLastSeen);
  if (events.length > 0) out += `\n${formatTable(tableFor('events', events, now, { showNamespace }))}`;
  const stored = describeNotReconciled(api);
  if (stored.length > 0) out += `\nNot acted on in this sandbox:\n${stored.map((l) => `  ${l}\n`).join('')}`;
  return out;
}

function byLastSeen(a: KubeObject, b: KubeObject): number {
  const ta = String(a.lastTimestamp ?? a.firstTimestamp ?? '');
  const tb = String(b.lastTimestamp ?? b.firstTimestamp ?? '');
  if (ta !== tb) return ta < tb ? -1 : 1;
  return Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion);
}

function everything(api: ApiServer) {
  const items: KubeObject[] = [];
  for (const r of api.resources.storedKinds()) items.push(...api.list(r).items);
  return { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: api.resourceVersion }, items };
}

/** Every object in the cluster as one `v1 List`. */
export function formatJsonList(api: ApiServer): string {
  return `${JSON.stringify(everything(api), null, 2)}\n`;
}

/** The same List as YAML in kubectl's style (`-o yaml`: keys sorted, list items not indented). */
export function formatYamlList(api: ApiServer): string {
  return stringify(everything(api), { sortMapEntries: true, indentSeq: false, lineWidth: 0 });
}
