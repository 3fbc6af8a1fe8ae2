/** Service rules (core validation `ValidateService`, `validateServicePort`, `ValidateServiceUpdate`). */
import { arr, isObj, obj, str, strMap } from '../access';
import { duplicate, forbidden, goLiteral, invalid, notSupported, required, type FieldError } from '../fieldError';
import { goValue } from '../format';
import { isDns1123Label, isDns1123Subdomain, isValidPortName, isValidPortNum } from '../../../api/names';
import type { ValidationRule } from '../rule';
import { PORT_PROTOCOLS } from './containerPorts';
import { validateLabels } from './labels';

const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const AFFINITIES = ['ClientIP', 'None'];
export const NODE_PORT_RANGE = { min: 30000, max: 32767 };

function isHeadless(spec: Record<string, unknown> | undefined): boolean {
  return str(spec, 'clusterIP') === 'None';
}

export const serviceType: ValidationRule = {
  code: 'service-type',
  description:
    'type is ClusterIP, NodePort, LoadBalancer or ExternalName; ExternalName needs externalName; sessionAffinity is None or ClientIP.',
  kinds: ['Service'],
  validate(o) {
    const code = this.code;
    const spec = obj(o, 'spec');
    const errs: FieldError[] = [];
    const type = spec?.type;
    if (type === undefined || type === '') errs.push(required(code, 'spec.type'));
    else if (typeof type !== 'string' || !SERVICE_TYPES.includes(type))
      errs.push(notSupported(code, 'spec.type', type, SERVICE_TYPES));
    if (type === 'ExternalName') {
      const cname = (str(spec, 'externalName') ?? '').replace(/\.$/, '');
      if (cname === '') errs.push(required(code, 'spec.externalName'));
      else for (const msg of isDns1123Subdomain(cname)) errs.push(invalid(code, 'spec.externalName', cname, msg));
    }
    const affinity = spec?.sessionAffinity;
    if (affinity === undefined || affinity === '') errs.push(required(code, 'spec.sessionAffinity'));
    else if (typeof affinity !== 'string' || !AFFINITIES.includes(affinity))
      errs.push(notSupported(code, 'spec.sessionAffinity', affinity, AFFINITIES));
    return errs;
  },
};

export const serviceSelector: ValidationRule = {
  code: 'service-selector',
  description: 'Selector keys and values are valid labels.',
  kinds: ['Service'],
  validate(o) {
    return validateLabels(this.code, strMap(o.spec, 'selector'), 'spec.selector');
  },
};

function validateTargetPort(code: string, tp: unknown, path: string): FieldError[] {
  if (typeof tp === 'number') return isValidPortNum(tp).map((m) => invalid(code, path, tp, m));
  if (typeof tp === 'string') return isValidPortName(tp).map((m) => invalid(code, path, tp, m));
  return [];
}

function servicePortLiteral(protocol: string, port: unknown): string {
  return `core.ServicePort{Name:"", Protocol:${goValue(protocol)}, AppProtocol:(*string)(nil), Port:${goValue(port)}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`;
}

function validatePort(
  code: string,
  p: Record<string, unknown>,
  pp: string,
  requireName: boolean,
  names: Set<string>,
): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(p, 'name') ?? '';
  if (requireName && name === '') errs.push(required(code, `${pp}.name`));
  else if (name !== '') {
    for (const msg of isDns1123Label(name)) errs.push(invalid(code, `${pp}.name`, name, msg));
    if (names.has(name)) errs.push(duplicate(code, `${pp}.name`, name));
    names.add(name);
  }
  const port = p.port;
  if (typeof port !== 'number' || isValidPortNum(port).length > 0)
    errs.push(invalid(code, `${pp}.port`, port ?? 0, isValidPortNum(Number(port ?? 0))[0]));
  const proto = p.protocol;
  if (proto === undefined || proto === '') errs.push(required(code, `${pp}.protocol`));
  else if (typeof proto !== 'string' || !PORT_PROTOCOLS.includes(proto))
    errs.push(notSupported(code, `${pp}.protocol`, proto, PORT_PROTOCOLS));
  errs.push(...validateTargetPort(code, p.targetPort, `${pp}.targetPort`));
  return errs;
}

export const servicePorts: ValidationRule = {
  code: 'service-ports',
  description:
    'Ports are required (unless headless or ExternalName), named when several, unique, 1-65535, TCP/UDP/SCTP.',
  kinds: ['Service'],
  validate(o) {
    const code = this.code;
    const spec = obj(o, 'spec');
    const ports = arr(spec, 'ports');
    const errs: FieldError[] = [];
    if (ports.length === 0 && !isHeadless(spec) && spec?.type !== 'ExternalName')
      errs.push(required(code, 'spec.ports'));
    const names = new Set<string>();
    const seen = new Set<string>();
    ports.forEach((p, i) => {
      if (!isObj(p)) return;
      const pp = `spec.ports[${i}]`;
      errs.push(...validatePort(code, p, pp, ports.length > 1, names));
      const key = `${String(p.protocol)}/${String(p.port)}`;
      if (seen.has(key))
        errs.push(duplicate(code, pp, goLiteral(servicePortLiteral(String(p.protocol ?? ''), p.port))));
      seen.add(key);
    });
    return errs;
  },
};

export const serviceNodePorts: ValidationRule = {
  code: 'service-node-ports',
  description: 'nodePort is forbidden for ClusterIP, within 30000-32767, and unique per protocol.',
  kinds: ['Service'],
  validate(o) {
    const code = this.code;
    const spec = obj(o, 'spec');
    const errs: FieldError[] = [];
    const seen = new Set<string>();
    arr(spec, 'ports').forEach((p, i) => {
      const np = isObj(p) ? p.nodePort : undefined;
      if (np === undefined || np === null || np === 0) return;
      const field = `spec.ports[${i}].nodePort`;
      if (spec?.type === 'ClusterIP') {
        errs.push(forbidden(code, field, "may not be used when `type` is 'ClusterIP'"));
        return;
      }
      if (typeof np !== 'number' || np < NODE_PORT_RANGE.min || np > NODE_PORT_RANGE.max) {
        errs.push(
          invalid(
            code,
            field,
            np,
            `provided port is not in the valid range. The range of valid ports is ${NODE_PORT_RANGE.min}-${NODE_PORT_RANGE.max}`,
          ),
        );
      }
      const key = `${String(isObj(p) ? p.protocol : '')}/${String(np)}`;
      if (seen.has(key)) errs.push(duplicate(code, field, np));
      seen.add(key);
    });
    return errs;
  },
};

export const serviceClusterIPImmutable: ValidationRule = {
  code: 'service-cluster-ip-immutable',
  description: 'spec.clusterIP cannot change, except when switching to or from ExternalName.',
  kinds: ['Service'],
  validate(o, ctx) {
    if (ctx.operation !== 'UPDATE' || !ctx.old) return [];
    const spec = obj(o, 'spec');
    const oldSpec = obj(ctx.old, 'spec');
    if (spec?.type === 'ExternalName' || oldSpec?.type === 'ExternalName') return [];
    const now = str(spec, 'clusterIP') ?? '';
    const before = str(oldSpec, 'clusterIP') ?? '';
    return now !== '' && before !== '' && now !== before
      ? [invalid(this.code, 'spec.clusterIP', now, 'field is immutable')]
      : [];
  },
};
