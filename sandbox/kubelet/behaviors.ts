/**
 * Container behaviours: what a simulated container does once started. A
 * user picks them with the pod annotations `sandbox.kube-reconcile.dev/behavior`
 * (every regular container) and `sandbox.kube-reconcile.dev/behavior.<container>`
 * (one container, init containers included; its keys override the pod's).
 * Without them the container does what its command and image do
 * (container/run.ts; docs/behaviors.md). Bad specs are reported, never
 * thrown: the kubelet turns them into `InvalidBehavior` events.
 */
import type { Container, Pod } from 'kubernetes-types/core/v1';
import { parseDuration } from './duration';

/**
 * When a behaviour makes a container exit: `after` ms after it starts, `'quick'` (at once: `exit=N` alone) or
 * `'work'` (an init container's short piece of work); `oom` means reason OOMKilled.
 */
export interface ExitSpec {
  after: number | 'quick' | 'work';
  code: number;
  oom?: boolean;
}

export const BEHAVIOR_ANNOTATION = 'sandbox.kube-reconcile.dev/behavior';

export interface ContainerBehavior {
  exit?: ExitSpec;
  startDelayMs?: number;
  imageMissing?: boolean;
  neverReady?: boolean;
  readyAfterMs?: number;
  livenessFailAfterMs?: number;
  ignoreSigterm?: boolean;
}

/** Keys as written, before exit keys are combined (`exit=` may come before or after `crash-after=`). */
interface Fields {
  exitKind?: 'crash' | 'oom' | 'exit';
  exitAfterMs?: number;
  exitCode?: number;
  startDelayMs?: number;
  imageMissing?: boolean;
  neverReady?: boolean;
  readyAfterMs?: number;
  livenessFailAfterMs?: number;
  ignoreSigterm?: boolean;
}

const DURATION_KEYS: Record<string, (f: Fields, ms: number) => void> = {
  'crash-after': (f, ms) => Object.assign(f, { exitKind: 'crash', exitAfterMs: ms }),
  'oom-after': (f, ms) => Object.assign(f, { exitKind: 'oom', exitAfterMs: ms }),
  'exit-after': (f, ms) => Object.assign(f, { exitKind: 'exit', exitAfterMs: ms }),
  'start-delay': (f, ms) => void (f.startDelayMs = ms),
  'ready-after': (f, ms) => void (f.readyAfterMs = ms),
  'liveness-fail-after': (f, ms) => void (f.livenessFailAfterMs = ms),
};

const FLAG_KEYS: Record<string, (f: Fields) => void> = {
  'image-missing': (f) => void (f.imageMissing = true),
  'never-ready': (f) => void (f.neverReady = true),
  'ignore-sigterm': (f) => void (f.ignoreSigterm = true),
};

export const BEHAVIOR_KEYS: readonly string[] = [...Object.keys(DURATION_KEYS), 'exit', ...Object.keys(FLAG_KEYS)];

/** Parses one annotation value into `into`; returns the problems found (the valid tokens still apply). */
function parseInto(text: string, into: Fields): string[] {
  const errors: string[] = [];
  for (const token of text
    .trim()
    .split(/\s+/)
    .filter((t) => t !== '')) {
    const eq = token.indexOf('=');
    const key = eq < 0 ? token : token.slice(0, eq);
    const value = eq < 0 ? undefined : token.slice(eq + 1);
    if (key in FLAG_KEYS) {
      if (value !== undefined) errors.push(`${key} is a flag and takes no value (got "${token}")`);
      else FLAG_KEYS[key](into);
    } else if (key in DURATION_KEYS) {
      const ms = value === undefined ? undefined : parseDuration(value);
      if (value === undefined) errors.push(`${key} needs a duration, e.g. ${key}=30s`);
      else if (ms === undefined) errors.push(`invalid duration "${value}" for ${key} (use e.g. 30s, 2m, 1m30s, 500ms)`);
      else DURATION_KEYS[key](into, ms);
    } else if (key === 'exit') {
      const code = value !== undefined && /^\d{1,3}$/.test(value) ? Number(value) : NaN;
      if (!(code >= 0 && code <= 255)) errors.push(`exit must be an integer from 0 to 255 (got "${value ?? ''}")`);
      else into.exitCode = code;
    } else {
      errors.push(`unknown behavior "${key}" (known: ${BEHAVIOR_KEYS.join(', ')})`);
    }
  }
  return errors;
}

function resolve(f: Fields): ContainerBehavior {
  const out: ContainerBehavior = {};
  if (f.exitKind === 'oom') out.exit = { after: f.exitAfterMs!, code: 137, oom: true };
  else if (f.exitKind) out.exit = { after: f.exitAfterMs!, code: f.exitCode ?? (f.exitKind === 'crash' ? 1 : 0) };
  else if (f.exitCode !== undefined) out.exit = { after: 'quick', code: f.exitCode };
  for (const k of [
    'startDelayMs',
    'imageMissing',
    'neverReady',
    'readyAfterMs',
    'livenessFailAfterMs',
    'ignoreSigterm',
  ] as const) {
    if (f[k] !== undefined) (out as Record<string, unknown>)[k] = f[k];
  }
  return out;
}

/** Parses an annotation value: the behaviour of its valid tokens and one message per bad token. */
export function parseBehavior(text: string): { behavior: ContainerBehavior; errors: string[] } {
  const fields: Fields = {};
  const errors = parseInto(text, fields);
  return { behavior: resolve(fields), errors };
}

/** The behaviour of a container without annotations: nothing overridden. */
const NO_BEHAVIOR: ContainerBehavior = Object.freeze({});

export interface ResolvedBehavior {
  behavior: ContainerBehavior;
  /** `annotation: problem` lines, for the `InvalidBehavior` event. */
  errors: string[];
}

/**
 * A container's behaviour from its annotations: the pod-wide one (regular containers only), overridden key by key by
 * the container's own.
 */
export function containerBehavior(pod: Pod, container: Container, init: boolean): ResolvedBehavior {
  const annotations = pod.metadata?.annotations ?? {};
  const fields: Fields = {};
  const errors: string[] = [];
  const sources = init ? [] : [BEHAVIOR_ANNOTATION];
  sources.push(`${BEHAVIOR_ANNOTATION}.${container.name}`);
  let annotated = false;
  for (const name of sources) {
    const text = annotations[name];
    if (text === undefined) continue;
    annotated = true;
    for (const e of parseInto(text, fields)) errors.push(`${name}: ${e}`);
  }
  // No annotation (most containers): one shared, frozen behaviour, not an empty object per container (issue 16).
  return { behavior: annotated ? resolve(fields) : NO_BEHAVIOR, errors };
}
