/**
 * The kinds the Deployment controller reads and writes, as the API server
 * stores them (`Typed`: apiVersion, kind and metadata always there), so what
 * a sync computes goes back to the API server as it is.
 */
import type { Deployment as ApiDeployment, ReplicaSet as ApiReplicaSet } from 'kubernetes-types/apps/v1';
import type { Typed } from '../../api/types';

export type Deployment = Typed<ApiDeployment>;
export type ReplicaSet = Typed<ApiReplicaSet>;
