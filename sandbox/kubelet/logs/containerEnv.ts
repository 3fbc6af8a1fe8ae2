/**
 * A container's environment as its process sees it, and the kubelet's
 * `$(VAR)` expansion of `command`, `args` and env values: literal values,
 * the downward API's pod fields, `HOSTNAME` (the pod name) and a basic
 * `PATH`/`HOME`. Values from ConfigMaps and Secrets are not looked up here.
 */
import type { Container, Pod } from 'kubernetes-types/core/v1';

export interface PodFacts {
  podIP: string;
  hostIP: string;
}

/** kubelet `expansion.Expand`: `$(NAME)` becomes the variable when it is defined, `$$` becomes `$`. */
export function expandKubeVars(text: string, vars: ReadonlyMap<string, string>): string {
  return text.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (whole, name: string | undefined) =>
    name === undefined ? '$' : (vars.get(name) ?? whole),
  );
}

function fieldValue(pod: Pod, path: string, facts: PodFacts): string | undefined {
  const meta = pod.metadata ?? {};
  const fields: Record<string, string | undefined> = {
    'metadata.name': meta.name,
    'metadata.namespace': meta.namespace,
    'metadata.uid': meta.uid,
    'spec.nodeName': pod.spec?.nodeName,
    'spec.serviceAccountName': pod.spec?.serviceAccountName,
    'status.podIP': facts.podIP,
    'status.hostIP': facts.hostIP,
  };
  const label = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(path);
  if (label) return (label[1] === 'labels' ? meta.labels : meta.annotations)?.[label[2]];
  return fields[path];
}

export function containerEnv(pod: Pod, container: Container, facts: PodFacts): Map<string, string> {
  const vars = new Map<string, string>([
    ['PATH', '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
    ['HOSTNAME', pod.metadata?.name ?? ''],
  ]);
  for (const e of container.env ?? []) {
    if (e.value !== undefined) vars.set(e.name, expandKubeVars(e.value, vars));
    else if (e.valueFrom?.fieldRef) {
      const v = fieldValue(pod, e.valueFrom.fieldRef.fieldPath, facts);
      if (v !== undefined) vars.set(e.name, v);
    } else if (!e.valueFrom) vars.set(e.name, '');
  }
  if (!vars.has('HOME')) vars.set('HOME', '/root');
  return vars;
}

/**
 * The argv a container runs when the spec says (command and/or args), after `$(VAR)` expansion; undefined when the
 * image decides.
 */
export function containerArgv(
  container: Container,
  shellImage: boolean,
  vars: ReadonlyMap<string, string>,
): string[] | undefined {
  let argv: string[] | undefined;
  if (container.command && container.command.length > 0) argv = [...container.command, ...(container.args ?? [])];
  else if (shellImage) argv = [...(container.args ?? [])];
  return argv?.map((a) => expandKubeVars(a, vars));
}
