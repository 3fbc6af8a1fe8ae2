/** Pod spec defaults (pkg/apis/core/v1/defaults.go `SetDefaults_PodSpec`, `SetDefaults_Volume`). */
import { containersOf } from '../podSpecs';
import { obj, type Obj } from '../validation/access';
import { defaultContainer } from './container';
import { eachObj } from './setDefault';

const VOLUME_SOURCES = [
  'hostPath',
  'emptyDir',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'persistentVolumeClaim',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'downwardAPI',
  'fc',
  'azureFile',
  'configMap',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'projected',
  'portworxVolume',
  'scaleIO',
  'storageos',
  'csi',
  'ephemeral',
  'image',
];
const DEFAULT_MODE = 420; // 0644

function defaultVolume(v: Obj): void {
  if (!VOLUME_SOURCES.some((s) => v[s] !== undefined && v[s] !== null)) v.emptyDir = {};
  for (const s of ['configMap', 'secret', 'downwardAPI', 'projected']) {
    const src = obj(v, s);
    if (src) src.defaultMode ??= DEFAULT_MODE;
  }
  const hostPath = obj(v, 'hostPath');
  if (hostPath) hostPath.type ??= '';
}

/** Applies PodSpec defaults in place; used for Pods and every pod template. */
export function defaultPodSpec(spec: Obj, specPath: string): void {
  spec.restartPolicy ??= 'Always';
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.securityContext ??= {};
  spec.schedulerName ??= 'default-scheduler';
  for (const c of containersOf(spec, specPath)) {
    defaultContainer(c.container);
    if (spec.hostNetwork === true) {
      eachObj(c.container, 'ports', (p) => {
        if (p.hostPort === undefined) p.hostPort = p.containerPort;
      });
    }
  }
  eachObj(spec, 'volumes', defaultVolume);
  deprecatedServiceAccount(spec);
}

/**
 * `serviceAccount` is the deprecated alias of `serviceAccountName` (upstream: pkg/apis/core/v1/conversion.go,
 * Convert_v1_PodSpec_To_core_PodSpec and back): the name wins when both are set, the alias fills an empty name, and
 * what the API server returns carries the name under both fields.
 */
export function deprecatedServiceAccount(spec: Obj): void {
  const name = typeof spec.serviceAccountName === 'string' ? spec.serviceAccountName : '';
  const alias = typeof spec.serviceAccount === 'string' ? spec.serviceAccount : '';
  const effective = name || alias;
  if (effective === '') {
    delete spec.serviceAccount;
    return;
  }
  spec.serviceAccountName = effective;
  spec.serviceAccount = effective;
}
