/**
 * Why a log request is refused, worded as upstream: the API server's checks
 * (pkg/registry/core/pod/strategy.go `validateContainer`, the options'
 * validation), the kubelet's (kubelet_pods.go `validateContainerLogStatus`,
 * relayed as 400 BadRequest), and a kubelet the API server cannot reach.
 */
import type { ContainerStatus, Pod } from 'kubernetes-types/core/v1';
import { badRequest, statusFailure } from '../../api/errors';
import type { ApiError } from '../../api/errors';
import type { StatusCause } from '../../api/errors';
import type { PodLogOptions } from './logOptions';

/** `ValidatePodLogOptions` → 422 `PodLogOptions "web" is invalid: …`. */
export function validateLogOptions(podName: string, o: PodLogOptions): void {
  const causes: StatusCause[] = [];
  const invalid = (field: string, value: number, detail: string) =>
    causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${value}: ${detail}`, field });
  if (o.tailLines !== undefined && o.tailLines < 0)
    invalid('tailLines', o.tailLines, 'must be greater than or equal to 0');
  if (o.limitBytes !== undefined && o.limitBytes < 1) invalid('limitBytes', o.limitBytes, 'must be greater than 0');
  if (o.sinceSeconds !== undefined && o.sinceTime !== undefined)
    causes.push({
      reason: 'FieldValueForbidden',
      message: 'Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified',
      field: '',
    });
  else if (o.sinceSeconds !== undefined && o.sinceSeconds < 1)
    invalid('sinceSeconds', o.sinceSeconds, 'must be greater than 0');
  if (causes.length === 0) return;
  // Every cause prints its field path, an empty one too (`: Forbidden: …`), as upstream's field.Error does.
  const texts = causes.map((c) => `${c.field}: ${c.message}`);
  const errs = texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
  throw statusFailure(422, 'Invalid', `PodLogOptions "${podName}" is invalid: ${errs}`, {
    name: podName,
    group: '',
    kind: 'PodLogOptions',
    causes,
  });
}

/** Every container name of the pod, init containers first (podutil.VisitContainers). */
function containerNames(pod: Pod): string[] {
  const spec = pod.spec;
  return [...(spec?.initContainers ?? []), ...(spec?.containers ?? []), ...(spec?.ephemeralContainers ?? [])].map(
    (c) => c.name,
  );
}

/** The container a request is for: the one named, or the pod's only one; 400 otherwise. */
export function logContainerName(pod: Pod, requested: string | undefined): string {
  const name = pod.metadata?.name ?? '';
  const containers = pod.spec?.containers ?? [];
  if (requested === undefined || requested === '') {
    if (containers.length === 1) return containers[0].name;
    if (containers.length === 0) throw badRequest(`a container name must be specified for pod ${name}`);
    throw badRequest(
      `a container name must be specified for pod ${name}, choose one of: [${containerNames(pod).join(' ')}]`,
    );
  }
  if (!containerNames(pod).includes(requested)) throw badRequest(`container ${requested} is not valid for pod ${name}`);
  return requested;
}

/** The kubelet's choice of container instance for a status: its ID, or the 400 upstream gives. */
export function logContainerID(
  status: Pick<ContainerStatus, 'state' | 'lastState' | 'containerID'> | undefined,
  container: string,
  pod: string,
  previous: boolean,
): string {
  const c = JSON.stringify(container);
  const p = JSON.stringify(pod);
  if (!status) throw badRequest(`container ${c} in pod ${p} is not available`);
  const last = status.lastState?.terminated;
  const { waiting, running, terminated } = status.state ?? {};
  if (previous) {
    if (!last?.containerID) throw badRequest(`previous terminated container ${c} in pod ${p} not found`);
    return last.containerID;
  }
  if (running) return status.containerID ?? '';
  if (terminated) {
    const id = terminated.containerID || last?.containerID;
    if (!id) throw badRequest(`container ${c} in pod ${p} is terminated`);
    return id;
  }
  if (last) {
    if (!last.containerID) throw badRequest(`container ${c} in pod ${p} is terminated`);
    return last.containerID;
  }
  if (waiting) {
    if (waiting.reason === 'ErrImagePull')
      throw badRequest(`container ${c} in pod ${p} is waiting to start: image can't be pulled`);
    if (waiting.reason === 'ImagePullBackOff')
      throw badRequest(`container ${c} in pod ${p} is waiting to start: trying and failing to pull image`);
    throw badRequest(`container ${c} in pod ${p} is waiting to start: ${waiting.reason ?? ''}`);
  }
  throw badRequest(`container ${c} in pod ${p} is waiting to start - no logs yet`);
}

/**
 * The node's kubelet does not answer (the node failed): the API server's
 * dial error, a 500 with no reason, as kubectl shows it:
 * `Get "https://10.0.0.3:10250/containerLogs/default/web/app": dial tcp 10.0.0.3:10250: connect: connection refused`.
 */
export function kubeletUnreachable(
  hostIP: string,
  pod: Pod,
  container: string,
  o: PodLogOptions & { follow?: boolean },
): ApiError {
  const params: [string, string | number | boolean | undefined][] = [
    ['follow', o.follow || undefined],
    ['limitBytes', o.limitBytes],
    ['previous', o.previous || undefined],
    ['sinceSeconds', o.sinceSeconds],
    ['sinceTime', o.sinceTime],
    ['tailLines', o.tailLines],
    ['timestamps', o.timestamps || undefined],
  ];
  const query = params
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');
  const host = `${hostIP}:10250`;
  const url = `https://${host}/containerLogs/${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}/${container}${query ? `?${query}` : ''}`;
  return statusFailure(500, '', `Get "${url}": dial tcp ${host}: connect: connection refused`);
}
