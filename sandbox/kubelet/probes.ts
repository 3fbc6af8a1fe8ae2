/**
 * The kubelet's prober (pkg/kubelet/prober/worker.go) on the simulated clock.
 *
 * Each probe of a container has a worker, created when the pod is admitted:
 * it probes at once, then every `periodSeconds` — from a random point within
 * the first period when the kubelet itself started less than a period ago —
 * for the pod's whole life, across container restarts. At a tick it skips a
 * container that is not running, one that started less than
 * `initialDelaySeconds` ago (whole seconds, as `int32(time.Since(...).Seconds())`),
 * and, for liveness and readiness, one that has not started (startup probe).
 * A result is set once `successThreshold` / `failureThreshold` consecutive
 * probes agree; a liveness or startup failure puts the worker on hold until
 * the next container. Readiness is also probed at once when the container
 * starts (the status manager's manual trigger).
 *
 * The answer at a tick comes from the running instance (`container/run.ts`):
 * its servers for HTTP, TCP and gRPC probes, its files for exec probes —
 * overridden by the behaviours `never-ready`, `ready-after` and
 * `liveness-fail-after`. A plan is worked out ahead for an instance; it is
 * worked out again when the instance's files change (another container's
 * writes, `kubectl exec`).
 */
import type { Container, Probe } from 'kubernetes-types/core/v1';
import type { ContainerBehavior } from './behaviors';
import type { ContainerRun } from './container/run';

export type ProbeKind = 'startup' | 'liveness' | 'readiness';

export interface ProbeAnswer {
  ok: boolean;
  /** The prober's output for a failure (`HTTP probe failed with statuscode: 500`). */
  output: string;
}

/** When a worker ticks: `anchor + k·period`. */
export interface ProbeSchedule {
  anchor: number;
  periodMs: number;
}

/** Upstream's defaults (pkg/apis/core/v1/defaults.go). */
export function probeDefaults(
  p: Probe,
): Required<
  Pick<Probe, 'periodSeconds' | 'timeoutSeconds' | 'successThreshold' | 'failureThreshold' | 'initialDelaySeconds'>
> {
  return {
    periodSeconds: Math.max(1, p.periodSeconds ?? 10),
    timeoutSeconds: Math.max(1, p.timeoutSeconds ?? 1),
    successThreshold: Math.max(1, p.successThreshold ?? 1),
    failureThreshold: Math.max(1, p.failureThreshold ?? 3),
    initialDelaySeconds: Math.max(0, p.initialDelaySeconds ?? 0),
  };
}

/** The liveness probe `liveness-fail-after` uses when the pod has none: `GET /healthz` on the first port. */
export function defaultLiveness(container: Container): Probe {
  return {
    httpGet: { path: '/healthz', port: container.ports?.[0]?.containerPort ?? 8080 },
    periodSeconds: 10,
    failureThreshold: 3,
  };
}

function portNumber(container: Container, port: number | string | undefined): number {
  if (typeof port === 'number') return port;
  const named = container.ports?.find((p) => p.name === port);
  if (named) return named.containerPort;
  return Number(port) || 0;
}

/**
 * The answer of a probe at `t`, by handler: HTTP (200–399 passes), TCP (something listens), gRPC (the health service
 * says SERVING), exec (exit 0; its output is the failure message).
 */
export function probeAnswer(
  kind: ProbeKind,
  probe: Probe,
  container: Container,
  run: ContainerRun,
  behavior: ContainerBehavior,
  startedAt: number,
  podIP: string,
  t: number,
): ProbeAnswer {
  const forced = behaviorAnswer(kind, behavior, startedAt, t);
  if (probe.httpGet) {
    const port = portNumber(container, probe.httpGet.port);
    const path = probe.httpGet.path ?? '/';
    const scheme = (probe.httpGet.scheme ?? 'HTTP').toLowerCase();
    const url = `${scheme}://${podIP}:${port}${path.startsWith('/') ? path : `/${path}`}`;
    if (forced)
      return forced.ok
        ? forced
        : { ok: false, output: `HTTP probe failed with statuscode: ${kind === 'readiness' ? 503 : 500}` };
    const server = run.servers(t).find((s) => s.ports === 'any' || s.ports.includes(port));
    if (!server) return { ok: false, output: `Get "${url}": dial tcp ${podIP}:${port}: connect: connection refused` };
    if (!server.http) return { ok: false, output: `Get "${url}": EOF` };
    const status = server.http(path, t);
    return status >= 200 && status < 400
      ? { ok: true, output: '' }
      : { ok: false, output: `HTTP probe failed with statuscode: ${status}` };
  }
  if (probe.tcpSocket) {
    const port = portNumber(container, probe.tcpSocket.port);
    const refused = { ok: false, output: `dial tcp ${podIP}:${port}: connect: connection refused` };
    if (forced) return forced.ok ? forced : refused;
    return run.servers(t).some((s) => s.ports === 'any' || s.ports.includes(port)) ? { ok: true, output: '' } : refused;
  }
  if (probe.grpc) {
    const port = probe.grpc.port;
    if (forced) return forced.ok ? forced : { ok: false, output: 'service unhealthy (responded with "NOT_SERVING")' };
    const server = run.servers(t).find((s) => s.ports === 'any' || s.ports.includes(port));
    if (!server)
      return {
        ok: false,
        output: `timeout: failed to connect service "${podIP}:${port}" within ${probeDefaults(probe).timeoutSeconds}s: context deadline exceeded`,
      };
    return server.grpc
      ? { ok: true, output: '' }
      : { ok: false, output: 'rpc error: code = Unimplemented desc = unknown service grpc.health.v1.Health' };
  }
  if (probe.exec) {
    if (forced) return forced.ok ? forced : { ok: false, output: '' };
    const argv = probe.exec.command ?? [];
    const r = run.exec(argv, t, 'probe');
    const timeout = probeDefaults(probe).timeoutSeconds * 1000;
    if (r.blocked || r.tookMs > timeout) return { ok: false, output: `command "${argv.join(' ')}" timed out` };
    return r.code === 0 ? { ok: true, output: '' } : { ok: false, output: `${r.stdout}${r.stderr}`.replace(/\n$/, '') };
  }
  return forced ?? { ok: true, output: '' };
}

/** The behaviours' answer, when they decide: `never-ready`, `ready-after`, `liveness-fail-after`. */
function behaviorAnswer(kind: ProbeKind, b: ContainerBehavior, startedAt: number, t: number): ProbeAnswer | undefined {
  if (kind === 'readiness') {
    if (b.neverReady) return { ok: false, output: '' };
    if (b.readyAfterMs !== undefined && t < startedAt + b.readyAfterMs) return { ok: false, output: '' };
  }
  if (kind === 'liveness' && b.livenessFailAfterMs !== undefined && t >= startedAt + b.livenessFailAfterMs)
    return { ok: false, output: '' };
  return undefined;
}

/** The first tick `anchor + k·period` at or after `t`. */
export function tickAtOrAfter(s: ProbeSchedule, t: number): number {
  if (t <= s.anchor) return s.anchor;
  return s.anchor + Math.ceil((t - s.anchor) / s.periodMs) * s.periodMs;
}

export interface ProbeEvent {
  at: number;
  /** A failed probe (an `Unhealthy` event). */
  failed?: string;
  /** The worker sets a new result (readiness: ready or not; startup: started; liveness/startup: kill). */
  result?: boolean;
}

export interface PlanInput {
  kind: ProbeKind;
  probe: Probe;
  schedule: ProbeSchedule;
  startedAt: number;
  /** Ticks before this are skipped (liveness and readiness wait for the startup probe). */
  from: number;
  /** Extra probe times (readiness: the manual trigger when the container starts or is started). */
  extra: readonly number[];
  answer(t: number): ProbeAnswer;
  /** When the answer may next change after `t` (undefined: never); ticks in between give the same answer. */
  nextChange(t: number): number | undefined;
  /** The result before any probe: readiness and startup fail, liveness passes. */
  initial: boolean;
  /** Stop planning here (a re-plan happens then). */
  horizon: number;
}

export interface ProbePlan {
  events: ProbeEvent[];
  /** Planning stopped at the horizon with the answer still moving: plan again from here. */
  resumeAt?: number;
  /** The worker's counters at the end (to resume). */
}

/** Evaluations at most per plan before it stops at a horizon of its own. */
const MAX_EVALUATIONS = 500;

/**
 * The probe results of one container instance, ahead: each failed probe (for events) and each change of the
 * worker's result, from `from` until a liveness/startup failure (the worker holds), the horizon, or a steady answer.
 */
export function planProbe(input: PlanInput): ProbePlan {
  const { probe, schedule, kind } = input;
  const d = probeDefaults(probe);
  const events: ProbeEvent[] = [];
  const eligibleAt = input.startedAt + d.initialDelaySeconds * 1000;
  let result = input.initial;
  let last: boolean | undefined;
  let run = 0;
  let evaluations = 0;
  const extra = [...input.extra].filter((t) => t >= input.from).sort((a, b) => a - b);
  let tick = tickAtOrAfter(schedule, input.from);
  for (;;) {
    const t = extra.length > 0 && extra[0] <= tick ? extra.shift()! : tick;
    if (t === tick) tick += schedule.periodMs;
    if (t > input.horizon) return { events, resumeAt: t };
    // int32(time.Since(startedAt).Seconds()) < initialDelaySeconds
    if (Math.floor((t - input.startedAt) / 1000) < d.initialDelaySeconds) {
      if (extra.length === 0) tick = Math.max(tick, tickAtOrAfter(schedule, eligibleAt));
      continue;
    }
    if (++evaluations > MAX_EVALUATIONS) return { events, resumeAt: t };
    const a = input.answer(t);
    if (!a.ok && (kind !== 'readiness' || last !== false)) events.push({ at: t, failed: a.output });
    run = a.ok === last ? run + 1 : 1;
    last = a.ok;
    const threshold = a.ok ? d.successThreshold : d.failureThreshold;
    if (run >= threshold && a.ok !== result) {
      result = a.ok;
      events.push({ at: t, result });
      // A failed liveness or startup probe: the container is killed and the worker holds until the next one.
      if (!result && kind !== 'readiness') return { events };
      if (result && kind === 'startup') return { events };
    }
    // The answer holds until the next change: skip the ticks in between once the counters are settled.
    if (run >= threshold || a.ok === result) {
      const change = input.nextChange(t);
      if (change === undefined) {
        if (extra.length === 0 && (a.ok === result || run >= threshold)) return { events };
      } else if (extra.length === 0) tick = Math.max(tick, tickAtOrAfter(schedule, change));
    }
  }
}
