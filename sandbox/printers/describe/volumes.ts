/**
 * A pod's or a template's volumes, for the volume sources the sandbox runs
 * (upstream: staging/src/k8s.io/kubectl/pkg/describe/describe.go — describeVolumes, printProjectedVolumeSource).
 */
import type { Volume } from 'kubernetes-types/core/v1';
import { quantityText } from './format';
import { L0, L1, L2 } from './writer';
import type { PrefixWriter } from './writer';

/** describeVolumes for the volume sources the sandbox runs. */
export function describeVolumes(w: PrefixWriter, volumes: readonly Volume[] | undefined, space: string): void {
  const list = volumes ?? [];
  if (list.length === 0) return w.write(L0, `${space}Volumes:\t<none>\n`);
  w.write(L0, `${space}Volumes:\n`);
  for (const v of list) {
    w.write(L1, `${space ? ' ' : ''}${v.name}:\n`);
    if (v.configMap)
      w.write(
        L2,
        `Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t${v.configMap.name ?? ''}\n    Optional:\t${v.configMap.optional === true}\n`,
      );
    else if (v.secret)
      w.write(
        L2,
        `Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t${v.secret.secretName ?? ''}\n    Optional:\t${v.secret.optional === true}\n`,
      );
    else if (v.emptyDir)
      w.write(
        L2,
        `Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t${v.emptyDir.medium ?? ''}\n    SizeLimit:\t${v.emptyDir.sizeLimit ? quantityText(v.emptyDir.sizeLimit) : '<unset>'}\n`,
      );
    else if (v.persistentVolumeClaim)
      w.write(
        L2,
        `Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t${v.persistentVolumeClaim.claimName}\n    ReadOnly:\t${v.persistentVolumeClaim.readOnly === true}\n`,
      );
    else if (v.hostPath)
      w.write(
        L2,
        `Type:\tHostPath (bare host directory volume)\n    Path:\t${v.hostPath.path}\n    HostPathType:\t${v.hostPath.type || '<none>'}\n`,
      );
    else if (v.projected) {
      w.write(L2, 'Type:\tProjected (a volume that contains injected data from multiple sources)\n');
      for (const s of v.projected.sources ?? []) {
        if (s.secret)
          w.write(
            L2,
            `SecretName:\t${s.secret.name ?? ''}\n    SecretOptionalName:\t${optionalText(s.secret.optional)}\n`,
          );
        else if (s.downwardAPI) w.write(L2, 'DownwardAPI:\ttrue\n');
        else if (s.configMap)
          w.write(
            L2,
            `ConfigMapName:\t${s.configMap.name ?? ''}\n    ConfigMapOptional:\t${optionalText(s.configMap.optional)}\n`,
          );
        else if (s.serviceAccountToken)
          w.write(L2, `TokenExpirationSeconds:\t${s.serviceAccountToken.expirationSeconds ?? 3607}\n`);
      }
    } else w.write(L1, '<unknown>\n');
  }
}

/**
 * printProjectedVolumeSource prints the `*bool` with `%v`: `<nil>` when unset (what every kube-api-access volume
 * shows); a set one is a pointer address there, its value here.
 */
function optionalText(optional: boolean | undefined): string {
  return optional === undefined ? '<nil>' : String(optional);
}
