/**
 * The app's side of the kubelet's HTTP probes: each probe request the
 * container answers, on the probe's schedule (probes.ts), with the answer
 * the behaviour gives — 503 while a readiness probe fails, 500 for a failing
 * liveness probe, 200 otherwise. Access-log images (nginx, httpd) log every
 * request; the others log only the failing ones.
 */
import type { Container, HTTPGetAction, Probe } from 'kubernetes-types/core/v1';
import type { ContainerBehavior } from '../behaviors';
import { KUBELET_VERSION } from '../nodeConfig';
import { firstTickAtOrAfter, livenessPlan } from '../probes';
import type { ImageStyle } from './imageStyles';
import type { LineSource } from './lineSource';
import { fixedLines, periodicLines } from './lineSource';

/** `kube-probe/1.32`, the User-Agent of the kubelet's HTTP probes. */
export const PROBE_USER_AGENT = `kube-probe/${KUBELET_VERSION.replace(/^v/, '').split('.').slice(0, 2).join('.')}`;

export interface ProbeInput {
  container: Container;
  behavior: ContainerBehavior;
  style: ImageStyle;
  podIP: string;
  startedAt: number;
  /** When the startup probe succeeds (the start itself without one). */
  okAt: number;
}

const periodOf = (p: Probe) => Math.max(1, p.periodSeconds ?? 10) * 1000;

/** Probes come from the node, seen by the pod as its network's gateway (`10.244.1.1`). */
function gateway(podIP: string): string {
  return podIP.replace(/\.\d+$/, '.1');
}

export function probeSources(input: ProbeInput): LineSource[] {
  const { container: c, behavior: b, style, startedAt: start, okAt } = input;
  const remote = gateway(input.podIP);
  const sources: LineSource[] = [];
  const line = (http: HTTPGetAction, status: number, at: number) => ({
    at,
    text: style.request(at, { path: http.path ?? '/', status, remote, userAgent: PROBE_USER_AGENT }),
  });
  const ticks = (http: HTTPGetAction, status: number, first: number, period: number, until?: number) => {
    if (status < 400 && !style.accessLog) return;
    if (until !== undefined && until <= first) return;
    sources.push(periodicLines({ first, period, until, render: (_, at) => [line(http, status, at)] }));
  };
  const firstTick = (p: Probe) =>
    firstTickAtOrAfter(start, periodOf(p), Math.max(okAt, start + (p.initialDelaySeconds ?? 0) * 1000));

  if (c.startupProbe?.httpGet && style.accessLog) sources.push(fixedLines([line(c.startupProbe.httpGet, 200, okAt)]));

  const ready = c.readinessProbe;
  if (ready?.httpGet) {
    const first = firstTick(ready);
    const period = periodOf(ready);
    if (b.neverReady) ticks(ready.httpGet, 503, first, period);
    else {
      const pass = firstTickAtOrAfter(start, period, Math.max(first, start + (b.readyAfterMs ?? 0)));
      ticks(ready.httpGet, 503, first, period, pass);
      ticks(ready.httpGet, 200, pass, period);
    }
  }

  // `liveness-fail-after` without a liveness probe fails the kubelet's default HTTP probe (see probes.ts).
  const live =
    c.livenessProbe ??
    (b.livenessFailAfterMs !== undefined
      ? { httpGet: { path: '/healthz', port: c.ports?.[0]?.containerPort ?? 8080 } }
      : undefined);
  if (live?.httpGet) {
    const first = firstTick(live);
    const plan = livenessPlan(c.livenessProbe, b, start, okAt);
    ticks(live.httpGet, 200, first, periodOf(live), plan?.failures[0]);
    if (plan) sources.push(fixedLines(plan.failures.map((t) => line(live.httpGet!, 500, t))));
  }
  return sources;
}
