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

/**
 * What the validation rules ask of one object while `validateObject` runs them (they read it and never change it):
 * its pod spec, and the containers of the last spec asked for, found once instead of once per rule (some 25 rules
 * look at the pod spec, ten of them at its containers). Shared answers are frozen, so a caller that tried to change
 * one would throw instead of corrupting the next rule's view.
 */
interface PodSpecMemo {
  readonly obj: KubeObject;
  found: boolean;
  at: PodSpecAt | undefined;
  spec: Obj | undefined;
  path: string | undefined;
  containers: readonly ContainerAt[] | undefined;
}
let memo: PodSpecMemo | undefined;

/** Runs `read` with the object's pod spec and containers found once; `read` must not change the object. */
export function readingPodSpecsOf<T>(obj: KubeObject, read: () => T): T {
  const outer = memo;
  memo = { obj, found: false, at: undefined, spec: undefined, path: undefined, containers: undefined };
  try {
    return read();
  } finally {
    memo = outer;
  }
}

/** The pod spec inside an object, if its kind has one and it is present. */
export function podSpecOf(obj: KubeObject): PodSpecAt | undefined {
  const m = memo;
  if (m === undefined || m.obj !== obj) return findPodSpec(obj);
  if (!m.found) {
    const at = findPodSpec(obj);
    m.at = at === undefined ? undefined : Object.freeze(at);
    m.found = true;
  }
  return m.at;
}

function findPodSpec(obj: KubeObject): PodSpecAt | undefined {
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
export function containersOf(spec: Obj, specPath: string): readonly ContainerAt[] {
  const m = memo;
  if (m === undefined) return findContainers(spec, specPath);
  if (m.spec !== spec || m.path !== specPath || m.containers === undefined) {
    m.containers = Object.freeze(findContainers(spec, specPath).map((c) => Object.freeze(c)));
    m.spec = spec;
    m.path = specPath;
  }
  return m.containers;
}

function findContainers(spec: Obj, specPath: string): ContainerAt[] {
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
