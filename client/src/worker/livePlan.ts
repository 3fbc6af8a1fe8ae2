/**
 * Plan Against Cluster… in the worker: the extension host takes the snapshot of a real context (live/snapshot.ts, GET
 * only, with the user's credentials) and sends it here with the editor's text; the plan engine (`sandbox/plan`, the
 * control plane on a fork) runs on this thread, so the extension host's bundle never loads it. What `plan --kubeconfig`
 * prints after its header (cli/plan.ts runs the same engine in its own process).
 */
import { manifestObjects } from '../../../sandbox/manifests/parseManifests';
import { placeManifests } from '../../../sandbox/manifests/placedManifests';
import { formatPlanText } from '../../../sandbox/plan/format';
import { runPlan } from '../../../sandbox/plan/plan';
import type { NodeConfig } from '../../../sandbox/kubelet/nodeConfig';
import { DEFAULT_KUBERNETES_VERSION, kubernetesVersion, setKubernetesVersion } from '../../../sandbox/schema/schema';
import type { LivePlanRequest, Requests } from '../sandbox/protocol';
import { BadRequest, record, text } from './params';

/** The request's parameters, checked at the worker's edge (a malformed message is an error reply). */
export function livePlanRequestOf(value: unknown): LivePlanRequest {
  const p = record(value, 'params');
  const source = text(p.source, 'source');
  if (typeof p.text !== 'string') throw new BadRequest('text must be a string');
  const snapshot = record(p.snapshot, 'snapshot');
  if (!Array.isArray(p.nodes)) throw new BadRequest('nodes must be a list');
  p.nodes.forEach((n: unknown, i) => text(record(n, `nodes[${i}]`).name, `nodes[${i}].name`));
  return {
    source,
    text: p.text,
    snapshot: snapshot as unknown as LivePlanRequest['snapshot'],
    nodes: p.nodes as LivePlanRequest['nodes'],
  };
}

/**
 * Runs `task` with the default Kubernetes release active, then the worker's again. A real cluster is planned against
 * the default release (as the extension host, which never changes it, always did), whatever release
 * `kubeReconcile.kubernetesVersion` gave the running sandbox; the plan runs to its end on this thread, so the sandbox
 * never runs meanwhile.
 */
function withDefaultRelease<T>(task: () => T): T {
  const active = kubernetesVersion();
  if (active === DEFAULT_KUBERNETES_VERSION) return task();
  setKubernetesVersion(DEFAULT_KUBERNETES_VERSION);
  try {
    return task();
  } finally {
    setKubernetesVersion(active);
  }
}

/**
 * The plan of the request's text on a fork of its snapshot, as text. The host refuses a text with YAML errors or
 * without a manifest before it takes the snapshot; here they are errors all the same. The snapshot arrived by
 * structured clone for this plan alone: the fork keeps its objects instead of copying them (`snapshotOwned`, as the
 * CLI does).
 */
export function planLive(params: unknown): Requests['planLive']['result'] {
  const request = livePlanRequestOf(params);
  const { manifests, errors } = manifestObjects(request.text);
  if (errors.length > 0)
    throw new BadRequest(`${request.source} has errors (line ${errors[0]!.line + 1}: ${errors[0]!.message})`);
  if (manifests.length === 0) throw new BadRequest(`${request.source} has no manifest to plan`);
  return withDefaultRelease(() => {
    const report = runPlan({
      manifests: placeManifests(manifests, request.source),
      snapshot: request.snapshot,
      snapshotOwned: true,
      // the shape of a live node is the kubelet's NodeConfig (protocol.ts spells it out; live/snapshot.ts makes it)
      nodes: request.nodes as NodeConfig[],
    });
    return { text: formatPlanText(report) };
  });
}
