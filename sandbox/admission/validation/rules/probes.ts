/** Liveness, readiness and startup probes (core validation `validateProbe`). */
import { containersOf } from '../../podSpecs';
import { isObj, obj } from '../access';
import { forbidden, invalid, required, type FieldError } from '../fieldError';
import { isValidPortName, isValidPortNum } from '../../../api/names';
import { podSpecRule } from '../podSpecRule';

const HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'];
const NUMBERS = ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'];
const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'] as const;

function validatePort(code: string, port: unknown, path: string): FieldError[] {
  if (typeof port === 'number') return isValidPortNum(port).map((m) => invalid(code, path, port, m));
  if (typeof port === 'string') return isValidPortName(port).map((m) => invalid(code, path, port, m));
  return [required(code, path)];
}

function validateProbe(
  code: string,
  probe: Record<string, unknown>,
  pp: string,
  kind: (typeof PROBES)[number],
): FieldError[] {
  const errs: FieldError[] = [];
  const present = HANDLERS.filter((h) => isObj(probe[h]));
  if (present.length === 0) errs.push(required(code, pp, 'must specify a handler type'));
  for (const extra of present.slice(1))
    errs.push(forbidden(code, `${pp}.${extra}`, 'may not specify more than 1 handler type'));
  for (const h of ['httpGet', 'tcpSocket'] as const) {
    const handler = obj(probe, h);
    if (handler) errs.push(...validatePort(code, handler.port, `${pp}.${h}.port`));
  }
  for (const n of NUMBERS) {
    const v = probe[n];
    if (typeof v === 'number' && v < 0) errs.push(invalid(code, `${pp}.${n}`, v, 'must be greater than or equal to 0'));
  }
  const st = probe.successThreshold;
  if (kind !== 'readinessProbe' && typeof st === 'number' && st !== 1)
    errs.push(invalid(code, `${pp}.successThreshold`, st, 'must be 1'));
  return errs;
}

export const containerProbes = podSpecRule(
  'container-probes',
  'Probes have exactly one handler, valid ports and non-negative timings; liveness and startup successThreshold is 1.',
  ({ spec, path }) => {
    const errs: FieldError[] = [];
    for (const c of containersOf(spec, path)) {
      for (const kind of PROBES) {
        const probe = obj(c.container, kind);
        if (probe) errs.push(...validateProbe('container-probes', probe, `${c.path}.${kind}`, kind));
      }
    }
    return errs;
  },
);
