/**
 * How server-side apply sees a field, from the generated schema plus the list
 * strategies (sandbox/schema/listStrategies.ts): a struct (fields by name), a
 * granular map (any key), a list merged as a map by key fields or as a set, or
 * something atomic (scalars, atomic lists, structs and maps marked atomic
 * upstream). Free-form JSON is "deduced": objects are granular, lists atomic.
 */
import { definition, kindEntry } from '../../schema/schema';
import { listStrategy } from '../../schema/listStrategies';
import type { Definition, SchemaType } from '../../schema/types';

export type ShapeKind = 'scalar' | 'atomic' | 'struct' | 'map' | 'list' | 'deduced';

/** What a scalar accepts, as structured-merge-diff checks it (`untyped`: int-or-string, quantities). */
export type ScalarType = 'numeric' | 'string' | 'boolean' | 'untyped';

export class Shape {
  private fieldCache?: Map<string, Shape | null>;
  private itemCache?: Shape;

  constructor(
    readonly kind: ShapeKind,
    private readonly type?: SchemaType,
    /** The definition of a struct. */
    readonly def?: Definition,
    /** A list's relation: merged as a map by `keys`, or a set. */
    readonly relation?: 'map' | 'set',
    readonly keys: readonly string[] = [],
    readonly scalar: ScalarType = 'untyped',
  ) {}

  /**
   * The shape of a member: a struct's declared field (undefined when not declared), any key of a map or deduced object.
   */
  field(name: string): Shape | undefined {
    if (this.kind === 'deduced') return DEDUCED;
    if (this.kind === 'map') {
      if (this.itemCache === undefined) this.itemCache = shapeOf((this.type as { values: SchemaType }).values);
      return this.itemCache;
    }
    if (this.kind !== 'struct') return undefined;
    this.fieldCache ??= new Map();
    let s = this.fieldCache.get(name);
    if (s === undefined) {
      const prop = Object.hasOwn(this.def!.properties, name) ? this.def!.properties[name] : undefined;
      s = prop === undefined ? null : shapeOf(prop.type, this.def!.name, name);
      this.fieldCache.set(name, s);
    }
    return s ?? undefined;
  }

  /** The shape of a list's items. */
  get item(): Shape {
    if (this.itemCache === undefined) this.itemCache = shapeOf((this.type as { items: SchemaType }).items);
    return this.itemCache;
  }

  /** Granular lists (sets and maps) track their items; everything else is one value. */
  get granularList(): boolean {
    return this.kind === 'list';
  }
}

const SCALARS: Record<ScalarType, Shape> = {
  numeric: new Shape('scalar', undefined, undefined, undefined, [], 'numeric'),
  string: new Shape('scalar', undefined, undefined, undefined, [], 'string'),
  boolean: new Shape('scalar', undefined, undefined, undefined, [], 'boolean'),
  untyped: new Shape('scalar'),
};
const ATOMIC = new Shape('atomic');
export const DEDUCED = new Shape('deduced');

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const CORE = 'io.k8s.api.core.v1.';

/** Structs upstream marks `+structType=atomic`: applied and owned as one value. */
const ATOMIC_STRUCTS = new Set([
  `${META}LabelSelector`,
  `${META}OwnerReference`,
  `${CORE}ObjectReference`,
  `${CORE}LocalObjectReference`,
  `${CORE}TypedLocalObjectReference`,
  `${CORE}SecretReference`,
  `${CORE}ConfigMapKeySelector`,
  `${CORE}SecretKeySelector`,
  `${CORE}ObjectFieldSelector`,
  `${CORE}ResourceFieldSelector`,
  `${CORE}NodeSelector`,
  `${CORE}NodeSelectorTerm`,
  `${CORE}TopologySelectorTerm`,
]);

/** Maps upstream marks `+mapType=atomic`, as `definition.property`. */
const ATOMIC_MAPS = new Set([
  `${CORE}PodSpec.nodeSelector`,
  `${CORE}ServiceSpec.selector`,
  `${CORE}ReplicationControllerSpec.selector`,
]);

/**
 * The shape of a field of `type`, declared as `property` of definition `defName` (lists need both to find their
 * strategy).
 */
export function shapeOf(type: SchemaType, defName?: string, property?: string): Shape {
  switch (type.kind) {
    case 'any':
      return DEDUCED;
    case 'array': {
      const s = defName !== undefined && property !== undefined ? listStrategy(defName, property) : undefined;
      if (s?.listType === 'set') return new Shape('list', type, undefined, 'set');
      if (s?.listType === 'map')
        return new Shape('list', type, undefined, 'map', s.listMapKeys ?? (s.patchMergeKey ? [s.patchMergeKey] : []));
      if (s?.listType === undefined && s?.patchStrategy?.split(',').includes('merge')) {
        return s.patchMergeKey
          ? new Shape('list', type, undefined, 'map', [s.patchMergeKey])
          : new Shape('list', type, undefined, 'set');
      }
      return ATOMIC;
    }
    case 'map':
      return defName !== undefined && ATOMIC_MAPS.has(`${defName}.${property}`) ? ATOMIC : new Shape('map', type);
    case 'ref': {
      if (ATOMIC_STRUCTS.has(type.name)) return ATOMIC;
      const def = definition(type.name);
      if (def === undefined || Object.keys(def.properties).length === 0) return DEDUCED;
      return structShape(def);
    }
    case 'integer':
    case 'number':
      return SCALARS.numeric;
    case 'string':
      return SCALARS.string;
    case 'boolean':
      return SCALARS.boolean;
    default:
      return SCALARS.untyped;
  }
}

const structs = new Map<string, Shape>();

function structShape(def: Definition): Shape {
  let s = structs.get(def.name);
  if (s === undefined) {
    s = new Shape('struct', undefined, def);
    structs.set(def.name, s);
  }
  return s;
}

/** The shape of a whole object of this apiVersion and kind (deduced when the schema does not know it). */
export function rootShape(apiVersion: string, kind: string): Shape {
  const entry = kindEntry(apiVersion, kind);
  const def = entry === undefined ? undefined : definition(entry.definition);
  return def === undefined ? DEDUCED : structShape(def);
}

/**
 * Struct fields that Go declares by value, not by pointer: present (empty) in
 * a freshly made object, so a create does not own them as a whole — only what
 * it sets inside them (`f:spec` has no `"."` in a create's managedFields, while
 * `f:rollingUpdate` does).
 */
const BY_VALUE: Record<string, readonly string[]> = {
  'io.k8s.api.apps.v1.DeploymentSpec': ['template', 'strategy'],
  'io.k8s.api.apps.v1.ReplicaSetSpec': ['template'],
  'io.k8s.api.apps.v1.StatefulSetSpec': ['template', 'updateStrategy'],
  'io.k8s.api.apps.v1.DaemonSetSpec': ['template', 'updateStrategy'],
  'io.k8s.api.batch.v1.JobSpec': ['template'],
  'io.k8s.api.batch.v1.CronJobSpec': ['jobTemplate'],
  'io.k8s.api.batch.v1.JobTemplateSpec': ['metadata', 'spec'],
  [`${CORE}PodTemplateSpec`]: ['metadata', 'spec'],
  [`${CORE}PersistentVolumeClaimSpec`]: ['resources'],
  [`${CORE}ServiceStatus`]: ['loadBalancer'],
  [`${CORE}NodeStatus`]: ['daemonEndpoints', 'nodeInfo'],
  [`${CORE}NodeDaemonEndpoints`]: ['kubeletEndpoint'],
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec': ['scaleTargetRef'],
  'io.k8s.api.networking.v1.IngressStatus': ['loadBalancer'],
  'io.k8s.api.rbac.v1.RoleBinding': ['roleRef'],
  'io.k8s.api.rbac.v1.ClusterRoleBinding': ['roleRef'],
};
const TOP_LEVEL_BY_VALUE = ['metadata', 'spec', 'status'];
/** Lists Go always writes, as null when empty (no `omitempty`). */
const ALWAYS_WRITTEN: Record<string, readonly string[]> = { [`${CORE}PodSpec`]: ['containers'] };

/** The object a create starts from, as Go's zero value of the kind has it: its by-value structs present and empty. */
export function emptyObject(apiVersion: string, kind: string): Record<string, unknown> {
  const out: Record<string, unknown> = { apiVersion, kind };
  const root = rootShape(apiVersion, kind);
  if (root.kind !== 'struct') return { ...out, metadata: {} };
  fill(out, root, TOP_LEVEL_BY_VALUE, 0);
  return out;
}

function fill(target: Record<string, unknown>, shape: Shape, fields: readonly string[], depth: number): void {
  for (const f of shape.def !== undefined ? (ALWAYS_WRITTEN[shape.def.name] ?? []) : []) target[f] = null;
  for (const f of fields) {
    const s = shape.field(f);
    if (s === undefined || (s.kind !== 'struct' && s.kind !== 'deduced')) continue;
    const child: Record<string, unknown> = {};
    target[f] = child;
    if (s.def !== undefined && depth < 8) fill(child, s, BY_VALUE[s.def.name] ?? [], depth + 1);
  }
}
