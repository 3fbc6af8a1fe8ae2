/**
 * The stored metadata a status write may carry without a walk for unknown fields: per object (by uid), the one stored
 * version's metadata known to have no strict decoding error under the active release. A kubelet or controller writes
 * `{ ...stored, status }`: the body's metadata is the stored version's own frozen object, a new one at every write
 * (its resourceVersion changes), so the walk's own memory of clean frozen values (schema/strictFields.ts, a `WeakMap`
 * set per value: as costly as the walk for a metadata object) does not keep it. Here a status write that carried clean
 * metadata records the metadata it stored, derived from it (`cleanLike`); the next write carrying that is not walked.
 *
 * Recorded under the active release's ObjectMeta: a release switch (`setKubernetesVersion`) forgets everything, so
 * the next write walks again and refuses what the new release refuses. The entry of a deleted object is forgotten.
 */
import type { ObjectMeta } from '../api/types';
import { definition, onKubernetesVersionChange } from '../schema/schema';
import { cleanLike, rememberedClean } from '../schema/strictFields';
import type { Definition } from '../schema/types';
import { OBJECT_META } from './decodeNulls';

/** The active release's ObjectMeta, looked up again after each release switch. */
let objectMeta: Definition | undefined;
onKubernetesVersionChange(() => (objectMeta = undefined));

export class CleanMetadata {
  private readonly byUid = new Map<string, object>();
  /** The ObjectMeta definition the entries were found clean under. */
  private as: Definition | undefined;

  /** `metadata` when it is the stored metadata recorded clean under the active release (a body's member, any value). */
  known(metadata: unknown): object | undefined {
    if (typeof metadata !== 'object' || metadata === null) return undefined;
    const uid = (metadata as { uid?: unknown }).uid;
    if (typeof uid !== 'string' || this.byUid.get(uid) !== metadata) return undefined;
    return this.current() === this.as ? metadata : undefined;
  }

  /**
   * After a status write stored `written` in place of `old` (metadata of one object, both stored and frozen): records
   * `written` when `old` was clean (recorded here, or remembered by the walk of this write's body) and `written` is
   * `cleanLike` it; otherwise forgets the object.
   */
  carry(written: ObjectMeta, old: ObjectMeta): void {
    const uid = old.uid;
    if (uid === undefined || written.uid !== uid) return;
    const as = this.current();
    if (as === undefined) return;
    if (as !== this.as) {
      this.byUid.clear();
      this.as = as;
    }
    const clean = this.byUid.get(uid) === old || rememberedClean(old, as);
    if (clean && cleanLike(written, old, as)) this.byUid.set(uid, written);
    else this.byUid.delete(uid);
  }

  forget(uid: string | undefined): void {
    if (uid !== undefined) this.byUid.delete(uid);
  }

  private current(): Definition | undefined {
    return (objectMeta ??= definition(OBJECT_META));
  }
}
