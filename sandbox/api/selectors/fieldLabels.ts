/**
 * Which field labels each kind accepts in a field selector, and how each
 * label's value is read from an object. Two upstream sources meet here: the
 * field label conversion functions (pkg/apis/{core,batch,apps}/v1/conversion.go,
 * which decide what is *accepted* and word the rejection) and the registry
 * strategies' `ToSelectableFields` (which decide the *value*; Go zero values,
 * so a missing string is "", a missing bool "false", a missing int "0").
 */
import type { KubeObject } from '../types';

export type FieldGetter = (obj: KubeObject) => string;

export interface KindFieldLabels {
  /** Accepted label → getter. */
  readonly getters: ReadonlyMap<string, FieldGetter>;
  /** Old spellings rewritten before matching (Pod `spec.host` → `spec.nodeName`). */
  readonly aliases: ReadonlyMap<string, string>;
  /** Upstream's rejection text for an unaccepted label. */
  unsupported(label: string): string;
}

function at(obj: unknown, path: readonly string[]): unknown {
  let cur = obj;
  for (const p of path) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}

function str(...path: string[]): FieldGetter {
  return (obj) => {
    const v = at(obj, path);
    return typeof v === 'string' ? v : '';
  };
}

function bool(...path: string[]): FieldGetter {
  return (obj) => (at(obj, path) === true ? 'true' : 'false');
}

function int(...path: string[]): FieldGetter {
  return (obj) => {
    const v = at(obj, path);
    return typeof v === 'number' ? String(Math.trunc(v)) : '0';
  };
}

const name = str('metadata', 'name');
const namespace = str('metadata', 'namespace');

/** The first of `status.podIPs` as upstream (no secondary IPs), else `status.podIP` for writers that set only that. */
const podIP: FieldGetter = (obj) => {
  const ips = at(obj, ['status', 'podIPs']);
  const first = Array.isArray(ips) ? at(ips[0], ['ip']) : undefined;
  if (typeof first === 'string') return first;
  const legacy = at(obj, ['status', 'podIP']);
  return typeof legacy === 'string' ? legacy : '';
};

/** Events from older reporters name the component in `source`, newer ones in `reportingComponent`. */
const eventSource: FieldGetter = (obj) => str('source', 'component')(obj) || str('reportingComponent')(obj);

const notSupported = (label: string): string => `field label not supported: ${label}`;

function kind(
  getters: Record<string, FieldGetter>,
  unsupported = notSupported,
  aliases: Record<string, string> = {},
): KindFieldLabels {
  return { getters: new Map(Object.entries(getters)), aliases: new Map(Object.entries(aliases)), unsupported };
}

const BY_KIND: ReadonlyMap<string, KindFieldLabels> = new Map([
  [
    'Pod',
    kind(
      {
        'metadata.name': name,
        'metadata.namespace': namespace,
        'spec.nodeName': str('spec', 'nodeName'),
        'spec.restartPolicy': str('spec', 'restartPolicy'),
        'spec.schedulerName': str('spec', 'schedulerName'),
        'spec.serviceAccountName': str('spec', 'serviceAccountName'),
        'spec.hostNetwork': bool('spec', 'hostNetwork'),
        'status.phase': str('status', 'phase'),
        'status.podIP': podIP,
        // Accepted by the conversion but absent from ToSelectableFields upstream, so it always reads "".
        'status.podIPs': () => '',
        'status.nominatedNodeName': str('status', 'nominatedNodeName'),
      },
      notSupported,
      { 'spec.host': 'spec.nodeName' },
    ),
  ],
  [
    'Event',
    kind({
      'metadata.name': name,
      'metadata.namespace': namespace,
      'involvedObject.kind': str('involvedObject', 'kind'),
      'involvedObject.namespace': str('involvedObject', 'namespace'),
      'involvedObject.name': str('involvedObject', 'name'),
      'involvedObject.uid': str('involvedObject', 'uid'),
      'involvedObject.apiVersion': str('involvedObject', 'apiVersion'),
      'involvedObject.resourceVersion': str('involvedObject', 'resourceVersion'),
      'involvedObject.fieldPath': str('involvedObject', 'fieldPath'),
      reason: str('reason'),
      reportingComponent: str('reportingComponent'),
      source: eventSource,
      type: str('type'),
    }),
  ],
  // Cluster-scoped kinds with their own conversion do not accept metadata.namespace.
  ['Node', kind({ 'metadata.name': name, 'spec.unschedulable': bool('spec', 'unschedulable') })],
  ['Namespace', kind({ 'metadata.name': name, 'status.phase': str('status', 'phase') })],
  ['Secret', kind({ 'metadata.name': name, 'metadata.namespace': namespace, type: str('type') })],
  [
    'Service',
    kind({
      'metadata.name': name,
      'metadata.namespace': namespace,
      'spec.clusterIP': str('spec', 'clusterIP'),
      'spec.type': str('spec', 'type'),
    }),
  ],
  [
    'ReplicaSet',
    kind({ 'metadata.name': name, 'metadata.namespace': namespace, 'status.replicas': int('status', 'replicas') }),
  ],
  [
    'Job',
    kind(
      { 'metadata.name': name, 'metadata.namespace': namespace, 'status.successful': int('status', 'succeeded') },
      (label) => `field label ${JSON.stringify(label)} not supported for Job`,
    ),
  ],
]);

/** Every other kind: upstream `DefaultMetaV1FieldSelectorConversion`. */
const DEFAULT = kind(
  { 'metadata.name': name, 'metadata.namespace': namespace },
  (label) => `${JSON.stringify(label)} is not a known field selector: only "metadata.name", "metadata.namespace"`,
);

/** The field labels of `kind` (`'Pod'`, `'Event'`, …); unknown kinds get metadata.name and metadata.namespace. */
export function fieldLabelsFor(kindName: string): KindFieldLabels {
  return BY_KIND.get(kindName) ?? DEFAULT;
}

/**
 * The field labels of a custom resource: metadata.name, metadata.namespace and its CRD version's
 * `selectableFields` (`.spec.color` → `spec.color`), each read as a string, a boolean or an integer, an absent
 * field as "" (upstream: apiextensions-apiserver pkg/registry/customresource/strategy.go `GetAttrs`,
 * `selectableFieldSet`; the rejection is its field-label conversion's).
 */
export function customFieldLabels(selectable: readonly string[]): KindFieldLabels {
  const getters = new Map<string, FieldGetter>([
    ['metadata.name', name],
    ['metadata.namespace', namespace],
  ]);
  for (const path of selectable) {
    const parts = path.replace(/^\./, '').split('.');
    getters.set(parts.join('.'), (obj) => {
      const v = at(obj, parts);
      if (typeof v === 'string') return v;
      if (typeof v === 'boolean' || typeof v === 'number') return String(v);
      return '';
    });
  }
  return {
    getters,
    aliases: new Map(),
    unsupported: (label) => `field label not supported: ${label}`,
  };
}
