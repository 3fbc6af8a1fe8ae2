/**
 * Attaches a GitOps sync loop to a running Cluster: same API server, clock,
 * randomness, reconciliation log and causal timeline (its DriftReverted and
 * DriftDetected events are steps there, as the controllers' are), its own informers.
 */
import { InformerFactory } from '../client/informerFactory';
import type { ComponentContext } from '../client/component';
import { GitOpsSync } from './gitOpsSync';
import type { GitOpsOptions } from './gitOpsSync';

/**
 * A GitOpsSync for `cluster` (a `Cluster`, or anything with its API server, clock, randomness and log), not yet
 * started.
 */
export function gitOpsFor(
  cluster: Pick<ComponentContext, 'api' | 'clock' | 'random' | 'log' | 'timeline'>,
  options: GitOpsOptions = {},
): GitOpsSync {
  const ctx = {
    api: cluster.api,
    clock: cluster.clock,
    random: cluster.random,
    informers: new InformerFactory(cluster.api),
    log: cluster.log,
    ...(cluster.timeline ? { timeline: cluster.timeline } : {}),
  };
  return new GitOpsSync(ctx, options);
}
