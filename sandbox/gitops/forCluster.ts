/**
 * Attaches a GitOps sync loop to a running Cluster: same API server, clock,
 * randomness and reconciliation log, its own informers.
 */
import { InformerFactory } from '../client/informerFactory';
import type { Cluster } from '../cluster/cluster';
import { GitOpsSync } from './gitOpsSync';
import type { GitOpsOptions } from './gitOpsSync';

/** A GitOpsSync for `cluster`, not yet started. */
export function gitOpsFor(cluster: Cluster, options: GitOpsOptions = {}): GitOpsSync {
  const ctx = {
    api: cluster.api,
    clock: cluster.clock,
    random: cluster.random,
    informers: new InformerFactory(cluster.api),
    log: cluster.log,
  };
  return new GitOpsSync(ctx, options);
}
