/**
 * k8s.io/api/core/v1 volume sources. FlexVolume, Flocker, Quobyte and
 * StorageOS are named by VolumeSource but left undescribed: a body using them
 * is refused (415) rather than decoded by guesswork.
 */
import type { MessageTable } from '../schema';

export const VOLUMES: MessageTable = {
  pkg: 'io.k8s.api.core.v1',
  messages: {
    Volume: 'name=1:s! ...=2:VolumeSource',
    VolumeSource:
      'hostPath=1:HostPathVolumeSource? emptyDir=2:EmptyDirVolumeSource? ' +
      'gcePersistentDisk=3:GCEPersistentDiskVolumeSource? awsElasticBlockStore=4:AWSElasticBlockStoreVolumeSource? ' +
      'gitRepo=5:GitRepoVolumeSource? secret=6:SecretVolumeSource? nfs=7:NFSVolumeSource? iscsi=8:ISCSIVolumeSource? ' +
      'glusterfs=9:GlusterfsVolumeSource? persistentVolumeClaim=10:PersistentVolumeClaimVolumeSource? ' +
      'rbd=11:RBDVolumeSource? flexVolume=12:FlexVolumeSource? cinder=13:CinderVolumeSource? ' +
      'cephfs=14:CephFSVolumeSource? flocker=15:FlockerVolumeSource? downwardAPI=16:DownwardAPIVolumeSource? ' +
      'fc=17:FCVolumeSource? azureFile=18:AzureFileVolumeSource? configMap=19:ConfigMapVolumeSource? ' +
      'vsphereVolume=20:VsphereVirtualDiskVolumeSource? quobyte=21:QuobyteVolumeSource? ' +
      'azureDisk=22:AzureDiskVolumeSource? photonPersistentDisk=23:PhotonPersistentDiskVolumeSource? ' +
      'projected=26:ProjectedVolumeSource? portworxVolume=24:PortworxVolumeSource? scaleIO=25:ScaleIOVolumeSource? ' +
      'storageos=27:StorageOSVolumeSource? csi=28:CSIVolumeSource? ephemeral=29:EphemeralVolumeSource? ' +
      'image=30:ImageVolumeSource?',
    HostPathVolumeSource: 'path=1:s! type=2:s?',
    EmptyDirVolumeSource: 'medium=1:s sizeLimit=2:Quantity?',
    SecretVolumeSource: 'secretName=1:s items=2:[]KeyToPath defaultMode=3:i32? optional=4:b?',
    ConfigMapVolumeSource: '...=1:LocalObjectReference items=2:[]KeyToPath defaultMode=3:i32? optional=4:b?',
    KeyToPath: 'key=1:s! path=2:s! mode=3:i32?',
    PersistentVolumeClaimVolumeSource: 'claimName=1:s! readOnly=2:b',
    DownwardAPIVolumeSource: 'items=1:[]DownwardAPIVolumeFile defaultMode=2:i32?',
    DownwardAPIVolumeFile:
      'path=1:s! fieldRef=2:ObjectFieldSelector? resourceFieldRef=3:ResourceFieldSelector? mode=4:i32?',
    ProjectedVolumeSource: 'sources=1:[]VolumeProjection defaultMode=2:i32?',
    VolumeProjection:
      'secret=1:SecretProjection? downwardAPI=2:DownwardAPIProjection? configMap=3:ConfigMapProjection? ' +
      'serviceAccountToken=4:ServiceAccountTokenProjection? clusterTrustBundle=5:ClusterTrustBundleProjection?',
    SecretProjection: '...=1:LocalObjectReference items=2:[]KeyToPath optional=4:b?',
    ConfigMapProjection: '...=1:LocalObjectReference items=2:[]KeyToPath optional=4:b?',
    DownwardAPIProjection: 'items=1:[]DownwardAPIVolumeFile',
    ServiceAccountTokenProjection: 'audience=1:s expirationSeconds=2:i64? path=3:s!',
    ClusterTrustBundleProjection: 'name=1:s? signerName=2:s? labelSelector=3:LabelSelector? optional=5:b? path=4:s!',
    CSIVolumeSource:
      'driver=1:s! readOnly=2:b? fsType=3:s? volumeAttributes=4:{}s nodePublishSecretRef=5:LocalObjectReference?',
    EphemeralVolumeSource: 'volumeClaimTemplate=1:PersistentVolumeClaimTemplate?',
    PersistentVolumeClaimTemplate: 'metadata=1:ObjectMeta spec=2:PersistentVolumeClaimSpec',
    PersistentVolumeClaimSpec:
      'accessModes=1:[]s selector=4:LabelSelector? resources=2:VolumeResourceRequirements volumeName=3:s ' +
      'storageClassName=5:s? volumeMode=6:s? dataSource=7:TypedLocalObjectReference? ' +
      'dataSourceRef=8:TypedObjectReference? volumeAttributesClassName=9:s?',
    VolumeResourceRequirements: 'limits=1:{}Quantity requests=2:{}Quantity',
    TypedLocalObjectReference: 'apiGroup=1:s? kind=2:s! name=3:s!',
    TypedObjectReference: 'apiGroup=1:s? kind=2:s! name=3:s! namespace=4:s?',
    ImageVolumeSource: 'reference=1:s pullPolicy=2:s',
    NFSVolumeSource: 'server=1:s! path=2:s! readOnly=3:b',
    GCEPersistentDiskVolumeSource: 'pdName=1:s! fsType=2:s partition=3:i32 readOnly=4:b',
    AWSElasticBlockStoreVolumeSource: 'volumeID=1:s! fsType=2:s partition=3:i32 readOnly=4:b',
    GitRepoVolumeSource: 'repository=1:s! revision=2:s directory=3:s',
    ISCSIVolumeSource:
      'targetPortal=1:s! iqn=2:s! lun=3:i32! iscsiInterface=4:s fsType=5:s readOnly=6:b portals=7:[]s ' +
      'chapAuthDiscovery=8:b chapAuthSession=11:b secretRef=10:LocalObjectReference? initiatorName=12:s?',
    GlusterfsVolumeSource: 'endpoints=1:s! path=2:s! readOnly=3:b',
    RBDVolumeSource:
      'monitors=1:[]s image=2:s! fsType=3:s pool=4:s user=5:s keyring=6:s secretRef=7:LocalObjectReference? readOnly=8:b',
    CinderVolumeSource: 'volumeID=1:s! fsType=2:s readOnly=3:b secretRef=4:LocalObjectReference?',
    CephFSVolumeSource:
      'monitors=1:[]s path=2:s user=3:s secretFile=4:s secretRef=5:LocalObjectReference? readOnly=6:b',
    FCVolumeSource: 'targetWWNs=1:[]s lun=2:i32? fsType=3:s readOnly=4:b wwids=5:[]s',
    AzureFileVolumeSource: 'secretName=1:s! shareName=2:s! readOnly=3:b',
    VsphereVirtualDiskVolumeSource: 'volumePath=1:s! fsType=2:s storagePolicyName=3:s storagePolicyID=4:s',
    PhotonPersistentDiskVolumeSource: 'pdID=1:s! fsType=2:s',
    AzureDiskVolumeSource: 'diskName=1:s! diskURI=2:s! cachingMode=3:s? fsType=4:s? readOnly=5:b? kind=6:s?',
    PortworxVolumeSource: 'volumeID=1:s! fsType=2:s readOnly=3:b',
    ScaleIOVolumeSource:
      'gateway=1:s! system=2:s! secretRef=3:LocalObjectReference? sslEnabled=4:b protectionDomain=5:s ' +
      'storagePool=6:s storageMode=7:s volumeName=8:s fsType=9:s readOnly=10:b',
  },
};
