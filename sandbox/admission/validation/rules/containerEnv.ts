/** Environment variables (core validation `validateEnv`, `validateEnvVarValueFrom`). */
import { containersOf } from '../../podSpecs';
import { arr, isObj, obj, str } from '../access';
import { invalid, required, type FieldError } from '../fieldError';
import { isRelaxedEnvVarName } from '../../../api/names';
import { podSpecRule } from '../podSpecRule';

function eachEnv(
  spec: Record<string, unknown>,
  path: string,
  fn: (env: Record<string, unknown>, envPath: string) => void,
): void {
  for (const c of containersOf(spec, path)) {
    arr(c.container, 'env').forEach((e, i) => {
      if (isObj(e)) fn(e, `${c.path}.env[${i}]`);
    });
  }
}

export const containerEnvName = podSpecRule(
  'container-env-name',
  'Environment variable names are required and printable ASCII without "=".',
  ({ spec, path }) => {
    const code = 'container-env-name';
    const errs: FieldError[] = [];
    eachEnv(spec, path, (e, ep) => {
      const name = str(e, 'name') ?? '';
      if (name === '') errs.push(required(code, `${ep}.name`));
      for (const msg of isRelaxedEnvVarName(name)) errs.push(invalid(code, `${ep}.name`, name, msg));
    });
    return errs;
  },
);

const SOURCES = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef'] as const;

export const containerEnvValueFrom = podSpecRule(
  'container-env-value-from',
  'valueFrom names exactly one source, not together with value; key refs need a key.',
  ({ spec, path }) => {
    const code = 'container-env-value-from';
    const errs: FieldError[] = [];
    eachEnv(spec, path, (e, ep) => {
      const from = obj(e, 'valueFrom');
      if (!from) return;
      const vp = `${ep}.valueFrom`;
      const present = SOURCES.filter((s) => isObj(from[s]));
      if (present.length === 0) {
        errs.push(
          invalid(
            code,
            vp,
            '',
            'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
          ),
        );
      } else if ((str(e, 'value') ?? '') !== '') {
        errs.push(invalid(code, vp, '', 'may not be specified when `value` is not empty'));
      } else if (present.length > 1) {
        errs.push(invalid(code, vp, '', 'may not have more than one field specified at a time'));
      }
      for (const s of ['configMapKeyRef', 'secretKeyRef'] as const) {
        const ref = obj(from, s);
        if (ref && (str(ref, 'key') ?? '') === '') errs.push(required(code, `${vp}.${s}.key`));
      }
      const fieldRef = obj(from, 'fieldRef');
      if (fieldRef && (str(fieldRef, 'fieldPath') ?? '') === '') errs.push(required(code, `${vp}.fieldRef.fieldPath`));
    });
    return errs;
  },
);
