/** Service defaults (pkg/apis/core/v1/defaults.go `SetDefaults_Service`, plus the registry's IP family fields). */
import { arr, type Obj } from '../validation/access';
import { eachObj, setDefault } from './setDefault';

/** Applies defaults; clusterIP and nodePort allocation is the API server's job. */
export function defaultService(spec: Obj): void {
  setDefault(spec, 'sessionAffinity', 'None');
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') {
    const cfg = (spec.sessionAffinityConfig ??= {}) as Obj;
    const clientIP = (cfg.clientIP ??= {}) as Obj;
    setDefault(clientIP, 'timeoutSeconds', 10800);
  }
  setDefault(spec, 'type', 'ClusterIP');
  eachObj(spec, 'ports', (p) => {
    setDefault(p, 'protocol', 'TCP');
    if (p.targetPort === undefined || p.targetPort === null || p.targetPort === 0 || p.targetPort === '')
      p.targetPort = p.port;
  });
  const type = spec.type;
  const externallyAccessible =
    type === 'NodePort' || type === 'LoadBalancer' || (type === 'ClusterIP' && arr(spec, 'externalIPs').length > 0);
  if (externallyAccessible) setDefault(spec, 'externalTrafficPolicy', 'Cluster');
  if (type === 'ClusterIP' || type === 'NodePort' || type === 'LoadBalancer')
    setDefault(spec, 'internalTrafficPolicy', 'Cluster');
  if (type === 'LoadBalancer') setDefault(spec, 'allocateLoadBalancerNodePorts', true);
  if (type !== 'ExternalName') {
    setDefault(spec, 'ipFamilyPolicy', 'SingleStack');
    setDefault(spec, 'ipFamilies', ['IPv4']);
  }
}
