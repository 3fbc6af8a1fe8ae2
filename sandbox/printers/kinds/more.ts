/**
 * The columns of the kinds the sandbox stores without a controller acting on them (and of a few it computes):
 * RBAC, admission configuration, storage, scheduling, flow control, certificates, aggregation, CRDs, and the
 * core kinds without printers elsewhere.
 *
 * upstream: kubernetes pkg/printers/internalversion/printers.go (`AddHandlers` and each `print<Kind>`), and for
 * CustomResourceDefinitions the apiextensions server's default table (NAME, CREATED AT).
 */
import type { KubeObject } from '../../api/types';
import type { KindPrinter } from '../table';
import {
  AGE_COLUMN,
  NAME_COLUMN,
  age,
  col,
  containerCells,
  formatLabels,
  int,
  listWithMore,
  selectorText,
  str,
  wide,
} from '../table';
import { shortHumanDuration } from '../duration';

type J = Record<string, unknown>;

function o(v: unknown): J {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as J) : {};
}
function a(v: unknown): J[] {
  return Array.isArray(v) ? (v as J[]) : [];
}
function spec(obj: KubeObject): J {
  return o(obj.spec);
}
function status(obj: KubeObject): J {
  return o(obj.status);
}
function name(obj: KubeObject): string {
  return obj.metadata.name ?? '';
}
/** `CREATED AT`: the creation time in RFC 3339 (UTC), as the printers of Roles and CRDs show it. */
function createdAt(obj: KubeObject): string {
  return obj.metadata.creationTimestamp ?? '';
}

const CREATED_AT = col('Created At', 'string', 'Time when this object was created');

/** NAME and CREATED AT (Roles, ClusterRoles, LimitRanges, CRDs). */
const createdAtPrinter: KindPrinter = {
  columns: [NAME_COLUMN, CREATED_AT],
  row: (obj) => [name(obj), createdAt(obj)],
};

function subjects(obj: KubeObject, kind: string): string {
  return a(obj.subjects)
    .filter((s) => s.kind === kind)
    .map((s) => (kind === 'ServiceAccount' ? `${str(s.namespace)}/${str(s.name)}` : str(s.name)))
    .join(', ');
}

/** printRoleBinding / printClusterRoleBinding. */
const bindingPrinter: KindPrinter = {
  columns: [
    NAME_COLUMN,
    col('Role', 'string', 'Role indicates which role this binding refers to.'),
    AGE_COLUMN,
    wide('Users', 'string', 'Users indicate which users this binding refers to.'),
    wide('Groups', 'string', 'Groups indicate which groups this binding refers to.'),
    wide('ServiceAccounts', 'string', 'ServiceAccounts indicate which service accounts this binding refers to.'),
  ],
  row: (obj, now) => {
    const ref = o(obj.roleRef);
    return [
      name(obj),
      `${str(ref.kind)}/${str(ref.name)}`,
      age(obj, now),
      subjects(obj, 'User'),
      subjects(obj, 'Group'),
      subjects(obj, 'ServiceAccount'),
    ];
  },
};

const webhookPrinter: KindPrinter = {
  columns: [NAME_COLUMN, col('Webhooks', 'integer', 'Webhooks indicates the number of webhooks.'), AGE_COLUMN],
  row: (obj, now) => [name(obj), a(obj.webhooks).length, age(obj, now)],
};

const admissionPolicyPrinter: KindPrinter = {
  columns: [
    NAME_COLUMN,
    col('Validations', 'integer', 'Validations indicates the number of validation rules.'),
    col('ParamKind', 'string', 'ParamKind specifies the kind of resources used to parameterize this policy'),
    AGE_COLUMN,
  ],
  row: (obj, now) => {
    const pk = o(spec(obj).paramKind);
    const paramKind = Object.keys(pk).length === 0 ? '<unset>' : `${str(pk.apiVersion)}/${str(pk.kind)}`;
    return [name(obj), a(spec(obj).validations).length, paramKind, age(obj, now)];
  },
};

const admissionPolicyBindingPrinter: KindPrinter = {
  columns: [
    NAME_COLUMN,
    col('PolicyName', 'string', 'PolicyName indicates the policy definition which the policy binding binded to.'),
    col('ParamRef', 'string', 'ParamRef indicates the param resource which sets the configration param'),
    AGE_COLUMN,
  ],
  row: (obj, now) => {
    const ref = spec(obj).paramRef === undefined ? undefined : o(spec(obj).paramRef);
    let param = '<unset>';
    if (ref !== undefined) {
      if (str(ref.name) !== '')
        param = str(ref.namespace) !== '' ? `${str(ref.namespace)}/${str(ref.name)}` : str(ref.name);
      else if (ref.selector !== undefined) param = selectorText(ref.selector as never);
    }
    return [name(obj), str(spec(obj).policyName), param, age(obj, now)];
  },
};

function isDefaultClass(obj: KubeObject): boolean {
  const ann = obj.metadata.annotations ?? {};
  return (
    ann['storageclass.kubernetes.io/is-default-class'] === 'true' ||
    ann['storageclass.beta.kubernetes.io/is-default-class'] === 'true'
  );
}

const storageClassPrinter: KindPrinter = {
  columns: [
    NAME_COLUMN,
    col('Provisioner', 'string', 'Indicates the type of the provisioner.'),
    col('ReclaimPolicy', 'string', 'Indicates the type of the reclaim policy.'),
    col('VolumeBindingMode', 'string', 'Indicates the mode of the volume binding.'),
    col('AllowVolumeExpansion', 'string', 'Indicates whether the storage class allow volume expand.'),
    AGE_COLUMN,
  ],
  row: (obj, now) => [
    isDefaultClass(obj) ? `${name(obj)} (default)` : name(obj),
    str(obj.provisioner),
    str(obj.reclaimPolicy) || 'Delete',
    str(obj.volumeBindingMode) || 'Immediate',
    obj.allowVolumeExpansion === true ? 'true' : 'false',
    age(obj, now),
  ],
};

const ingressClassPrinter: KindPrinter = {
  columns: [
    NAME_COLUMN,
    col('Controller', 'string', 'Controller that is responsible for handling this class'),
    col('Parameters', 'string', 'A reference to a resource with additional parameters'),
    AGE_COLUMN,
  ],
  row: (obj, now) => {
    const p = spec(obj).parameters === undefined ? undefined : o(spec(obj).parameters);
    let params = '<none>';
    if (p !== undefined) {
      params = str(p.apiGroup) !== '' ? `${str(p.kind)}.${str(p.apiGroup)}` : str(p.kind);
      params = `${params}/${str(p.name)}`;
    }
    return [name(obj), str(spec(obj).controller), params, age(obj, now)];
  },
};

const runtimeClassPrinter: KindPrinter = {
  columns: [
    NAME_COLUMN,
    col(
      'Handler',
      'string',
      'Handler specifies the underlying runtime and configuration that the CRI implementation will use to handle pods of this class.',
    ),
    AGE_COLUMN,
  ],
  row: (obj, now) => [name(obj), str(obj.handler), age(obj, now)],
};

const csiDriverPrinter: KindPrinter = {
  columns: [
    NAME_COLUMN,
    col('AttachRequired', 'boolean', 'Indicates this CSI volume driver requires an attach operation.'),
    col(
      'PodInfoOnMount',
      'boolean',
      'Indicates this CSI volume driver requires additional pod information during mount operations.',
    ),
    col(
      'StorageCapacity',
      'boolean',
      'Indicates this CSI volume driver wants pod scheduling to consider storage capacity.',
    ),
    col('TokenRequests', 'string', 'Indicates the CSI volume driver requires service account tokens.'),
    col(
      'RequiresRepublish',
      'boolean',
      'Indicates the CSI volume driver requires NodePublishVolume to be called periodically.',
    ),
    col('Modes', 'string', 'Indicates volume modes supported by this CSI volume driver.'),
    AGE_COLUMN,
  ],
  row: (obj, now) => {
    const s = spec(obj);
    const tokens = a(s.tokenRequests).map((t) => (str(t.audience) === '' ? '<empty>' : str(t.audience)));
    const modes = Array.isArray(s.volumeLifecycleModes) ? (s.volumeLifecycleModes as string[]) : [];
    return [
      name(obj),
      s.attachRequired !== false,
      s.podInfoOnMount === true,
      s.storageCapacity === true,
      tokens.length > 0 ? tokens.join(',') : '<unset>',
      s.requiresRepublish === true,
      modes.length > 0 ? modes.join(',') : '<none>',
      age(obj, now),
    ];
  },
};

const csiNodePrinter: KindPrinter = {
  columns: [
    NAME_COLUMN,
    col('Drivers', 'integer', 'Drivers indicates the number of CSI drivers registered on the node'),
    AGE_COLUMN,
  ],
  row: (obj, now) => [name(obj), a(spec(obj).drivers).length, age(obj, now)],
};

function conditionStatus(obj: KubeObject, type: string): string {
  const c = a(status(obj).conditions).find((x) => x.type === type);
  if (c === undefined) return 'Unknown';
  return c.status === 'True' ? 'True' : `${str(c.status)} (${str(c.reason)})`;
}

const apiServicePrinter: KindPrinter = {
  columns: [
    NAME_COLUMN,
    col('Service', 'string', 'The reference to the service that hosts this API endpoint.'),
    col('Available', 'string', 'Whether this service is available.'),
    AGE_COLUMN,
  ],
  row: (obj, now) => {
    const svc = spec(obj).service === undefined ? undefined : o(spec(obj).service);
    return [
      name(obj),
      svc === undefined ? 'Local' : `${str(svc.namespace)}/${str(svc.name)}`,
      conditionStatus(obj, 'Available'),
      age(obj, now),
    ];
  },
};

const csrPrinter: KindPrinter = {
  columns: [
    NAME_COLUMN,
    AGE_COLUMN,
    col('SignerName', 'string', 'Name of the signer'),
    col('Requestor', 'string', 'Name of the requestor'),
    col('RequestedDuration', 'string', 'Requested duration of the certificate'),
    col('Condition', 'string', 'Condition of the request'),
  ],
  row: (obj, now) => {
    const s = spec(obj);
    const conds = a(status(obj).conditions)
      .filter((c) => c.status !== 'False')
      .map((c) => str(c.type));
    if (str(o(status(obj)).certificate) !== '') conds.push('Issued');
    const seconds = typeof s.expirationSeconds === 'number' ? s.expirationSeconds : undefined;
    return [
      name(obj),
      age(obj, now),
      str(s.signerName) || '<none>',
      str(s.username),
      seconds === undefined ? '<none>' : shortHumanDuration(seconds * 1000),
      conds.length > 0 ? conds.join(',') : 'Pending',
    ];
  },
};

const flowSchemaPrinter: KindPrinter = {
  columns: [
    NAME_COLUMN,
    col('PriorityLevel', 'string', 'The priority level configuration this flow schema refers to.'),
    col('MatchingPrecedence', 'string', 'Matching precedence of this flow schema.'),
    col('DistinguisherMethod', 'string', 'DistinguisherMethod of this flow schema.'),
    AGE_COLUMN,
    col('MissingPL', 'string', 'Whether the priority level configuration this flow schema refers to is missing.'),
  ],
  row: (obj, now) => {
    const s = spec(obj);
    const method = s.distinguisherMethod === undefined ? '<none>' : str(o(s.distinguisherMethod).type);
    const dangling = a(status(obj).conditions).find((c) => c.type === 'Dangling');
    return [
      name(obj),
      str(o(s.priorityLevelConfiguration).name),
      String(typeof s.matchingPrecedence === 'number' ? s.matchingPrecedence : 1000),
      method,
      age(obj, now),
      dangling === undefined ? '?' : str(dangling.status),
    ];
  },
};

const priorityLevelPrinter: KindPrinter = {
  columns: [
    NAME_COLUMN,
    col('Type', 'string', 'Type of this priority level.'),
    col('NominalConcurrencyShares', 'string', 'Nominal concurrency shares of this priority level.'),
    col('Queues', 'string', 'Number of queues of this priority level.'),
    col('HandSize', 'string', 'Hand size of this priority level.'),
    col('QueueLengthLimit', 'string', 'Queue length limit of this priority level.'),
    AGE_COLUMN,
  ],
  row: (obj, now) => {
    const s = spec(obj);
    const limited = o(s.limited);
    const queuing = o(o(limited.limitResponse).queuing);
    const isLimited = s.type === 'Limited';
    const q = (k: string) => (isLimited && Object.keys(queuing).length > 0 ? String(int(queuing[k])) : '<none>');
    return [
      name(obj),
      str(s.type),
      isLimited ? String(int(limited.nominalConcurrencyShares)) : '<none>',
      q('queues'),
      q('handSize'),
      q('queueLengthLimit'),
      age(obj, now),
    ];
  },
};

const pvPrinter: KindPrinter = {
  columns: [
    NAME_COLUMN,
    col('Capacity', 'string', "capacity is the description of the persistent volume's resources and capacity."),
    col('Access Modes', 'string', 'accessModes contains all ways the volume can be mounted.'),
    col(
      'Reclaim Policy',
      'string',
      'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim.',
    ),
    col('Status', 'string', 'phase indicates if a volume is available, bound to a claim, or released by a claim.'),
    col(
      'Claim',
      'string',
      'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim.',
    ),
    col(
      'StorageClass',
      'string',
      'storageClassName is the name of StorageClass to which this persistent volume belongs.',
    ),
    col('VolumeAttributesClass', 'string', 'Name of VolumeAttributesClass to which this persistent volume belongs.'),
    col('Reason', 'string', 'reason is a brief CamelCase string that describes any failure.'),
    AGE_COLUMN,
    wide(
      'VolumeMode',
      'string',
      'volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state.',
    ),
  ],
  row: (obj, now) => {
    const s = spec(obj);
    const claim = s.claimRef === undefined ? '' : `${str(o(s.claimRef).namespace)}/${str(o(s.claimRef).name)}`;
    const modes = (Array.isArray(s.accessModes) ? (s.accessModes as string[]) : []).map(
      (m) => ({ ReadWriteOnce: 'RWO', ReadOnlyMany: 'ROX', ReadWriteMany: 'RWX', ReadWriteOncePod: 'RWOP' })[m] ?? m,
    );
    return [
      name(obj),
      str(o(s.capacity).storage),
      modes.join(','),
      str(s.persistentVolumeReclaimPolicy) || 'Retain',
      str(status(obj).phase),
      claim,
      str(s.storageClassName),
      str(s.volumeAttributesClassName) || '<unset>',
      str(status(obj).reason),
      age(obj, now),
      str(s.volumeMode) || 'Filesystem',
    ];
  },
};

const networkPolicyPrinter: KindPrinter = {
  columns: [
    NAME_COLUMN,
    col('Pod-Selector', 'string', 'podSelector selects the pods to which this NetworkPolicy object applies.'),
    AGE_COLUMN,
  ],
  row: (obj, now) => [
    name(obj),
    selectorText(spec(obj).podSelector as never).replace(/^<none>$/, '<none>'),
    age(obj, now),
  ],
};

const podTemplatePrinter: KindPrinter = {
  columns: [
    NAME_COLUMN,
    col('Containers', 'string', 'Names of each container in the template.'),
    col('Images', 'string', 'Images referenced by each container in the template.'),
    col('Pod Labels', 'string', 'The labels for the pod template.'),
  ],
  row: (obj) => {
    const t = o(obj.template);
    const [containers, images] = containerCells(a(o(t.spec).containers) as never);
    return [name(obj), containers, images, formatLabels(o(o(t.metadata).labels) as Record<string, string>)];
  },
};

const volumeAttachmentPrinter: KindPrinter = {
  columns: [
    NAME_COLUMN,
    col('Attacher', 'string', 'Attacher indicates the name of the volume driver that MUST handle this request.'),
    col('PV', 'string', 'Name of the persistent volume to attach.'),
    col('Node', 'string', 'The node that the volume should be attached to.'),
    col('Attached', 'boolean', 'Indicates the volume is successfully attached.'),
    AGE_COLUMN,
  ],
  row: (obj, now) => [
    name(obj),
    str(spec(obj).attacher),
    str(o(spec(obj).source).persistentVolumeName),
    str(spec(obj).nodeName),
    status(obj).attached === true,
    age(obj, now),
  ],
};

const componentStatusPrinter: KindPrinter = {
  columns: [
    NAME_COLUMN,
    col('Status', 'string', 'Status of the component conditions'),
    col('Message', 'string', 'Message of the component conditions'),
    col('Error', 'string', 'Error of the component conditions'),
  ],
  row: (obj) => {
    const c = a(obj.conditions).find((x) => x.type === 'Healthy');
    return [name(obj), c?.status === 'True' ? 'Healthy' : 'Unhealthy', str(c?.message), str(c?.error)];
  },
};

const serviceCidrPrinter: KindPrinter = {
  columns: [NAME_COLUMN, col('CIDRs', 'string', 'CIDRs defines the IP blocks in CIDR notation'), AGE_COLUMN],
  row: (obj, now) => [name(obj), listWithMore((spec(obj).cidrs as string[] | undefined) ?? [], 3), age(obj, now)],
};

const ipAddressPrinter: KindPrinter = {
  columns: [
    NAME_COLUMN,
    col(
      'ParentRef',
      'string',
      'ParentRef references the resource (usually a Service) that this IP address is assigned to.',
    ),
  ],
  row: (obj) => {
    const p = o(spec(obj).parentRef);
    return [name(obj), `${str(p.resource)}/${str(p.namespace)}/${str(p.name)}`];
  },
};

const volumeAttributesClassPrinter: KindPrinter = {
  columns: [NAME_COLUMN, col('DriverName', 'string', 'the name of the CSI driver'), AGE_COLUMN],
  row: (obj, now) => [name(obj), str(obj.driverName), age(obj, now)],
};

const csiStorageCapacityPrinter: KindPrinter = {
  columns: [
    NAME_COLUMN,
    col('StorageClassName', 'string', 'The name of the StorageClass that the reported capacity applies to.'),
    col('Capacity', 'string', 'Capacity is the value reported by the CSI driver in its GetCapacityResponse.'),
  ],
  row: (obj) => [name(obj), str(obj.storageClassName), str(obj.capacity) || '<unset>'],
};

const resourceQuotaPrinter: KindPrinter = {
  columns: [
    NAME_COLUMN,
    AGE_COLUMN,
    col('Request', 'string', 'Request represents a minimum amount of cpu/memory that a container may consume.'),
    col(
      'Limit',
      'string',
      'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.',
    ),
  ],
  row: (obj, now) => {
    const hard = o(status(obj).hard) as Record<string, string>;
    const used = o(status(obj).used) as Record<string, string>;
    const part = (limits: boolean) =>
      Object.keys(hard)
        .sort()
        .filter((k) => k.startsWith('limits.') === limits)
        .map((k) => `${k}: ${used[k] ?? '0'}/${hard[k]}`)
        .join(', ');
    return [name(obj), age(obj, now), part(false), part(true)];
  },
};

/** The printers of this file, by kind. */
export const BUILT_IN_PRINTERS: ReadonlyMap<string, KindPrinter> = new Map([
  ['CustomResourceDefinition', createdAtPrinter],
  ['Role', createdAtPrinter],
  ['ClusterRole', createdAtPrinter],
  ['LimitRange', createdAtPrinter],
  ['RoleBinding', bindingPrinter],
  ['ClusterRoleBinding', bindingPrinter],
  ['ValidatingWebhookConfiguration', webhookPrinter],
  ['MutatingWebhookConfiguration', webhookPrinter],
  ['ValidatingAdmissionPolicy', admissionPolicyPrinter],
  ['ValidatingAdmissionPolicyBinding', admissionPolicyBindingPrinter],
  ['StorageClass', storageClassPrinter],
  ['IngressClass', ingressClassPrinter],
  ['RuntimeClass', runtimeClassPrinter],
  ['CSIDriver', csiDriverPrinter],
  ['CSINode', csiNodePrinter],
  ['CSIStorageCapacity', csiStorageCapacityPrinter],
  ['VolumeAttachment', volumeAttachmentPrinter],
  ['VolumeAttributesClass', volumeAttributesClassPrinter],
  ['APIService', apiServicePrinter],
  ['CertificateSigningRequest', csrPrinter],
  ['FlowSchema', flowSchemaPrinter],
  ['PriorityLevelConfiguration', priorityLevelPrinter],
  ['PersistentVolume', pvPrinter],
  ['NetworkPolicy', networkPolicyPrinter],
  ['PodTemplate', podTemplatePrinter],
  ['ComponentStatus', componentStatusPrinter],
  ['ServiceCIDR', serviceCidrPrinter],
  ['IPAddress', ipAddressPrinter],
  ['ResourceQuota', resourceQuotaPrinter],
]);
