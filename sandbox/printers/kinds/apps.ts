/** `kubectl get deployments,replicasets,statefulsets,daemonsets` (upstream `printDeployment`, `printReplicaSet`, …). */
import type { LabelSelector as ApiLabelSelector } from 'kubernetes-types/meta/v1';
import type { DaemonSet, Deployment, ReplicaSet, StatefulSet } from 'kubernetes-types/apps/v1';
import { labelSelectorFromObject } from '../../api/selectors/labelSelector';
import type { Typed } from '../../api/types';
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
