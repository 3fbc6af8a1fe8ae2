/**
 * One container instance, run: its process (the command, or the image's
 * entrypoint) interpreted in simulated time from its start, against its
 * files — a fresh root with the pod's volumes mounted — and its environment.
 * The result says what it prints, when it exits and with which code (or that
 * it runs until stopped), what SIGTERM does to its PID 1, which servers in it
 * answer probes, and runs commands in it (exec probes, `kubectl exec`) at any
 * time. A behaviour annotation's exit (`crash-after`, `exit-after`…)
 * overrides the process's own.
 */
import type { Container, Pod } from 'kubernetes-types/core/v1';
import type { ContainerBehavior } from '../behaviors';
import { BEHAVIOR_ANNOTATION, parseBehavior } from '../behaviors';
import type { Range } from '../delays';
import { formatGoDuration } from '../duration';
import { imageBaseName } from '../images';
import type { ImageStyle } from '../logs/imageStyles';
import type { LineSource } from '../logs/lineSource';
import { customLogSources, customLogs } from '../logs/customLogs';
import { basename } from '../shell/commands';
import { Shell, runScript } from '../shell/run';
import type { RunningProgram, ScriptRun } from '../shell/run';
import type { Resolution, ShellHost } from '../shell/types';
import type { EnvEntries } from './env';
import { expandKubeVars, processEnvironment } from './env';
import type { ContainerFs } from './fileSystem';
import { ScratchFs } from './fileSystem';
import type { ProgramContext, ProgramTiming, ServerProcess, SignalHandling } from './programs';
import { dialectOf, imageArgv, nslookupStyleOf, runProgram } from './programs';

/** Why an instance ended: its own exit, the crash action, a graceful stop after SIGTERM, or SIGKILL. */
export type ExitCause = 'exit' | 'crash' | 'stopped' | 'killed';

export interface RunInput {
  pod: Pod;
  container: Container;
  init: boolean;
  /** An init container with `restartPolicy: Always`. */
  sidecar: boolean;
  behavior: ContainerBehavior;
  startedAt: number;
  podIP: string;
  /**
   * The kubelet's variables, resolved at the container's creation (the process environment is built from them, the
   * pod and the container on each read: `processEnv`).
   */
  kubeletEnv: EnvEntries;
  fs: ContainerFs;
  /** Where volumes are mounted. */
  mountedPaths: readonly string[];
  /** The container is not restarted after it succeeds (Jobs, `Never`/`OnFailure`, init containers). */
  batch: boolean;
  /** A seeded draw from a range (ms). */
  draw(range: Range): number;
  timing: ProgramTiming & { initWork: Range };
  /** The cluster's DNS at a time (undefined: lookups are not simulated). */
  resolve?(name: string, t: number): Resolution;
}

export interface ExecOutcome {
  code: number;
  stdout: string;
  stderr: string;
  /** The command would run until stopped (the sandbox stopped it there). */
  blocked: boolean;
  /** How long it took (ms of simulated time). */
  tookMs: number;
  /** A program the sandbox cannot run (`kubectl exec` only). */
  notFound?: string;
}

export interface ContainerRun {
  readonly sources: readonly LineSource[];
  /** When it exits on its own, with which code (undefined: it runs until stopped). */
  readonly exit?: { at: number; code: number; oom?: boolean };
  /** What SIGTERM does to it. */
  readonly signal: SignalHandling;
  /** What its PID 1 is, in words (`sh`, `nginx`, `sleep`). */
  readonly pid1: string;
  /** The servers running in it at `t`. */
  servers(t: number): readonly ServerProcess[];
  /** When what its probes see may next change after `t` (a server starts or turns unhealthy, a file changes). */
  nextChangeAfter(t: number): number | undefined;
  /** Runs `argv` in it at `t`: exec probes (unknown programs succeed, writes are not kept) or `kubectl exec`. */
  exec(argv: readonly string[], t: number, mode: 'probe' | 'exec'): ExecOutcome;
  /** Lines printed when it gets its stop signal (ignored when its behaviour says `ignore-sigterm`). */
  onSignal(at: number): string[];
  onExit(at: number, code: number, oom: boolean, cause: ExitCause): string[];
}

/** The argv the container runs (command and args with the kubelet's `$(VAR)` expansion), or the image's. */
export function containerArgv(container: Container, env: ReadonlyMap<string, string>): string[] {
  const expand = (a: string) => expandKubeVars(a, env);
  if (container.command && container.command.length > 0)
    return [...container.command, ...(container.args ?? [])].map(expand);
  const args = container.args?.map(expand);
  const image = container.image ?? '';
  // An image the sandbox does not know: its entrypoint is "the image's program", named after the image.
  return imageArgv(image, args) ?? [imageBaseName(image) || 'entrypoint', ...(args ?? [])];
}

/** The annotation settings that make it exit (`crash-after=30s exit=2`), or undefined. */
function annotatedExit(pod: Pod, container: Container, init: boolean): string | undefined {
  const annotations = pod.metadata?.annotations ?? {};
  const names = [...(init ? [] : [BEHAVIOR_ANNOTATION]), `${BEHAVIOR_ANNOTATION}.${container.name}`];
  const tokens = names
    .flatMap((n) => (annotations[n] ?? '').trim().split(/\s+/))
    .filter((t) => /^(crash-after|oom-after|exit-after|exit)=/.test(t));
  return parseBehavior(tokens.join(' ')).behavior.exit ? tokens.join(' ') : undefined;
}

/** The behaviour in words, for the generic start-up line of an image the sandbox does not know. */
export function describeBehavior(b: ContainerBehavior, init: boolean, batch: boolean): string {
  const parts: string[] = [];
  const e = b.exit;
  const when = (after: number | string) =>
    typeof after === 'number' ? `after ${formatGoDuration(after)}` : after === 'quick' ? 'at once' : 'after its work';
  if (!e) parts.push(batch ? 'runs as batch work, then exits 0' : 'runs until stopped');
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

/** Programs that, as PID 1, have no SIGTERM handler (the signal is ignored; SIGKILL ends them). */
const NO_HANDLER = new Set(['sleep', 'tail', 'cat', 'yes', 'wait', 'sh', 'bash', 'ash', 'dash']);

function signalOf(
  run: ScriptRun,
  behavior: ContainerBehavior,
): { handling: SignalHandling; pid1: string; process?: ServerProcess } {
  if (behavior.ignoreSigterm) return { handling: { kind: 'ignore' }, pid1: 'ignore-sigterm' };
  const pid1 = run.running.find((r) => r.replacedShell);
  if (!pid1 || run.shellIsPid1) {
    // The shell is PID 1: it ignores SIGTERM unless the script traps it.
    const trap = run.traps.get('TERM') ?? run.traps.get('15');
    if (trap !== undefined && trap !== '' && trap !== '-') {
      const m = /\bexit\s+(\d+)/.exec(trap);
      return { handling: { kind: 'exit', code: m ? Number(m[1]) & 255 : /\bexit\b/.test(trap) ? 0 : 143 }, pid1: 'sh' };
    }
    return { handling: { kind: 'ignore' }, pid1: 'sh' };
  }
  const process = pid1.process as ServerProcess | undefined;
  if (process) return { handling: process.signal, pid1: process.name, process };
  const name = basename(pid1.argv[0] ?? 'sh');
  return { handling: NO_HANDLER.has(name) ? { kind: 'ignore' } : { kind: 'exit', code: 0 }, pid1: name };
}

function processes(running: readonly RunningProgram[]): ServerProcess[] {
  // `slice`: an exact-size copy (what `filter` builds by pushes keeps room for more).
  return running
    .map((r) => r.process as ServerProcess | undefined)
    .filter((p): p is ServerProcess => p !== undefined)
    .slice();
}

export function runContainer(input: RunInput): ContainerRun {
  return new InstanceRun(input);
}

/**
 * A running instance, as a class rather than closures over the run: per instance it keeps the input, its servers and
 * what its start decided (exit, signal, PID 1); the program context and shell host are made again for each exec, and
 * the environment is built from the input on each read (issue 16: a `Map` per container otherwise). It is also its
 * log's program (`ContainerProgram`, by shape): its sources, its stop signal's and exit's lines.
 */
class InstanceRun implements ContainerRun {
  readonly sources: readonly LineSource[];
  readonly exit?: { at: number; code: number; oom?: boolean };
  readonly signal: SignalHandling;
  readonly pid1: string;
  /** Its servers: one kept as itself, several as an exact-size list (issue 16: a list per container otherwise). */
  private readonly mainServers: ServerProcess | readonly ServerProcess[] | undefined;
  /** The process that is PID 1, when it is a server with a log style. */
  private readonly process: ServerProcess | undefined;
  private readonly annotated: string | undefined;

  constructor(private readonly input: RunInput) {
    const { pod, container, init, behavior, startedAt } = input;
    const env = processEnv(input);
    const argv = containerArgv(container, env);
    this.annotated = annotatedExit(pod, container, init);
    const ctx = this.context('main', env);
    const run = runScript(argv, hostFor(input, ctx, env), startedAt);
    const servers = processes(run.running);
    this.mainServers = servers.length === 0 ? undefined : servers.length === 1 ? servers[0] : servers;
    for (const loop of run.loops) if (loop.writes) input.fs.addPeriodic(loop.first, loop.period, loop.writes);

    this.sources = [...run.sources, ...customLogSources(customLogs(pod, container, init).lines, startedAt)];
    const e = behavior.exit;
    if (e) {
      const after =
        e.after === 'quick'
          ? input.draw(input.timing.quickExit)
          : e.after === 'work'
            ? input.draw(input.timing.initWork)
            : e.after;
      this.exit = { at: startedAt + after, code: e.code, oom: e.oom };
    } else if (run.flow === 'ok' || run.flow === 'exit') {
      // A process that is done at once still takes a moment to start and exit.
      const took = run.end - startedAt;
      this.exit = { at: took > 0 ? run.end : startedAt + input.draw(input.timing.quickExit), code: run.status & 255 };
    }
    const { handling, pid1, process } = signalOf(run, behavior);
    this.signal = handling;
    this.pid1 = pid1;
    this.process = process;
  }

  /** The program context of the main process, an exec probe or `kubectl exec` (made per use, not kept). */
  private context(mode: ProgramContext['mode'], env: ReadonlyMap<string, string>): ProgramContext {
    const { input } = this;
    const { pod, container, init, behavior } = input;
    return {
      image: container.image ?? '',
      container: container.name,
      env,
      fs: input.fs,
      hostname: pod.spec?.hostname ?? pod.metadata?.name ?? '',
      podIP: input.podIP,
      ports: (container.ports ?? []).map((p) => p.containerPort),
      mode,
      batch: input.batch,
      draw: (range) => input.draw(range),
      timing: { ...input.timing, batchWork: init ? input.timing.initWork : input.timing.batchWork },
      servers: (t) => this.servers(t),
      behaviorText: describeBehavior(behavior, init, input.batch),
      mountedPaths: input.mountedPaths,
      specCommand:
        container.command || container.args
          ? [...(container.command ?? []), ...(container.args ?? [])].join(' ')
          : undefined,
      resolve: input.resolve && ((name, t) => input.resolve!(name, t)),
    };
  }

  private get allServers(): readonly ServerProcess[] {
    const s = this.mainServers;
    return s === undefined ? [] : Array.isArray(s) ? (s as readonly ServerProcess[]) : [s as ServerProcess];
  }

  servers(t: number): readonly ServerProcess[] {
    return this.allServers.filter((s) => s.startedAt <= t);
  }

  nextChangeAfter(t: number): number | undefined {
    const times = [this.input.fs.nextChangeAfter(t)];
    for (const s of this.allServers) {
      if (s.startedAt > t) times.push(s.startedAt);
      times.push(s.changesAfter?.(t));
    }
    const defined = times.filter((x): x is number => x !== undefined && x > t);
    return defined.length > 0 ? Math.min(...defined) : undefined;
  }

  exec(words: readonly string[], t: number, mode: 'probe' | 'exec'): ExecOutcome {
    const env = processEnv(this.input);
    const ctx = this.context(mode, env);
    return execIn(words, t, mode, this.input, ctx, hostFor(this.input, ctx, env));
  }

  onSignal(at: number): string[] {
    if (this.process) return this.process.style.signal(at, this.input.behavior.ignoreSigterm === true);
    return this.input.behavior.ignoreSigterm
      ? ['[sandbox] SIGTERM ignored (ignore-sigterm): the kubelet kills the container when the grace period ends']
      : [];
  }

  onExit(at: number, code: number, oom: boolean, cause: ExitCause): string[] {
    const style: ImageStyle | undefined = this.process?.style;
    const say = (level: 'info' | 'warn' | 'error', message: string) =>
      style ? style.line(at, level, message) : `[sandbox] ${message}`;
    const { annotated } = this;
    if (cause === 'crash') return [say('error', 'killed by the sandbox crash action (exit code 137)')];
    if (cause === 'stopped') return this.process ? this.process.style.stopped(at) : [];
    if (cause !== 'exit') return [];
    const memory = this.input.container.resources?.limits?.memory;
    const limit = memory ? `, memory limit ${memory}` : '';
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
    return [];
  }
}

/** The process environment of the instance, built from its input on each read (the same content every time). */
export function processEnv(input: RunInput): Map<string, string> {
  return processEnvironment(input.pod, input.container, input.kubeletEnv);
}

/** The shell host of a script run in the container: made for the start and again for each exec, not kept. */
function hostFor(input: RunInput, ctx: ProgramContext, env: ReadonlyMap<string, string>): ShellHost {
  const image = input.container.image ?? '';
  return {
    env,
    hostname: ctx.hostname,
    fs: input.fs,
    dialect: dialectOf(image),
    podIP: input.podIP,
    nslookupStyle: nslookupStyleOf(image),
    resolve: input.resolve && ((name, t) => input.resolve!(name, t)),
    onProgram: (words, at) => runProgram(words, at, ctx),
  };
}

/** Runs a command in the container at `t`, on its files (an exec probe's writes are not kept). */
function execIn(
  argv: readonly string[],
  t: number,
  mode: 'probe' | 'exec',
  input: RunInput,
  ctx: ProgramContext,
  base: ShellHost,
): ExecOutcome {
  let notFound: string | undefined;
  const fs = mode === 'probe' ? new ScratchFs(input.fs) : input.fs;
  const host: ShellHost = {
    ...base,
    fs,
    onProgram: (words, at) => {
      const result = runProgram(words, at, { ...ctx, fs });
      if (!result) notFound ??= basename(words[0]);
      return result;
    },
  };
  const sh = new Shell(host, t, new Map(base.env), true);
  sh.replaceProcess();
  const flow = argv.length === 0 ? 'ok' : sh.command(argv);
  sh.flush();
  const blocked = flow === 'block' || flow === 'loop';
  return {
    code: sh.status,
    stdout: sh.stdoutText,
    stderr: sh.stderrText,
    blocked,
    tookMs: sh.t - t,
    notFound,
  };
}
