/**
 * The GitOps sync loop — Argo CD's automated sync with prune and self-heal,
 * with saved files as the Git repository. `setSource` applies a file's
 * manifests (`kubectl apply` semantics) and prunes what the file no longer
 * declares; informers on the tracked objects notice hand-made drift (a
 * scaled Deployment, an edited or deleted object) and, after a short
 * delay, put the declared state back — or, with self-heal off, say so once.
 */
import type { KubeObject } from '../api/types';
import { qualifiedKind } from '../api/resources';
import { badRequest, isApiError } from '../api/errors';
import type { Status } from '../api/errors';
import { applyManifest } from '../operations/apply/apply';
import type { ApplyAction } from '../operations/apply/apply';
import type { TimerHandle } from '../clock/clock';
import { isPlainObject } from '../util/json';
import type { Component, ComponentContext } from '../client/component';
import { Recorder } from '../client/component';
import { DesiredState, locate, trackingKey, withSourceAnnotation } from './desiredState';
import type { DesiredStateData, SourceManifest, TrackedObject } from './desiredState';
import { checkDesiredState } from './checkDesiredState';
import { detectDrift } from './drift';
import type { FieldChange } from './drift';
import { DriftResponder } from './driftResponder';
import type { Revert } from './driftResponder';
import { onlyStatusChanged } from './statusOnly';

export type { Revert };

export const GITOPS_COMPONENT = 'gitops-sync';
/** Clock time between noticing a change to a tracked object and comparing it with its manifest. */
export const DEFAULT_SYNC_DELAY_MS = 1500;

export interface GitOpsOptions {
  selfHeal?: boolean;
  delayMs?: number;
  /** Hears of every self-heal revert, after it was written (the extension offers to keep the live values instead). */
  onRevert?: (revert: Revert) => void;
}

/** The result of applying one document (the shape of the protocol's ApplyOutcome). */
export interface SyncOutcome {
  line: number;
  message: string;
  ok: boolean;
  /** What the apply did, when it was applied. */
  action?: ApplyAction;
  status?: Status;
  /** The fields a rejection names when its Status does not carry them (strict decoding errors). */
  fields?: string[];
  /** Other sources that declare the same object (a shared resource: the one applied last is in the cluster). */
  sharedWith?: string[];
}

export interface SyncResult {
  outcomes: SyncOutcome[];
  /** `deployment.apps/web` for each object deleted because the source no longer declares it. */
  pruned: string[];
  /**
   * `deployment.apps/web from web.yaml` for each object the source no longer declares that another source still does:
   * that declaration was applied instead of the object being deleted. Absent when none.
   */
  reapplied?: string[];
}

/** An object as the desired state holds it: the declaration in the cluster, and the files that declare it too. */
export interface DeclaredObject extends TrackedObject {
  /** Other sources' declarations of it, oldest applied first (each would be applied again if the newer ones went). */
  shadowed: { source: string; line: number }[];
}

/** What "Revert Live to Manifest" did. */
export interface RevertResult {
  /** kubectl's line: `deployment.apps/web configured`. */
  message: string;
  source: string;
  /** The fields put back, with their live values before (empty when the object was recreated or unchanged). */
  changes: FieldChange[];
  /** The declaration put back. */
  tracked: TrackedObject;
  /** True when the object was missing and was created again. */
  recreated: boolean;
}

export class GitOpsSync implements Component {
  readonly name = GITOPS_COMPONENT;
  private readonly state = new DesiredState();
  private readonly recorder: Recorder;
  private readonly delayMs: number;
  private readonly watched = new Set<string>();
  private readonly timers = new Map<string, TimerHandle>();
  private readonly drift: DriftResponder;
  private heal: boolean;
  private running = false;
  /** The key being written by this component: its own writes are not drift. */
  private writing: string | undefined;

  constructor(
    private readonly ctx: ComponentContext,
    options: GitOpsOptions = {},
  ) {
    this.recorder = new Recorder(ctx, GITOPS_COMPONENT);
    this.drift = new DriftResponder(ctx.api, this.recorder, (key, fn) => this.write(key, fn), options.onRevert);
    this.heal = options.selfHeal ?? true;
    this.delayMs = options.delayMs ?? DEFAULT_SYNC_DELAY_MS;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    for (const t of this.state.all()) this.watch(t.resource);
  }

  stop(): void {
    this.running = false;
    for (const h of this.timers.values()) this.ctx.clock.clearTimer(h);
    this.timers.clear();
  }

  get selfHeal(): boolean {
    return this.heal;
  }

  /** Turning self-heal on re-checks every tracked object, so standing drift is reverted. */
  set selfHeal(on: boolean) {
    const was = this.heal;
    this.heal = on;
    if (on && !was) for (const t of this.state.all()) this.schedule(t.key);
  }

  /**
   * Makes `manifests` the desired state of `source`: applies each (a
   * rejected one becomes an outcome with the API server's Status; the others
   * are still applied) and, unless `prune` is false, withdraws the source's
   * declarations of the objects it declared before and no longer does: an
   * object no other source declares is deleted, one another source declares
   * gets that declaration applied. An object a rejected document declares is
   * never withdrawn; when a rejected document's object cannot even be named,
   * nothing is.
   */
  setSource(source: string, manifests: readonly SourceManifest[], options: { prune?: boolean } = {}): SyncResult {
    const previous = this.state.keysOf(source);
    const declared = new Set<string>();
    let unnamedRejection = false;
    const outcomes = manifests.map((m) => {
      const result = this.applyOne(source, m);
      if (result.key) declared.add(result.key);
      else unnamedRejection = true;
      return result.outcome;
    });
    const prune = (options.prune ?? true) && !unnamedRejection;
    const gone = prune
      ? this.withdraw(
          previous.filter((k) => !declared.has(k)),
          source,
        )
      : { pruned: [], reapplied: [] };
    return withReapplied({ outcomes, pruned: gone.pruned }, gone.reapplied);
  }

  /** The file is gone: withdraws every declaration it made (see `setSource`). */
  removeSource(source: string): Omit<SyncResult, 'outcomes'> {
    const gone = this.withdraw(this.state.keysOf(source), source);
    return withReapplied({ pruned: gone.pruned }, gone.reapplied);
  }

  /** The manifest, file and line behind an object (the declaration in effect), when it was applied from a source. */
  desired(resource: string, namespace: string | undefined, name: string): TrackedObject | undefined {
    return this.state.get(this.keyOf(resource, namespace, name));
  }

  /** Every tracked object with the declaration in effect and the sources that declare it too. */
  declaredObjects(): DeclaredObject[] {
    return this.state.all().map((t) => ({
      ...t,
      shadowed: this.state
        .declarations(t.key)
        .slice(0, -1)
        .map((d) => ({ source: d.source, line: d.line })),
    }));
  }

  /** Counts changes to the desired state (declarations made or withdrawn). */
  get desiredRevision(): number {
    return this.state.revision;
  }

  /** The desired state, for snapshots. */
  desiredState(): DesiredStateData {
    return this.state.toData();
  }

  /** Restores a saved desired state (throws when malformed); tracked objects are then re-checked. */
  loadDesiredState(data: unknown): void {
    this.state.load(checkDesiredState(data));
    this.drift.clear();
    for (const t of this.state.all()) {
      if (this.running) this.watch(t.resource);
      this.schedule(t.key);
    }
  }

  /**
   * Applies the declaration in effect of every tracked object now, namespaces first (a fresh cluster under the same
   * desired state: Reset Sandbox). A rejection is logged, and the others are still applied.
   */
  syncAll(): void {
    const all = this.state.all();
    const ordered = [
      ...all.filter((t) => t.resource === 'namespaces'),
      ...all.filter((t) => t.resource !== 'namespaces'),
    ];
    for (const t of ordered) {
      try {
        const result = this.write(t.key, () => applyManifest(this.ctx.api, withSourceAnnotation(t.manifest, t.source)));
        this.drift.forget(t.key);
        if (result.action !== 'unchanged')
          this.recorder.logOnly(result.object, 'Normal', 'Synced', `${result.message} from ${t.source}`);
      } catch (e) {
        this.recorder.logOnly(refOf(t), 'Warning', 'SyncFailed', `${errorText(e)} (${t.source})`);
      }
    }
  }

  /**
   * "Revert Live to Manifest": applies the declaration in effect of one object now, whatever self-heal says. Throws
   * when no source declares it, and the API server's error when the apply is rejected.
   */
  revert(resource: string, namespace: string | undefined, name: string): RevertResult {
    const t = this.desired(resource, namespace, name);
    if (!t) throw new Error(`${refText(this.ctx.api.resolve(resource), name)} is not declared in any saved file`);
    const manifest = withSourceAnnotation(t.manifest, t.source);
    const drift = detectDrift(this.ctx.api, manifest);
    const result = this.write(t.key, () => applyManifest(this.ctx.api, manifest));
    this.drift.forget(t.key);
    return {
      message: result.message,
      source: t.source,
      changes: drift ?? [],
      tracked: t,
      recreated: result.action === 'created',
    };
  }

  private keyOf(resource: string, namespace: string | undefined, name: string): string {
    const r = this.ctx.api.resolve(resource);
    return trackingKey(r.plural, r.namespaced ? namespace || 'default' : undefined, name);
  }

  private applyOne(source: string, m: SourceManifest): { key?: string; outcome: SyncOutcome } {
    let key: string | undefined;
    try {
      const object = normalized(m.object);
      const r = this.ctx.api.resourceOf(object);
      const where = locate(r, object);
      key = trackingKey(where.resource, where.namespace, where.name);
      if (!object.metadata.name && object.metadata.generateName)
        throw badRequest('cannot use generate name with apply');
      const inEffect = this.state.get(key)?.source;
      const result = this.write(key, () => applyManifest(this.ctx.api, withSourceAnnotation(object, source)));
      const others = this.state.declare({ ...where, key, source, line: m.line, manifest: object });
      this.drift.forget(key);
      if (this.running) this.watch(where.resource);
      if (result.action !== 'unchanged')
        this.recorder.logOnly(result.object, 'Normal', 'Synced', `${result.message} from ${source}`);
      const sharedWith = others.map((o) => o.source);
      // upstream (Argo CD): SharedResourceWarning when two applications manage one object; the last sync wins.
      if (sharedWith.length > 0 && inEffect !== source)
        this.recorder.logOnly(
          result.object,
          'Warning',
          'SharedResource',
          `${refText(r, where.name)} is also declared in ${sharedWith.join(', ')}; ${source}'s declaration, applied last, is the one in the cluster (deleting either file re-applies the other's)`,
        );
      const outcome: SyncOutcome = { line: m.line, message: result.message, ok: true, action: result.action };
      if (sharedWith.length > 0) outcome.sharedWith = sharedWith;
      return { key, outcome };
    } catch (e) {
      return { key, outcome: rejection(m.line, e) };
    }
  }

  /**
   * Withdraws `source`'s declarations of `keys`: an object no other source declares is deleted (pruned); when the
   * withdrawn declaration was in effect and another source declares the object, that declaration is applied.
   */
  private withdraw(keys: readonly string[], source: string): { pruned: string[]; reapplied: string[] } {
    const pruned: string[] = [];
    const reapplied: string[] = [];
    for (const key of keys) {
      const w = this.state.withdraw(key, source);
      if (!w) continue;
      this.drift.forget(key);
      if (!w.wasInEffect) continue;
      const t = w.removed;
      const r = this.ctx.api.resolve(t.resource);
      const ref = refText(r, t.name);
      if (w.inEffect) {
        const next = w.inEffect;
        try {
          const result = this.write(key, () =>
            applyManifest(this.ctx.api, withSourceAnnotation(next.manifest, next.source)),
          );
          this.recorder.logOnly(
            result.object,
            'Normal',
            'Synced',
            `${result.message} from ${next.source}: ${source} no longer declares it`,
          );
          reapplied.push(`${ref} from ${next.source}`);
        } catch (e) {
          this.recorder.logOnly(refOf(next), 'Warning', 'SyncFailed', `${errorText(e)} (${next.source})`);
        }
        continue;
      }
      try {
        const last = this.write(key, () =>
          this.ctx.api.delete(r, t.namespace, t.name, { propagationPolicy: 'Background' }),
        );
        this.recorder.logOnly(last, 'Normal', 'Pruned', `${ref} pruned: no longer declared in ${source}`);
        pruned.push(ref);
      } catch (e) {
        if (!isApiError(e, 404)) throw e;
      }
    }
    return { pruned, reapplied };
  }

  private write<T>(key: string, fn: () => T): T {
    this.writing = key;
    try {
      return fn();
    } finally {
      this.writing = undefined;
    }
  }

  private watch(resource: string): void {
    if (this.watched.has(resource)) return;
    this.watched.add(resource);
    const key = (o: KubeObject) => trackingKey(resource, o.metadata.namespace, o.metadata.name ?? '');
    this.ctx.informers.get(resource).addHandlers({
      onAdd: (o) => this.changed(key(o)),
      onUpdate: (old, o) => {
        if (!onlyStatusChanged(old, o)) this.changed(key(o));
      },
      onDelete: (o) => this.changed(key(o)),
    });
  }

  private changed(key: string): void {
    if (this.running && key !== this.writing && this.state.get(key)) this.schedule(key);
  }

  private schedule(key: string): void {
    if (!this.running || this.timers.has(key)) return;
    const handle = this.ctx.clock.setTimer(this.delayMs, () => {
      this.timers.delete(key);
      this.check(key);
    });
    this.timers.set(key, handle);
  }

  /** Compares one tracked object with its manifest; reverts or reports drift. */
  private check(key: string): void {
    const t = this.state.get(key);
    if (t && this.running) this.drift.respond(t, this.heal);
  }
}

function withReapplied<T extends { pruned: string[] }>(result: T, reapplied: string[]): T & { reapplied?: string[] } {
  return reapplied.length > 0 ? { ...result, reapplied } : result;
}

/** `deployment.apps/web`, as kubectl names objects. */
function refText(r: Parameters<typeof qualifiedKind>[0], name: string): string {
  return `${qualifiedKind(r).toLowerCase()}/${name}`;
}

function refOf(t: TrackedObject): string {
  return t.namespace ? `${t.namespace}/${t.name}` : t.name;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function normalized(object: KubeObject): KubeObject {
  if (!isPlainObject(object)) throw badRequest('a manifest must be a JSON object');
  return isPlainObject(object.metadata) ? object : { ...object, metadata: {} };
}

function rejection(line: number, e: unknown): SyncOutcome {
  if (isApiError(e)) {
    const outcome: SyncOutcome = { line, message: e.message, ok: false, status: e.status };
    if (e.fields !== undefined) outcome.fields = [...e.fields];
    return outcome;
  }
  return { line, message: e instanceof Error ? e.message : String(e), ok: false };
}
