/** k8s.io/api/rbac/v1: roles, bindings, and their rules and subjects. */
import type { MessageTable } from '../schema';

export const RBAC: MessageTable = {
  pkg: 'io.k8s.api.rbac.v1',
  messages: {
    Role: 'metadata=1:ObjectMeta rules=2:[]PolicyRule',
    ClusterRole: 'metadata=1:ObjectMeta rules=2:[]PolicyRule aggregationRule=3:AggregationRule?',
    PolicyRule: 'verbs=1:[]s apiGroups=2:[]s resources=3:[]s resourceNames=4:[]s nonResourceURLs=5:[]s',
    AggregationRule: 'clusterRoleSelectors=1:[]LabelSelector',
    RoleBinding: 'metadata=1:ObjectMeta subjects=2:[]Subject roleRef=3:RoleRef',
    ClusterRoleBinding: 'metadata=1:ObjectMeta subjects=2:[]Subject roleRef=3:RoleRef',
    Subject: 'kind=1:s! apiGroup=2:s name=3:s! namespace=4:s',
    RoleRef: 'apiGroup=1:s! kind=2:s! name=3:s!',
  },
};
