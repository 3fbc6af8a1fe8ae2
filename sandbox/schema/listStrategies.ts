/**
 * How the fields of the built-in kinds merge: upstream's `patchStrategy` /
 * `patchMergeKey` struct tags (strategic merge patch) and `+listType` /
 * `+listMapKey` markers (server-side apply), published in OpenAPI as
 * `x-kubernetes-patch-strategy`, `x-kubernetes-patch-merge-key`,
 * `x-kubernetes-list-type` and `x-kubernetes-list-map-keys`.
 *
 * Written from the Go types (k8s.io/api/<group>/<version>/types.go) because
 * no package the schema can be generated from keeps these extensions (see
 * scripts/generate-schema.mjs): client-node's, Pulumi's and kubernetes-models'
 * generators drop them. An entry applies in a release only where its field
 * exists (the lookups below walk the active release's schema), and
 * test/sandbox/schema/listStrategies.test.ts checks every entry against the
 * generated fields. A field not listed has no strategy: its list is replaced
 * whole by a strategic merge patch.
 */
import { definition, kindEntry, onKubernetesVersionChange } from './schema';
import type { Definition, SchemaType } from './types';

export interface ListStrategy {
  patchStrategy?: 'merge' | 'replace' | 'retainKeys' | 'merge,retainKeys'; // x-kubernetes-patch-strategy
  patchMergeKey?: string; // x-kubernetes-patch-merge-key
  listType?: 'atomic' | 'set' | 'map'; // x-kubernetes-list-type
  listMapKeys?: readonly string[]; // x-kubernetes-list-map-keys
}

// Shorthands for the table below.
const atomic: ListStrategy = { listType: 'atomic' };
const set: ListStrategy = { listType: 'set' };
const mergeSet: ListStrategy = { patchStrategy: 'merge', listType: 'set' };
/** Merged by `key` (strategic) and a list-map keyed by `keys` (apply; defaults to `[key]`). */
function byKey(key: string, keys: readonly string[] = [key], listType: 'map' | 'atomic' = 'map'): ListStrategy {
  return listType === 'map'
    ? { patchStrategy: 'merge', patchMergeKey: key, listType, listMapKeys: keys }
    : { patchStrategy: 'merge', patchMergeKey: key, listType };
}
function listMap(...keys: string[]): ListStrategy {
  return { listType: 'map', listMapKeys: keys };
}
const conditions = byKey('type');
const conditionsApplyOnly = listMap('type');

const CORE = 'io.k8s.api.core.v1.';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

/** Container fields shared by Container and EphemeralContainer. */
const CONTAINER: Record<string, ListStrategy> = {
  command: atomic,
  args: atomic,
  ports: byKey('containerPort', ['containerPort', 'protocol']),
  envFrom: atomic,
  env: byKey('name'),
  volumeMounts: byKey('mountPath'),
  volumeDevices: byKey('devicePath'),
  resizePolicy: atomic,
  restartPolicyRules: atomic,
};

/** Definition name → property → strategy. */
const TABLE: Record<string, Record<string, ListStrategy>> = {
  // meta/v1
  [`${META}ObjectMeta`]: { finalizers: mergeSet, ownerReferences: byKey('uid'), managedFields: atomic },
  [`${META}LabelSelector`]: { matchExpressions: atomic },
  [`${META}LabelSelectorRequirement`]: { values: atomic },

  // core/v1: pods and their templates
  [`${CORE}PodSpec`]: {
    volumes: { ...byKey('name'), patchStrategy: 'merge,retainKeys' },
    initContainers: byKey('name'),
    containers: byKey('name'),
    ephemeralContainers: byKey('name'),
    imagePullSecrets: byKey('name'),
    hostAliases: byKey('ip'),
    tolerations: atomic,
    readinessGates: atomic,
    topologySpreadConstraints: byKey('topologyKey', ['topologyKey', 'whenUnsatisfiable']),
    resourceClaims: { ...byKey('name'), patchStrategy: 'merge,retainKeys' },
    schedulingGates: byKey('name'),
  },
  [`${CORE}Container`]: CONTAINER,
  [`${CORE}EphemeralContainer`]: CONTAINER,
  [`${CORE}ResourceRequirements`]: { claims: listMap('name') },
  [`${CORE}ExecAction`]: { command: atomic },
  [`${CORE}HTTPGetAction`]: { httpHeaders: atomic },
  [`${CORE}Capabilities`]: { add: atomic, drop: atomic },
  [`${CORE}PodSecurityContext`]: { supplementalGroups: atomic, sysctls: atomic },
  [`${CORE}PodDNSConfig`]: { nameservers: atomic, searches: atomic, options: atomic },
  [`${CORE}HostAlias`]: { hostnames: atomic },
  [`${CORE}TopologySpreadConstraint`]: { matchLabelKeys: atomic },
  [`${CORE}NodeSelector`]: { nodeSelectorTerms: atomic },
  [`${CORE}NodeSelectorTerm`]: { matchExpressions: atomic, matchFields: atomic },
  [`${CORE}NodeSelectorRequirement`]: { values: atomic },
  [`${CORE}NodeAffinity`]: { preferredDuringSchedulingIgnoredDuringExecution: atomic },
  [`${CORE}PodAffinity`]: {
    requiredDuringSchedulingIgnoredDuringExecution: atomic,
    preferredDuringSchedulingIgnoredDuringExecution: atomic,
  },
  [`${CORE}PodAntiAffinity`]: {
    requiredDuringSchedulingIgnoredDuringExecution: atomic,
    preferredDuringSchedulingIgnoredDuringExecution: atomic,
  },
  [`${CORE}PodAffinityTerm`]: { namespaces: atomic, matchLabelKeys: atomic, mismatchLabelKeys: atomic },
  [`${CORE}ConfigMapVolumeSource`]: { items: atomic },
  [`${CORE}SecretVolumeSource`]: { items: atomic },
  [`${CORE}ConfigMapProjection`]: { items: atomic },
  [`${CORE}SecretProjection`]: { items: atomic },
  [`${CORE}DownwardAPIVolumeSource`]: { items: atomic },
  [`${CORE}DownwardAPIProjection`]: { items: atomic },
  [`${CORE}ProjectedVolumeSource`]: { sources: atomic },
  [`${CORE}PodStatus`]: {
    conditions,
    podIPs: byKey('ip'),
    hostIPs: byKey('ip', ['ip'], 'atomic'),
    initContainerStatuses: atomic,
    containerStatuses: atomic,
    ephemeralContainerStatuses: atomic,
    resourceClaimStatuses: { ...byKey('name'), patchStrategy: 'merge,retainKeys' },
  },
  [`${CORE}ContainerStatus`]: { volumeMounts: byKey('mountPath'), allocatedResourcesStatus: byKey('name') },

  // core/v1: everything else the sandbox serves
  [`${CORE}ServiceSpec`]: {
    ports: byKey('port', ['port', 'protocol']),
    clusterIPs: atomic,
    externalIPs: atomic,
    loadBalancerSourceRanges: atomic,
    ipFamilies: atomic,
  },
  [`${CORE}ServiceStatus`]: { conditions },
  [`${CORE}LoadBalancerStatus`]: { ingress: atomic },
  [`${CORE}LoadBalancerIngress`]: { ports: atomic },
  [`${CORE}Endpoints`]: { subsets: atomic },
  [`${CORE}EndpointSubset`]: { addresses: atomic, notReadyAddresses: atomic, ports: atomic },
  [`${CORE}NodeSpec`]: { podCIDRs: mergeSet, taints: atomic },
  [`${CORE}NodeStatus`]: {
    conditions,
    addresses: conditions,
    volumesInUse: atomic,
    volumesAttached: atomic,
    images: atomic,
    runtimeHandlers: atomic,
  },
  [`${CORE}ContainerImage`]: { names: atomic },
  [`${CORE}NamespaceSpec`]: { finalizers: atomic },
  [`${CORE}NamespaceStatus`]: { conditions },
  [`${CORE}PersistentVolumeClaimSpec`]: { accessModes: atomic },
  [`${CORE}PersistentVolumeClaimStatus`]: { accessModes: atomic, conditions },
  [`${CORE}PersistentVolumeSpec`]: { accessModes: atomic, mountOptions: atomic },
  [`${CORE}ReplicationControllerStatus`]: { conditions },
  [`${CORE}ComponentStatus`]: { conditions },
  [`${CORE}ServiceAccount`]: { secrets: byKey('name'), imagePullSecrets: atomic },
  [`${CORE}ResourceQuotaSpec`]: { scopes: atomic },
  [`${CORE}ScopeSelector`]: { matchExpressions: atomic },
  [`${CORE}ScopedResourceSelectorRequirement`]: { values: atomic },
  [`${CORE}LimitRangeSpec`]: { limits: atomic },

  // apps/v1
  'io.k8s.api.apps.v1.DeploymentSpec': { strategy: { patchStrategy: 'retainKeys' } },
  'io.k8s.api.apps.v1.DeploymentStatus': { conditions },
  'io.k8s.api.apps.v1.ReplicaSetStatus': { conditions },
  'io.k8s.api.apps.v1.StatefulSetSpec': { volumeClaimTemplates: atomic },
  'io.k8s.api.apps.v1.StatefulSetStatus': { conditions },
  'io.k8s.api.apps.v1.DaemonSetStatus': { conditions },

  // batch/v1: Job conditions merge by type but are atomic for apply.
  'io.k8s.api.batch.v1.JobStatus': { conditions: byKey('type', ['type'], 'atomic') },
  'io.k8s.api.batch.v1.CronJobStatus': { active: atomic },
  'io.k8s.api.batch.v1.PodFailurePolicy': { rules: atomic },
  'io.k8s.api.batch.v1.PodFailurePolicyRule': { onPodConditions: atomic },
  'io.k8s.api.batch.v1.PodFailurePolicyOnExitCodesRequirement': { values: set },
  'io.k8s.api.batch.v1.SuccessPolicy': { rules: atomic },
  'io.k8s.api.batch.v1.UncountedTerminatedPods': { succeeded: set, failed: set },

  // autoscaling/v2
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec': { metrics: atomic },
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerStatus': { conditions, currentMetrics: atomic },
  'io.k8s.api.autoscaling.v2.HPAScalingRules': { policies: atomic },

  // policy/v1: the selector is replaced whole, never merged (patchStrategy:"replace"); conditions are metav1.Condition.
  'io.k8s.api.policy.v1.PodDisruptionBudgetSpec': { selector: { patchStrategy: 'replace' } },
  'io.k8s.api.policy.v1.PodDisruptionBudgetStatus': { conditions },

  // networking.k8s.io/v1
  'io.k8s.api.networking.v1.IngressSpec': { tls: atomic, rules: atomic },
  'io.k8s.api.networking.v1.IngressTLS': { hosts: atomic },
  'io.k8s.api.networking.v1.HTTPIngressRuleValue': { paths: atomic },
  'io.k8s.api.networking.v1.IngressLoadBalancerStatus': { ingress: atomic },
  'io.k8s.api.networking.v1.IngressLoadBalancerIngress': { ports: atomic },
  'io.k8s.api.networking.v1.NetworkPolicySpec': { ingress: atomic, egress: atomic, policyTypes: atomic },
  'io.k8s.api.networking.v1.NetworkPolicyIngressRule': { ports: atomic, from: atomic },
  'io.k8s.api.networking.v1.NetworkPolicyEgressRule': { ports: atomic, to: atomic },
  'io.k8s.api.networking.v1.IPBlock': { except: atomic },

  // discovery.k8s.io/v1
  'io.k8s.api.discovery.v1.EndpointSlice': { endpoints: atomic, ports: atomic },
  'io.k8s.api.discovery.v1.Endpoint': { addresses: set },
  'io.k8s.api.discovery.v1.EndpointHints': { forZones: atomic, forNodes: atomic },

  // rbac.authorization.k8s.io/v1
  'io.k8s.api.rbac.v1.Role': { rules: atomic },
  'io.k8s.api.rbac.v1.ClusterRole': { rules: atomic },
  'io.k8s.api.rbac.v1.RoleBinding': { subjects: atomic },
  'io.k8s.api.rbac.v1.ClusterRoleBinding': { subjects: atomic },
  'io.k8s.api.rbac.v1.PolicyRule': {
    verbs: atomic,
    apiGroups: atomic,
    resources: atomic,
    resourceNames: atomic,
    nonResourceURLs: atomic,
  },
  'io.k8s.api.rbac.v1.AggregationRule': { clusterRoleSelectors: atomic },

  // storage.k8s.io/v1
  'io.k8s.api.storage.v1.StorageClass': { mountOptions: atomic, allowedTopologies: atomic },
  'io.k8s.api.storage.v1.CSINodeSpec': { drivers: byKey('name') },

  // Conditions of the remaining served-by-schema kinds: list-maps for apply only.
  'io.k8s.api.certificates.v1.CertificateSigningRequestStatus': { conditions: conditionsApplyOnly },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionStatus': {
    conditions: conditionsApplyOnly,
  },
  'io.k8s.api.networking.v1.ServiceCIDRStatus': { conditions },
  'io.k8s.api.flowcontrol.v1.FlowSchemaStatus': { conditions: conditionsApplyOnly },
  'io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationStatus': { conditions: conditionsApplyOnly },
};

// Everything handed out is shared: freeze it once.
for (const props of Object.values(TABLE)) {
  for (const s of Object.values(props)) {
    if (s.listMapKeys) Object.freeze(s.listMapKeys);
    Object.freeze(s);
  }
  Object.freeze(props);
}

/**
 * The strategy of `property` of a definition (`('io.k8s.api.core.v1.PodSpec', 'containers')`); undefined when it has
 * none.
 */
export function listStrategy(definitionName: string, property: string): ListStrategy | undefined {
  const props = Object.hasOwn(TABLE, definitionName) ? TABLE[definitionName] : undefined;
  return props !== undefined && Object.hasOwn(props, property) ? props[property] : undefined;
}

/** Every entry of the table as `[definition, property, strategy]`, for checks against the schema. */
export function listStrategyEntries(): [string, string, ListStrategy][] {
  return Object.entries(TABLE).flatMap(([def, props]) =>
    Object.entries(props).map(([prop, s]): [string, string, ListStrategy] => [def, prop, s]),
  );
}

/**
 * Where one step from `type` along a property name (or a map key) leads: the
 * definition that declares the property, when there is one, and the type
 * reached. Lists are stepped through (paths carry no indices). Undefined when
 * the name leaves the schema (an unknown field, a key into a scalar).
 */
export function schemaStep(type: SchemaType, name: string): { parent?: Definition; type: SchemaType } | undefined {
  let t = type;
  while (t.kind === 'array') t = t.items;
  if (t.kind === 'any') return { type: t };
  if (t.kind === 'map') return { type: t.values };
  if (t.kind !== 'ref') return undefined;
  const def = definition(t.name);
  if (def === undefined || !Object.hasOwn(def.properties, name)) return undefined;
  return { parent: def, type: def.properties[name].type };
}

const MEMO_LIMIT = 4096;
const memo = new Map<string, ListStrategy | undefined>();
// Paths walk the active release's schema.
onKubernetesVersionChange(() => memo.clear());

/**
 * The strategy of the field at `path` (property names and map keys, no list
 * indices) in an object of this apiVersion and kind:
 * `listStrategyAtPath('apps/v1', 'Deployment', ['spec', 'template', 'spec', 'containers', 'env'])`
 * is merge by `name`. Undefined for unknown kinds or paths and for fields with no strategy.
 */
export function listStrategyAtPath(
  apiVersion: string,
  kind: string,
  path: readonly string[],
): ListStrategy | undefined {
  const key = `${apiVersion}\u0000${kind}\u0000${path.join('\u0000')}`;
  if (memo.has(key)) return memo.get(key);
  const result = walk(apiVersion, kind, path);
  // Paths through free-form maps are unbounded (every label key): keep the memo small.
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, result);
  return result;
}

function walk(apiVersion: string, kind: string, path: readonly string[]): ListStrategy | undefined {
  const entry = kindEntry(apiVersion, kind);
  if (entry === undefined || path.length === 0) return undefined;
  let type: SchemaType = { kind: 'ref', name: entry.definition };
  let parent: Definition | undefined;
  for (const name of path) {
    const step = schemaStep(type, name);
    if (step === undefined) return undefined;
    ({ parent, type } = step);
  }
  return parent === undefined ? undefined : listStrategy(parent.name, path[path.length - 1]);
}
