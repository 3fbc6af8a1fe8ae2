/**
 * `kubectl drain NODE` on the sandbox's clock (kubectl pkg/cmd/drain `RunDrain`
 * and pkg/drain `Helper`: `GetPodsForDeletion`, the filters of filters.go,
 * `evictPods`, `waitForDelete`):
 *
 * 1. cordon the node (`node/x cordoned`, or `already cordoned`);
 * 2. list its pods and run kubectl's filters, in its order — DaemonSet pods
 *    (`--ignore-daemonsets`), mirror pods (skipped), pods with emptyDir
 *    volumes (`--delete-emptydir-data`), pods without a controller
 *    (`--force`); finished pods always go. Any refusal stops the drain before
 *    anything is evicted, with kubectl's aggregated message;
 * 3. evict every pod through the API (`pods/eviction`) — "in parallel", each
 *    on its own: a 429 (a PodDisruptionBudget allows no disruption now) is
 *    retried every 5 s, printing kubectl's `error when evicting pods/"x" -n
 *    "ns" (will retry after 5s): …`; a 404 means the pod is already gone;
 *    any other error fails that pod;
 * 4. wait for each evicted pod to be gone (polled every second: `pod/x
 *    evicted`), then `node/x drained`.
 *
 * The wait is asynchronous on the injected clock (its timers are foreground
 * work, so a drain blocked by a budget keeps a simulation unsettled); progress
 * comes through a listener, line by line, as kubectl prints it. `timeoutMs`
 * is kubectl's `--timeout` (0: wait forever).
 */
import type { Pod } from 'kubernetes-types/core/v1';
import type { ApiServer } from '../apiserver/apiServer';
import { isApiError } from '../api/errors';
import type { KubeObject, OwnerReference } from '../api/types';
import type { Clock, TimerHandle } from '../clock/clock';
import { cordon } from './cordon';

export interface DrainOptions {
  /** `--ignore-daemonsets`: leave DaemonSet pods (otherwise they stop the drain). */
  ignoreDaemonSets?: boolean;
  /** `--delete-emptydir-data`: evict pods with emptyDir volumes (otherwise they stop the drain). */
  deleteEmptyDirData?: boolean;
  /** `--force`: evict pods without a controller, and those of a DaemonSet that is gone. */
  force?: boolean;
  /** `--grace-period`: seconds each pod gets; negative or absent: the pod's own. */
  gracePeriodSeconds?: number;
  /** `--timeout` in ms: give up after this long; 0 or absent waits forever, as kubectl does. */
  timeoutMs?: number;
  /** `--pod-selector`: only pods with these labels. */
  podSelector?: string;
  /** `--disable-eviction`: delete the pods instead, bypassing PodDisruptionBudgets. */
  disableEviction?: boolean;
}

/** One line kubectl prints, on standard output or standard error. */
export interface DrainLine {
  stream: 'stdout' | 'stderr';
  text: string;
}

export interface DrainOutcome {
  node: string;
  ok: boolean;
  /** `ns/name` of the pods evicted (or deleted) and gone, in the order they went. */
  evicted: string[];
  /** The error kubectl exits with (aggregated as `[a, b]` when several), when not ok. */
  error?: string;
  /** Everything printed, in order. */
  lines: DrainLine[];
}

export interface DrainListener {
  /** Each line as kubectl prints it, with the drain's state at that moment. */
  onLine?(line: DrainLine, drain: DrainHandle): void;
  /** Once, when the drain succeeded or failed (synchronously from `drainNode` when it ends at once). */
  onDone?(outcome: DrainOutcome): void;
}

export interface DrainHandle {
  readonly node: string;
  /** Set once the drain is over. */
  readonly outcome: DrainOutcome | undefined;
  /** `ns/name` of the pods not yet gone. */
  readonly pending: readonly string[];
  /** `ns/name` of the pods whose last eviction a disruption budget refused (429); retried every 5 s. */
  readonly blocked: readonly string[];
  /** Stops waiting (as an interrupted kubectl: nothing more printed); the outcome is a failure, `drain cancelled`. */
  cancel(): void;
  /** Resolves with the outcome. */
  done(): Promise<DrainOutcome>;
}

const MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';
const DAEMONSET_FATAL = 'DaemonSet-managed Pods (use --ignore-daemonsets to ignore)';
const DAEMONSET_WARNING = 'ignoring DaemonSet-managed Pods';
const LOCAL_STORAGE_FATAL = 'Pods with local storage (use --delete-emptydir-data to override)';
const UNMANAGED_FATAL = 'cannot delete Pods that declare no controller (use --force to override)';
const UNMANAGED_WARNING = 'deleting Pods that declare no controller';
export const EVICTION_RETRY_MS = 5_000;
export const POLL_INTERVAL_MS = 1_000;

type Status =
  | { delete: true; warning?: string }
  | { delete: false; warning?: string; error?: string }
  | { delete: false; skip: true };

function controllerOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((r) => r.controller === true);
}

function isFinished(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

function keyOf(pod: Pod): string {
  return `${pod.metadata?.namespace}/${pod.metadata?.name}`;
}

/** `time.Duration`'s `%v`: `2m0s`, `30s`, `1h0m0s`, `1.5s`. */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = `${((ms % 60_000) / 1000).toFixed(3).replace(/\.?0+$/, '')}s`;
  return h > 0 ? `${h}h${m}m${s}` : m > 0 ? `${m}m${s}` : s;
}

/** `utilerrors.NewAggregate(errs).Error()`. */
function aggregate(errors: readonly string[]): string {
  const unique = [...new Set(errors)];
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}

/** `makeFilters`: the pod's status after kubectl's filters; the last filter's message is the one that stays. */
function filterPod(api: ApiServer, pod: Pod, options: DrainOptions): Status {
  const obj = pod as KubeObject;
  const owner = controllerOf(obj);
  // daemonSetFilter
  if (owner?.kind === 'DaemonSet' && !isFinished(pod)) {
    let daemonSet: KubeObject | undefined;
    try {
      daemonSet = api.get('daemonsets', pod.metadata?.namespace, owner.name);
    } catch (e) {
      if (!isApiError(e)) throw e;
      // An orphaned DaemonSet pod goes only with --force.
      if (!(isApiError(e, 404) && options.force)) return { delete: false, error: e.message };
    }
    if (daemonSet) {
      if (!options.ignoreDaemonSets) return { delete: false, error: DAEMONSET_FATAL };
      return { delete: false, warning: DAEMONSET_WARNING };
    }
  }
  // mirrorPodFilter
  if (pod.metadata?.annotations?.[MIRROR_ANNOTATION] !== undefined) return { delete: false, skip: true };
  // localStorageFilter (its warning, `deleting Pods with local storage`, is overwritten by the next filter's
  // status: upstream's TODO says so, and kubectl never prints it)
  if ((pod.spec?.volumes ?? []).some((v) => v.emptyDir) && !isFinished(pod) && !options.deleteEmptyDirData)
    return { delete: false, error: LOCAL_STORAGE_FATAL };
  // unreplicatedFilter
  if (isFinished(pod) || owner) return { delete: true };
  if (options.force) return { delete: true, warning: UNMANAGED_WARNING };
  return { delete: false, error: UNMANAGED_FATAL };
}

interface Filtered {
  pods: Pod[];
  /** `PodDeleteList.Warnings()`: `msg: ns/a, ns/b` joined by `; `. */
  warnings: string;
  /** `PodDeleteList.errors()`: `cannot delete msg: ns/a, ns/b`. */
  errors: string[];
}

function grouped(entries: readonly [string, string][]): Map<string, string[]> {
  const byMessage = new Map<string, string[]>();
  for (const [message, pod] of entries) {
    const pods = byMessage.get(message);
    if (pods) pods.push(pod);
    else byMessage.set(message, [pod]);
  }
  return byMessage;
}

/** `GetPodsForDeletion`: the node's pods (etcd order: namespace, then name) through the filters. */
export function podsForDeletion(api: ApiServer, node: string, options: DrainOptions = {}): Filtered {
  const list = api.list('pods', {
    fieldSelector: `spec.nodeName=${node}`,
    ...(options.podSelector ? { labelSelector: options.podSelector } : {}),
  }).items as Pod[];
  list.sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  const pods: Pod[] = [];
  const warnings: [string, string][] = [];
  const errors: [string, string][] = [];
  for (const pod of list) {
    const status = filterPod(api, pod, options);
    if (status.delete) pods.push(pod);
    if ('warning' in status && status.warning) warnings.push([status.warning, keyOf(pod)]);
    if ('error' in status && status.error) errors.push([status.error, keyOf(pod)]);
  }
  return {
    pods,
    warnings: [...grouped(warnings)].map(([m, p]) => `${m}: ${p.join(', ')}`).join('; '),
    errors: [...grouped(errors)].map(([m, p]) => `cannot delete ${m}: ${p.join(', ')}`),
  };
}

type PodState = 'evicting' | 'waiting' | 'gone' | 'failed';

interface PodRun {
  pod: Pod;
  key: string;
  state: PodState;
  blocked: boolean;
  timer?: TimerHandle;
}

class DrainRun implements DrainHandle {
  outcome: DrainOutcome | undefined;
  private readonly lines: DrainLine[] = [];
  private readonly evicted: string[] = [];
  private readonly errors: string[] = [];
  private runs: PodRun[] = [];
  private deadline = Number.POSITIVE_INFINITY;
  private readonly waiters: ((o: DrainOutcome) => void)[] = [];

  constructor(
    private readonly api: ApiServer,
    private readonly clock: Clock,
    readonly node: string,
    private readonly options: DrainOptions,
    private readonly listener: DrainListener,
  ) {}

  get pending(): string[] {
    return this.runs.filter((r) => r.state === 'evicting' || r.state === 'waiting').map((r) => r.key);
  }

  get blocked(): string[] {
    return this.runs.filter((r) => r.state === 'evicting' && r.blocked).map((r) => r.key);
  }

  start(): void {
    this.out(cordon(this.api, this.node).message);
    const filtered = podsForDeletion(this.api, this.node, this.options);
    if (filtered.errors.length > 0) return this.fail(aggregate(filtered.errors), false);
    if (filtered.warnings !== '') this.err(`Warning: ${filtered.warnings}`);
    const timeout = this.options.timeoutMs ?? 0;
    if (timeout > 0) this.deadline = this.clock.now() + timeout;
    this.runs = filtered.pods.map((pod) => ({ pod, key: keyOf(pod), state: 'evicting', blocked: false }));
    if (this.options.disableEviction) this.deleteAll();
    else for (const run of [...this.runs]) this.attempt(run);
    this.checkFinished();
  }

  /** As an interrupted kubectl: nothing more is printed; the outcome says `drain cancelled`. */
  cancel(): void {
    if (this.outcome) return;
    this.finish({
      node: this.node,
      ok: false,
      evicted: [...this.evicted],
      error: 'drain cancelled',
      lines: this.lines,
    });
  }

  done(): Promise<DrainOutcome> {
    if (this.outcome) return Promise.resolve(this.outcome);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  // ---- output ----

  private print(stream: DrainLine['stream'], text: string): void {
    const line = { stream, text };
    this.lines.push(line);
    this.listener.onLine?.(line, this);
  }

  private out(text: string): void {
    this.print('stdout', text);
  }

  private err(text: string): void {
    this.print('stderr', text);
  }

  // ---- per pod (`evictPods`' goroutine) ----

  private timedOut(): boolean {
    return this.clock.now() >= this.deadline;
  }

  private podFailed(run: PodRun, error: string): void {
    run.state = 'failed';
    run.blocked = false;
    this.errors.push(error);
    this.checkFinished();
  }

  private attempt(run: PodRun): void {
    run.timer = undefined;
    if (this.outcome) return;
    const { name = '', namespace = '' } = run.pod.metadata ?? {};
    this.out(`evicting pod ${namespace}/${name}`);
    if (this.timedOut())
      return this.podFailed(
        run,
        `error when evicting pods/"${name}" -n "${namespace}": global timeout reached: ${goDuration(this.options.timeoutMs!)}`,
      );
    try {
      this.api.evict(namespace, name, { metadata: { name, namespace }, deleteOptions: this.deleteOptions() });
    } catch (e) {
      if (isApiError(e, 404)) {
        run.state = 'gone';
        run.blocked = false;
        return this.checkFinished();
      }
      if (isApiError(e, 429)) {
        run.blocked = true;
        this.err(`error when evicting pods/"${name}" -n "${namespace}" (will retry after 5s): ${e.message}`);
        run.timer = this.clock.setTimer(EVICTION_RETRY_MS, () => this.attempt(run));
        return;
      }
      const message = e instanceof Error ? e.message : String(e);
      return this.podFailed(run, `error when evicting pods/"${name}" -n "${namespace}": ${message}`);
    }
    run.blocked = false;
    run.state = 'waiting';
    this.poll(run);
  }

  /** `makeDeleteOptions`. */
  private deleteOptions(): { gracePeriodSeconds?: number } {
    const grace = this.options.gracePeriodSeconds;
    return grace !== undefined && grace >= 0 ? { gracePeriodSeconds: grace } : {};
  }

  /** `deletePods`: every pod deleted at once, then waited for. */
  private deleteAll(): void {
    for (const run of this.runs) {
      const { name = '', namespace = '' } = run.pod.metadata ?? {};
      try {
        this.api.delete('pods', namespace, name, this.deleteOptions());
      } catch (e) {
        if (!isApiError(e, 404)) {
          for (const r of this.runs) r.state = 'failed';
          return this.fail(e instanceof Error ? e.message : String(e), true);
        }
      }
      run.state = 'waiting';
    }
    for (const run of this.runs) this.poll(run);
  }

  /** `waitForDelete`: gone when 404 or replaced by a pod of another uid; polled every second. */
  private poll(run: PodRun): void {
    run.timer = undefined;
    if (this.outcome) return;
    const { name = '', namespace = '', uid } = run.pod.metadata ?? {};
    let current: KubeObject | undefined;
    try {
      current = this.api.get('pods', namespace, name);
    } catch (e) {
      if (!isApiError(e, 404)) {
        const message = e instanceof Error ? e.message : String(e);
        return this.podFailed(
          run,
          `error when waiting for pod "${name}" in namespace "${namespace}" to terminate: ${message}`,
        );
      }
    }
    if (!current || current.metadata.uid !== uid) {
      run.state = 'gone';
      this.evicted.push(run.key);
      this.out(`pod/${name} ${this.options.disableEviction ? 'deleted' : 'evicted'}`);
      return this.checkFinished();
    }
    if (this.timedOut())
      return this.podFailed(
        run,
        `error when waiting for pod "${name}" in namespace "${namespace}" to terminate: global timeout reached: ${goDuration(this.options.timeoutMs!)}`,
      );
    run.timer = this.clock.setTimer(POLL_INTERVAL_MS, () => this.poll(run));
  }

  // ---- the end ----

  private checkFinished(): void {
    if (this.outcome || this.pending.length > 0) return;
    if (this.errors.length > 0) return this.fail(aggregate(this.errors), true);
    this.out(`node/${this.node} drained`);
    this.finish({ node: this.node, ok: true, evicted: [...this.evicted], lines: this.lines });
  }

  /** kubectl's lines for a node it could not drain; `evicting`: the failure came while pods were going. */
  private fail(error: string, evicting: boolean): void {
    if (evicting) {
      const left = podsForDeletion(this.api, this.node, this.options).pods;
      if (left.length > 0) {
        this.err(`There are pending pods in node "${this.node}" when an error occurred: ${error}`);
        for (const pod of left) this.err(`pod/${pod.metadata?.name}`);
      }
    }
    this.err(`error: unable to drain node "${this.node}" due to error: ${error}, continuing command...`);
    this.err('There are pending nodes to be drained:');
    this.err(` ${this.node}`);
    this.finish({ node: this.node, ok: false, evicted: [...this.evicted], error, lines: this.lines });
  }

  private finish(outcome: DrainOutcome): void {
    this.outcome = outcome;
    for (const run of this.runs) if (run.timer) this.clock.clearTimer(run.timer);
    this.listener.onDone?.(outcome);
    for (const w of this.waiters.splice(0)) w(outcome);
  }
}

/**
 * Starts `kubectl drain NODE` (see the file comment). Cordoning, filtering and the first round of evictions happen
 * before this returns; the rest follows on `clock`. Throws the API server's 404 for an unknown node.
 */
export function drainNode(
  api: ApiServer,
  clock: Clock,
  node: string,
  options: DrainOptions = {},
  listener: DrainListener = {},
): DrainHandle {
  const run = new DrainRun(api, clock, node, options, listener);
  run.start();
  return run;
}
