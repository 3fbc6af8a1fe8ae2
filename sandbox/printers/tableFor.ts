/**
 * `tableFor`: the kubectl table of a list of objects of one kind, with the
 * columns upstream's printers declare (pkg/printers/internalversion), and the
 * client-side touches of `kubectl get` (`-o wide`, `-A`, kind-prefixed names).
 */
import { resourceByName } from '../api/resources';
import type { ResourceType } from '../api/resources';
import type { AnyTypedObject, ObjectOfKind } from '../api/resourceObjects';
import type { KubeObject } from '../api/types';
import { cronJobPrinter, jobPrinter } from './kinds/batch';
import {
  controllerRevisionPrinter,
  daemonSetPrinter,
  deploymentPrinter,
  replicaSetPrinter,
  replicationControllerPrinter,
  statefulSetPrinter,
} from './kinds/apps';
import { leasePrinter, namespacePrinter, nodePrinter } from './kinds/cluster';
import { configMapPrinter, pvcPrinter, secretPrinter, serviceAccountPrinter } from './kinds/config';
import { eventPrinter } from './kinds/events';
import { hpaPrinter } from './kinds/hpa';
import { endpointSlicePrinter, endpointsPrinter, ingressPrinter, servicePrinter } from './kinds/network';
import { podPrinter } from './kinds/pods';
import { podDisruptionBudgetPrinter } from './kinds/policy';
import { priorityClassPrinter } from './kinds/scheduling';
import { customPrinter } from './kinds/custom';
import { BUILT_IN_PRINTERS } from './kinds/more';
import { persistentVolumePrinter, storageClassPrinter } from './kinds/storage';
import type { KindPrinter, Table, TableCell, TableColumn } from './table';
import { AGE_COLUMN, NAME_COLUMN, age } from './table';

/** A kind and its printer, paired by their types: a Deployment printer cannot be registered for pods. */
function printing<K extends AnyTypedObject['kind']>(
  kind: K,
  printer: KindPrinter<ObjectOfKind<K>>,
): [string, KindPrinter] {
  return [kind, printer];
}

/** Printers by `Kind`. Kinds not listed get NAME and AGE, as kubectl prints objects without columns of their own. */
const PRINTERS: ReadonlyMap<string, KindPrinter> = new Map([
  printing('Pod', podPrinter),
  printing('Deployment', deploymentPrinter),
  printing('ReplicaSet', replicaSetPrinter),
  printing('ReplicationController', replicationControllerPrinter),
  printing('StatefulSet', statefulSetPrinter),
  printing('DaemonSet', daemonSetPrinter),
  printing('ControllerRevision', controllerRevisionPrinter),
  printing('Job', jobPrinter),
  printing('CronJob', cronJobPrinter),
  printing('Service', servicePrinter),
  printing('Ingress', ingressPrinter),
  printing('Endpoints', endpointsPrinter),
  printing('EndpointSlice', endpointSlicePrinter),
  printing('Node', nodePrinter),
  printing('Namespace', namespacePrinter),
  printing('Lease', leasePrinter),
  printing('Event', eventPrinter),
  printing('ConfigMap', configMapPrinter),
  printing('Secret', secretPrinter),
  printing('ServiceAccount', serviceAccountPrinter),
  printing('PersistentVolumeClaim', pvcPrinter),
  printing('PersistentVolume', persistentVolumePrinter),
  printing('StorageClass', storageClassPrinter),
  printing('HorizontalPodAutoscaler', hpaPrinter),
  printing('PodDisruptionBudget', podDisruptionBudgetPrinter),
  printing('PriorityClass', priorityClassPrinter),
]);

const GENERIC: KindPrinter = {
  columns: [NAME_COLUMN, AGE_COLUMN],
  row: (obj, now) => [obj.metadata.name ?? '', age(obj, now)],
};

const NAMESPACE_COLUMN: TableColumn = {
  name: 'Namespace',
  type: 'string',
  priority: 0,
  description: 'The namespace of the object.',
};

export interface TableOptions {
  /** Keep the `-o wide` (priority 1) columns. The API server's Table keeps them all: pass true there. */
  wide?: boolean;
  /** `-A`: a NAMESPACE column first. */
  showNamespace?: boolean;
  /** Prefix names with the kind, `deployment.apps/web`, as `kubectl get deploy,rs` does. */
  showKind?: boolean;
}

/** The resource a kind name refers to: `pods`, `pod`, `po`, `Pod`, `deployments.apps` (or the resource itself). */
export function resolveKind(kind: string | ResourceType): ResourceType | undefined {
  return typeof kind === 'string' ? resourceByName(kind) : kind;
}

const customPrinters = new WeakMap<ResourceType, KindPrinter>();

function printerFor(kind: string | ResourceType): KindPrinter {
  const r = resolveKind(kind);
  if (r?.custom !== undefined) {
    let p = customPrinters.get(r);
    if (p === undefined) customPrinters.set(r, (p = customPrinter(r.custom.printerColumns)));
    return p;
  }
  const name = r?.kind ?? (typeof kind === 'string' ? kind : kind.kind);
  return PRINTERS.get(name) ?? BUILT_IN_PRINTERS.get(name) ?? GENERIC;
}

/** `deployment.apps`, `pod`: the prefix kubectl puts before names when several kinds are printed. */
export function kindPrefix(kind: string | ResourceType): string {
  const r = resolveKind(kind);
  if (!r) return (kind as string).toLowerCase();
  return r.group === '' ? r.kind.toLowerCase() : `${r.kind.toLowerCase()}.${r.group}`;
}

/**
 * The table of `objects` (all of one kind) as of `now` (epoch ms). Rows keep
 * the order given. Without `wide`, priority-1 columns and their cells are left out.
 */
export function tableFor(
  kind: string | ResourceType,
  objects: readonly KubeObject[],
  now: number,
  options: TableOptions = {},
): Table {
  const printer = printerFor(kind);
  const keep = printer.columns.map((c) => options.wide === true || c.priority === 0);
  const nameAt = printer.columns.findIndex((c) => c.format === 'name');
  const prefix = options.showKind ? `${kindPrefix(kind)}/` : '';
  const columns = printer.columns.filter((_, i) => keep[i]);
  const rows = objects.map((object) => {
    const all = printer.row(object, now);
    if (prefix && nameAt >= 0) all[nameAt] = `${prefix}${all[nameAt]}`;
    const cells: TableCell[] = all.filter((_, i) => keep[i]);
    if (options.showNamespace) cells.unshift(object.metadata.namespace ?? '');
    return { cells, object };
  });
  return { columns: options.showNamespace ? [NAMESPACE_COLUMN, ...columns] : columns, rows };
}
