/** NetworkPolicy spec (networking validation `ValidateNetworkPolicySpec`). */
import { arr, isObj, obj } from '../access';
import { invalid, notSupported, type FieldError } from '../fieldError';
import { isValidPortName, isValidPortNum } from '../../../api/names';
import type { ValidationRule } from '../rule';
import { PORT_PROTOCOLS } from './containerPorts';
import { validateLabelSelector } from './labelSelector';

const POLICY_TYPES = ['Ingress', 'Egress'];

function validatePorts(code: string, ports: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  ports.forEach((p, i) => {
    if (!isObj(p)) return;
    const pp = `${path}[${i}]`;
    const proto = p.protocol;
    if (proto !== undefined && proto !== null && (typeof proto !== 'string' || !PORT_PROTOCOLS.includes(proto)))
      errs.push(notSupported(code, `${pp}.protocol`, proto, PORT_PROTOCOLS));
    if (typeof p.port === 'number')
      for (const m of isValidPortNum(p.port)) errs.push(invalid(code, `${pp}.port`, p.port, m));
    if (typeof p.port === 'string')
      for (const m of isValidPortName(p.port)) errs.push(invalid(code, `${pp}.port`, p.port, m));
  });
  return errs;
}

function validatePeers(code: string, peers: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  peers.forEach((peer, i) => {
    const pp = `${path}[${i}]`;
    errs.push(...validateLabelSelector(code, obj(peer, 'podSelector'), `${pp}.podSelector`));
    errs.push(...validateLabelSelector(code, obj(peer, 'namespaceSelector'), `${pp}.namespaceSelector`));
    const sources = ['podSelector', 'namespaceSelector', 'ipBlock'].filter((k) => obj(peer, k));
    if (sources.length === 0) errs.push(invalid(code, pp, '', 'must specify a peer'));
    if (obj(peer, 'ipBlock') && sources.length > 1)
      errs.push(invalid(code, pp, '', 'may not specify more than 1 peer type'));
  });
  return errs;
}

export const networkPolicySpec: ValidationRule = {
  code: 'networkpolicy-spec',
  description: 'policyTypes are Ingress/Egress (at most two); selectors, ports and peers are valid.',
  kinds: ['NetworkPolicy'],
  validate(o) {
    const code = this.code;
    const spec = obj(o, 'spec');
    const errs = validateLabelSelector(code, obj(spec, 'podSelector'), 'spec.podSelector');
    const types = arr(spec, 'policyTypes');
    types.forEach((t, i) => {
      if (typeof t !== 'string' || !POLICY_TYPES.includes(t))
        errs.push(notSupported(code, `spec.policyTypes[${i}]`, t, POLICY_TYPES));
    });
    if (types.length > 2)
      errs.push(invalid(code, 'spec.policyTypes', types, 'may not specify more than two policyTypes'));
    arr(spec, 'ingress').forEach((r, i) => {
      errs.push(
        ...validatePorts(code, arr(r, 'ports'), `spec.ingress[${i}].ports`),
        ...validatePeers(code, arr(r, 'from'), `spec.ingress[${i}].from`),
      );
    });
    arr(spec, 'egress').forEach((r, i) => {
      errs.push(
        ...validatePorts(code, arr(r, 'ports'), `spec.egress[${i}].ports`),
        ...validatePeers(code, arr(r, 'to'), `spec.egress[${i}].to`),
      );
    });
    return errs;
  },
};
