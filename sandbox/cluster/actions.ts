/**
 * The things a user can do to a running cluster — the fault actions of the
 * extension's context menus and `simulate --at TIME:ACTION` — parsed from
 * text and carried out against a Cluster.
 */
import { parseDuration } from '../kubelet/duration';
import { cordon, uncordon } from '../operations/cordon';
import { drainNode } from '../operations/drain';
import type { DrainHandle, DrainOptions } from '../operations/drain';
import type { Cluster } from './cluster';
import { parseLabelSelector } from '../api/selectors/labelSelector';
import { parseUsage } from '../client/metrics/usage';
import type { UsageSpec } from '../client/metrics/usage';

export type ClusterAction =
  | { type: 'apply'; file: string }
  | { type: 'delete'; resource: string; namespace: string; name: string }
  | { type: 'kill-pods'; namespace: string; selector: string }
  | { type: 'crash'; namespace: string; selector: string }
  | { type: 'fail-node' | 'recover-node' | 'cordon' | 'uncordon' | 'drain'; node: string }
  | { type: 'scale'; resource: string; namespace: string; name: string; replicas: number }
  | { type: 'load'; namespace: string; selector: string; usage: UsageSpec };

export interface TimedAction {
  /** Virtual milliseconds after the start of the run. */
  atMs: number;
  action: ClusterAction;
  /** As the user wrote it, for messages. */
  text: string;
}

export class ActionSyntaxError extends Error {}

const NODE_ACTIONS = ['fail-node', 'recover-node', 'cordon', 'uncordon', 'drain'] as const;

export const ACTION_HELP = `apply=FILE  delete=KIND/NAME  kill-pods=SELECTOR  crash=POD-SELECTOR
fail-node=NODE  recover-node=NODE  cordon=NODE  uncordon=NODE  drain=NODE  scale=KIND/NAME=N
load=SELECTOR:cpu=QUANTITY,memory=QUANTITY`;

/** `KIND/NAME` or `KIND/NAMESPACE/NAME`. */
function objectRef(
  text: string,
  defaultNamespace: string,
  what: string,
): { resource: string; namespace: string; name: string } {
  const parts = text.split('/');
  if (parts.length === 2 && parts.every((p) => p !== ''))
    return { resource: parts[0], namespace: defaultNamespace, name: parts[1] };
  if (parts.length === 3 && parts.every((p) => p !== ''))
    return { resource: parts[0], namespace: parts[1], name: parts[2] };
  throw new ActionSyntaxError(`${what} needs KIND/NAME or KIND/NAMESPACE/NAME, got "${text}"`);
}

/** Parses `fail-node=node-2`, `scale=deployment/web=5`, … */
export function parseAction(text: string, defaultNamespace = 'default'): ClusterAction {
  const eq = text.indexOf('=');
  const verb = eq < 0 ? text : text.slice(0, eq);
  const arg = eq < 0 ? '' : text.slice(eq + 1);
  if (arg === '') throw new ActionSyntaxError(`action "${text}" needs a value: ${verb}=…`);
  switch (verb) {
    case 'apply':
      return { type: 'apply', file: arg };
    case 'delete':
      return { type: 'delete', ...objectRef(arg, defaultNamespace, 'delete') };
    case 'kill-pods':
      return { type: 'kill-pods', namespace: defaultNamespace, selector: arg };
    case 'crash':
      return { type: 'crash', namespace: defaultNamespace, selector: arg };
    case 'scale': {
      const last = arg.lastIndexOf('=');
      const replicas = Number(arg.slice(last + 1));
      if (last < 0 || !Number.isInteger(replicas) || replicas < 0)
        throw new ActionSyntaxError(`scale needs KIND/NAME=N with N a whole number, got "${arg}"`);
      return { type: 'scale', ...objectRef(arg.slice(0, last), defaultNamespace, 'scale'), replicas };
    }
    case 'load': {
      // `load=app=web:cpu=2` — the total the matching Ready pods share (sandbox/client/metrics/loadTable.ts).
      const colon = arg.lastIndexOf(':');
      const selector = colon < 0 ? '' : arg.slice(0, colon).trim();
      if (selector === '')
        throw new ActionSyntaxError(
          `load needs SELECTOR:cpu=QUANTITY,memory=QUANTITY (e.g. app=web:cpu=2), got "${arg}"`,
        );
      try {
        parseLabelSelector(selector);
      } catch (e) {
        throw new ActionSyntaxError(`load: invalid selector "${selector}": ${(e as Error).message}`);
      }
      let usage: UsageSpec;
      try {
        usage = parseUsage(arg.slice(colon + 1));
      } catch (e) {
        throw new ActionSyntaxError(`load: ${(e as Error).message}`);
      }
      return { type: 'load', namespace: defaultNamespace, selector, usage };
    }
    default:
      if ((NODE_ACTIONS as readonly string[]).includes(verb))
        return { type: verb as (typeof NODE_ACTIONS)[number], node: arg };
      throw new ActionSyntaxError(`unknown action "${verb}"; actions: ${ACTION_HELP.replace(/\n/g, '  ')}`);
  }
}

/** Parses `30s:kill-pods=app=web` (time as `30s`, `2m`, `1m30s`, `1h`). */
export function parseTimedAction(text: string, defaultNamespace = 'default'): TimedAction {
  const colon = text.indexOf(':');
  if (colon < 0) throw new ActionSyntaxError(`--at needs TIME:ACTION (e.g. 30s:fail-node=node-2), got "${text}"`);
  const atMs = parseDuration(text.slice(0, colon));
  if (atMs === undefined)
    throw new ActionSyntaxError(`"${text.slice(0, colon)}" is not a duration (e.g. 30s, 2m, 1m30s)`);
  return { atMs, action: parseAction(text.slice(colon + 1), defaultNamespace), text };
}

/** Where an action says what it did: kubectl's lines, at the cluster's current time, and the end of a drain. */
export interface ActionReporter {
  /** One line of output; `stderr` for kubectl's error stream (a drain's retries and failure). */
  line(text: string, stream?: 'stdout' | 'stderr'): void;
  /** A drain ended (later, on the cluster's clock); `ok` false when it failed. */
  done?(ok: boolean): void;
}

/** The options `--at drain=NODE` runs `kubectl drain` with: every pod goes, PodDisruptionBudgets permitting. */
export const SIMULATE_DRAIN_OPTIONS: DrainOptions = { ignoreDaemonSets: true, deleteEmptyDirData: true, force: true };

/**
 * Carries out an action (except `apply`, which needs files: the caller does it) through the API verbs and the
 * operations kubectl performs (sandbox/operations). Lines come through `reporter`; a drain goes on on the cluster's
 * clock and returns its handle. Throws ApiError or Error when the target does not exist.
 */
export function runAction(
  cluster: Cluster,
  action: Exclude<ClusterAction, { type: 'apply' }>,
  reporter: ActionReporter,
): DrainHandle | undefined {
  const api = cluster.api;
  switch (action.type) {
    case 'delete':
      api.delete(action.resource, action.namespace, action.name);
      reporter.line(`${action.resource} ${action.namespace}/${action.name} deleted`);
      return;
    case 'kill-pods':
      for (const p of api.list('pods', { namespace: action.namespace, labelSelector: action.selector }).items) {
        if (p.metadata.deletionTimestamp) continue;
        cluster.killPod(action.namespace, p.metadata.name!);
        reporter.line(`pod ${action.namespace}/${p.metadata.name} killed`);
      }
      return;
    case 'crash':
      for (const p of api.list('pods', { namespace: action.namespace, labelSelector: action.selector }).items) {
        if (!p.spec?.nodeName) continue;
        cluster.crashContainer(action.namespace, p.metadata.name!);
        reporter.line(`pod ${action.namespace}/${p.metadata.name}: container crashed`);
      }
      return;
    case 'scale':
      cluster.scale(action.resource, action.namespace, action.name, action.replicas);
      reporter.line(`${action.resource} ${action.namespace}/${action.name} scaled to ${action.replicas}`);
      return;
    case 'load': {
      cluster.setLoad(action.namespace, action.selector, action.usage);
      const parts: string[] = [];
      if (action.usage.cpuMilli !== undefined) parts.push(`cpu=${action.usage.cpuMilli}m`);
      if (action.usage.memoryBytes !== undefined) parts.push(`memory=${action.usage.memoryBytes}`);
      reporter.line(`load on pods ${action.namespace}/${action.selector} set to ${parts.join(',')}`);
      return;
    }
    case 'fail-node':
      cluster.failNode(action.node);
      reporter.line(`node ${action.node} failed (its kubelet stopped)`);
      return;
    case 'recover-node':
      cluster.recoverNode(action.node);
      reporter.line(`node ${action.node} recovered`);
      return;
    case 'cordon':
      cordon(api, action.node);
      reporter.line(`node ${action.node} cordoned`);
      return;
    case 'uncordon':
      uncordon(api, action.node);
      reporter.line(`node ${action.node} uncordoned`);
      return;
    case 'drain':
      return drainNode(api, cluster.clock, action.node, SIMULATE_DRAIN_OPTIONS, {
        onLine: (line) => reporter.line(line.text, line.stream),
        onDone: (outcome) => reporter.done?.(outcome.ok),
      });
  }
}
