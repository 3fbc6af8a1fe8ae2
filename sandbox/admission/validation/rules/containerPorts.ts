/** Container ports (core validation `validateContainerPorts`). */
import { containersOf } from '../../podSpecs';
import { arr, isObj } from '../access';
import { duplicate, invalid, notSupported, required, type FieldError } from '../fieldError';
import { isValidPortName, isValidPortNum } from '../../../api/names';
import { podSpecRule } from '../podSpecRule';

export const PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

/** Calls `fn` for each port of each container with its path. */
function eachPort(
  spec: Record<string, unknown>,
  path: string,
  fn: (port: Record<string, unknown>, portPath: string) => void,
): void {
  for (const c of containersOf(spec, path)) {
    arr(c.container, 'ports').forEach((p, i) => {
      if (isObj(p)) fn(p, `${c.path}.ports[${i}]`);
    });
  }
}

export const containerPortNumber = podSpecRule(
  'container-port-number',
  'containerPort is required and hostPort, when set, is 1-65535.',
  ({ spec, path }) => {
    const code = 'container-port-number';
    const errs: FieldError[] = [];
    eachPort(spec, path, (p, pp) => {
      const cp = p.containerPort;
      if (cp === undefined || cp === 0) errs.push(required(code, `${pp}.containerPort`));
      else if (typeof cp !== 'number' || isValidPortNum(cp).length > 0)
        errs.push(invalid(code, `${pp}.containerPort`, cp, isValidPortNum(Number(cp))[0]));
      const hp = p.hostPort;
      if (hp !== undefined && hp !== 0 && (typeof hp !== 'number' || isValidPortNum(hp).length > 0)) {
        errs.push(invalid(code, `${pp}.hostPort`, hp, isValidPortNum(Number(hp))[0]));
      }
    });
    return errs;
  },
);

export const containerPortProtocol = podSpecRule(
  'container-port-protocol',
  'Port protocol is TCP, UDP or SCTP.',
  ({ spec, path }) => {
    const errs: FieldError[] = [];
    eachPort(spec, path, (p, pp) => {
      const proto = p.protocol;
      if (proto === undefined || proto === '') errs.push(required('container-port-protocol', `${pp}.protocol`));
      else if (typeof proto !== 'string' || !PORT_PROTOCOLS.includes(proto))
        errs.push(notSupported('container-port-protocol', `${pp}.protocol`, proto, PORT_PROTOCOLS));
    });
    return errs;
  },
);

export const containerPortName = podSpecRule(
  'container-port-name',
  'Port names are IANA service names, unique within a container.',
  ({ spec, path }) => {
    const code = 'container-port-name';
    const errs: FieldError[] = [];
    for (const c of containersOf(spec, path)) {
      const seen = new Set<string>();
      arr(c.container, 'ports').forEach((p, i) => {
        const name = isObj(p) ? p.name : undefined;
        if (typeof name !== 'string' || name === '') return;
        const field = `${c.path}.ports[${i}].name`;
        const msgs = isValidPortName(name);
        if (msgs.length > 0) for (const m of msgs) errs.push(invalid(code, field, name, m));
        else if (seen.has(name)) errs.push(duplicate(code, field, name));
        else seen.add(name);
      });
    }
    return errs;
  },
);
