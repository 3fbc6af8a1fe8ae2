/**
 * The app's side of the kubelet's HTTP probes: each probe request the
 * container answers, at the prober's ticks (probes.ts), with the status its
 * server gives (or the behaviour forces: 503 while a readiness probe fails,
 * 500 for a failing liveness probe). Access-log servers (nginx, httpd,
 * `python -m http.server`) log every request; the others log only failing
 * ones; Go test servers (agnhost) log none.
 */
import type { Container, HTTPGetAction, Probe } from 'kubernetes-types/core/v1';
import type { ContainerBehavior } from '../behaviors';
import type { ContainerRun } from '../container/run';
import { KUBELET_VERSION } from '../nodeConfig';
import type { ProbeKind, ProbeSchedule } from '../probes';
import { probeDefaults, tickAtOrAfter } from '../probes';
import type { LineSource, LogLine } from './lineSource';
import { fixedLines, periodicLines } from './lineSource';

/** `kube-probe/1.32`, the User-Agent of the kubelet's HTTP probes. */
export const PROBE_USER_AGENT = `kube-probe/${KUBELET_VERSION.replace(/^v/, '').split('.').slice(0, 2).join('.')}`;

export interface ProbedHttp {
  kind: ProbeKind;
  probe: Probe;
  schedule: ProbeSchedule;
  /** Ticks before this are not probed (not yet started). */
  from: number;
  /** No request after this (the liveness worker holds, the startup probe passed). */
  until?: number;
  /** Extra requests (readiness's manual trigger). */
  extra: readonly number[];
}

export interface ProbeLinesInput {
  container: Container;
  behavior: ContainerBehavior;
  run: ContainerRun;
  podIP: string;
  startedAt: number;
  probes: readonly ProbedHttp[];
}

/** Probes come from the node, seen by the pod as its network's gateway (`10.244.1.1`). */
function gateway(podIP: string): string {
  return podIP.replace(/\.\d+$/, '.1');
}

function portOf(c: Container, http: HTTPGetAction): number {
  if (typeof http.port === 'number') return http.port;
  return c.ports?.find((p) => p.name === http.port)?.containerPort ?? (Number(http.port) || 0);
}

export function probeRequestSources(input: ProbeLinesInput): LineSource[] {
  const { container: c, behavior: b, run, startedAt: start } = input;
  const remote = gateway(input.podIP);
  const sources: LineSource[] = [];
  for (const p of input.probes) {
    const http = p.probe.httpGet;
    if (!http) continue;
    const port = portOf(c, http);
    const path = http.path ?? '/';
    const status = (at: number): number | undefined => {
      if (p.kind === 'readiness' && (b.neverReady || (b.readyAfterMs !== undefined && at < start + b.readyAfterMs)))
        return 503;
      if (p.kind === 'liveness' && b.livenessFailAfterMs !== undefined && at >= start + b.livenessFailAfterMs)
        return 500;
      const server = run.servers(at).find((s) => s.ports === 'any' || s.ports.includes(port));
      return server?.http?.(path, at);
    };
    const line = (at: number): LogLine[] => {
      const server = run.servers(at).find((s) => s.ports === 'any' || s.ports.includes(port));
      const code = status(at);
      if (!server || code === undefined || server.style.quietRequests) return [];
      if (code < 400 && !server.style.accessLog) return [];
      return [{ at, text: server.style.request(at, { path, status: code, remote, userAgent: PROBE_USER_AGENT }) }];
    };
    const eligible = Math.max(p.from, start + probeDefaults(p.probe).initialDelaySeconds * 1000);
    const first = tickAtOrAfter(p.schedule, eligible);
    if (p.until === undefined || first <= p.until)
      sources.push(
        periodicLines({
          first,
          period: p.schedule.periodMs,
          until: p.until === undefined ? undefined : p.until + 1,
          render: (_, at) => line(at),
        }),
      );
    const extra = p.extra.filter((t) => t >= eligible && (p.until === undefined || t <= p.until));
    if (extra.length > 0) sources.push(fixedLines(extra.flatMap(line)));
  }
  return sources;
}
