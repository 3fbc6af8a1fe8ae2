/**
 * Services and their endpoints from EndpointSlices (upstream: staging/src/k8s.io/kubectl/pkg/describe/describe.go —
 * describeService, formatEndpointSlices).
 */
import type { Service } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import { asResource } from '../../api/resourceObjects';
import { sortedKeys } from './format';
import type { DescribeInputs } from './inputs';
import { annotationsMultiline, labelsMultiline } from './metadata';
import { L0 } from './writer';
import type { PrefixWriter } from './writer';

export function describeService(w: PrefixWriter, svc: Service, inputs: DescribeInputs): void {
  const meta = svc.metadata ?? {};
  const spec = svc.spec ?? {};
  w.write(L0, `Name:\t${meta.name}\n`);
  w.write(L0, `Namespace:\t${meta.namespace}\n`);
  labelsMultiline(w, 'Labels', meta.labels);
  annotationsMultiline(w, 'Annotations', meta.annotations);
  w.write(
    L0,
    `Selector:\t${
      sortedKeys(spec.selector)
        .map((k) => `${k}=${spec.selector![k]}`)
        .join(',') || '<none>'
    }\n`,
  );
  w.write(L0, `Type:\t${spec.type ?? 'ClusterIP'}\n`);
  if (spec.ipFamilyPolicy) w.write(L0, `IP Family Policy:\t${spec.ipFamilyPolicy}\n`);
  if ((spec.ipFamilies ?? []).length > 0) w.write(L0, `IP Families:\t${spec.ipFamilies!.join(',')}\n`);
  w.write(L0, `IP:\t${spec.clusterIP ?? ''}\n`);
  if ((spec.clusterIPs ?? []).length > 0) w.write(L0, `IPs:\t${spec.clusterIPs!.join(',')}\n`);
  if ((spec.externalIPs ?? []).length > 0) w.write(L0, `External IPs:\t${spec.externalIPs!.join(',')}\n`);
  if (spec.type === 'ExternalName') w.write(L0, `External Name:\t${spec.externalName ?? ''}\n`);
  const slices = (inputs.endpointSlices ?? [])
    .map((s) => asResource('endpointslices', s))
    .filter((s) => s.metadata?.labels?.['kubernetes.io/service-name'] === meta.name);
  for (const sp of spec.ports ?? []) {
    const name = sp.name || '<unset>';
    w.write(L0, `Port:\t${name}\t${sp.port}/${sp.protocol ?? 'TCP'}\n`);
    const target = sp.targetPort ?? sp.port;
    w.write(L0, `TargetPort:\t${String(target)}/${sp.protocol ?? 'TCP'}\n`);
    if (sp.nodePort) w.write(L0, `NodePort:\t${name}\t${sp.nodePort}/${sp.protocol ?? 'TCP'}\n`);
    w.write(L0, `Endpoints:\t${formatEndpoints(slices, sp.name ?? '')}\n`);
  }
  w.write(L0, `Session Affinity:\t${spec.sessionAffinity ?? 'None'}\n`);
  if (spec.externalTrafficPolicy) w.write(L0, `External Traffic Policy:\t${spec.externalTrafficPolicy}\n`);
  if (spec.internalTrafficPolicy) w.write(L0, `Internal Traffic Policy:\t${spec.internalTrafficPolicy}\n`);
}

/** formatEndpointSlices: ready addresses of the port, at most three, then `+ N more...`. */
function formatEndpoints(slices: readonly EndpointSlice[], portName: string): string {
  const list: string[] = [];
  let count = 0;
  for (const s of slices) {
    const port = (s.ports ?? []).find((p) => (p.name ?? '') === portName);
    for (const e of s.endpoints ?? []) {
      if (e.conditions?.ready === false) continue;
      for (const address of e.addresses ?? []) {
        count++;
        if (list.length < 3) list.push(port?.port !== undefined ? `${address}:${port.port}` : address);
      }
    }
  }
  if (count === 0) return '<none>';
  return count > 3 ? `${list.join(',')} + ${count - 3} more...` : list.join(',');
}
