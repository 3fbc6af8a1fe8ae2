/**
 * Deployment controller fixtures: a harness with the controller started, a
 * Deployment manifest, and a stand-in for the ReplicaSet controller and the
 * kubelets that writes ReplicaSet status the way they would.
 */
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { KubeObject, Typed } from '../../../../sandbox/api/types';
import { DeploymentController } from '../../../../sandbox/controllers/deployment/deploymentController';
import { newHarness, type Harness } from '../harness';

export interface DeploymentHarness extends Harness {
  controller: DeploymentController;
  deployment(name?: string): Typed<Deployment>;
  replicaSets(): Typed<ReplicaSet>[];
  /** `name=spec.replicas` of every RS, oldest first (compact step assertions). */
  sizes(): string[];
}

export function newDeploymentHarness(seed = 1): DeploymentHarness {
  const h = newHarness(seed);
  const controller = new DeploymentController(h.ctx);
  controller.start();
  const replicaSets = (): Typed<ReplicaSet>[] =>
    h.api
      .list('replicasets', { namespace: 'default' })
      .items.sort(
        (a, b) =>
          a.metadata!.creationTimestamp!.localeCompare(b.metadata!.creationTimestamp!) ||
          a.metadata!.name!.localeCompare(b.metadata!.name!),
      );
  return {
    ...h,
    controller,
    deployment: (name = 'web') => h.api.get('deployments', 'default', name),
    replicaSets,
    sizes: () => replicaSets().map((rs) => `${rs.metadata!.name}=${rs.spec!.replicas}`),
  };
}

export interface DeploymentOptions {
  replicas?: number;
  image?: string;
  strategy?: Record<string, unknown>;
  annotations?: Record<string, string>;
  extra?: Record<string, unknown>;
}

export function deploymentManifest(name: string, o: DeploymentOptions = {}): KubeObject {
  const labels = { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default', ...(o.annotations ? { annotations: o.annotations } : {}) },
    spec: {
      replicas: o.replicas ?? 3,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'app', image: o.image ?? 'nginx:1.27' }] } },
      ...(o.strategy ? { strategy: o.strategy } : {}),
      ...(o.extra ?? {}),
    },
  };
}

/**
 * Plays the ReplicaSet controller and kubelets: every RS reports
 * `spec.replicas` pods, all ready and available — except the RSs named in
 * `unavailable` (none available) and those given explicit counts in `pods`.
 */
export function reportReplicaSets(
  h: DeploymentHarness,
  opts: { unavailable?: readonly string[]; pods?: Record<string, { replicas: number; available: number }> } = {},
): void {
  for (const rs of h.replicaSets()) {
    const name = rs.metadata!.name!;
    const spec = rs.spec!.replicas ?? 1;
    const given = opts.pods?.[name];
    const replicas = given?.replicas ?? spec;
    const available = given?.available ?? (opts.unavailable?.includes(name) ? 0 : replicas);
    setReplicaSetStatus(h, name, { replicas, readyReplicas: available, availableReplicas: available });
  }
}

export function setReplicaSetStatus(
  h: Harness,
  name: string,
  counts: { replicas: number; readyReplicas: number; availableReplicas: number },
): void {
  const rs = h.api.get('replicasets', 'default', name);
  const status: Record<string, number> = { observedGeneration: rs.metadata!.generation ?? 1 };
  for (const [k, v] of Object.entries({
    replicas: counts.replicas,
    fullyLabeledReplicas: counts.replicas,
    readyReplicas: counts.readyReplicas,
    availableReplicas: counts.availableReplicas,
  }))
    if (v) status[k] = v;
  h.api.updateStatus({ ...rs, status });
}

/** Changes the template one second later (so the new RS sorts after the old one). */
export function setImage(h: DeploymentHarness, image: string, name = 'web'): void {
  h.advance(1000);
  const d = h.deployment(name);
  const template = d.spec!.template;
  h.api.update({
    ...d,
    spec: {
      ...d.spec!,
      template: {
        ...template,
        spec: { ...template.spec!, containers: [{ ...template.spec!.containers[0], image }] },
      },
    },
  });
}

export function patchSpec(h: DeploymentHarness, spec: Record<string, unknown>, name = 'web'): void {
  h.api.patch('deployments', 'default', name, 'merge', { spec });
}
