import type { KubeObject } from '../../api/types';

/** What describe reads besides the object itself, as kubectl lists it. */
export interface DescribeInputs {
  /** Events whose involved object is the described one (kubectl: searchEvents by uid, name, namespace). */
  events: readonly KubeObject[];
  /** Pods of the namespace (controllers: selector and owner) or of the cluster (nodes: spec.nodeName). */
  pods?: readonly KubeObject[];
  /** ReplicaSets of the namespace (a Deployment's old and new ones). */
  replicaSets?: readonly KubeObject[];
  /** EndpointSlices of the namespace (a Service's endpoints). */
  endpointSlices?: readonly KubeObject[];
  /** A node's Lease in kube-node-lease. */
  lease?: KubeObject;
}
