/**
 * A pod's or a template's containers: image, ports, command, state, resources, probes, environment and mounts
 * (upstream: staging/src/k8s.io/kubectl/pkg/describe/describe.go — describeContainers, describeStatus,
 * DescribeProbe).
 */
import type { Container, ContainerState, ContainerStatus, Probe } from 'kubernetes-types/core/v1';
import { quantityText, rfc1123z, sortedResources } from './format';
import { L0, L1, L2, L3 } from './writer';
import type { PrefixWriter } from './writer';

export function describeContainers(
  w: PrefixWriter,
  label: string,
  containers: readonly Container[],
  statuses: readonly ContainerStatus[] | undefined,
  space: string,
): void {
  w.write(L0, `${space}${label}:${containers.length === 0 ? ' <none>' : ''}\n`);
  const byName = new Map((statuses ?? []).map((s) => [s.name, s]));
  for (const c of containers) {
    const status = byName.get(c.name);
    w.write(L1, `${space ? ' ' : ''}${c.name}:\n`);
    if (status) w.write(L2, `Container ID:\t${status.containerID ?? ''}\n`);
    w.write(L2, `Image:\t${c.image ?? ''}\n`);
    if (status) w.write(L2, `Image ID:\t${status.imageID ?? ''}\n`);
    const ports = (c.ports ?? []).map(
      (p) => `${p.containerPort}/${p.protocol ?? 'TCP'}${p.name ? ` (${p.name})` : ''}`,
    );
    const hostPorts = (c.ports ?? []).map(
      (p) => `${p.hostPort ?? 0}/${p.protocol ?? 'TCP'}${p.name ? ` (${p.name})` : ''}`,
    );
    w.write(L2, ports.length > 1 ? `Ports:\t${ports.join(', ')}\n` : `Port:\t${ports[0] ?? '<none>'}\n`);
    w.write(
      L2,
      hostPorts.length > 1 ? `Host Ports:\t${hostPorts.join(', ')}\n` : `Host Port:\t${hostPorts[0] ?? '<none>'}\n`,
    );
    if ((c.command ?? []).length > 0) {
      w.write(L2, 'Command:\n');
      for (const s of c.command!.flatMap((x) => x.split('\n'))) w.write(L3, `${s}\n`);
    }
    if ((c.args ?? []).length > 0) {
      w.write(L2, 'Args:\n');
      for (const s of c.args!.flatMap((x) => x.split('\n'))) w.write(L3, `${s}\n`);
    }
    if (status) {
      describeState(w, 'State', status.state);
      if (status.lastState?.terminated) describeState(w, 'Last State', status.lastState);
      w.write(L2, `Ready:\t${status.ready ? 'True' : 'False'}\n`);
      w.write(L2, `Restart Count:\t${status.restartCount ?? 0}\n`);
    }
    const res = c.resources ?? {};
    if (Object.keys(res.limits ?? {}).length > 0) w.write(L2, 'Limits:\n');
    for (const name of sortedResources(res.limits)) w.write(L3, `${name}:\t${quantityText(res.limits![name])}\n`);
    if (Object.keys(res.requests ?? {}).length > 0) w.write(L2, 'Requests:\n');
    for (const name of sortedResources(res.requests)) w.write(L3, `${name}:\t${quantityText(res.requests![name])}\n`);
    if (c.livenessProbe) w.write(L2, `Liveness:\t${describeProbe(c.livenessProbe)}\n`);
    if (c.readinessProbe) w.write(L2, `Readiness:\t${describeProbe(c.readinessProbe)}\n`);
    if (c.startupProbe) w.write(L2, `Startup:\t${describeProbe(c.startupProbe)}\n`);
    if ((c.envFrom ?? []).length > 0) {
      w.write(L2, 'Environment Variables from:\n');
      for (const e of c.envFrom!) {
        const from = e.configMapRef ? 'ConfigMap' : 'Secret';
        const ref = e.configMapRef ?? e.secretRef;
        const kind = e.prefix ? `${from} with prefix '${e.prefix}'` : from;
        w.write(L3, `${ref?.name ?? ''}\t${kind}\tOptional: ${ref?.optional === true}\n`);
      }
    }
    w.write(L2, `Environment:${(c.env ?? []).length === 0 ? '\t<none>' : ''}\n`);
    for (const e of c.env ?? []) {
      const from = e.valueFrom;
      if (!from) {
        (e.value ?? '').split('\n').forEach((s, i) => w.write(L3, i === 0 ? `${e.name}:\t${s}\n` : `\t${s}\n`));
      } else if (from.fieldRef)
        w.write(L3, `${e.name}:\t (${from.fieldRef.apiVersion ?? 'v1'}:${from.fieldRef.fieldPath})\n`);
      else if (from.resourceFieldRef) w.write(L3, `${e.name}:\t (${from.resourceFieldRef.resource})\n`);
      else if (from.secretKeyRef)
        w.write(
          L3,
          `${e.name}:\t<set to the key '${from.secretKeyRef.key}' in secret '${from.secretKeyRef.name}'>\tOptional: ${from.secretKeyRef.optional === true}\n`,
        );
      else if (from.configMapKeyRef)
        w.write(
          L3,
          `${e.name}:\t<set to the key '${from.configMapKeyRef.key}' of config map '${from.configMapKeyRef.name}'>\tOptional: ${from.configMapKeyRef.optional === true}\n`,
        );
    }
    const mounts = [...(c.volumeMounts ?? [])].sort((a, b) => (a.mountPath < b.mountPath ? -1 : 1));
    w.write(L2, `Mounts:${mounts.length === 0 ? '\t<none>' : ''}\n`);
    for (const m of mounts) {
      const flags = [m.readOnly ? 'ro' : 'rw', ...(m.subPath ? [`path=${JSON.stringify(m.subPath)}`] : [])];
      w.write(L3, `${m.mountPath} from ${m.name} (${flags.join(',')})\n`);
    }
  }
}

/** describeStatus. */
function describeState(w: PrefixWriter, name: string, state: ContainerState | undefined): void {
  if (state?.running) {
    w.write(L2, `${name}:\tRunning\n`);
    w.write(L3, `Started:\t${rfc1123z(state.running.startedAt)}\n`);
  } else if (state?.waiting) {
    w.write(L2, `${name}:\tWaiting\n`);
    if (state.waiting.reason) w.write(L3, `Reason:\t${state.waiting.reason}\n`);
  } else if (state?.terminated) {
    const t = state.terminated;
    w.write(L2, `${name}:\tTerminated\n`);
    if (t.reason) w.write(L3, `Reason:\t${t.reason}\n`);
    if (t.message) w.write(L3, `Message:\t${t.message}\n`);
    w.write(L3, `Exit Code:\t${t.exitCode}\n`);
    if (t.signal) w.write(L3, `Signal:\t${t.signal}\n`);
    w.write(L3, `Started:\t${rfc1123z(t.startedAt)}\n`);
    w.write(L3, `Finished:\t${rfc1123z(t.finishedAt)}\n`);
  } else w.write(L2, `${name}:\tWaiting\n`);
}

/** DescribeProbe. */
export function describeProbe(p: Probe): string {
  const attrs = `delay=${p.initialDelaySeconds ?? 0}s timeout=${p.timeoutSeconds ?? 1}s period=${p.periodSeconds ?? 10}s #success=${p.successThreshold ?? 1} #failure=${p.failureThreshold ?? 3}`;
  if (p.exec) return `exec [${(p.exec.command ?? []).join(' ')}] ${attrs}`;
  if (p.httpGet) {
    const scheme = (p.httpGet.scheme ?? 'HTTP').toLowerCase();
    const port = String(p.httpGet.port);
    const host = p.httpGet.host ?? '';
    const hostPort = port ? (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`) : host;
    return `http-get ${scheme}://${hostPort}${p.httpGet.path ?? ''} ${attrs}`;
  }
  if (p.tcpSocket) return `tcp-socket ${p.tcpSocket.host ?? ''}:${String(p.tcpSocket.port)} ${attrs}`;
  if (p.grpc) return `grpc <pod>:${p.grpc.port} ${p.grpc.service ?? ''} ${attrs}`;
  return `unknown ${attrs}`;
}
