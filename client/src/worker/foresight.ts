/**
 * Foresight in the worker: what saving an editor's unsaved text would do, found by the plan engine (sandbox/plan)
 * on a fork of the running sandbox's current state — the sandbox itself is never touched. The host sends a request
 * per document as the user pauses typing; a newer request for the same document supersedes an older one that has
 * not started (it answers `superseded`, so the host never sees a stale plan), and since a plan runs to its end on
 * this thread, no two forks are ever in flight, for one document or for several.
 */
import type { ApiServer } from '../../../sandbox/apiserver/apiServer';
import { takeSnapshot } from '../../../sandbox/apiserver/snapshot';
import { manifestObjects } from '../../../sandbox/manifests/parseManifests';
import { placeManifests } from '../../../sandbox/manifests/placedManifests';
import { formatPlanText } from '../../../sandbox/plan/format';
import { foresightDiagnostics } from '../foresight/diagnostics';
import { runPlan } from '../../../sandbox/plan/plan';
import type { ForesightResult } from '../sandbox/protocol';

/** What a plan needs from the running sandbox. */
export interface ForesightTarget {
  api: ApiServer;
  seed: number;
  /** Nodes whose kubelet Fail Node stopped: they stay failed in the fork. */
  failedNodes?: readonly string[];
}

/**
 * The plan of `text` (a YAML file named `source` in the GitOps desired state, as the sync loop names it) against a
 * fork of `target`. A text with YAML errors is not planned (its documents may be half-typed): `yamlErrors` says so.
 */
export function planText(target: ForesightTarget, source: string, text: string): ForesightResult {
  const { manifests, errors } = manifestObjects(text);
  if (errors.length > 0) return { yamlErrors: errors.length };
  const nodeReasons: Record<string, string[]> = {};
  const report = runPlan({
    manifests: placeManifests(manifests, source),
    snapshot: takeSnapshot(target.api),
    seed: target.seed,
    // The fork is the cluster the tree shows: the same release, the same failed nodes.
    kubernetesVersion: target.api.resources.kubernetesVersion,
    failedNodes: target.failedNodes,
    // The scheduler's last decision for the first Pending pod of each owner: why each node was rejected.
    inspect: (cluster, r) => {
      const seen = new Set<string>();
      for (const p of r.pending) {
        const owner = p.owner ?? p.pod;
        if (seen.has(owner)) continue;
        seen.add(owner);
        const [namespace, name] = p.pod.split('/', 2);
        const nodes = cluster.explain(namespace, name)?.nodes ?? [];
        const lines = nodes.flatMap((n) => (n.reasons?.length ? [`${n.node}: ${n.reasons.join(', ')}`] : []));
        if (lines.length > 0) nodeReasons[p.pod] = lines;
      }
    },
  });
  // The diagnostics from the parse above: the extension host only shows them (its thread never parses the text).
  const diagnostics = foresightDiagnostics(report, text, nodeReasons, manifests);
  return { report, text: formatPlanText(report), nodeReasons, diagnostics };
}

/** Runs `task` once the messages already queued for the worker have been read (a newer request may be among them). */
export type Defer = (task: () => void) => void;

const nextTurn: Defer = (task) => setImmediate(task);

/** At most one plan per document pending; the newest request wins. */
export class Foresight {
  private readonly latest = new Map<string, number>();
  private counter = 0;

  constructor(private readonly defer: Defer = nextTurn) {}

  /**
   * Plans for `uri` on a later turn of the event loop, unless a newer request for `uri` arrived by then: that one
   * answers, this one resolves `{ superseded: true }` without forking.
   */
  request(uri: string, plan: () => ForesightResult): Promise<ForesightResult> {
    const token = ++this.counter;
    this.latest.set(uri, token);
    return new Promise((resolve, reject) => {
      this.defer(() => {
        if (this.latest.get(uri) !== token) return resolve({ superseded: true });
        try {
          const result = plan();
          // A plan runs to its end on this thread, so nothing newer can have arrived meanwhile; checked all the same.
          resolve(this.latest.get(uri) === token ? result : { superseded: true });
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        } finally {
          if (this.latest.get(uri) === token) this.latest.delete(uri);
        }
      });
    });
  }

  /** Requests waiting for their turn (a superseded one no longer counts). */
  get pending(): number {
    return this.latest.size;
  }
}
