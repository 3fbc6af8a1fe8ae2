/**
 * The PersistentVolume binder, the PVC and PV protection controllers and a simulated external provisioner
 * (upstream: pkg/controller/volume/persistentvolume/pv_controller.go `syncClaim` / `syncVolume` / `bind` /
 * `provisionClaim`, pkg/controller/volume/pvcprotection, pkg/controller/volume/pvprotection, and
 * rancher/local-path-provisioner for kind's `standard` class).
 *
 * - A claim without a class gets the default StorageClass (`assignDefaultStorageClass`, retroactive since 1.28).
 * - Immediate binding: an Available volume that matches (matching.ts) is bound at once; otherwise the class's
 *   provisioner creates one (`pvc-<claim uid>`), then it is bound.
 * - WaitForFirstConsumer: nothing happens until the scheduler's VolumeBinding plugin annotates the claim with
 *   `volume.kubernetes.io/selected-node`; then a matching volume that fits that node is bound, or one is provisioned
 *   with node affinity to it (local-path volumes live on one node).
 * - A claim deleted while a pod uses it waits (pvc-protection finalizer); a bound volume likewise (pv-protection).
 * - A volume whose claim is gone is Released; reclaim policy Delete removes it, Retain keeps it Released.
 *
 * Events as upstream words them (`WaitForFirstConsumer`, `ExternalProvisioning`, `Provisioning`,
 * `ProvisioningSucceeded`, `ProvisioningFailed` "storageclass.storage.k8s.io \"x\" not found", `FailedBinding`).
 * Not modelled: volume expansion, the Recycle policy (answered as Failed with upstream's message), CSI attach limits.
 */
import type { PersistentVolume, PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1';
import type { StorageClass } from 'kubernetes-types/storage/v1';
import { isApiError } from '../../api/errors';
import type { Typed } from '../../api/types';
import type { ComponentContext } from '../../client/component';
import { Recorder } from '../../client/component';
import type { Informer } from '../../client/informer';
import { cloneJson } from '../../util/json';
import { Controller } from '../framework/controller';
import type { ReconcileResult, Watches } from '../framework/controller';
import { enqueueMapped } from '../framework/handlers';
import {
  ANN_BETA_STORAGE_PROVISIONER,
  ANN_BIND_COMPLETED,
  ANN_BOUND_BY_CONTROLLER,
  ANN_DEFAULT_CLASS,
  ANN_PROVISIONED_BY,
  ANN_SELECTED_NODE,
  ANN_STORAGE_PROVISIONER,
  PVC_PROTECTION_FINALIZER,
  PV_PROTECTION_FINALIZER,
  claimClass,
  findMatchingVolume,
} from './matching';

type Claim = Typed<PersistentVolumeClaim>;
type Volume = Typed<PersistentVolume>;
type Class = Typed<StorageClass>;

/** The provisioner of kind's `standard` class, and the one this controller simulates for any class. */
export const LOCAL_PATH_PROVISIONER = 'rancher.io/local-path';
const NO_PROVISIONER = 'kubernetes.io/no-provisioner';

/** The StorageClass a kind cluster starts with (kind's `standard`, the default class). */
export function standardStorageClass(): Typed<StorageClass> {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'standard', annotations: { [ANN_DEFAULT_CLASS]: 'true' } },
    provisioner: LOCAL_PATH_PROVISIONER,
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'WaitForFirstConsumer',
  } as Typed<StorageClass>;
}

/** The default class (`storageclass.kubernetes.io/is-default-class: "true"`), the newest when several are. */
export function defaultClass(classes: readonly StorageClass[]): StorageClass | undefined {
  const defaults = classes.filter((c) => c.metadata?.annotations?.[ANN_DEFAULT_CLASS] === 'true');
  defaults.sort((a, b) => (b.metadata?.creationTimestamp ?? '').localeCompare(a.metadata?.creationTimestamp ?? ''));
  return defaults[0];
}

const claimKey = (ns: string, name: string): string => `pvc/${ns}/${name}`;
const volumeKey = (name: string): string => `pv/${name}`;

function podClaims(pod: Pod): string[] {
  const ns = pod.metadata?.namespace ?? 'default';
  const out: string[] = [];
  for (const v of pod.spec?.volumes ?? []) {
    if (v.persistentVolumeClaim) out.push(claimKey(ns, v.persistentVolumeClaim.claimName));
    if (v.ephemeral) out.push(claimKey(ns, `${pod.metadata?.name}-${v.name}`));
  }
  return out;
}

export class PersistentVolumeController extends Controller {
  private claims!: Informer<Claim>;
  private volumes!: Informer<Volume>;
  private classes!: Informer<Class>;
  private pods!: Informer<Typed<Pod>>;
  private readonly provisioner: Recorder;

  constructor(ctx: ComponentContext) {
    super(ctx, { name: 'persistentvolume-controller' });
    this.provisioner = new Recorder(ctx, `${LOCAL_PATH_PROVISIONER}_local-path-provisioner`);
  }

  protected watch(w: Watches): void {
    this.claims = w.watch(
      'persistentvolumeclaims',
      // A claim's change (its deletion above all) concerns its volume too.
      enqueueMapped((c) => {
        const keys = [claimKey(c.metadata.namespace ?? 'default', c.metadata.name!)];
        if (c.spec?.volumeName) keys.push(volumeKey(c.spec.volumeName));
        return keys;
      }),
    );
    this.volumes = w.watch(
      'persistentvolumes',
      enqueueMapped((v) => {
        const keys = [volumeKey(v.metadata.name!)];
        const ref = v.spec?.claimRef;
        if (ref?.name) keys.push(claimKey(ref.namespace ?? 'default', ref.name));
        return keys;
      }),
    );
    // A new or changed class may unblock every claim still Pending.
    this.classes = w.watch(
      'storageclasses',
      enqueueMapped(() =>
        this.claims.cache
          .list()
          .filter((c) => !c.spec?.volumeName)
          .map((c) => claimKey(c.metadata.namespace ?? 'default', c.metadata.name!)),
      ),
    );
    // pvc-protection: a claim being deleted goes once no pod uses it.
    this.pods = w.watch(
      'pods',
      enqueueMapped((p) => podClaims(p)),
    );
  }

  protected reconcile(key: string): ReconcileResult {
    if (key.startsWith('pv/')) return this.syncVolume(key.slice(3));
    const [, ns, name] = key.split('/');
    return this.syncClaim(ns, name);
  }

  // ---- claims -------------------------------------------------------------

  private syncClaim(ns: string, name: string): ReconcileResult {
    const claim = this.claims.cache.get(`${ns}/${name}`);
    if (!claim) return;
    const finalizers = claim.metadata.finalizers ?? [];
    if (claim.metadata.deletionTimestamp) {
      // upstream: pvcprotection `processPVC` — the finalizer goes once no pod uses the claim.
      if (finalizers.includes(PVC_PROTECTION_FINALIZER) && !this.claimInUse(claim)) {
        this.ctx.api.update({
          ...claim,
          metadata: { ...claim.metadata, finalizers: finalizers.filter((f) => f !== PVC_PROTECTION_FINALIZER) },
        });
      }
      return;
    }
    if (!finalizers.includes(PVC_PROTECTION_FINALIZER)) {
      // upstream adds it in the StorageObjectInUseProtection admission plugin; here, before anything else.
      this.ctx.api.update({
        ...claim,
        metadata: { ...claim.metadata, finalizers: [...finalizers, PVC_PROTECTION_FINALIZER] },
      });
      return;
    }
    if (claim.spec?.volumeName) return this.syncBoundClaim(claim);

    // `assignDefaultStorageClass`: a claim with no class at all takes the default one.
    if (
      claim.spec?.storageClassName === undefined &&
      !claim.metadata.annotations?.['volume.beta.kubernetes.io/storage-class']
    ) {
      const def = defaultClass(this.classes.cache.list());
      if (def) {
        this.ctx.api.update({ ...claim, spec: { ...claim.spec, storageClassName: def.metadata!.name } });
        return;
      }
    }
    this.setClaimPhase(claim, 'Pending');
    const className = claimClass(claim);
    const cls = className === '' ? undefined : this.classes.cache.get(className);
    const delayed = cls?.volumeBindingMode === 'WaitForFirstConsumer';
    const selectedNode = claim.metadata.annotations?.[ANN_SELECTED_NODE];
    if (delayed && !selectedNode) {
      this.recorder.event(
        claim,
        'Normal',
        'WaitForFirstConsumer',
        'waiting for first consumer to be created before binding',
      );
      return;
    }
    const node = selectedNode ? this.ctx.api.tryGet('nodes', undefined, selectedNode) : undefined;
    const volume = findMatchingVolume(
      claim,
      this.volumes.cache.list(),
      selectedNode ? { name: selectedNode, labels: node?.metadata.labels ?? {} } : undefined,
    );
    if (volume) return this.bind(claim, volume);
    if (className === '') {
      this.recorder.event(
        claim,
        'Normal',
        'FailedBinding',
        'no persistent volumes available for this claim and no storage class is set',
      );
      return;
    }
    if (!cls) {
      this.recorder.event(
        claim,
        'Warning',
        'ProvisioningFailed',
        `storageclass.storage.k8s.io "${className}" not found`,
      );
      return;
    }
    if (cls.provisioner === NO_PROVISIONER) {
      this.recorder.event(
        claim,
        'Normal',
        delayed ? 'WaitForPodScheduled' : 'FailedBinding',
        delayed
          ? `waiting for pod to be scheduled`
          : 'no persistent volumes available for this claim and no storage class is set',
      );
      return;
    }
    this.provision(claim, cls, selectedNode);
  }

  private syncBoundClaim(claim: Claim): ReconcileResult {
    const volume = this.volumes.cache.get(claim.spec!.volumeName!);
    if (!volume) {
      if (claim.status?.phase === 'Bound') {
        this.setClaimPhase(claim, 'Lost');
        this.recorder.event(
          claim,
          'Warning',
          'ClaimLost',
          'Bound claim has lost its PersistentVolume. Data on the volume is lost!',
        );
      }
      return;
    }
    const ref = volume.spec?.claimRef;
    if (!ref || ref.name !== claim.metadata.name || ref.namespace !== claim.metadata.namespace) {
      // The claim names a volume that is not (yet) bound to it: `bind` it from this side (pre-bound claim).
      if (!ref && (volume.status?.phase ?? 'Available') === 'Available') return this.bind(claim, volume);
      this.setClaimPhase(claim, 'Pending');
      return;
    }
    if (claim.status?.phase !== 'Bound') this.writeClaimBound(claim, volume);
  }

  private claimInUse(claim: Claim): boolean {
    const name = claim.metadata.name;
    return this.pods.cache.list(claim.metadata.namespace).some((p) => {
      const phase = p.status?.phase;
      if (phase === 'Succeeded' || phase === 'Failed') return false;
      return (p.spec?.volumes ?? []).some(
        (v) => v.persistentVolumeClaim?.claimName === name || (v.ephemeral && `${p.metadata.name}-${v.name}` === name),
      );
    });
  }

  /** `bind`: the volume first (claimRef, then phase Bound), then the claim (volumeName, then phase Bound). */
  private bind(claim: Claim, volume: Volume): void {
    const ref = {
      kind: 'PersistentVolumeClaim',
      apiVersion: 'v1',
      namespace: claim.metadata.namespace,
      name: claim.metadata.name,
      uid: claim.metadata.uid,
      resourceVersion: claim.metadata.resourceVersion,
    };
    let pv = volume;
    if (!jsonSame(pv.spec?.claimRef, ref)) {
      const annotations: Record<string, string> = { ...pv.metadata.annotations };
      if (!pv.spec?.claimRef) annotations[ANN_BOUND_BY_CONTROLLER] = 'yes';
      pv = this.ctx.api.update({
        ...pv,
        metadata: { ...pv.metadata, annotations },
        spec: { ...pv.spec, claimRef: ref },
      }) as Volume;
    }
    if (pv.status?.phase !== 'Bound')
      pv = this.ctx.api.updateStatus({ ...pv, status: { ...pv.status, phase: 'Bound' } }) as Volume;
    const annotations: Record<string, string> = { ...claim.metadata.annotations, [ANN_BIND_COMPLETED]: 'yes' };
    if (!claim.spec?.volumeName) annotations[ANN_BOUND_BY_CONTROLLER] = 'yes';
    const updated = this.ctx.api.update({
      ...claim,
      metadata: { ...claim.metadata, annotations },
      spec: { ...claim.spec, volumeName: pv.metadata.name },
    }) as Claim;
    this.writeClaimBound(updated, pv);
  }

  private writeClaimBound(claim: Claim, volume: Volume): void {
    this.ctx.api.updateStatus({
      ...claim,
      status: {
        ...claim.status,
        phase: 'Bound',
        accessModes: volume.spec?.accessModes,
        capacity: volume.spec?.capacity,
      },
    });
  }

  private setClaimPhase(claim: Claim, phase: string): void {
    if (claim.status?.phase === phase) return;
    this.ctx.api.updateStatus({ ...claim, status: { ...claim.status, phase } });
  }

  /**
   * `provisionClaimOperationExternal` plus the external provisioner's work: the claim is annotated with its
   * provisioner, the provisioner creates `pvc-<uid>` (a local-path volume on the selected node) with the class's
   * reclaim policy, and the binder binds it on the next sync.
   */
  private provision(claim: Claim, cls: Class, selectedNode: string | undefined): void {
    const provisioner = cls.provisioner;
    if (claim.metadata.annotations?.[ANN_STORAGE_PROVISIONER] !== provisioner) {
      this.ctx.api.update({
        ...claim,
        metadata: {
          ...claim.metadata,
          annotations: {
            ...claim.metadata.annotations,
            [ANN_STORAGE_PROVISIONER]: provisioner,
            [ANN_BETA_STORAGE_PROVISIONER]: provisioner,
          },
        },
      });
      this.recorder.event(
        claim,
        'Normal',
        'ExternalProvisioning',
        `Waiting for a volume to be created either by the external provisioner '${provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`,
      );
      return;
    }
    const ns = claim.metadata.namespace ?? 'default';
    const pvName = `pvc-${claim.metadata.uid}`;
    if (this.volumes.cache.get(pvName) || this.ctx.api.tryGet('persistentvolumes', undefined, pvName)) return;
    this.provisioner.event(
      claim,
      'Normal',
      'Provisioning',
      `External provisioner is provisioning volume for claim "${ns}/${claim.metadata.name}"`,
    );
    const localPath = provisioner === LOCAL_PATH_PROVISIONER;
    const volume = {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: {
        name: pvName,
        annotations: {
          [ANN_PROVISIONED_BY]: provisioner,
          ...(localPath && selectedNode ? { 'local.path.provisioner/selected-node': selectedNode } : {}),
        },
      },
      spec: {
        accessModes: claim.spec?.accessModes ?? ['ReadWriteOnce'],
        capacity: { storage: claim.spec?.resources?.requests?.storage ?? '0' },
        persistentVolumeReclaimPolicy: cls.reclaimPolicy ?? 'Delete',
        storageClassName: cls.metadata.name,
        volumeMode: claim.spec?.volumeMode ?? 'Filesystem',
        claimRef: {
          kind: 'PersistentVolumeClaim',
          apiVersion: 'v1',
          namespace: ns,
          name: claim.metadata.name,
          uid: claim.metadata.uid,
          resourceVersion: claim.metadata.resourceVersion,
        },
        ...(localPath
          ? {
              hostPath: {
                path: `/var/local-path-provisioner/${pvName}_${ns}_${claim.metadata.name}`,
                type: 'DirectoryOrCreate',
              },
              ...(selectedNode
                ? {
                    nodeAffinity: {
                      required: {
                        nodeSelectorTerms: [
                          {
                            matchExpressions: [
                              { key: 'kubernetes.io/hostname', operator: 'In', values: [selectedNode] },
                            ],
                          },
                        ],
                      },
                    },
                  }
                : {}),
            }
          : { csi: { driver: provisioner, volumeHandle: pvName } }),
      },
    };
    try {
      this.ctx.api.create(volume as Volume);
    } catch (e) {
      if (isApiError(e, 409)) return;
      this.provisioner.event(
        claim,
        'Warning',
        'ProvisioningFailed',
        `failed to provision volume with StorageClass "${cls.metadata.name}": ${(e as Error).message}`,
      );
      throw e;
    }
    this.provisioner.event(claim, 'Normal', 'ProvisioningSucceeded', `Successfully provisioned volume ${pvName}`);
  }

  // ---- volumes ------------------------------------------------------------

  private syncVolume(name: string): ReconcileResult {
    const volume = this.volumes.cache.get(name);
    if (!volume) return;
    const finalizers = volume.metadata.finalizers ?? [];
    if (volume.metadata.deletionTimestamp) {
      // upstream: pvprotection — a volume goes once no claim is bound to it.
      if (finalizers.includes(PV_PROTECTION_FINALIZER) && volume.status?.phase !== 'Bound') {
        this.ctx.api.update({
          ...volume,
          metadata: { ...volume.metadata, finalizers: finalizers.filter((f) => f !== PV_PROTECTION_FINALIZER) },
        });
      }
      return;
    }
    if (!finalizers.includes(PV_PROTECTION_FINALIZER)) {
      this.ctx.api.update({
        ...volume,
        metadata: { ...volume.metadata, finalizers: [...finalizers, PV_PROTECTION_FINALIZER] },
      });
      return;
    }
    const ref = volume.spec?.claimRef;
    if (!ref) return this.setVolumePhase(volume, 'Available');
    const claim = this.claims.cache.get(`${ref.namespace ?? 'default'}/${ref.name}`);
    if (claim && (ref.uid === undefined || claim.metadata.uid === ref.uid)) {
      // Bound from the volume's side; the claim's sync completes the binding.
      if (claim.spec?.volumeName === name) return this.setVolumePhase(volume, 'Bound');
      if (ref.uid === undefined) return this.setVolumePhase(volume, 'Available');
      return;
    }
    if (claim === undefined && ref.uid === undefined) return this.setVolumePhase(volume, 'Available');
    // The claim is gone: `reclaimVolume`.
    if (volume.status?.phase !== 'Released' && volume.status?.phase !== 'Failed') {
      this.setVolumePhase(volume, 'Released');
      return;
    }
    const policy = volume.spec?.persistentVolumeReclaimPolicy ?? 'Retain';
    if (policy === 'Delete' && volume.status?.phase === 'Released') {
      try {
        this.ctx.api.delete('persistentvolumes', undefined, name);
      } catch (e) {
        if (!isApiError(e, 404)) throw e;
      }
    } else if (policy === 'Recycle' && volume.status?.phase === 'Released') {
      this.ctx.api.updateStatus({
        ...volume,
        status: { ...volume.status, phase: 'Failed', message: 'Recycle is not supported by the sandbox' },
      });
      this.recorder.event(volume, 'Warning', 'VolumeFailedRecycle', 'Recycle is not supported by the sandbox');
    }
  }

  private setVolumePhase(volume: Volume, phase: string): void {
    if (volume.status?.phase === phase) return;
    this.ctx.api.updateStatus({ ...volume, status: { ...cloneJson(volume.status ?? {}), phase } });
  }
}

function jsonSame(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
