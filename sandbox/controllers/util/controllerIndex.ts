/**
 * A shared-cache index of objects by their controller's uid, with orphans
 * (no controller) under a per-namespace key — what upstream's
 * `PodControllerUIDIndex` gives the ReplicaSet and Deployment controllers, so
 * a sync looks at its own pods and the orphans it may adopt, not every pod in
 * the namespace.
 *
 * As upstream 1.32 (`FilterPodsByOwner` in pkg/controller/controller_utils.go), an owner's objects are found by its
 * uid alone, whatever their namespace: a pod in another namespace whose controller reference carries the owner's uid
 * is counted until the garbage collector removes it (it warns `OwnerRefInvalidNamespace` and collects it, its owner
 * being absent from its own namespace).
 */
import type { KubeObject } from '../../api/types';
import type { Informer } from '../../client/informer';
import { controllerRefOf } from './owners';

export const CONTROLLER_UID_INDEX = 'controllerUID';

/** The index value under which a namespace's objects without a controller are kept. */
export function orphanKey(namespace: string): string {
  return `orphan\u0000${namespace}`;
}

function controllerIndexValues(obj: KubeObject): readonly string[] {
  const ref = controllerRefOf(obj);
  return [ref ? ref.uid : orphanKey(obj.metadata.namespace ?? '')];
}

/** Adds the index to the informer's cache once, however many controllers ask. */
export function ensureControllerIndex<T extends KubeObject>(informer: Informer<T>): void {
  if (!informer.cache.hasIndex(CONTROLLER_UID_INDEX))
    informer.cache.addIndex(CONTROLLER_UID_INDEX, controllerIndexValues);
}

/** Objects whose controller reference has `uid` (in cache order). */
export function controlledBy<T extends KubeObject>(informer: Informer<T>, uid: string): T[] {
  return informer.cache.byIndex(CONTROLLER_UID_INDEX, uid);
}

/** Objects in `namespace` without a controller reference. */
export function orphansIn<T extends KubeObject>(informer: Informer<T>, namespace: string): T[] {
  return informer.cache.byIndex(CONTROLLER_UID_INDEX, orphanKey(namespace));
}

export interface PerOwnerMemoOptions<V, S> {
  /** Whether two signatures give the same answer (default: `===`). */
  sameSignature?: (last: S, current: S) => boolean;
  /** Whether to keep a value just derived (default: always). */
  keep?: (value: V, signature: S) => boolean;
}

/**
 * What a controller keeps per owner from the index between syncs: derived from the owner's objects and its
 * namespace's orphans, reused while neither changed (upstream reads the informer's indexer on every sync; the
 * answer is the same, this only skips recomputing it). `forget` when the owner goes.
 *
 * An answer may also depend on something of the owner the index does not stamp (the Deployment's selector and
 * whether it is being deleted): `signature`, compared with the last one by `sameSignature`. And `keep` may refuse to
 * keep an answer (a claim that wrote — adopted or released — changed what it read): the owner's memo is then
 * forgotten and the next call derives again.
 */
export class PerOwnerMemo<T extends KubeObject, V, S = undefined> {
  private readonly memo = new Map<string, { uid: string; own: number; orphans: number; signature: S; value: V }>();

  constructor(
    private readonly informer: Informer<T>,
    private readonly options: PerOwnerMemoOptions<V, S> = {},
  ) {}

  /**
   * `derive(controlledBy(uid), orphansIn(namespace))`, or the value derived last time if neither changed since and
   * `signature` is the same.
   */
  get(
    key: string,
    uid: string,
    namespace: string,
    derive: (own: T[], orphans: T[]) => V,
    // A memo without a signature (S = undefined) passes none.
    signature: S = undefined as S,
  ): V {
    const cache = this.informer.cache;
    const own = cache.indexStamp(CONTROLLER_UID_INDEX, uid);
    const orphans = cache.indexStamp(CONTROLLER_UID_INDEX, orphanKey(namespace));
    const last = this.memo.get(key);
    if (
      last &&
      last.uid === uid &&
      last.own === own &&
      last.orphans === orphans &&
      (this.options.sameSignature
        ? this.options.sameSignature(last.signature, signature)
        : last.signature === signature)
    )
      return last.value;
    const value = derive(controlledBy(this.informer, uid), orphansIn(this.informer, namespace));
    if (this.options.keep && !this.options.keep(value, signature)) this.memo.delete(key);
    else this.memo.set(key, { uid, own, orphans, signature, value });
    return value;
  }

  forget(key: string): void {
    this.memo.delete(key);
  }
}
