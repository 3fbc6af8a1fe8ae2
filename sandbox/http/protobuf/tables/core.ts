/**
 * k8s.io/api/core/v1 objects that `kubectl create` sends: ConfigMap, Secret,
 * Namespace, Service, ServiceAccount, ResourceQuota, plus Pod and LimitRange.
 */
import type { MessageTable } from '../schema';

export const CORE: MessageTable = {
  pkg: 'io.k8s.api.core.v1',
  messages: {
    ConfigMap: 'metadata=1:ObjectMeta immutable=4:b? data=2:{}s binaryData=3:{}y',
    Secret: 'metadata=1:ObjectMeta immutable=5:b? data=2:{}y stringData=4:{}s type=3:s',
    Namespace: 'metadata=1:ObjectMeta spec=2:NamespaceSpec status=3:NamespaceStatus',
    NamespaceSpec: 'finalizers=1:[]s',
    NamespaceStatus: 'phase=1:s conditions=2:[]NamespaceCondition',
    NamespaceCondition: 'type=1:s! status=2:s! lastTransitionTime=4:Time reason=5:s message=6:s',
    ServiceAccount:
      'metadata=1:ObjectMeta secrets=2:[]ObjectReference imagePullSecrets=3:[]LocalObjectReference ' +
      'automountServiceAccountToken=4:b?',
    ObjectReference: 'kind=1:s namespace=2:s name=3:s uid=4:s apiVersion=5:s resourceVersion=6:s fieldPath=7:s',
    LocalObjectReference: 'name=1:s',
    Service: 'metadata=1:ObjectMeta spec=2:ServiceSpec status=3:ServiceStatus',
    ServiceSpec:
      'ports=1:[]ServicePort selector=2:{}s clusterIP=3:s clusterIPs=18:[]s type=4:s externalIPs=5:[]s ' +
      'sessionAffinity=7:s loadBalancerIP=8:s loadBalancerSourceRanges=9:[]s externalName=10:s ' +
      'externalTrafficPolicy=11:s healthCheckNodePort=12:i32 publishNotReadyAddresses=13:b ' +
      'sessionAffinityConfig=14:SessionAffinityConfig? ipFamilies=19:[]s ipFamilyPolicy=17:s? ' +
      'allocateLoadBalancerNodePorts=20:b? loadBalancerClass=21:s? internalTrafficPolicy=22:s? ' +
      'trafficDistribution=23:s?',
    ServicePort: 'name=1:s protocol=2:s appProtocol=6:s? port=3:i32! targetPort=4:IntOrString nodePort=5:i32',
    SessionAffinityConfig: 'clientIP=1:ClientIPConfig?',
    ClientIPConfig: 'timeoutSeconds=1:i32?',
    ServiceStatus: 'loadBalancer=1:LoadBalancerStatus conditions=2:[]Condition',
    LoadBalancerStatus: 'ingress=1:[]LoadBalancerIngress',
    LoadBalancerIngress: 'ip=1:s hostname=2:s ipMode=3:s? ports=4:[]PortStatus',
    PortStatus: 'port=1:i32! protocol=2:s! error=3:s?',
    ResourceQuota: 'metadata=1:ObjectMeta spec=2:ResourceQuotaSpec status=3:ResourceQuotaStatus',
    ResourceQuotaSpec: 'hard=1:{}Quantity scopes=2:[]s scopeSelector=3:ScopeSelector?',
    ScopeSelector: 'matchExpressions=1:[]ScopedResourceSelectorRequirement',
    ScopedResourceSelectorRequirement: 'scopeName=1:s! operator=2:s! values=3:[]s',
    ResourceQuotaStatus: 'hard=1:{}Quantity used=2:{}Quantity',
    LimitRange: 'metadata=1:ObjectMeta spec=2:LimitRangeSpec',
    LimitRangeSpec: 'limits=1:[]LimitRangeItem',
    LimitRangeItem:
      'type=1:s! max=2:{}Quantity min=3:{}Quantity default=4:{}Quantity defaultRequest=5:{}Quantity ' +
      'maxLimitRequestRatio=6:{}Quantity',
    Pod: 'metadata=1:ObjectMeta spec=2:PodSpec status=3:PodStatus',
    PodStatus:
      'phase=1:s conditions=2:[]PodCondition message=3:s reason=4:s nominatedNodeName=11:s hostIP=5:s ' +
      'hostIPs=16:[]HostIP podIP=6:s podIPs=12:[]PodIP startTime=7:Time? initContainerStatuses=10:[]ContainerStatus ' +
      'containerStatuses=8:[]ContainerStatus qosClass=9:s ephemeralContainerStatuses=13:[]ContainerStatus ' +
      'resize=14:s resourceClaimStatuses=15:[]PodResourceClaimStatus',
    PodCondition: 'type=1:s! status=2:s! lastProbeTime=3:Time lastTransitionTime=4:Time reason=5:s message=6:s',
    PodIP: 'ip=1:s',
    HostIP: 'ip=1:s',
    PodResourceClaimStatus: 'name=1:s! resourceClaimName=2:s?',
    ContainerStatus:
      'name=1:s! state=2:ContainerState lastState=3:ContainerState ready=4:b! restartCount=5:i32! image=6:s! ' +
      'imageID=7:s! containerID=8:s started=9:b? allocatedResources=10:{}Quantity resources=11:ResourceRequirements?',
    ContainerState:
      'waiting=1:ContainerStateWaiting? running=2:ContainerStateRunning? terminated=3:ContainerStateTerminated?',
    ContainerStateWaiting: 'reason=1:s message=2:s',
    ContainerStateRunning: 'startedAt=1:Time',
    ContainerStateTerminated:
      'exitCode=1:i32! signal=2:i32 reason=3:s message=4:s startedAt=5:Time finishedAt=6:Time containerID=7:s',
  },
};
