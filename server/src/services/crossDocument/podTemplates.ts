/**
 * Where an object keeps the pods it creates: a workload's pod template, a
 * CronJob's job template's pod template, or a bare Pod itself.
 */
import { isPlainObject } from '../../../../sandbox/util/json';

/** One pod (template) inside an object: its labels, its spec, and the field path of that spec. */
export interface PodTemplate {
  readonly labels: Readonly<Record<string, string>>;
  readonly spec: Record<string, unknown>;
  /** Upstream notation: `spec.template.spec`. */
  readonly specPath: string;
  /**
   * Names of the pod's volumes that its controller replaces: a StatefulSet's `volumeClaimTemplates` (each pod gets
   * the claim `<template>-<set>-<ordinal>` under that volume name, whatever the template's volume of that name says).
   */
  readonly replacedVolumes: ReadonlySet<string>;
}

/** Kinds whose `spec.template` is a pod template, with the groups that serve (or served) them. */
const TEMPLATE_KINDS: Readonly<Record<string, readonly string[]>> = {
  Deployment: ['apps', 'extensions'],
  ReplicaSet: ['apps', 'extensions'],
  StatefulSet: ['apps'],
  DaemonSet: ['apps', 'extensions'],
  Job: ['batch'],
  ReplicationController: [''],
};

/** The pod templates of `object` (of `kind` in `group`): none for kinds that create no pods. */
export function podTemplates(group: string, kind: string, object: Record<string, unknown>): PodTemplate[] {
  if (kind === 'Pod' && group === '') return [template(object, 'spec')];
  if (kind === 'CronJob' && group === 'batch') {
    const jobSpec = at(object, 'spec', 'jobTemplate', 'spec');
    return jobSpec === undefined
      ? []
      : [template(at(jobSpec, 'template') ?? {}, 'spec.jobTemplate.spec.template.spec')];
  }
  if (TEMPLATE_KINDS[kind]?.includes(group) === true) {
    const t = at(object, 'spec', 'template');
    const replaced = kind === 'StatefulSet' ? claimTemplateNames(object) : NONE;
    return t === undefined ? [] : [template(t, 'spec.template.spec', replaced)];
  }
  return [];
}

const NONE: ReadonlySet<string> = new Set();

/** upstream: pkg/controller/statefulset stateful_set_utils.go `updateStorage`. */
function claimTemplateNames(statefulSet: Record<string, unknown>): ReadonlySet<string> {
  const templates = at(statefulSet, 'spec')?.volumeClaimTemplates;
  if (!Array.isArray(templates)) return NONE;
  const names = templates.map((t: unknown) => at(t, 'metadata')?.name).filter((n) => typeof n === 'string');
  return new Set(names as string[]);
}

function template(holder: Record<string, unknown>, specPath: string, replacedVolumes = NONE): PodTemplate {
  return {
    labels: stringMap(at(holder, 'metadata', 'labels')),
    spec: at(holder, 'spec') ?? {},
    specPath,
    replacedVolumes,
  };
}

/** The plain object at a path of keys, or undefined. */
export function at(value: unknown, ...keys: string[]): Record<string, unknown> | undefined {
  let v: unknown = value;
  for (const k of keys) {
    if (!isPlainObject(v)) return undefined;
    v = v[k];
  }
  return isPlainObject(v) ? v : undefined;
}

/** The string-valued entries of a map (labels, selectors); anything else is left out. */
export function stringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isPlainObject(value)) return out;
  // Own enumerable string keys in order, as Object.entries, without an entry array per key.
  for (const k of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[k];
    if (typeof v === 'string') out[k] = v;
  }
  return out;
}

/**
 * The label selectors of a pod spec that select other pods, with their fields: required and preferred pod affinity
 * and anti-affinity terms, and topology spread constraints. `namespace` is the object's own (as written).
 */
export function podSelectorTerms(
  spec: Record<string, unknown>,
  specPath: string,
  namespace: string | undefined,
): { what: string; field: string; selector: Record<string, unknown>; otherNamespaces: boolean }[] {
  const out: { what: string; field: string; selector: Record<string, unknown>; otherNamespaces: boolean }[] = [];
  const affinity = at(spec, 'affinity');
  for (const [kind, what] of [
    ['podAffinity', 'pod affinity term'],
    ['podAntiAffinity', 'pod anti-affinity term'],
  ] as const) {
    const holder = at(affinity, kind);
    const required = holder?.requiredDuringSchedulingIgnoredDuringExecution;
    const preferred = holder?.preferredDuringSchedulingIgnoredDuringExecution;
    const path = `${specPath}.affinity.${kind}`;
    const terms: [string, unknown][] = [
      ...(Array.isArray(required)
        ? required.map((t, i): [string, unknown] => [`${path}.requiredDuringSchedulingIgnoredDuringExecution[${i}]`, t])
        : []),
      ...(Array.isArray(preferred)
        ? preferred.map((t, i): [string, unknown] => [
            `${path}.preferredDuringSchedulingIgnoredDuringExecution[${i}].podAffinityTerm`,
            at(t, 'podAffinityTerm'),
          ])
        : []),
    ];
    for (const [base, term] of terms) {
      const selector = at(term, 'labelSelector');
      if (selector === undefined) continue;
      const namespaces = (term as Record<string, unknown>).namespaces;
      const named = Array.isArray(namespaces) ? namespaces.filter((n) => typeof n === 'string') : [];
      const otherNamespaces =
        at(term, 'namespaceSelector') !== undefined || named.some((n) => n !== (namespace ?? 'default'));
      out.push({ what, field: `${base}.labelSelector`, selector, otherNamespaces });
    }
  }
  const spread = spec.topologySpreadConstraints;
  if (Array.isArray(spread))
    spread.forEach((c, i) => {
      const selector = at(c, 'labelSelector');
      if (selector === undefined) return;
      out.push({
        what: 'topology spread constraint',
        field: `${specPath}.topologySpreadConstraints[${i}].labelSelector`,
        selector,
        otherNamespaces: false,
      });
    });
  return out;
}
