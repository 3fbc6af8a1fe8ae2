/**
 * `kubectl exec` in a simulated container: the command runs in the shell
 * interpreter the container logs use, with the container's environment and
 * the files its ConfigMap and Secret volumes project. Commands the
 * interpreter does not know cannot run (exit 127, said on stderr); time does
 * not pass, so `sleep` returns at once, and a command that would run
 * forever is stopped where it would wait.
 */
import type { Container, EnvVar, Pod } from 'kubernetes-types/core/v1';
import { badRequest, statusFailure } from '../api/errors';
import type { ApiError } from '../api/errors';
import { containerEnv } from './logs/containerEnv';
import { logContainerName } from './logs/logErrors';
import type { ReadConfig } from './logs/mountedFiles';
import { configValue, mountedFiles } from './logs/mountedFiles';
import { basename } from './logs/shell/commands';
import { Shell } from './logs/shell/run';

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

/**
 * `$` doubled, so a value read from a ConfigMap or Secret is not `$(VAR)`-expanded (upstream expands only literal
 * values).
 */
const literal = (text: string): string => text.replace(/\$/g, '$$$$');

/** The container's env with ConfigMap and Secret references (`envFrom`, `valueFrom`) resolved to their values. */
function resolvedEnv(pod: Pod, container: Container, read: ReadConfig): EnvVar[] {
  const namespace = pod.metadata?.namespace ?? 'default';
  const text = (resource: 'configmaps' | 'secrets', name: string, key: string): string | undefined =>
    configValue(read, resource, namespace, name, key);
  const out: EnvVar[] = [];
  for (const from of container.envFrom ?? []) {
    const resource = from.configMapRef ? 'configmaps' : 'secrets';
    const name = from.configMapRef?.name ?? from.secretRef?.name ?? '';
    for (const key of Object.keys(read(resource, namespace, name)?.data ?? {})) {
      if (!/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(`${from.prefix ?? ''}${key}`)) continue;
      out.push({ name: `${from.prefix ?? ''}${key}`, value: literal(text(resource, name, key) ?? '') });
    }
  }
  for (const e of container.env ?? []) {
    const ref = e.valueFrom?.configMapKeyRef ?? e.valueFrom?.secretKeyRef;
    if (!ref) {
      out.push(e);
      continue;
    }
    const value = text(e.valueFrom?.configMapKeyRef ? 'configmaps' : 'secrets', ref.name ?? '', ref.key);
    if (value !== undefined) out.push({ name: e.name, value: literal(value) });
  }
  return out;
}

export interface ExecInput {
  pod: Pod;
  container: string;
  argv: readonly string[];
  podIP: string;
  hostIP: string;
  now: number;
  readConfig: ReadConfig;
}

/** Runs `argv` in the container (already checked by `streamContainer`). */
export function execInContainer(input: ExecInput): ExecResult {
  const { pod, argv } = input;
  const spec = [
    ...(pod.spec?.initContainers ?? []),
    ...(pod.spec?.containers ?? []),
    ...(pod.spec?.ephemeralContainers ?? []),
  ].find((c) => c.name === input.container) as Container;
  const env = containerEnv(pod, { ...spec, env: resolvedEnv(pod, spec, input.readConfig) }, input);
  let unknown: string | undefined;
  const host = {
    env,
    hostname: pod.metadata?.name ?? '',
    readFile: mountedFiles(pod, spec, input.readConfig),
    onProgram: (words: readonly string[]) => {
      unknown ??= basename(words[0]);
      return [];
    },
  };
  // Nested: an endless loop stops where it would wait instead of becoming a periodic log.
  const sh = new Shell(host, input.now, new Map(env), true);
  const flow = argv.length === 0 ? 'ok' : sh.command(argv);
  sh.flush();
  const stdout = sh.out.map((l) => `${l.text}\n`).join('');
  if (unknown !== undefined) {
    return {
      stdout,
      stderr: `sh: ${unknown}: not found (the sandbox simulates containers: only shell built-ins and a few busybox commands run)\n`,
      exitCode: 127,
    };
  }
  if (flow === 'block' || flow === 'loop') {
    return { stdout, stderr: 'the sandbox stopped the command where it would run until stopped\n', exitCode: 0 };
  }
  return { stdout, stderr: '', exitCode: sh.status };
}

/** 500 from the API server when the pod's kubelet cannot be reached for a stream. */
export function backendUnreachable(hostIP: string): ApiError {
  return statusFailure(500, '', `error dialing backend: dial tcp ${hostIP}:10250: connect: connection refused`);
}
