/**
 * k8s.io/api/core/v1, the pod template closure: PodSpec, containers, probes,
 * volumes, scheduling and security settings — everything a Deployment, Job or
 * CronJob may carry, e.g. when `kubectl create job --from=cronjob/x` copies a
 * stored template with server defaults. Legacy volume sources that are not
 * described (flexVolume, flocker, quobyte, storageos) are refused with 415.
 */
import type { MessageTable } from '../schema';

export const POD_SPEC: MessageTable = {
  pkg: 'io.k8s.api.core.v1',
  messages: {
    PodTemplateSpec: 'metadata=1:ObjectMeta spec=2:PodSpec',
    PodSpec:
      'volumes=1:[]Volume initContainers=20:[]Container containers=2:[]Container ' +
      'ephemeralContainers=34:[]EphemeralContainer restartPolicy=3:s terminationGracePeriodSeconds=4:i64? ' +
      'activeDeadlineSeconds=5:i64? dnsPolicy=6:s nodeSelector=7:{}s serviceAccountName=8:s serviceAccount=9:s ' +
      'automountServiceAccountToken=21:b? nodeName=10:s hostNetwork=11:b hostPID=12:b hostIPC=13:b ' +
      'shareProcessNamespace=27:b? securityContext=14:PodSecurityContext? imagePullSecrets=15:[]LocalObjectReference ' +
      'hostname=16:s subdomain=17:s affinity=18:Affinity? schedulerName=19:s tolerations=22:[]Toleration ' +
      'hostAliases=23:[]HostAlias priorityClassName=24:s priority=25:i32? dnsConfig=26:PodDNSConfig? ' +
      'readinessGates=28:[]PodReadinessGate runtimeClassName=29:s? enableServiceLinks=30:b? preemptionPolicy=31:s? ' +
      'overhead=32:{}Quantity topologySpreadConstraints=33:[]TopologySpreadConstraint setHostnameAsFQDN=35:b? ' +
      'os=36:PodOS? hostUsers=37:b? schedulingGates=38:[]PodSchedulingGate resourceClaims=39:[]PodResourceClaim ' +
      'resources=40:ResourceRequirements?',
    Container:
      'name=1:s! image=2:s command=3:[]s args=4:[]s workingDir=5:s ports=6:[]ContainerPort envFrom=19:[]EnvFromSource ' +
      'env=7:[]EnvVar resources=8:ResourceRequirements resizePolicy=23:[]ContainerResizePolicy restartPolicy=24:s? ' +
      'volumeMounts=9:[]VolumeMount volumeDevices=21:[]VolumeDevice livenessProbe=10:Probe? readinessProbe=11:Probe? ' +
      'startupProbe=22:Probe? lifecycle=12:Lifecycle? terminationMessagePath=13:s terminationMessagePolicy=20:s ' +
      'imagePullPolicy=14:s securityContext=15:SecurityContext? stdin=16:b stdinOnce=17:b tty=18:b',
    // EphemeralContainerCommon has exactly Container's fields and numbers.
    EphemeralContainer: '...=1:Container targetContainerName=2:s',
    ContainerPort: 'name=1:s hostPort=2:i32 containerPort=3:i32! protocol=4:s hostIP=5:s',
    VolumeMount:
      'name=1:s! readOnly=2:b recursiveReadOnly=7:s? mountPath=3:s! subPath=4:s mountPropagation=5:s? subPathExpr=6:s',
    VolumeDevice: 'name=1:s! devicePath=2:s!',
    EnvVar: 'name=1:s! value=2:s valueFrom=3:EnvVarSource?',
    EnvVarSource:
      'fieldRef=1:ObjectFieldSelector? resourceFieldRef=2:ResourceFieldSelector? ' +
      'configMapKeyRef=3:ConfigMapKeySelector? secretKeyRef=4:SecretKeySelector?',
    ObjectFieldSelector: 'apiVersion=1:s fieldPath=2:s!',
    ResourceFieldSelector: 'containerName=1:s resource=2:s! divisor=3:Quantity',
    ConfigMapKeySelector: '...=1:LocalObjectReference key=2:s! optional=3:b?',
    SecretKeySelector: '...=1:LocalObjectReference key=2:s! optional=3:b?',
    EnvFromSource: 'prefix=1:s configMapRef=2:ConfigMapEnvSource? secretRef=3:SecretEnvSource?',
    ConfigMapEnvSource: '...=1:LocalObjectReference optional=2:b?',
    SecretEnvSource: '...=1:LocalObjectReference optional=2:b?',
    ResourceRequirements: 'limits=1:{}Quantity requests=2:{}Quantity claims=3:[]ResourceClaim',
    ResourceClaim: 'name=1:s! request=2:s',
    ContainerResizePolicy: 'resourceName=1:s! restartPolicy=2:s!',
    Probe:
      '...=1:ProbeHandler initialDelaySeconds=2:i32 timeoutSeconds=3:i32 periodSeconds=4:i32 ' +
      'successThreshold=5:i32 failureThreshold=6:i32 terminationGracePeriodSeconds=7:i64?',
    ProbeHandler: 'exec=1:ExecAction? httpGet=2:HTTPGetAction? tcpSocket=3:TCPSocketAction? grpc=4:GRPCAction?',
    ExecAction: 'command=1:[]s',
    HTTPGetAction: 'path=1:s port=2:IntOrString host=3:s scheme=4:s httpHeaders=5:[]HTTPHeader',
    HTTPHeader: 'name=1:s! value=2:s!',
    TCPSocketAction: 'port=1:IntOrString host=2:s',
    GRPCAction: 'port=1:i32! service=2:s?',
    Lifecycle: 'postStart=1:LifecycleHandler? preStop=2:LifecycleHandler?',
    LifecycleHandler: 'exec=1:ExecAction? httpGet=2:HTTPGetAction? tcpSocket=3:TCPSocketAction? sleep=4:SleepAction?',
    SleepAction: 'seconds=1:i64!',
    SecurityContext:
      'capabilities=1:Capabilities? privileged=2:b? seLinuxOptions=3:SELinuxOptions? ' +
      'windowsOptions=10:WindowsSecurityContextOptions? runAsUser=4:i64? runAsGroup=8:i64? runAsNonRoot=5:b? ' +
      'readOnlyRootFilesystem=6:b? allowPrivilegeEscalation=7:b? procMount=9:s? seccompProfile=11:SeccompProfile? ' +
      'appArmorProfile=12:AppArmorProfile?',
    Capabilities: 'add=1:[]s drop=2:[]s',
    SELinuxOptions: 'user=1:s role=2:s type=3:s level=4:s',
    WindowsSecurityContextOptions:
      'gmsaCredentialSpecName=1:s? gmsaCredentialSpec=2:s? runAsUserName=3:s? hostProcess=4:b?',
    SeccompProfile: 'type=1:s! localhostProfile=2:s?',
    AppArmorProfile: 'type=1:s! localhostProfile=2:s?',
    PodSecurityContext:
      'seLinuxOptions=1:SELinuxOptions? windowsOptions=8:WindowsSecurityContextOptions? runAsUser=2:i64? ' +
      'runAsGroup=6:i64? runAsNonRoot=3:b? supplementalGroups=4:[]i64 supplementalGroupsPolicy=12:s? fsGroup=5:i64? ' +
      'sysctls=7:[]Sysctl fsGroupChangePolicy=9:s? seccompProfile=10:SeccompProfile? ' +
      'appArmorProfile=11:AppArmorProfile? seLinuxChangePolicy=13:s?',
    Sysctl: 'name=1:s! value=2:s!',
    PodResourceClaim: 'name=1:s! resourceClaimName=3:s? resourceClaimTemplateName=4:s?',
    PodOS: 'name=1:s!',
    PodSchedulingGate: 'name=1:s!',
    PodReadinessGate: 'conditionType=1:s!',
    HostAlias: 'ip=1:s hostnames=2:[]s',
    PodDNSConfig: 'nameservers=1:[]s searches=2:[]s options=3:[]PodDNSConfigOption',
    PodDNSConfigOption: 'name=1:s value=2:s?',
    Toleration: 'key=1:s operator=2:s value=3:s effect=4:s tolerationSeconds=5:i64?',
    TopologySpreadConstraint:
      'maxSkew=1:i32! topologyKey=2:s! whenUnsatisfiable=3:s! labelSelector=4:LabelSelector? minDomains=5:i32? ' +
      'nodeAffinityPolicy=6:s? nodeTaintsPolicy=7:s? matchLabelKeys=8:[]s',
    Affinity: 'nodeAffinity=1:NodeAffinity? podAffinity=2:PodAffinity? podAntiAffinity=3:PodAntiAffinity?',
    NodeAffinity:
      'requiredDuringSchedulingIgnoredDuringExecution=1:NodeSelector? ' +
      'preferredDuringSchedulingIgnoredDuringExecution=2:[]PreferredSchedulingTerm',
    NodeSelector: 'nodeSelectorTerms=1:[]NodeSelectorTerm',
    NodeSelectorTerm: 'matchExpressions=1:[]NodeSelectorRequirement matchFields=2:[]NodeSelectorRequirement',
    NodeSelectorRequirement: 'key=1:s! operator=2:s! values=3:[]s',
    PreferredSchedulingTerm: 'weight=1:i32! preference=2:NodeSelectorTerm',
    PodAffinity:
      'requiredDuringSchedulingIgnoredDuringExecution=1:[]PodAffinityTerm ' +
      'preferredDuringSchedulingIgnoredDuringExecution=2:[]WeightedPodAffinityTerm',
    PodAntiAffinity:
      'requiredDuringSchedulingIgnoredDuringExecution=1:[]PodAffinityTerm ' +
      'preferredDuringSchedulingIgnoredDuringExecution=2:[]WeightedPodAffinityTerm',
    WeightedPodAffinityTerm: 'weight=1:i32! podAffinityTerm=2:PodAffinityTerm',
    PodAffinityTerm:
      'labelSelector=1:LabelSelector? namespaces=2:[]s topologyKey=3:s! namespaceSelector=4:LabelSelector? ' +
      'matchLabelKeys=5:[]s mismatchLabelKeys=6:[]s',
  },
};
