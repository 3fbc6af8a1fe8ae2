/**
 * When simulated probes pass or fail. Probes tick every `periodSeconds` from
 * the container's start; ticks before `initialDelaySeconds` (or before the
 * startup probe succeeds) do not count. Behaviours decide the outcome:
 * `ready-after` / `never-ready` for readiness, `liveness-fail-after` for liveness.
 */
import type { Probe } from 'kubernetes-types/core/v1';
import type { ContainerBehavior } from './behaviors';

/** The first tick `start + k·period` (k ≥ 0) at or after `notBefore`. */
export function firstTickAtOrAfter(start: number, periodMs: number, notBefore: number): number {
  if (notBefore <= start) return start;
  return start + Math.ceil((notBefore - start) / periodMs) * periodMs;
}

function period(p: Probe): number {
  return Math.max(1, p.periodSeconds ?? 10) * 1000;
}

/** When the startup probe first succeeds (the container is `started`), or the start itself without one. */
export function startupAt(probe: Probe | undefined, startedAt: number): number {
  if (!probe) return startedAt;
  return firstTickAtOrAfter(startedAt, period(probe), startedAt + (probe.initialDelaySeconds ?? 0) * 1000);
}

export interface ReadinessPlan {
  /** A failing probe before the container becomes ready (one `Unhealthy` event). */
  failAt?: number;
  /** When it becomes ready; undefined for never. */
  readyAt?: number;
}

export function readinessPlan(
  probe: Probe | undefined,
  b: ContainerBehavior,
  startedAt: number,
  startedOkAt: number,
): ReadinessPlan {
  const passFrom = startedAt + (b.readyAfterMs ?? 0);
  if (!probe) return b.neverReady ? {} : { readyAt: Math.max(startedOkAt, passFrom) };
  const p = period(probe);
  const first = firstTickAtOrAfter(
    startedAt,
    p,
    Math.max(startedOkAt, startedAt + (probe.initialDelaySeconds ?? 0) * 1000),
  );
  if (b.neverReady) return { failAt: first };
  const pass = firstTickAtOrAfter(startedAt, p, Math.max(first, passFrom));
  const readyAt = pass + (Math.max(1, probe.successThreshold ?? 1) - 1) * p;
  return pass > first ? { failAt: first, readyAt } : { readyAt };
}

export interface LivenessPlan {
  /** Each failing probe (an `Unhealthy` event). */
  failures: number[];
  /** When the kubelet kills the container (the last failure). */
  killAt: number;
}

const DEFAULT_LIVENESS: Probe = { periodSeconds: 10, failureThreshold: 3, initialDelaySeconds: 0 };

/**
 * The failures and the kill for `liveness-fail-after` (with upstream's probe defaults when the pod has no liveness
 * probe).
 */
export function livenessPlan(
  probe: Probe | undefined,
  b: ContainerBehavior,
  startedAt: number,
  startedOkAt: number,
): LivenessPlan | undefined {
  if (b.livenessFailAfterMs === undefined) return undefined;
  const spec = probe ?? DEFAULT_LIVENESS;
  const p = period(spec);
  const first = firstTickAtOrAfter(
    startedAt,
    p,
    Math.max(startedOkAt, startedAt + (spec.initialDelaySeconds ?? 0) * 1000, startedAt + b.livenessFailAfterMs),
  );
  const failures: number[] = [];
  for (let i = 0; i < Math.max(1, spec.failureThreshold ?? 3); i++) failures.push(first + i * p);
  return { failures, killAt: failures[failures.length - 1] };
}

/** The prober's output for a failing probe, by handler type (`Readiness probe failed: <this>`). */
export function probeFailureOutput(probe: Probe | undefined, podIP: string, statusCode: number): string {
  if (probe?.tcpSocket) return `dial tcp ${podIP}:${String(probe.tcpSocket.port)}: connect: connection refused`;
  if (probe?.exec) return '';
  if (probe?.grpc) return `service unhealthy (responded with "NOT_SERVING")`;
  return `HTTP probe failed with statuscode: ${statusCode}`;
}
