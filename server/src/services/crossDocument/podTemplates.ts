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
    return t === undefined ? [] : [template(t, 'spec.template.spec')];
  }
  return [];
}

function template(holder: Record<string, unknown>, specPath: string): PodTemplate {
  return { labels: stringMap(at(holder, 'metadata', 'labels')), spec: at(holder, 'spec') ?? {}, specPath };
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
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
}
