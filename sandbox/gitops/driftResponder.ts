/**
 * What the sync loop does when a tracked object may have drifted: compare it
 * with its manifest and, with self-heal, apply the manifest again and record
 * `DriftReverted`; without, record one `DriftDetected` warning per distinct
 * drift and leave the object alone.
 */
import type { ApiServer } from '../apiserver/apiServer';
import { applyManifest } from '../operations/apply/apply';
import type { Recorder } from '../client/component';
import { withSourceAnnotation } from './desiredState';
import type { TrackedObject } from './desiredState';
import { describeChanges, detectDrift } from './drift';
import type { FieldChange } from './drift';

/** A self-heal revert, as the sync loop's listener hears of it. */
export interface Revert {
  /** The declaration put back. */
  tracked: TrackedObject;
  /** The fields put back, with the live values they had (empty when the object was recreated). */
  changes: FieldChange[];
  /** True when the object had been deleted and was created again. */
  recreated: boolean;
}

/** Runs `fn` as the sync loop's own write to `key` (so its watch events are not taken for drift). */
export type OwnWrite = <T>(key: string, fn: () => T) => T;

function refOf(t: TrackedObject): string {
  return t.namespace ? `${t.namespace}/${t.name}` : t.name;
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class DriftResponder {
  /** Last DriftDetected message per key, so a standing drift is reported once. */
  private readonly reported = new Map<string, string>();

  constructor(
    private readonly api: ApiServer,
    private readonly recorder: Recorder,
    private readonly write: OwnWrite,
    private readonly onRevert: (r: Revert) => void = () => undefined,
  ) {}

  /** The object was (re)applied or pruned: a later drift is news again. */
  forget(key: string): void {
    this.reported.delete(key);
  }

  clear(): void {
    this.reported.clear();
  }

  /** Compares `t` with its live object; reverts (`heal`) or reports what differs. */
  respond(t: TrackedObject, heal: boolean): void {
    let changes;
    try {
      changes = detectDrift(this.api, withSourceAnnotation(t.manifest, t.source));
    } catch (e) {
      this.recorder.logOnly(refOf(t), 'Warning', 'SyncFailed', `${errorMessage(e)} (${t.source})`);
      return;
    }
    // Being deleted: wait for it to go.
    if (changes === undefined && this.api.tryGet(t.resource, t.namespace, t.name)) return;
    if (changes !== undefined && changes.length === 0) return this.forget(t.key);
    const what = changes ? describeChanges(changes) : undefined;
    if (heal) this.revert(t, changes, what);
    else this.report(t, what);
  }

  private revert(t: TrackedObject, changes: FieldChange[] | undefined, what: string | undefined): void {
    let result;
    try {
      result = this.write(t.key, () => applyManifest(this.api, withSourceAnnotation(t.manifest, t.source)));
    } catch (e) {
      this.recorder.logOnly(refOf(t), 'Warning', 'SyncFailed', `${errorMessage(e)} (${t.source})`);
      return;
    }
    this.forget(t.key);
    // The listener first: it records the revert on the timeline as an apply, the cause of the event that follows.
    this.onRevert({ tracked: t, changes: changes ?? [], recreated: changes === undefined });
    this.recorder.event(
      result.object,
      'Normal',
      'DriftReverted',
      what ? `${what} from ${t.source}` : `recreated from ${t.source}`,
    );
  }

  private report(t: TrackedObject, what: string | undefined): void {
    const message = what ? `${what} from ${t.source}` : `deleted; declared in ${t.source}`;
    if (this.reported.get(t.key) === message) return;
    this.reported.set(t.key, message);
    const live = this.api.tryGet(t.resource, t.namespace, t.name);
    const involved = live ?? { ...t.manifest, metadata: { ...t.manifest.metadata, namespace: t.namespace } };
    this.recorder.event(involved, 'Warning', 'DriftDetected', message);
  }
}
