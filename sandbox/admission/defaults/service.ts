/** Service defaults (pkg/apis/core/v1/defaults.go `SetDefaults_Service`, plus the registry's IP family fields). */
import { arr, type Obj } from '../validation/access';
import { eachObj } from './setDefault';

/** Applies defaults; clusterIP and nodePort allocation is the API server's job. */
export function defaultService(spec: Obj): void {
  spec.sessionAffinity ??= 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') {
    const cfg = (spec.sessionAffinityConfig ??= {}) as Obj;
    const clientIP = (cfg.clientIP ??= {}) as Obj;
    clientIP.timeoutSeconds ??= 10800;
  }
  spec.type ??= 'ClusterIP';
  eachObj(spec, 'ports', (p) => {
    p.protocol ??= 'TCP';
    if (p.targetPort === undefined || p.targetPort === null || p.targetPort === 0 || p.targetPort === '')
      p.targetPort = p.port;
  });
  const type = spec.type;
  const externallyAccessible =
    type === 'NodePort' || type === 'LoadBalancer' || (type === 'ClusterIP' && arr(spec, 'externalIPs').length > 0);
  if (externallyAccessible) spec.externalTrafficPolicy ??= 'Cluster';
  if (type === 'ClusterIP' || type === 'NodePort' || type === 'LoadBalancer') spec.internalTrafficPolicy ??= 'Cluster';
  if (type === 'LoadBalancer') spec.allocateLoadBalancerNodePorts ??= true;
  if (type !== 'ExternalName') {
    spec.ipFamilyPolicy ??= 'SingleStack';
    spec.ipFamilies ??= ['IPv4'];
  }
}
