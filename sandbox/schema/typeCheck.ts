/**
 * JSON type checking of a request body against its kind's schema, as
 * upstream's decoding into Go structs does it: `"replicas": "3"` is refused
 * with `json: cannot unmarshal string into Go struct field
 * DeploymentSpec.spec.replicas of type int32`. Like Go's decoder, a plain
 * mismatch is remembered and decoding goes on (the first one is reported),
 * while a failing custom decoder (IntOrString, Quantity, Time) stops at once
 * and wins. `null` is always accepted (the zero value); fields the schema does
 * not know are left to field validation.
 */
import { QUANTITY_FORMAT_ERROR } from '../api/quantity';
import { definition, kindEntry } from './schema';
import type { SchemaType } from './types';

/**
 * Integer fields that are `int64` in the Go types (every other integer is
 * `int32`): the schema only says `integer`, so the common ones are named here.
 */
const INT64_FIELDS = new Set([
  'generation',
  'observedGeneration',
  'deletionGracePeriodSeconds',
  'terminationGracePeriodSeconds',
  'activeDeadlineSeconds',
  'startingDeadlineSeconds',
  'tolerationSeconds',
  'runAsUser',
  'runAsGroup',
  'fsGroup',
  'supplementalGroups',
  'expirationSeconds',
  'gracePeriodSeconds',
]);

/**
 * String fields whose Go type is a named string type (`type PullPolicy string` in k8s.io/api/core/v1/types.go): the
 * schema only says `string`, and Go's decoder names the field's own type (`reflect.Type.String()`, package and name;
 * through a pointer, the pointed-to type). Keyed by the struct's Go name, then the json field.
 */
const NAMED_STRINGS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  // core/v1
  Container: {
    imagePullPolicy: 'v1.PullPolicy',
    terminationMessagePolicy: 'v1.TerminationMessagePolicy',
    restartPolicy: 'v1.ContainerRestartPolicy',
  },
  ContainerPort: { protocol: 'v1.Protocol' },
  ServicePort: { protocol: 'v1.Protocol' },
  EndpointPort: { protocol: 'v1.Protocol' },
  PodSpec: { restartPolicy: 'v1.RestartPolicy', dnsPolicy: 'v1.DNSPolicy', preemptionPolicy: 'v1.PreemptionPolicy' },
  ServiceSpec: {
    type: 'v1.ServiceType',
    sessionAffinity: 'v1.ServiceAffinity',
    externalTrafficPolicy: 'v1.ServiceExternalTrafficPolicy',
    internalTrafficPolicy: 'v1.ServiceInternalTrafficPolicy',
    ipFamilies: 'v1.IPFamily',
    ipFamilyPolicy: 'v1.IPFamilyPolicy',
  },
  Toleration: { operator: 'v1.TolerationOperator', effect: 'v1.TaintEffect' },
  Taint: { effect: 'v1.TaintEffect' },
  NodeSelectorRequirement: { operator: 'v1.NodeSelectorOperator' },
  PersistentVolumeClaimSpec: { accessModes: 'v1.PersistentVolumeAccessMode', volumeMode: 'v1.PersistentVolumeMode' },
  HTTPGetAction: { scheme: 'v1.URIScheme' },
  Capabilities: { add: 'v1.Capability', drop: 'v1.Capability' },
  SeccompProfile: { type: 'v1.SeccompProfileType' },
  TopologySpreadConstraint: {
    whenUnsatisfiable: 'v1.UnsatisfiableConstraintAction',
    nodeAffinityPolicy: 'v1.NodeInclusionPolicy',
    nodeTaintsPolicy: 'v1.NodeInclusionPolicy',
  },
  // meta/v1
  LabelSelectorRequirement: { operator: 'v1.LabelSelectorOperator' },
  // apps/v1
  DeploymentStrategy: { type: 'v1.DeploymentStrategyType' },
  StatefulSetSpec: { podManagementPolicy: 'v1.PodManagementPolicyType' },
  StatefulSetUpdateStrategy: { type: 'v1.StatefulSetUpdateStrategyType' },
  DaemonSetUpdateStrategy: { type: 'v1.DaemonSetUpdateStrategyType' },
  // batch/v1
  JobSpec: { completionMode: 'v1.CompletionMode', podReplacementPolicy: 'v1.PodReplacementPolicy' },
  CronJobSpec: { concurrencyPolicy: 'v1.ConcurrencyPolicy' },
  // admissionregistration/v1
  ValidatingAdmissionPolicyBindingSpec: { validationActions: 'v1.ValidationAction' },
  ValidatingAdmissionPolicySpec: { failurePolicy: 'v1.FailurePolicyType' },
  MatchResources: { matchPolicy: 'v1.MatchPolicyType' },
  // networking/v1
  NetworkPolicySpec: { policyTypes: 'v1.PolicyType' },
  HTTPIngressPath: { pathType: 'v1.PathType' },
};

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_LIMIT = 2 ** 63;

/**
 * Where the decoder is: the innermost struct (its Go name) and the json path from the root, without indices or map
 * keys.
 */
interface Position {
  struct: string;
  path: readonly string[];
  /** The last property name, for the int32/int64 choice of integers inside lists. */
  field: string;
}

/** Go's name for a JSON value's type: `string`, `number`, `bool`, `array`, `object`. */
function jsonTypeName(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'object' ? 'object' : typeof value;
}

/**
 * The Go type a schema type decodes into, as `reflect.Type.String()` prints it: `int32`, `[]v1.Container`,
 * `map[string]string`.
 */
export function goTypeName(t: SchemaType, field = '', struct = ''): string {
  switch (t.kind) {
    case 'string':
      if (t.format === 'byte') return '[]uint8';
      if (t.format === 'date-time') return 'v1.Time';
      return (Object.hasOwn(NAMED_STRINGS, struct) ? NAMED_STRINGS[struct][field] : undefined) ?? 'string';
    case 'integer':
      return INT64_FIELDS.has(field) ? 'int64' : 'int32';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'intOrString':
      return 'intstr.IntOrString';
    case 'quantity':
      return 'resource.Quantity';
    case 'any':
      return 'interface {}';
    case 'array':
      return `[]${goTypeName(t.items, field, struct)}`;
    case 'map':
      return `map[string]${goTypeName(t.values, field, struct)}`;
    case 'ref': {
      const parts = t.name.split('.');
      const title = definition(t.name)?.title ?? parts[parts.length - 1];
      return parts.length > 1 ? `${parts[parts.length - 2]}.${title}` : title;
    }
  }
}

class Walk {
  /** The first plain mismatch (Go's saved error). */
  saved: string | undefined;
  /** Where the saved mismatch (or the failing custom decoder) is, as an upstream field path with indices. */
  savedAt: string | undefined;
  /**
   * The steps from the root to the value being visited, pushed and popped as the walk goes: a struct field's name, a
   * list index, or a map key already in brackets (`[app]`; no schema field name starts with `[`).
   */
  private readonly trail: (string | number)[] = [];

  mismatch(value: string, t: SchemaType, at: Position): void {
    if (this.saved !== undefined) return;
    this.saved = `json: cannot unmarshal ${value} into Go struct field ${at.struct}.${at.path.join('.')} of type ${goTypeName(t, at.field, at.struct)}`;
    this.savedAt = this.here();
  }

  /** A failing custom decoder's error, with where it failed. */
  fatal(message: string): string {
    this.savedAt = this.here();
    return message;
  }

  /** The trail as upstream prints a field.Path: `spec.containers[0].ports[1].containerPort`, map keys `[key]`. */
  private here(): string {
    let out = '';
    for (const step of this.trail)
      out += typeof step === 'number' ? `[${step}]` : out === '' || step.startsWith('[') ? step : `.${step}`;
    return out;
  }

  /** Checks `value` against `t`; returns the error of a failing custom decoder, which ends the walk. */
  visit(value: unknown, t: SchemaType, at: Position): string | undefined {
    if (value === null || value === undefined || t.kind === 'any') return undefined;
    switch (t.kind) {
      case 'string':
        if (typeof value === 'string') return undefined;
        if (t.format === 'date-time')
          return this.fatal(`json: cannot unmarshal ${jsonTypeName(value)} into Go value of type string`);
        if (t.format === 'byte' && Array.isArray(value)) return undefined;
        this.mismatch(jsonTypeName(value), t, at);
        return undefined;
      case 'integer': {
        if (typeof value !== 'number') this.mismatch(jsonTypeName(value), t, at);
        else if (!integerFits(value, INT64_FIELDS.has(at.field))) this.mismatch(`number ${String(value)}`, t, at);
        return undefined;
      }
      case 'number':
        if (typeof value !== 'number') this.mismatch(jsonTypeName(value), t, at);
        return undefined;
      case 'boolean':
        if (typeof value !== 'boolean') this.mismatch(jsonTypeName(value), t, at);
        return undefined;
      case 'intOrString':
        if (typeof value === 'string' || (typeof value === 'number' && integerFits(value, false))) return undefined;
        return this.fatal(
          `json: cannot unmarshal ${typeof value === 'number' ? `number ${String(value)}` : jsonTypeName(value)} into Go value of type int32`,
        );
      case 'quantity':
        return typeof value === 'string' || typeof value === 'number' ? undefined : this.fatal(QUANTITY_FORMAT_ERROR);
      case 'array':
        if (!Array.isArray(value)) {
          this.mismatch(jsonTypeName(value), t, at);
          return undefined;
        }
        for (let i = 0; i < value.length; i++) {
          this.trail.push(i);
          const fatal = this.visit(value[i], t.items, at);
          this.trail.pop();
          if (fatal !== undefined) return fatal;
        }
        return undefined;
      case 'map':
        if (!isPlainObject(value)) {
          this.mismatch(jsonTypeName(value), t, at);
          return undefined;
        }
        for (const [key, item] of Object.entries(value)) {
          this.trail.push(`[${key}]`);
          const fatal = this.visit(item, t.values, at);
          this.trail.pop();
          if (fatal !== undefined) return fatal;
        }
        return undefined;
      case 'ref':
        return this.visitStruct(value, t, at);
    }
  }

  visitStruct(value: unknown, t: SchemaType & { kind: 'ref' }, at: Position): string | undefined {
    const def = definition(t.name);
    if (def === undefined) return undefined;
    if (!isPlainObject(value)) {
      this.mismatch(jsonTypeName(value), t, at);
      return undefined;
    }
    for (const [key, item] of Object.entries(value)) {
      if (!Object.hasOwn(def.properties, key)) continue;
      this.trail.push(key);
      const fatal = this.visit(item, def.properties[key].type, {
        struct: def.title,
        path: [...at.path, key],
        field: key,
      });
      this.trail.pop();
      if (fatal !== undefined) return fatal;
    }
    return undefined;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function integerFits(n: number, int64: boolean): boolean {
  if (!Number.isInteger(n)) return false;
  return int64 ? n >= -INT64_LIMIT && n < INT64_LIMIT : n >= INT32_MIN && n <= INT32_MAX;
}

/**
 * The decoding error of `obj` as an `apiVersion`/`kind` object, in Go's words
 * (`json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`),
 * or undefined when every known field has a value of its type (and for kinds the schema does not know).
 */
export function typeMismatch(
  obj: Readonly<Record<string, unknown>>,
  apiVersion: string,
  kind: string,
): string | undefined {
  return locatedTypeMismatch(obj, apiVersion, kind)?.reason;
}

/**
 * `typeMismatch` with where it is: `field`, the upstream path of the value decoding stopped on
 * (`spec.template.spec.containers[0].ports[0].containerPort`), for editors and `file:line` reports to point at (Go's
 * message names the struct field without indices, so it cannot be found from the message alone).
 */
export function locatedTypeMismatch(
  obj: Readonly<Record<string, unknown>>,
  apiVersion: string,
  kind: string,
): { reason: string; field: string } | undefined {
  const entry = kindEntry(apiVersion, kind);
  if (entry === undefined || definition(entry.definition) === undefined) return undefined;
  const walk = new Walk();
  const fatal = walk.visitStruct(obj, { kind: 'ref', name: entry.definition }, { struct: kind, path: [], field: '' });
  const reason = fatal ?? walk.saved;
  return reason === undefined ? undefined : { reason, field: walk.savedAt ?? '' };
}
