/**
 * `kubectl exec` in a simulated container: the command runs in the running
 * instance (container/run.ts) — its environment, its files as its process
 * left them (and what the exec writes stays), its servers. A program the
 * sandbox cannot run is exit 127, said on stderr; the command takes no real
 * time, and one that would run forever is stopped where it would wait.
 */
import type { Pod } from 'kubernetes-types/core/v1';
import { badRequest, statusFailure } from '../api/errors';
import type { ApiError } from '../api/errors';
import type { ExecOutcome } from './container/run';
import { logContainerName } from './logs/logErrors';

export interface ExecResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/**
 * What a stream subresource (exec, attach, port-forward) needs: which stream it is for, and the requested container.
 */
export type StreamKind = 'exec' | 'attach' | 'portforward';

/**
 * The checks before a stream opens, as the API server (pkg/registry/core/pod
 * `streamLocation`) and the kubelet make them: 400 for a pod with no node, a
 * container that must be named or is unknown, a completed pod or a container
 * that is not running. Returns the container's name (undefined for port-forward).
 */
export function streamContainer(pod: Pod, kind: StreamKind, requested: string | undefined): string | undefined {
  const name = pod.metadata?.name ?? '';
  const container = kind === 'portforward' ? undefined : logContainerName(pod, requested);
  if (!pod.spec?.nodeName) throw badRequest(`pod ${name} does not have a host assigned`);
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') {
    throw badRequest(
      `cannot ${kind === 'portforward' ? 'port-forward to' : `${kind} into`} a container in a completed pod; current phase is ${phase}`,
    );
  }
  if (container !== undefined) {
    const statuses = [
      ...(pod.status?.initContainerStatuses ?? []),
      ...(pod.status?.containerStatuses ?? []),
      ...(pod.status?.ephemeralContainerStatuses ?? []),
    ];
    if (!statuses.find((s) => s.name === container)?.state?.running)
      throw badRequest(`container not found (${JSON.stringify(container)})`);
  } else if (phase !== 'Running') {
    throw badRequest(`pod ${name} is not running`);
  }
  return container;
}

/** What `kubectl exec` gets back from a simulated container's run of a command (see container/run.ts). */
export function execResult(outcome: ExecOutcome): ExecResult {
  if (outcome.notFound !== undefined) {
    return {
      stdout: outcome.stdout,
      stderr: `${outcome.stderr}(the sandbox simulates containers: it runs shell built-ins, common tools and the programs of the images it knows, not ${outcome.notFound})\n`,
      exitCode: 127,
    };
  }
  if (outcome.blocked) {
    return {
      stdout: outcome.stdout,
      stderr: `${outcome.stderr}the sandbox stopped the command where it would run until stopped\n`,
      exitCode: 0,
    };
  }
  return { stdout: outcome.stdout, stderr: outcome.stderr, exitCode: outcome.code };
}

/** 500 from the API server when the pod's kubelet cannot be reached for a stream. */
export function backendUnreachable(hostIP: string): ApiError {
  return statusFailure(500, '', `error dialing backend: dial tcp ${hostIP}:10250: connect: connection refused`);
}
