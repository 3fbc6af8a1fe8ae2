/**
 * How an informer event becomes work-queue keys (controller-runtime's
 * `handler` package): an `EventHandler` gets each add, update and delete with
 * an `enqueue` function and calls it for every key the event concerns. It
 * only maps — the reconcile reads the caches — so handlers stay cheap,
 * side-effect free, and level-triggered.
 *
 * The usual mappings are ready-made:
 * - `enqueueObject()`: the object's own key (`For` in controller-runtime);
 * - `enqueueOwner(owners, {kind})`: the key of the object's controller, when
 *   that owner is in the cache under the referenced uid (`Owns`, e.g. a pod
 *   wakes its ReplicaSet);
 * - `enqueueSelecting(owners, selectorOf)`: every owner in the object's
 *   namespace whose label selector matches it (a pod wakes the Services that
 *   select it);
 * - `enqueueMapped(map)`: any other mapping, as a function from an object to
 *   keys;
 * - `enqueueOwnerObserving(owners)`: for a controller that creates and deletes
 *   its dependents in bulk with expectations, the owner with its expectations
 *   observed, and for orphans the owners that would adopt them.
 */
import type { LabelSelector } from '../../api/selectors/labelSelector';
import { labelSelectorMatches } from '../../api/selectors/labelSelector';
import type { KubeObject, OwnerReference } from '../../api/types';
import { parseApiVersion } from '../../api/types';
import { objectKey } from '../../client/cache';
import type { Informer } from '../../client/informer';
import { jsonEqual } from '../../util/json';
import { controllerRefOf } from '../util/owners';
import type { Expectations } from './expectations';

export type Enqueue = (key: string) => void;

export interface EventHandler<T extends KubeObject> {
  onAdd?(obj: T, enqueue: Enqueue): void;
  onUpdate?(oldObj: T, newObj: T, enqueue: Enqueue): void;
  /** `obj` is the last state known. */
  onDelete?(obj: T, enqueue: Enqueue): void;
}

export type EventName = 'add' | 'update' | 'delete';

const ALL_EVENTS: readonly EventName[] = ['add', 'update', 'delete'];

export interface MapOptions<T> {
  /** Only these events (default: all three). */
  events?: readonly EventName[];
  /** Only objects for which this is true (for an update, the new object). */
  when?(obj: T): boolean;
}

/** The object's own key on every add, update (the new object) and delete. */
export function enqueueObject<T extends KubeObject>(options: MapOptions<T> = {}): EventHandler<T> {
  return enqueueMapped((obj) => objectKey(obj), options);
}

/**
 * The keys `map` gives for the object (for an update, the new object; with `update: 'both'`, then the old one too,
 * as a change may move an object from one owner to another). `undefined` maps to nothing.
 */
export function enqueueMapped<T extends KubeObject>(
  map: (obj: T) => string | Iterable<string> | undefined,
  options: MapOptions<T> & { update?: 'new' | 'both' } = {},
): EventHandler<T> {
  const events = options.events ?? ALL_EVENTS;
  const when = options.when;
  const emit = (obj: T, enqueue: Enqueue): void => {
    if (when && !when(obj)) return;
    const keys = map(obj);
    if (keys === undefined) return;
    if (typeof keys === 'string') enqueue(keys);
    else for (const key of keys) enqueue(key);
  };
  const handler: EventHandler<T> = {};
  if (events.includes('add')) handler.onAdd = emit;
  if (events.includes('update')) {
    handler.onUpdate =
      options.update === 'both'
        ? (oldObj, newObj, enqueue) => {
            emit(newObj, enqueue);
            emit(oldObj, enqueue);
          }
        : (_oldObj, newObj, enqueue) => emit(newObj, enqueue);
  }
  if (events.includes('delete')) handler.onDelete = emit;
  return handler;
}

/** Which owners a controller reference may point to: a kind, and optionally its API group. */
export interface OwnerKind {
  kind: string;
  /** `apps` for ReplicaSets; omitted, any group. */
  group?: string;
}

/**
 * The owner `ref` points to, when `owners` holds it under the referenced uid (upstream `resolveControllerRef`: an
 * owner re-created under the same name is another object).
 */
export function resolveOwner<O extends KubeObject>(
  owners: Informer<O>,
  namespace: string,
  ref: OwnerReference,
  owner: OwnerKind,
): O | undefined {
  if (ref.kind !== owner.kind) return undefined;
  if (owner.group !== undefined && parseApiVersion(ref.apiVersion).group !== owner.group) return undefined;
  const found = owners.cache.getByName(namespace, ref.name);
  return found && found.metadata.uid === ref.uid ? found : undefined;
}

/**
 * The key of the object's controller (its `controller: true` owner reference) when that owner is cached. On an
 * update whose controller reference changed, the old owner first, then the new one.
 */
export function enqueueOwner<T extends KubeObject, O extends KubeObject>(
  owners: Informer<O>,
  owner: OwnerKind,
): EventHandler<T> {
  const emit = (obj: T, ref: OwnerReference | undefined, enqueue: Enqueue): void => {
    const found = ref && resolveOwner(owners, obj.metadata.namespace ?? '', ref, owner);
    if (found) enqueue(owners.cache.keyOf(found));
  };
  return {
    onAdd: (obj, enqueue) => emit(obj, controllerRefOf(obj), enqueue),
    onUpdate: (oldObj, newObj, enqueue) => {
      const oldRef = controllerRefOf(oldObj);
      const newRef = controllerRefOf(newObj);
      if (oldRef && !jsonEqual(oldRef, newRef ?? null)) emit(oldObj, oldRef, enqueue);
      emit(newObj, newRef, enqueue);
    },
    onDelete: (obj, enqueue) => emit(obj, controllerRefOf(obj), enqueue),
  };
}

/**
 * The keys of the owners in the object's namespace whose label selector — non-empty, valid — matches its labels.
 * On an update, those matching the new labels, then, if the labels changed, those that matched the old ones.
 */
export function enqueueSelecting<T extends KubeObject, O extends KubeObject>(
  owners: Informer<O>,
  selectorOf: (owner: O) => LabelSelector | undefined,
): EventHandler<T> {
  const emit = (obj: T, enqueue: Enqueue): void => {
    for (const o of owners.cache.list(obj.metadata.namespace ?? '')) {
      const selector = selectorOf(o);
      if (!selector || isEmptySelector(selector)) continue;
      if (labelSelectorMatches(selector, obj.metadata.labels ?? {})) enqueue(objectKey(o));
    }
  };
  return {
    onAdd: emit,
    onUpdate: (oldObj, newObj, enqueue) => {
      emit(newObj, enqueue);
      if (!jsonEqual(oldObj.metadata.labels ?? {}, newObj.metadata.labels ?? {})) emit(oldObj, enqueue);
    },
    onDelete: emit,
  };
}

function isEmptySelector(sel: LabelSelector): boolean {
  return Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0;
}

/** What `enqueueOwnerObserving` needs to know about the owners. */
export interface ObservedOwners<T extends KubeObject, O extends KubeObject> {
  /** Creates and deletes the owners asked for, by owner key. */
  expectations: Expectations;
  /** The owner a controller reference points to, when cached under that uid (see `resolveOwner`). */
  resolve(namespace: string, ref: OwnerReference): O | undefined;
  /** The owners that would adopt an orphan (their selector matches it). */
  adopters(obj: T): readonly O[];
  /** An owner's key (`objectKey`; the owners' cache's `keyOf` spares joining it afresh). Default `objectKey`. */
  keyOf?(owner: O): string;
}

/**
 * Dependents of a controller that creates and deletes them in bulk (upstream's ReplicaSet and DaemonSet controllers'
 * `addPod`, `updatePod`, `deletePod`): the owner is woken with its expectations observed — a dependent seen is a
 * creation observed, one deleted (or given a deletionTimestamp, which counts at once) a deletion observed; an orphan
 * wakes the owners that would adopt it; a dependent whose controller reference moved wakes the old owner too. The
 * dependent's key (`namespace/name`) is what `Expectations.expectDeletions` is given.
 */
export function enqueueOwnerObserving<T extends KubeObject, O extends KubeObject>(
  owners: ObservedOwners<T, O>,
): EventHandler<T> {
  const keyOf = owners.keyOf ?? objectKey;
  const deleted = (obj: T, enqueue: Enqueue): void => {
    const ref = controllerRefOf(obj);
    const owner = ref && owners.resolve(obj.metadata.namespace ?? '', ref);
    if (!owner) return;
    const key = keyOf(owner);
    owners.expectations.deletionObserved(key, objectKey(obj));
    enqueue(key);
  };
  const added = (obj: T, enqueue: Enqueue): void => {
    if (obj.metadata.deletionTimestamp) return deleted(obj, enqueue);
    const ref = controllerRefOf(obj);
    if (ref) {
      const owner = owners.resolve(obj.metadata.namespace ?? '', ref);
      if (!owner) return;
      const key = keyOf(owner);
      owners.expectations.creationObserved(key);
      enqueue(key);
      return;
    }
    for (const owner of owners.adopters(obj)) enqueue(keyOf(owner));
  };
  const updated = (oldObj: T, obj: T, enqueue: Enqueue): void => {
    // Same resourceVersion: a re-list, not a change.
    if (oldObj.metadata.resourceVersion === obj.metadata.resourceVersion) return;
    const labelChanged = !jsonEqual(oldObj.metadata.labels ?? {}, obj.metadata.labels ?? {});
    if (obj.metadata.deletionTimestamp) {
      deleted(obj, enqueue);
      if (labelChanged) deleted(oldObj, enqueue);
      return;
    }
    const cur = controllerRefOf(obj);
    const old = controllerRefOf(oldObj);
    const refChanged = !jsonEqual(cur ?? null, old ?? null);
    if (refChanged && old) {
      const owner = owners.resolve(oldObj.metadata.namespace ?? '', old);
      if (owner) enqueue(keyOf(owner));
    }
    if (cur) {
      const owner = owners.resolve(obj.metadata.namespace ?? '', cur);
      if (owner) enqueue(keyOf(owner));
      return;
    }
    if (labelChanged || refChanged) for (const owner of owners.adopters(obj)) enqueue(keyOf(owner));
  };
  return { onAdd: added, onUpdate: updated, onDelete: deleted };
}
