/**
 * `kubectl get deployments,replicasets,statefulsets,daemonsets,controllerrevisions` (upstream `printDeployment`,
 * `printReplicaSet`, …, `printControllerRevision`).
 */
import type { ReplicationController } from 'kubernetes-types/core/v1';
import type { LabelSelector as ApiLabelSelector } from 'kubernetes-types/meta/v1';
import type { ControllerRevision, DaemonSet, Deployment, ReplicaSet, StatefulSet } from 'kubernetes-types/apps/v1';
import { labelSelectorFromObject } from '../../api/selectors/labelSelector';
import type { Typed } from '../../api/types';
import { parseApiVersion } from '../../api/types';
import type { KindPrinter, TableCell, TableColumn } from '../table';
import {
  AGE_COLUMN,
  NAME_COLUMN,
  age,
  col,
  asSelector,
  containerCells,
  formatLabels,
  int,
  selectorText,
  wide,
} from '../table';

const TEMPLATE_COLUMNS: TableColumn[] = [
  wide('Containers', 'string', 'Names of each container in the template.'),
  wide('Images', 'string', 'Images referenced by each container in the template.'),
];
const SELECTOR_COLUMN = wide('Selector', 'string', 'Label selector for pods.');

/** The Deployment's wide SELECTOR is `selector.String()`: empty (not `<none>`) for an empty selector. */
function selectorString(sel: ApiLabelSelector | undefined): string {
  try {
    return labelSelectorFromObject(asSelector(sel)).toString();
  } catch {
    return '<invalid>';
  }
}

export const deploymentPrinter: KindPrinter<Typed<Deployment>> = {
  columns: [
    NAME_COLUMN,
    col('Ready', 'string', 'Number of the pod with ready state'),
    col(
      'Up-to-date',
      'string',
      'Total number of non-terminated pods targeted by this deployment that have the desired template spec.',
    ),
    col(
      'Available',
      'string',
      'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.',
    ),
    AGE_COLUMN,
    ...TEMPLATE_COLUMNS,
    SELECTOR_COLUMN,
  ],
  row(d: Typed<Deployment>, now: number): TableCell[] {
    const [names, images] = containerCells(d.spec?.template?.spec?.containers);
    return [
      d.metadata.name ?? '',
      `${int(d.status?.readyReplicas)}/${int(d.spec?.replicas)}`,
      int(d.status?.updatedReplicas),
      int(d.status?.availableReplicas),
      age(d, now),
      names,
      images,
      selectorString(d.spec?.selector),
    ];
  },
};

export const replicaSetPrinter: KindPrinter<Typed<ReplicaSet>> = {
  columns: [
    NAME_COLUMN,
    col('Desired', 'integer', 'Replicas is the number of desired pods.'),
    col('Current', 'integer', 'Replicas is the most recently observed number of replicas.'),
    col('Ready', 'integer', 'The number of ready replicas for this replica set.'),
    AGE_COLUMN,
    ...TEMPLATE_COLUMNS,
    SELECTOR_COLUMN,
  ],
  row(rs: Typed<ReplicaSet>, now: number): TableCell[] {
    const [names, images] = containerCells(rs.spec?.template?.spec?.containers);
    return [
      rs.metadata.name ?? '',
      int(rs.spec?.replicas),
      int(rs.status?.replicas),
      int(rs.status?.readyReplicas),
      age(rs, now),
      names,
      images,
      selectorText(rs.spec?.selector),
    ];
  },
};

export const statefulSetPrinter: KindPrinter<Typed<StatefulSet>> = {
  columns: [NAME_COLUMN, col('Ready', 'string', 'Number of the pod with ready state'), AGE_COLUMN, ...TEMPLATE_COLUMNS],
  row(sts: Typed<StatefulSet>, now: number): TableCell[] {
    const [names, images] = containerCells(sts.spec?.template?.spec?.containers);
    return [
      sts.metadata.name ?? '',
      `${int(sts.status?.readyReplicas)}/${int(sts.spec?.replicas)}`,
      age(sts, now),
      names,
      images,
    ];
  },
};

export const daemonSetPrinter: KindPrinter<Typed<DaemonSet>> = {
  columns: [
    NAME_COLUMN,
    col('Desired', 'integer', 'The total number of nodes that should be running the daemon pod.'),
    col(
      'Current',
      'integer',
      'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.',
    ),
    col(
      'Ready',
      'integer',
      'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.',
    ),
    col('Up-to-date', 'integer', 'The total number of nodes that are running updated daemon pod.'),
    col(
      'Available',
      'integer',
      'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available.',
    ),
    col('Node Selector', 'string', 'NodeSelector is a selector which must be true for the pod to fit on a node.'),
    AGE_COLUMN,
    ...TEMPLATE_COLUMNS,
    SELECTOR_COLUMN,
  ],
  row(ds: Typed<DaemonSet>, now: number): TableCell[] {
    const st = ds.status;
    const [names, images] = containerCells(ds.spec?.template?.spec?.containers);
    return [
      ds.metadata.name ?? '',
      int(st?.desiredNumberScheduled),
      int(st?.currentNumberScheduled),
      int(st?.numberReady),
      int(st?.updatedNumberScheduled),
      int(st?.numberAvailable),
      formatLabels(ds.spec?.template?.spec?.nodeSelector),
      age(ds, now),
      names,
      images,
      selectorText(ds.spec?.selector),
    ];
  },
};

/** `printControllerRevision`: CONTROLLER is `formatResourceName` of the controller, `statefulset.apps/web`. */
export const controllerRevisionPrinter: KindPrinter<Typed<ControllerRevision>> = {
  columns: [
    NAME_COLUMN,
    col('Controller', 'string', 'Controller of the object'),
    col('Revision', 'string', 'Revision indicates the revision of the state represented by Data.'),
    AGE_COLUMN,
  ],
  row(cr: Typed<ControllerRevision>, now: number): TableCell[] {
    const ref = cr.metadata.ownerReferences?.find((r) => r.controller === true);
    let controller = '<none>';
    if (ref) {
      const { group } = parseApiVersion(ref.apiVersion);
      controller = `${(group ? `${ref.kind}.${group}` : ref.kind).toLowerCase()}/${ref.name}`;
    }
    return [cr.metadata.name ?? '', controller, cr.revision, age(cr, now)];
  },
};

/** `printReplicationController`: the ReplicaSet's columns; the wide SELECTOR is the map as `k=v,…`. */
export const replicationControllerPrinter: KindPrinter<Typed<ReplicationController>> = {
  columns: [
    NAME_COLUMN,
    col(
      'Desired',
      'integer',
      'Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller',
    ),
    col(
      'Current',
      'integer',
      'Replicas is the most recently observed number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller',
    ),
    col('Ready', 'integer', 'The number of ready replicas for this replication controller.'),
    AGE_COLUMN,
    ...TEMPLATE_COLUMNS,
    wide(
      'Selector',
      'string',
      'Selector is a label query over pods that should match the Replicas count. If Selector is empty, it is defaulted to the labels present on the Pod template. Label keys and values that must match in order to be controlled by this replication controller, if empty defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
    ),
  ],
  row(rc: Typed<ReplicationController>, now: number): TableCell[] {
    const [names, images] = containerCells(rc.spec?.template?.spec?.containers);
    return [
      rc.metadata.name ?? '',
      int(rc.spec?.replicas),
      int(rc.status?.replicas),
      int(rc.status?.readyReplicas),
      age(rc, now),
      names,
      images,
      formatLabels(rc.spec?.selector),
    ];
  },
};
