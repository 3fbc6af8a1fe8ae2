/** `kubectl get services,ingresses,endpoints,endpointslices` (upstream `printService`, `printIngress`, …). */
import type { Endpoints, LoadBalancerIngress, Service } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import type { Ingress } from 'kubernetes-types/networking/v1';
import type { Typed } from '../../api/types';
import type { KindPrinter, TableCell } from '../table';
import { AGE_COLUMN, NAME_COLUMN, age, col, formatLabels, listWithMore, wide } from '../table';

const LOAD_BALANCER_WIDTH = 16;

/** Distinct IPs or hostnames, sorted, comma-joined; cut to 16 characters unless wide. */
function loadBalancerText(ingress: readonly LoadBalancerIngress[] | undefined, isWide: boolean): string {
  const set = new Set<string>();
  for (const i of ingress ?? []) {
    if (i.ip) set.add(i.ip);
    else if (i.hostname) set.add(i.hostname);
  }
  const text = [...set].sort().join(',');
  return !isWide && text.length > LOAD_BALANCER_WIDTH ? `${text.slice(0, LOAD_BALANCER_WIDTH - 3)}...` : text;
}

function externalIP(svc: Service, isWide: boolean): string {
  const externalIPs = svc.spec?.externalIPs ?? [];
  switch (svc.spec?.type ?? 'ClusterIP') {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerText(svc.status?.loadBalancer?.ingress, isWide);
      if (externalIPs.length > 0) return [...(lb ? lb.split(',') : []), ...externalIPs].join(',');
      return lb || '<pending>';
    }
    case 'ExternalName':
      return svc.spec?.externalName ?? '';
    default:
      return '<unknown>';
  }
}

function portsText(svc: Service): string {
  const pieces = (svc.spec?.ports ?? []).map((p) => {
    const protocol = p.protocol ?? 'TCP';
    return p.nodePort && p.nodePort > 0 ? `${p.port}:${p.nodePort}/${protocol}` : `${p.port}/${protocol}`;
  });
  return pieces.length > 0 ? pieces.join(',') : '<none>';
}

export const servicePrinter: KindPrinter<Typed<Service>> = {
  columns: [
    NAME_COLUMN,
    col('Type', 'string', 'type determines how the Service is exposed.'),
    col('Cluster-IP', 'string', 'clusterIP is the IP address of the service.'),
    col(
      'External-IP',
      'string',
      'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.',
    ),
    col('Port(s)', 'string', 'The list of ports that are exposed by this service.'),
    AGE_COLUMN,
    wide('Selector', 'string', 'Route service traffic to pods with label keys and values matching this selector.'),
  ],
  row(svc: Typed<Service>, now: number): TableCell[] {
    // The wide cells are always computed (as the API server does); the load-balancer text is cut as in plain output.
    const clusterIP = svc.spec?.clusterIPs?.[0] || svc.spec?.clusterIP || '<none>';
    return [
      svc.metadata.name ?? '',
      svc.spec?.type ?? 'ClusterIP',
      clusterIP,
      externalIP(svc, false),
      portsText(svc),
      age(svc, now),
      formatLabels(svc.spec?.selector),
    ];
  },
};

function formatHosts(ingress: Ingress): string {
  const rules = ingress.spec?.rules ?? [];
  const max = 3;
  const list: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (list.length === max) more = true;
    if (!more && rule.host) list.push(rule.host);
  }
  if (list.length === 0) return '*';
  return more ? `${list.join(',')} + ${rules.length - max} more...` : list.join(',');
}

export const ingressPrinter: KindPrinter<Typed<Ingress>> = {
  columns: [
    NAME_COLUMN,
    col('Class', 'string', 'The name of the IngressClass resource that should be used for additional configuration'),
    col('Hosts', 'string', 'Hosts that incoming requests are matched against before the ingress rule'),
    col('Address', 'string', 'Address is a list containing ingress points for the load-balancer'),
    col('Ports', 'string', 'Ports of TLS configurations that open'),
    AGE_COLUMN,
  ],
  row(ing: Typed<Ingress>, now: number): TableCell[] {
    const address = loadBalancerText(ing.status?.loadBalancer?.ingress, false);
    const ports = (ing.spec?.tls ?? []).length > 0 ? '80, 443' : '80';
    return [
      ing.metadata.name ?? '',
      ing.spec?.ingressClassName ?? '<none>',
      formatHosts(ing),
      address,
      ports,
      age(ing, now),
    ];
  },
};

/** `formatEndpoints`: `10.0.0.1:80,10.0.0.2:80 + 3 more...`, `<none>` without subsets. */
function formatEndpoints(ep: Endpoints): string {
  const subsets = ep.subsets ?? [];
  if (subsets.length === 0) return '<none>';
  const all: string[] = [];
  for (const ss of subsets) {
    const addresses = ss.addresses ?? [];
    if ((ss.ports ?? []).length === 0) for (const a of addresses) all.push(a.ip);
    else for (const port of ss.ports ?? []) for (const a of addresses) all.push(hostPort(a.ip, port.port));
  }
  return listWithMore(all, 3, '');
}

/** `net.JoinHostPort`: IPv6 addresses in brackets. */
function hostPort(ip: string, port: number): string {
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}

export const endpointsPrinter: KindPrinter<Typed<Endpoints>> = {
  columns: [
    NAME_COLUMN,
    col('Endpoints', 'string', 'The set of all endpoints is the union of all subsets.'),
    AGE_COLUMN,
  ],
  row(obj: Typed<Endpoints>, now: number): TableCell[] {
    return [obj.metadata.name ?? '', formatEndpoints(obj), age(obj, now)];
  },
};

export const endpointSlicePrinter: KindPrinter<Typed<EndpointSlice>> = {
  columns: [
    NAME_COLUMN,
    col('AddressType', 'string', 'addressType specifies the type of address carried by this EndpointSlice.'),
    col('Ports', 'string', 'ports specifies the list of network ports exposed by each endpoint in this slice.'),
    col('Endpoints', 'string', 'endpoints is a list of unique endpoints in this slice.'),
    AGE_COLUMN,
  ],
  row(slice: Typed<EndpointSlice>, now: number): TableCell[] {
    const ports = (slice.ports ?? []).map((p) =>
      p.port !== undefined && p.port !== null ? String(p.port) : (p.name ?? '*'),
    );
    const addresses = (slice.endpoints ?? []).flatMap((e) => e.addresses ?? []);
    return [
      slice.metadata.name ?? '',
      slice.addressType ?? '',
      listWithMore(ports, 3),
      listWithMore(addresses, 3),
      age(slice, now),
    ];
  },
};
