/** Container list, names, images and pull policies (core validation `validateContainers`). */
import { POD_SPEC_KINDS, containersOf, podSpecOf, podTemplateOf } from '../../podSpecs';
import { duplicate, invalid, notSupported, required, type FieldError } from '../fieldError';
import { isDns1123Label } from '../../../api/names';
import { podSpecRule } from '../podSpecRule';
import type { ValidationRule } from '../rule';
import { str } from '../access';

export const podContainersRequired: ValidationRule = {
  code: 'pod-containers-required',
  description: 'A pod spec must list at least one container.',
  kinds: POD_SPEC_KINDS,
  validate(obj) {
    const code = this.code;
    const at = podSpecOf(obj);
    let path: string;
    if (at) path = `${at.path}.containers`;
    else if (obj.kind === 'Pod') path = 'spec.containers';
    else
      path = `${podTemplateOf(obj)?.path ?? (obj.kind === 'CronJob' ? 'spec.jobTemplate.spec.template' : 'spec.template')}.spec.containers`;
    const list = at?.spec.containers;
    return Array.isArray(list) && list.length > 0 ? [] : [required(code, path)];
  },
};

export const containerName = podSpecRule(
  'container-name',
  'Container names are required, DNS-1123 labels, and unique across containers and init containers.',
  ({ spec, path }) => {
    const code = 'container-name';
    const errs: FieldError[] = [];
    const seen = new Set<string>();
    for (const c of containersOf(spec, path)) {
      const name = str(c.container, 'name') ?? '';
      const namePath = `${c.path}.name`;
      if (name === '') errs.push(required(code, namePath));
      else for (const msg of isDns1123Label(name)) errs.push(invalid(code, namePath, name, msg));
      if (name !== '' && seen.has(name)) errs.push(duplicate(code, namePath, name));
      seen.add(name);
    }
    return errs;
  },
);

export const containerImageRequired = podSpecRule(
  'container-image-required',
  'Every container needs an image.',
  ({ spec, path }) =>
    containersOf(spec, path)
      .filter((c) => (str(c.container, 'image') ?? '').trim() === '')
      .map((c) => required('container-image-required', `${c.path}.image`)),
);

const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];

export const containerImagePullPolicy = podSpecRule(
  'container-image-pull-policy',
  'imagePullPolicy is Always, IfNotPresent or Never.',
  ({ spec, path }) => {
    const errs: FieldError[] = [];
    for (const c of containersOf(spec, path)) {
      const p = c.container.imagePullPolicy;
      const field = `${c.path}.imagePullPolicy`;
      if (p === undefined || p === '') errs.push(required('container-image-pull-policy', field));
      else if (typeof p !== 'string' || !PULL_POLICIES.includes(p))
        errs.push(notSupported('container-image-pull-policy', field, p, PULL_POLICIES));
    }
    return errs;
  },
);
