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
import type { TimerHandle } from '../clock/clock';
import { isPlainObject } from '../util/json';
import type { Component, ComponentContext } from '../client/component';
import { Recorder } from '../client/component';
import { DesiredState, locate, trackingKey, withSourceAnnotation } from './desiredState';
import type { DesiredStateData, SourceManifest, TrackedObject } from './desiredState';
import { checkDesiredState } from './checkDesiredState';
import { DriftResponder } from './driftResponder';
import { onlyStatusChanged } from './statusOnly';

export const GITOPS_COMPONENT = 'gitops-sync';
/** Clock time between noticing a change to a tracked object and comparing it with its manifest. */
export const DEFAULT_SYNC_DELAY_MS = 1500;

export interface GitOpsOptions {
  selfHeal?: boolean;
  delayMs?: number;
}

/** The result of applying one document (the shape of the protocol's ApplyOutcome). */
export interface SyncOutcome {
  line: number;
  message: string;
  ok: boolean;
  status?: Status;
  /** The fields a rejection names when its Status does not carry them (strict decoding errors). */
  fields?: string[];
}

export interface SyncResult {
  outcomes: SyncOutcome[];
  /** `deployment.apps/web` for each object deleted because the source no longer declares it. */
  pruned: string[];
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
    this.drift = new DriftResponder(ctx.api, this.recorder, (key, fn) => this.write(key, fn));
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
   * are still applied) and, unless `prune` is false, deletes the objects the
   * source declared before and no longer does. An object a rejected document
   * declares is never pruned; when a rejected document's object cannot even
   * be named, nothing is pruned.
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
    const pruned = prune
      ? this.prune(
          previous.filter((k) => !declared.has(k) && this.state.get(k)?.source === source),
          source,
        )
      : [];
    return { outcomes, pruned };
  }

  /** The file is gone: prunes every object it declared. */
  removeSource(source: string): { pruned: string[] } {
    return { pruned: this.prune(this.state.keysOf(source), source) };
  }

  /** The manifest, file and line behind an object, when it was applied from a source. */
  desired(resource: string, namespace: string | undefined, name: string): TrackedObject | undefined {
    const r = this.ctx.api.resolve(resource);
    return this.state.get(trackingKey(r.plural, r.namespaced ? namespace || 'default' : undefined, name));
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

  private applyOne(source: string, m: SourceManifest): { key?: string; outcome: SyncOutcome } {
    let key: string | undefined;
    try {
      const object = normalized(m.object);
      const r = this.ctx.api.resourceOf(object);
      const where = locate(r, object);
      key = trackingKey(where.resource, where.namespace, where.name);
      if (!object.metadata.name && object.metadata.generateName)
        throw badRequest('cannot use generate name with apply');
      const result = this.write(key, () => applyManifest(this.ctx.api, withSourceAnnotation(object, source)));
      this.state.track({ ...where, key, source, line: m.line, manifest: object });
      this.drift.forget(key);
      if (this.running) this.watch(where.resource);
      if (result.action !== 'unchanged')
        this.recorder.logOnly(result.object, 'Normal', 'Synced', `${result.message} from ${source}`);
      return { key, outcome: { line: m.line, message: result.message, ok: true } };
    } catch (e) {
      return { key, outcome: rejection(m.line, e) };
    }
  }

  private prune(keys: readonly string[], source: string): string[] {
    const pruned: string[] = [];
    for (const key of keys) {
      const t = this.state.untrack(key);
      if (!t) continue;
      this.drift.forget(key);
      const r = this.ctx.api.resolve(t.resource);
      const ref = `${qualifiedKind(r).toLowerCase()}/${t.name}`;
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
    return pruned;
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
