/**
 * What a pod spec update may change (core validation `ValidatePodUpdate` in Kubernetes 1.32): container and init
 * container images, `activeDeadlineSeconds` (only lowered, never unset), tolerations (additions, and existing ones'
 * `tolerationSeconds`), `terminationGracePeriodSeconds` (to 1 from a negative value) and the removal of scheduling
 * gates. In-place resize (InPlacePodVerticalScaling) is off by default in 1.32 and not modelled: resources may not
 * change. Status and metadata are not checked here (the status subresource writes only status).
 */
import { cloneJson, jsonEqual } from '../../../util/json';
import { arr, isObj, num, str } from '../access';
import { forbidden, invalid, type FieldError } from '../fieldError';
import type { ValidationRule } from '../rule';

const MAX_INT32 = 2147483647;

/** upstream: pkg/apis/core/validation/validation.go updatablePodSpecFieldsNoResources, joined with ",". */
export const POD_UPDATABLE_FIELDS =
  '`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,' +
  '`spec.tolerations` (only additions to existing tolerations),' +
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

type Spec = Record<string, unknown>;

/** upstream: validation.go validateOnlyAddedTolerations — every old toleration is still there, but for its seconds. */
function onlyAddedTolerations(code: string, next: unknown[], old: unknown[]): FieldError[] {
  for (const o of old) {
    if (!isObj(o)) continue;
    const found = next.some((n) => {
      if (!isObj(n)) return false;
      const clone: Record<string, unknown> = { ...o };
      if (n.tolerationSeconds === undefined) delete clone.tolerationSeconds;
      else clone.tolerationSeconds = n.tolerationSeconds;
      return jsonEqual(clone, n);
    });
    if (!found)
      return [
        forbidden(code, 'spec.tolerations', 'existing toleration can not be modified except its tolerationSeconds'),
      ];
  }
  return [];
}

/** upstream: validation.go validateOnlyDeletedSchedulingGates. */
function onlyDeletedGates(code: string, next: unknown[], old: unknown[]): FieldError[] {
  const had = new Set(old.map((g) => str(g, 'name') ?? ''));
  for (const g of next) {
    const name = str(g, 'name') ?? '';
    if (!had.has(name))
      return [
        forbidden(code, 'spec.schedulingGates', `only deletion is allowed, but found new scheduling gate '${name}'`),
      ];
  }
  return [];
}

/** upstream: ValidatePodUpdate's activeDeadlineSeconds checks (it returns at the first). */
function activeDeadline(code: string, next: Spec, old: Spec): FieldError[] {
  const n = num(next, 'activeDeadlineSeconds');
  const o = num(old, 'activeDeadlineSeconds');
  if (n !== undefined) {
    if (n < 0 || n > MAX_INT32)
      return [invalid(code, 'spec.activeDeadlineSeconds', n, `must be between 0 and ${MAX_INT32}, inclusive`)];
    if (o !== undefined && o < n)
      return [invalid(code, 'spec.activeDeadlineSeconds', n, 'must be less than or equal to previous value')];
  } else if (o !== undefined) {
    return [invalid(code, 'spec.activeDeadlineSeconds', null, 'must not update from a positive integer to nil value')];
  }
  return [];
}

/** The new spec with every field an update may change set back to the old value (upstream's `mungedPodSpec`). */
function munged(next: Spec, old: Spec): Spec {
  const m = cloneJson(next);
  for (const list of ['containers', 'initContainers']) {
    const olds = arr(old, list);
    const news = arr(m, list);
    news.forEach((c, i) => {
      const o = olds[i];
      if (!isObj(c) || !isObj(o)) return;
      if (o.image === undefined) delete c.image;
      else c.image = o.image;
    });
  }
  // An undefined member counts as absent for jsonEqual and specDiff.
  const restore = (key: string) => (m[key] = old[key]);
  restore('activeDeadlineSeconds');
  restore('tolerations');
  restore('schedulingGates');
  const oldGrace = num(old, 'terminationGracePeriodSeconds');
  if (oldGrace !== undefined && oldGrace < 0 && num(next, 'terminationGracePeriodSeconds') === 1)
    restore('terminationGracePeriodSeconds');
  return m;
}

function show(v: unknown): string {
  return v === undefined ? 'nil' : JSON.stringify(v);
}

/**
 * The changed fields, one `-` (old) and one `+` (new) line each. Upstream appends go-cmp's `cmp.Diff` of the internal
 * `core.PodSpec`; this names the same changes by their JSON paths instead (not byte-identical to kubectl's output).
 */
export function specDiff(old: unknown, next: unknown, path = ''): string[] {
  if (jsonEqual(old, next)) return [];
  if (Array.isArray(old) && Array.isArray(next)) {
    const out: string[] = [];
    for (let i = 0; i < Math.max(old.length, next.length); i++) out.push(...specDiff(old[i], next[i], `${path}[${i}]`));
    return out;
  }
  if (isObj(old) && isObj(next)) {
    const keys = [...new Set([...Object.keys(old), ...Object.keys(next)])].sort();
    return keys.flatMap((k) => specDiff(old[k], next[k], path ? `${path}.${k}` : k));
  }
  const lines: string[] = [];
  if (old !== undefined) lines.push(`- \t${path}: ${show(old)}`);
  if (next !== undefined) lines.push(`+ \t${path}: ${show(next)}`);
  return lines;
}

export const podSpecUpdate: ValidationRule = {
  code: 'pod-spec-update',
  description:
    'A pod update may change only container images, activeDeadlineSeconds, tolerations (additions), terminationGracePeriodSeconds (negative to 1) and remove scheduling gates.',
  kinds: ['Pod'],
  validate(o, ctx) {
    if (ctx.operation !== 'UPDATE' || !ctx.old) return [];
    // upstream: pkg/apis/core/validation/validation.go: ValidatePodUpdate
    const next: Spec = isObj(o.spec) ? o.spec : {};
    const old: Spec = isObj(ctx.old.spec) ? ctx.old.spec : {};
    const deadline = activeDeadline(this.code, next, old);
    if (deadline.length > 0) return deadline;
    const errs: FieldError[] = [
      ...onlyAddedTolerations(this.code, arr(next, 'tolerations'), arr(old, 'tolerations')),
      ...onlyDeletedGates(this.code, arr(next, 'schedulingGates'), arr(old, 'schedulingGates')),
    ];
    const m = munged(next, old);
    if (!jsonEqual(m, old)) {
      const diff = ['  core.PodSpec{', ...specDiff(old, m), '  }'].join('\n');
      errs.push(
        forbidden(this.code, 'spec', `pod updates may not change fields other than ${POD_UPDATABLE_FIELDS}\n${diff}`),
      );
    }
    return errs;
  },
};
