/** The kubelet's event and status messages, worded as upstream's. */
import { formatGoDuration } from './duration';

/** `format.Pod`: `name_namespace(uid)`. */
export function podDescription(name: string, namespace: string, uid: string): string {
  return `${name}_${namespace}(${uid})`;
}

export const msg = {
  pulling: (image: string) => `Pulling image ${JSON.stringify(image)}`,
  pulled: (image: string, ms: number, size: number) =>
    `Successfully pulled image ${JSON.stringify(image)} in ${formatGoDuration(ms)} (${formatGoDuration(ms)} including waiting). Image size: ${size} bytes.`,
  present: (image: string) => `Container image ${JSON.stringify(image)} already present on machine`,
  pullFailed: (image: string, err: string) => `Failed to pull image ${JSON.stringify(image)}: ${err}`,
  pullBackOff: (image: string) => `Back-off pulling image ${JSON.stringify(image)}`,
  neverPull: (image: string) => `Container image ${JSON.stringify(image)} is not present with pull policy of Never`,
  invalidTag: (image: string, err: string) => `Failed to apply default image tag ${JSON.stringify(image)}: ${err}`,
  error: (reason: string) => `Error: ${reason}`,
  /** kubelet_pods.go getPullSecretsForPod. */
  pullSecrets: (names: readonly string[]) =>
    `Unable to retrieve some image pull secrets (${names.join(', ')}); attempting to pull the image may not succeed.`,
  /** The volume manager's reconciler and the kubelet's sync loop. */
  failedMount: (message: string) => message,
  created: (container: string) => `Created container: ${container}`,
  started: (container: string) => `Started container ${container}`,
  stopping: (container: string) => `Stopping container ${container}`,
  /** kuberuntime computePodActions / computeInitContainerActions kill messages. */
  probeKill: (kind: 'liveness' | 'startup', container: string, init: boolean, restart: boolean) =>
    init
      ? `Init container ${container} failed ${kind} probe`
      : `Container ${container} failed ${kind} probe${restart ? ', will be restarted' : ''}`,
  probeFailed: (kind: 'Liveness' | 'Readiness' | 'Startup', output: string) => `${kind} probe failed: ${output}`,
  crashLoop: (backoffMs: number, container: string, pod: string) =>
    `back-off ${formatGoDuration(backoffMs)} restarting failed container=${container} pod=${pod}`,
  backOffEvent: (container: string, pod: string) => `Back-off restarting failed container ${container} in pod ${pod}`,
};
