/**
 * What one container instance prints, decided when it starts: a command the
 * kubelet can read (`echo`, `sleep`, shell scripts) prints its own output; a
 * well-known image prints its server's start-up in that image's style; any
 * other image prints a generic start-up line naming the image and the
 * sandbox behaviour. Then: the app's side of the kubelet's HTTP probes, the
 * user's custom lines, and what it prints on SIGTERM and when it exits.
 */
import type { Container, Pod } from 'kubernetes-types/core/v1';
import type { ContainerBehavior } from '../behaviors';
import { BEHAVIOR_ANNOTATION, parseBehavior } from '../behaviors';
import { SHELL_IMAGES, imageBaseName } from '../commandBehavior';
import { formatGoDuration } from '../duration';
import { startupAt } from '../probes';
import { containerArgv, containerEnv } from './containerEnv';
import { customLogSources, customLogs } from './customLogs';
import type { ImageStyle } from './imageStyles';
import { isGeneric, styleFor } from './imageStyles';
import type { LineSource } from './lineSource';
import { fixedLines } from './lineSource';
import { probeSources } from './probeLines';
import { basename, COMMANDS } from './shell/commands';
import { runScript } from './shell/run';

/**
 * Why an instance ended: its own exit (behaviour or command), the crash action, a graceful stop after SIGTERM, or
 * SIGKILL.
 */
export type ExitCause = 'exit' | 'crash' | 'stopped' | 'killed';

export interface ProgramInput {
  pod: Pod;
  container: Container;
  init: boolean;
  behavior: ContainerBehavior;
  startedAt: number;
  podIP: string;
  hostIP: string;
  /** Files of the container's ConfigMap and Secret volumes by absolute path (for `cat`). */
  readFile?: (path: string) => string | undefined;
}

export interface ContainerProgram {
  readonly sources: readonly LineSource[];
  /** Printed when the container gets its stop signal. */
  onSignal(at: number): string[];
  onExit(at: number, code: number, oom: boolean, cause: ExitCause): string[];
}

/**
 * The annotation settings that make it exit (`crash-after=30s exit=2`), or undefined when its exit is the command's.
 */
function annotatedExit(pod: Pod, container: Container, init: boolean): string | undefined {
  const annotations = pod.metadata?.annotations ?? {};
  const names = [...(init ? [] : [BEHAVIOR_ANNOTATION]), `${BEHAVIOR_ANNOTATION}.${container.name}`];
  const tokens = names
    .flatMap((n) => (annotations[n] ?? '').trim().split(/\s+/))
    .filter((t) => /^(crash-after|oom-after|exit-after|exit)=/.test(t));
  return parseBehavior(tokens.join(' ')).behavior.exit ? tokens.join(' ') : undefined;
}

/** The behaviour in words, for the generic start-up line. */
export function describeBehavior(b: ContainerBehavior, init: boolean): string {
  const parts: string[] = [];
  const e = b.exit;
  const when = (after: number | string) =>
    typeof after === 'number' ? `after ${formatGoDuration(after)}` : after === 'quick' ? 'at once' : 'after its work';
  if (!e) parts.push('runs until stopped');
  else if (e.oom) parts.push(`is OOM-killed ${when(e.after)}`);
  else if (e.code === 0) parts.push(`completes ${when(e.after)}`);
  else parts.push(`exits with code ${e.code} ${when(e.after)}`);
  if (b.neverReady) parts.push('never ready');
  else if (b.readyAfterMs !== undefined) parts.push(`ready ${formatGoDuration(b.readyAfterMs)} after start`);
  if (b.livenessFailAfterMs !== undefined)
    parts.push(`liveness fails after ${formatGoDuration(b.livenessFailAfterMs)}`);
  if (b.ignoreSigterm) parts.push('ignores SIGTERM');
  return init ? `init container: ${parts.join('; ')}` : parts.join('; ');
}

type Say = (level: 'info' | 'warn' | 'error', message: string) => string;

function exitLines(
  say: Say,
  code: number,
  oom: boolean,
  cause: ExitCause,
  annotated: string | undefined,
  commandExit: boolean,
  memory?: string,
): string[] {
  const limit = memory ? `, memory limit ${memory}` : '';
  if (cause === 'crash') return [say('error', 'killed by the sandbox crash action (exit code 137)')];
  if (cause !== 'exit') return [];
  if (oom)
    return [
      say(
        'error',
        `out of memory: killed by the kernel OOM killer (exit code 137, reason OOMKilled${limit})${annotated ? ` [${annotated}]` : ''}`,
      ),
    ];
  if (annotated)
    return [
      code === 0
        ? say('info', `finished, exiting with code 0 [${annotated}]`)
        : say('error', `fatal error, exiting with code ${code} [${annotated}]`),
    ];
  if (commandExit) return [];
  return [
    code === 0 ? say('info', 'finished, exiting with code 0') : say('error', `fatal error, exiting with code ${code}`),
  ];
}

export function containerProgram(input: ProgramInput): ContainerProgram {
  const { pod, container, init, behavior, startedAt } = input;
  const image = container.image ?? '';
  const style: ImageStyle = styleFor(image);
  const vars = containerEnv(pod, container, input);
  const argv = containerArgv(container, SHELL_IMAGES.has(imageBaseName(image)), vars);
  const scripted =
    argv !== undefined && (argv.length === 0 || Object.prototype.hasOwnProperty.call(COMMANDS, basename(argv[0])));
  const custom = customLogSources(customLogs(pod, container, init).lines, startedAt);
  const annotated = annotatedExit(pod, container, init);
  const memory = container.resources?.limits?.memory;
  const ignored = behavior.ignoreSigterm === true;
  if (scripted) {
    const host = {
      env: vars,
      hostname: pod.metadata?.name ?? '',
      readFile: input.readFile,
      onProgram: (words: readonly string[], at: number) =>
        style.programs.includes(basename(words[0]))
          ? style.startup(at, { image, container: container.name, podIP: input.podIP, behavior: '' })
          : [],
    };
    const say: Say = (_, message) => `[sandbox] ${message}`;
    return {
      sources: [...runScript(argv, host, startedAt), ...custom],
      onSignal: () =>
        ignored
          ? ['[sandbox] SIGTERM ignored (ignore-sigterm): the kubelet kills the container when the grace period ends']
          : [],
      onExit: (_, code, oom, cause) => exitLines(say, code, oom, cause, annotated, true, memory),
    };
  }
  const port = container.ports?.[0]?.containerPort;
  const command = argv?.join(' ') ?? (isGeneric(style) && container.args ? container.args.join(' ') : undefined);
  const startup = style.startup(startedAt, {
    image,
    container: container.name,
    podIP: input.podIP,
    port,
    behavior: describeBehavior(behavior, init),
    command,
  });
  return {
    sources: [
      fixedLines(startup),
      ...probeSources({ ...input, style, okAt: startupAt(container.startupProbe, startedAt) }),
      ...custom,
    ],
    onSignal: (at) => style.signal(at, ignored),
    onExit: (at, code, oom, cause) =>
      cause === 'stopped'
        ? style.stopped(at)
        : exitLines((level, message) => style.line(at, level, message), code, oom, cause, annotated, false, memory),
  };
}
