/**
 * What the simulated runtime knows about one container of a pod, and how it
 * reads as a `ContainerStatus`.
 */
import type { Container, ContainerState, ContainerStatus } from 'kubernetes-types/core/v1';
import { formatTimestamp } from '../clock/clock';
import type { ContainerBehavior } from './behaviors';
import type { ContainerFs } from './container/fileSystem';
import type { ContainerRun, RunInput } from './container/run';
import type { ImageRef } from './images';
import { normalizedImage } from './images';

export interface Termination {
  exitCode: number;
  reason: string;
  startedAt: number;
  finishedAt: number;
  containerID: string;
}

export type RuntimeState =
  | { kind: 'waiting'; reason: string; message?: string }
  | { kind: 'running'; startedAt: number }
  | { kind: 'terminated'; termination: Termination };

/** The cluster DNS names an instance's process consulted (`names` made on the first lookup). */
export interface LookedUp {
  names?: Set<string>;
}

/** What a running instance was run with, and how to run it again from its start on other files. */
export interface InstanceRunInput extends RunInput {
  /** The cluster DNS names its process consulted. */
  readonly lookedUp: LookedUp;
  /** The same input for the process worked out again from its start on `fs` (its draws again from the first). */
  rerun(fs: ContainerFs): InstanceRunInput;
}

export interface ContainerRuntime {
  readonly spec: Container;
  readonly init: boolean;
  /** An init container with `restartPolicy: Always`: runs alongside the others. */
  readonly sidecar: boolean;
  readonly behavior: ContainerBehavior;
  /** Parsed image, or the parse error (InvalidImageName). */
  readonly image: ImageRef | { error: string };
  state: RuntimeState;
  last?: Termination;
  restartCount: number;
  ready: boolean;
  started: boolean;
  /** The latest instance's id (`containerd://…`), '' before the first. */
  containerID: string;
  imageID: string;
  /** Bumped on every start and stop, so timers set for an older instance do nothing. */
  instance: number;
  /** A pull, start or restart is under way (the pod's sync must not launch it again). */
  busy: boolean;
  /** Launched at least once (for the start sequence). */
  launched: boolean;
  /** A sidecar that has started once: the next init container may run (later restarts do not hold it back). */
  initialized: boolean;
  /** The running instance: its process and its files (its input's). */
  run?: ContainerRun;
  readonly fs?: ContainerFs;
  /** When the running (or last) instance started (its input's). */
  readonly startedAt?: number;
  /** SIGTERM sent (liveness kill, completion or deletion): it is stopping. */
  stopping: boolean;
  /** Pending probe work (and the stop of a stopping one) for the current instance, cancelled when it ends. */
  tokens: number[];
  /** The current instance's own exit, pending. */
  exitToken?: number;
  /** Why the last start failed to create the container (CreateContainerConfigError), retried by the pod worker. */
  configError?: string;
  /** What the running instance was run with (to work its process out again when what it looked up changes). */
  runInput?: InstanceRunInput;
  /** The cluster DNS names the running instance's process consulted (its input's). */
  readonly lookedUp?: LookedUp;
}

/**
 * One container's record, every field assigned in the constructor (V8 keeps them in the object: a literal that gains
 * its optional fields later keeps them in a separate property array, ~0.1 KiB a container; issue 16).
 */
class ContainerRecord implements ContainerRuntime {
  readonly sidecar: boolean;
  state: RuntimeState;
  last: Termination | undefined = undefined;
  restartCount = 0;
  ready = false;
  started = false;
  containerID = '';
  imageID = '';
  instance = 0;
  busy = false;
  launched = false;
  initialized = false;
  run: ContainerRun | undefined = undefined;
  stopping = false;
  tokens: number[] = NO_TOKENS;
  exitToken: number | undefined = undefined;
  configError: string | undefined = undefined;
  runInput: InstanceRunInput | undefined = undefined;

  constructor(
    readonly spec: Container,
    readonly init: boolean,
    readonly behavior: ContainerBehavior,
    readonly image: ImageRef | { error: string },
    defaultWaiting: string,
  ) {
    this.sidecar = init && spec.restartPolicy === 'Always';
    this.state = waitingState(defaultWaiting);
  }

  // What the instance was run with answers these (issue 16: fields, and a boxed number, per container otherwise).
  get fs(): ContainerFs | undefined {
    return this.runInput?.fs;
  }

  get startedAt(): number | undefined {
    return this.runInput?.startedAt;
  }

  get lookedUp(): LookedUp | undefined {
    return this.runInput?.lookedUp;
  }
}

/**
 * No pending probe work: one shared, frozen empty list (most containers of a settled pod have none; a container's own
 * list is made on its first token: `addToken`).
 */
export const NO_TOKENS: number[] = Object.freeze([]) as unknown as number[];

/** Adds a pending token to the container's list (its own list made on the first). */
export function addToken(c: ContainerRuntime, token: number): void {
  if (c.tokens === NO_TOKENS) c.tokens = [token];
  else c.tokens.push(token);
}

/** The container's pending tokens, taken (its list is the shared empty one again). */
export function takeTokens(c: ContainerRuntime): readonly number[] {
  const tokens = c.tokens;
  c.tokens = NO_TOKENS;
  return tokens;
}

/** The first waiting state (`ContainerCreating`, `PodInitializing`): one shared object each, never changed. */
const waitingStates = new Map<string, RuntimeState>();
function waitingState(reason: string): RuntimeState {
  let state = waitingStates.get(reason);
  if (!state) waitingStates.set(reason, (state = Object.freeze({ kind: 'waiting', reason })));
  return state;
}

export function newContainerRuntime(
  spec: Container,
  init: boolean,
  behavior: ContainerBehavior,
  image: ImageRef | { error: string },
  defaultWaiting: string,
): ContainerRuntime {
  return new ContainerRecord(spec, init, behavior, image, defaultWaiting);
}

function terminatedState(t: Termination): ContainerState {
  return {
    terminated: {
      exitCode: t.exitCode,
      reason: t.reason,
      startedAt: formatTimestamp(t.startedAt),
      finishedAt: formatTimestamp(t.finishedAt),
      containerID: t.containerID,
    },
  };
}

export function containerState(s: RuntimeState): ContainerState {
  switch (s.kind) {
    case 'waiting':
      return { waiting: s.message === undefined ? { reason: s.reason } : { reason: s.reason, message: s.message } };
    case 'running':
      return { running: { startedAt: formatTimestamp(s.startedAt) } };
    default:
      return terminatedState(s.termination);
  }
}

/** The API status of a container, as the kubelet reports it. */
export function containerStatus(c: ContainerRuntime): ContainerStatus {
  const status: ContainerStatus = {
    name: c.spec.name,
    state: containerState(c.state),
    lastState: c.last ? terminatedState(c.last) : {},
    ready: c.ready,
    restartCount: c.restartCount,
    image: c.containerID !== '' && !('error' in c.image) ? normalizedImage(c.image) : (c.spec.image ?? ''),
    imageID: c.imageID,
    started: c.started,
  };
  if (c.containerID !== '') status.containerID = c.containerID;
  return status;
}
