/**
 * Where pod specs live in each kind: `spec` for a Pod, `spec.template.spec`
 * for workloads, `spec.jobTemplate.spec.template.spec` for a CronJob. Shared
 * by defaulting and validation so both visit exactly the same specs.
 */
import type { KubeObject } from '../api/types';
import { isObj, type Obj } from './validation/access';

export interface PodSpecAt {
  /** The pod spec object itself (mutable: it belongs to the caller's copy). */
  spec: Obj;
  /** Its path: `spec.template.spec`. */
  path: string;
  /** The template (`{metadata, spec}`) holding it, absent for a Pod. */
  template?: Obj;
  /** The template's path: `spec.template`. */
  templatePath?: string;
}

/** Kinds whose objects contain a pod template. */
export const TEMPLATE_KINDS: readonly string[] = [
  'Deployment',
  'ReplicaSet',
  'ReplicationController',
  'StatefulSet',
  'DaemonSet',
  'Job',
];
/** Every kind that holds a pod spec somewhere. */
export const POD_SPEC_KINDS: readonly string[] = ['Pod', ...TEMPLATE_KINDS, 'CronJob'];

/** The object's pod template and its path, for template kinds and CronJob. */
export function podTemplateOf(obj: KubeObject): { template: Obj; path: string } | undefined {
  const spec = obj.spec;
  if (!isObj(spec)) return undefined;
  if (TEMPLATE_KINDS.includes(obj.kind)) {
    return isObj(spec.template) ? { template: spec.template, path: 'spec.template' } : undefined;
  }
  if (obj.kind === 'CronJob') {
    const jobSpec = isObj(spec.jobTemplate) && isObj(spec.jobTemplate.spec) ? spec.jobTemplate.spec : undefined;
    return jobSpec && isObj(jobSpec.template)
      ? { template: jobSpec.template, path: 'spec.jobTemplate.spec.template' }
      : undefined;
  }
  return undefined;
}

/** The pod spec inside an object, if its kind has one and it is present. */
export function podSpecOf(obj: KubeObject): PodSpecAt | undefined {
  if (obj.kind === 'Pod') return isObj(obj.spec) ? { spec: obj.spec, path: 'spec' } : undefined;
  const t = podTemplateOf(obj);
  if (!t || !isObj(t.template.spec)) return undefined;
  return { spec: t.template.spec, path: `${t.path}.spec`, template: t.template, templatePath: t.path };
}

export interface ContainerAt {
  container: Obj;
  path: string;
  init: boolean;
}

/** Init containers then containers, each with its path (`spec.containers[0]`). */
export function containersOf(spec: Obj, specPath: string): ContainerAt[] {
  const out: ContainerAt[] = [];
  for (const [field, init] of [
    ['initContainers', true],
    ['containers', false],
  ] as const) {
    const list = spec[field];
    if (!Array.isArray(list)) continue;
    list.forEach((c, i) => {
      if (isObj(c)) out.push({ container: c, path: `${specPath}.${field}[${i}]`, init });
    });
  }
  return out;
}
