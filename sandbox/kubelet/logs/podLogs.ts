/**
 * The container logs of one pod on its node: per container, the log of the
 * current instance and of the one before it (upstream keeps one dead
 * instance per container, which `--previous` reads). The pod worker tells it
 * when instances start, get SIGTERM and exit; the kubelet reads and follows
 * through it. Everything goes when the pod leaves the node.
 */
import type { Clock } from '../../clock/clock';
import type { ExitCause } from '../container/run';
import type { LineSource } from './lineSource';

/** What one container instance prints: its sources, and what it prints on its stop signal and when it exits. */
export interface ContainerProgram {
  readonly sources: readonly LineSource[];
  onSignal(at: number): string[];
  onExit(at: number, code: number, oom: boolean, cause: ExitCause): string[];
}
import { InstanceLog } from './instanceLog';
import type { PodLogOptions } from './logOptions';
import { LogWriter, tail } from './logOptions';

/** Instances kept per container: the current one and the previous one. */
const KEPT_INSTANCES = 2;

/** One kept instance: its log, with the container it belongs to and what its program prints on signal and exit. */
class Instance extends InstanceLog {
  constructor(
    readonly container: string,
    containerID: string,
    clock: Clock,
    public program: ContainerProgram,
  ) {
    super(containerID, clock, program.sources);
  }
}

export class PodLogs {
  /** Every kept instance, in start order (one list for the pod, not a map of lists: issue 16). */
  private instances: Instance[] = [];

  constructor(private readonly clock: Clock) {}

  /** A new instance of `container` started (its program prints from now on). */
  started(container: string, containerID: string, program: ContainerProgram): void {
    // A new exact-size list (`concat`), not a push: a list grown by a push keeps room for 16 (~0.13 KiB a pod).
    this.instances = this.instances.concat([new Instance(container, containerID, this.clock, program)]);
    const mine = this.instances.filter((i) => i.container === container);
    if (mine.length > KEPT_INSTANCES) {
      const dropped = new Set(mine.slice(0, mine.length - KEPT_INSTANCES));
      for (const i of dropped) i.closeListeners();
      this.instances = this.instances.filter((i) => !dropped.has(i));
    }
  }

  /** The running instance's process was worked out again from `at` (what it looked up changed). */
  rebased(container: string, at: number, program: ContainerProgram): void {
    const current = this.current(container);
    if (!current) return;
    current.rebase(at, program.sources);
    current.program = program;
  }

  /** The running instance got its stop signal. */
  signaled(container: string): void {
    const current = this.current(container);
    current?.append(current.program.onSignal(this.clock.now()));
  }

  /** The running instance exited. */
  exited(container: string, code: number, oom: boolean, cause: ExitCause): void {
    const current = this.current(container);
    if (!current) return;
    current.append(current.program.onExit(this.clock.now(), code, oom, cause));
    current.end();
  }

  /** The log of one instance, by container ID (undefined once it is no longer kept). */
  instance(container: string, containerID: string): InstanceLog | undefined {
    return this.instances.find((i) => i.container === container && i.containerID === containerID);
  }

  /** Ends every follow (the kubelet stopped answering); the logs stay. */
  closeFollowers(): void {
    for (const i of this.instances) i.closeListeners();
  }

  /** The pod left the node: its logs go. */
  dispose(): void {
    this.closeFollowers();
    this.instances = [];
  }

  private current(container: string): Instance | undefined {
    let last: Instance | undefined;
    for (const i of this.instances) if (i.container === container) last = i;
    return last && !last.ended ? last : undefined;
  }
}

/**
 * Follows one instance's log: the current content (after `tailLines`) at
 * once, then each new line, until the instance ends, the byte limit is
 * reached, the follow is closed, or the returned function is called.
 */
export function followLog(
  log: InstanceLog,
  options: PodLogOptions,
  now: number,
  onText: (text: string) => void,
  onEnd: () => void,
): () => void {
  const writer = new LogWriter(options, now);
  const first = writer.write(tail(log.read(), options.tailLines));
  if (first !== '') onText(first);
  if (writer.full) {
    onEnd();
    return () => undefined;
  }
  let open = true;
  let unsubscribe: () => void = () => undefined;
  const close = () => {
    if (!open) return false;
    open = false;
    unsubscribe();
    return true;
  };
  unsubscribe = log.listen({
    lines: (lines) => {
      if (!open) return;
      const text = writer.write(lines);
      if (text !== '') onText(text);
      if (writer.full && close()) onEnd();
    },
    end: () => {
      if (close()) onEnd();
    },
  });
  if (!open) unsubscribe();
  return () => void close();
}
