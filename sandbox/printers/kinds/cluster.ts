/** `kubectl get nodes,namespaces,leases` (upstream `printNode`, `printNamespace`, `printLease`). */
import type { Lease } from 'kubernetes-types/coordination/v1';
import type { Namespace, Node } from 'kubernetes-types/core/v1';
import type { Typed } from '../../api/types';
import type { KindPrinter, TableCell } from '../table';
import { AGE_COLUMN, NAME_COLUMN, age, col, wide } from '../table';

const ROLE_PREFIX = 'node-role.kubernetes.io/';
const ROLE_LABEL = 'kubernetes.io/role';

/** `Ready`, `NotReady` (False or Unknown), `Unknown` without a Ready condition; `,SchedulingDisabled` when cordoned. */
export function nodeStatusText(node: Node): string {
  const ready = (node.status?.conditions ?? []).find((c) => c.type === 'Ready');
  const status = [ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown'];
  if (node.spec?.unschedulable) status.push('SchedulingDisabled');
  return status.join(',');
}

/** Roles from `node-role.kubernetes.io/<role>` and `kubernetes.io/role=<role>` labels, sorted; `<none>`. */
export function nodeRolesText(node: Node): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata?.labels ?? {})) {
    if (k.startsWith(ROLE_PREFIX)) {
      const role = k.slice(ROLE_PREFIX.length);
      if (role) roles.add(role);
    } else if (k === ROLE_LABEL && v !== '') roles.add(v);
  }
  return roles.size > 0 ? [...roles].sort().join(',') : '<none>';
}

function address(node: Node, type: string): string {
  return (node.status?.addresses ?? []).find((a) => a.type === type)?.address ?? '<none>';
}

export const nodePrinter: KindPrinter<Typed<Node>> = {
  columns: [
    NAME_COLUMN,
    col('Status', 'string', 'The status of the node'),
    col('Roles', 'string', 'The roles of the node'),
    AGE_COLUMN,
    col('Version', 'string', 'Kubelet Version reported by the node.'),
    wide('Internal-IP', 'string', 'List of addresses reachable to the node.'),
    wide('External-IP', 'string', 'List of addresses reachable to the node.'),
    wide('OS-Image', 'string', 'OS Image reported by the node from /etc/os-release.'),
    wide('Kernel-Version', 'string', "Kernel Version reported by the node from 'uname -r'."),
    wide('Container-Runtime', 'string', 'ContainerRuntime Version reported by the node through runtime remote API.'),
  ],
  row(node: Typed<Node>, now: number): TableCell[] {
    const info = node.status?.nodeInfo;
    return [
      node.metadata.name ?? '',
      nodeStatusText(node),
      nodeRolesText(node),
      age(node, now),
      info?.kubeletVersion ?? '',
      address(node, 'InternalIP'),
      address(node, 'ExternalIP'),
      info?.osImage || '<unknown>',
      info?.kernelVersion || '<unknown>',
      info?.containerRuntimeVersion || '<unknown>',
    ];
  },
};

export const namespacePrinter: KindPrinter<Typed<Namespace>> = {
  columns: [NAME_COLUMN, col('Status', 'string', 'The status of the namespace'), AGE_COLUMN],
  row(obj: Typed<Namespace>, now: number): TableCell[] {
    return [obj.metadata.name ?? '', obj.status?.phase ?? '', age(obj, now)];
  },
};

export const leasePrinter: KindPrinter<Typed<Lease>> = {
  columns: [
    NAME_COLUMN,
    col('Holder', 'string', 'holderIdentity contains the identity of the holder of a current lease.'),
    AGE_COLUMN,
  ],
  row(obj: Typed<Lease>, now: number): TableCell[] {
    return [obj.metadata.name ?? '', obj.spec?.holderIdentity ?? '', age(obj, now)];
  },
};
