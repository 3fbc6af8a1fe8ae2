/** k8s.io/api/networking/v1: Ingress with its rules, backends and TLS. */
import type { MessageTable } from '../schema';

export const NETWORKING: MessageTable = {
  pkg: 'io.k8s.api.networking.v1',
  messages: {
    Ingress: 'metadata=1:ObjectMeta spec=2:IngressSpec status=3:IngressStatus',
    IngressSpec: 'ingressClassName=4:s? defaultBackend=1:IngressBackend? tls=2:[]IngressTLS rules=3:[]IngressRule',
    IngressBackend: 'service=4:IngressServiceBackend? resource=3:TypedLocalObjectReference?',
    IngressServiceBackend: 'name=1:s! port=2:ServiceBackendPort',
    ServiceBackendPort: 'name=1:s number=2:i32',
    IngressTLS: 'hosts=1:[]s secretName=2:s',
    IngressRule: 'host=1:s ...=2:IngressRuleValue',
    IngressRuleValue: 'http=1:HTTPIngressRuleValue?',
    HTTPIngressRuleValue: 'paths=1:[]HTTPIngressPath',
    HTTPIngressPath: 'path=1:s pathType=3:s? backend=2:IngressBackend',
    IngressStatus: 'loadBalancer=1:IngressLoadBalancerStatus',
    IngressLoadBalancerStatus: 'ingress=1:[]IngressLoadBalancerIngress',
    IngressLoadBalancerIngress: 'ip=1:s hostname=2:s ports=4:[]IngressPortStatus',
    IngressPortStatus: 'port=1:i32! protocol=2:s! error=3:s?',
  },
};
