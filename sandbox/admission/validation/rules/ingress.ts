/** Ingress spec (networking validation `ValidateIngressSpec`). */
import { arr, isObj, num, obj, str } from '../access';
import { invalid, notSupported, required, type FieldError } from '../fieldError';
import { isDns1035Label, isDns1123Subdomain, isValidPortName, isValidPortNum } from '../../../api/names';
import type { ValidationRule } from '../rule';

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];

function validateBackend(code: string, backend: Record<string, unknown>, bp: string): FieldError[] {
  const service = obj(backend, 'service');
  const resource = obj(backend, 'resource');
  if (service && resource) return [invalid(code, bp, '', 'cannot set both resource and service backends')];
  if (resource) return [];
  if (!service) return [invalid(code, bp, '', 'resource or service backend is required')];
  const errs: FieldError[] = [];
  const name = str(service, 'name') ?? '';
  if (name === '') errs.push(required(code, `${bp}.service.name`));
  else for (const m of isDns1035Label(name)) errs.push(invalid(code, `${bp}.service.name`, name, m));
  const port = obj(service, 'port');
  const portName = str(port, 'name') ?? '';
  const portNumber = num(port, 'number') ?? 0;
  if (portName !== '' && portNumber !== 0) errs.push(invalid(code, bp, '', 'cannot set both port name & port number'));
  else if (portName !== '')
    for (const m of isValidPortName(portName)) errs.push(invalid(code, `${bp}.service.port.name`, portName, m));
  else if (portNumber !== 0)
    for (const m of isValidPortNum(portNumber)) errs.push(invalid(code, `${bp}.service.port.number`, portNumber, m));
  else errs.push(required(code, bp, 'port name or number is required'));
  return errs;
}

function validatePath(code: string, p: Record<string, unknown>, pp: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = p.pathType;
  const path = str(p, 'path') ?? '';
  if (type === undefined || type === null) errs.push(required(code, `${pp}.pathType`, 'pathType must be specified'));
  else if (typeof type !== 'string' || !PATH_TYPES.includes(type))
    errs.push(notSupported(code, `${pp}.pathType`, type, PATH_TYPES));
  else if ((type === 'Exact' || type === 'Prefix') && !path.startsWith('/'))
    errs.push(invalid(code, `${pp}.path`, path, 'must be an absolute path'));
  const backend = obj(p, 'backend');
  if (backend) errs.push(...validateBackend(code, backend, `${pp}.backend`));
  else errs.push(invalid(code, `${pp}.backend`, '', 'resource or service backend is required'));
  return errs;
}

function validateRule(code: string, rule: Record<string, unknown>, rp: string): FieldError[] {
  const errs: FieldError[] = [];
  const host = str(rule, 'host') ?? '';
  if (host !== '') {
    const bare = host.startsWith('*.') ? host.slice(2) : host;
    for (const m of isDns1123Subdomain(bare)) errs.push(invalid(code, `${rp}.host`, host, m));
  }
  const http = obj(rule, 'http');
  if (!http) return errs;
  const paths = arr(http, 'paths');
  if (paths.length === 0) errs.push(required(code, `${rp}.http.paths`));
  paths.forEach((p, i) => {
    if (isObj(p)) errs.push(...validatePath(code, p, `${rp}.http.paths[${i}]`));
  });
  return errs;
}

export const ingressSpec: ValidationRule = {
  code: 'ingress-spec',
  description: 'Rules or a default backend; hosts are DNS names; paths have a pathType and one backend with a port.',
  kinds: ['Ingress'],
  validate(o) {
    const code = this.code;
    const spec = obj(o, 'spec');
    const rules = arr(spec, 'rules');
    const def = obj(spec, 'defaultBackend');
    const errs: FieldError[] = [];
    if (rules.length === 0 && !def)
      errs.push(invalid(code, 'spec', rules, 'either `defaultBackend` or `rules` must be specified'));
    if (def) errs.push(...validateBackend(code, def, 'spec.defaultBackend'));
    rules.forEach((r, i) => {
      if (isObj(r)) errs.push(...validateRule(code, r, `spec.rules[${i}]`));
    });
    return errs;
  },
};
