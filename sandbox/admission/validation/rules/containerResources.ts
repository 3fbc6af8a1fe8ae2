/** Container resource requests and limits (core validation `ValidateResourceRequirements`). */
import {
  compareQuantity,
  formatQuantity,
  parseQuantity,
  QUANTITY_FORMAT_ERROR,
  type Quantity,
} from '../../../api/quantity';
import { containersOf } from '../../podSpecs';
import { obj } from '../access';
import { about, invalid, type FieldError } from '../fieldError';
import { qualifiedNameErrors } from './labels';
import { podSpecRule } from '../podSpecRule';

const STANDARD = new Set(['cpu', 'memory', 'ephemeral-storage']);

function isStandardContainerResource(name: string): boolean {
  return STANDARD.has(name) || name.startsWith('hugepages-') || name.includes('/');
}

/** Parses every quantity of a requests/limits map; reports the unparsable ones. */
function readQuantities(
  map: Record<string, unknown> | undefined,
  mapPath: string,
  code: string,
  errs: FieldError[],
): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  for (const [name, raw] of Object.entries(map ?? {})) {
    const q = typeof raw === 'string' || typeof raw === 'number' ? parseQuantity(raw) : undefined;
    if (!q) errs.push(invalid(code, `${mapPath}[${name}]`, raw, QUANTITY_FORMAT_ERROR));
    else out.set(name, q);
  }
  return out;
}

export const containerResources = podSpecRule(
  'container-resources',
  'Resource quantities parse, are standard and non-negative, and requests do not exceed limits.',
  ({ spec, path }) => {
    const code = 'container-resources';
    const errs: FieldError[] = [];
    for (const c of containersOf(spec, path)) {
      const res = obj(c.container, 'resources');
      if (!res) continue;
      const rp = `${c.path}.resources`;
      const limits = readQuantities(obj(res, 'limits'), `${rp}.limits`, code, errs);
      const requests = readQuantities(obj(res, 'requests'), `${rp}.requests`, code, errs);
      for (const [which, map] of [
        ['limits', limits],
        ['requests', requests],
      ] as const) {
        for (const [name, q] of map) {
          const field = `${rp}.${which}[${name}]`;
          for (const msg of qualifiedNameErrors(name))
            errs.push(about(invalid(code, field, name, msg), { part: 'key' }));
          if (!name.includes('/') && !isStandardContainerResource(name))
            errs.push(about(invalid(code, field, name, 'must be a standard resource for containers'), { part: 'key' }));
          if (q.nanos < 0n) errs.push(invalid(code, field, formatQuantity(q), 'must be greater than or equal to 0'));
        }
      }
      for (const [name, req] of requests) {
        const lim = limits.get(name);
        if (lim && compareQuantity(req, lim) > 0) {
          errs.push(
            invalid(
              code,
              `${rp}.requests[${name}]`,
              formatQuantity(req),
              `must be less than or equal to ${name} limit of ${formatQuantity(lim)}`,
            ),
          );
        }
      }
    }
    return errs;
  },
);

/** Upstream API warning (pkg/api/pod/warnings.go): memory below one byte of precision. */
export const memoryFractionalBytes = podSpecRule(
  'memory-fractional-bytes',
  'Warns when a memory quantity is not a whole number of bytes.',
  ({ spec, path }) => {
    const errs: FieldError[] = [];
    for (const c of containersOf(spec, path)) {
      const res = obj(c.container, 'resources');
      for (const which of ['limits', 'requests'] as const) {
        const raw = obj(res, which)?.memory;
        const q = typeof raw === 'string' || typeof raw === 'number' ? parseQuantity(raw) : undefined;
        if (q && q.nanos % 1_000_000_000n !== 0n) {
          errs.push({
            ...invalid(
              'memory-fractional-bytes',
              `${c.path}.resources.${which}[memory]`,
              formatQuantity(q),
              'fractional byte value is invalid, must be an integer',
            ),
            warning: true,
          });
        }
      }
    }
    return errs;
  },
);
