/**
 * The sandbox's public surface: the API server and what talks to it. Pure
 * TypeScript: no `vscode`, no wall clock, no unseeded randomness.
 */
export { ApiServer } from './apiserver/apiServer';
export type { ApiServerOptions, ResourceRef } from './apiserver/apiServer';
export type {
  DeleteOptions,
  ListOptions,
  PatchType,
  PropagationPolicy,
  WatchOptions,
  WriteOptions,
} from './apiserver/options';
export { restoreSnapshot, takeSnapshot, SnapshotError, SNAPSHOT_API_VERSION } from './apiserver/snapshot';
export type { Snapshot } from './apiserver/snapshot';
export { ApiError, isApiError } from './api/errors';
export type { Status, StatusCause } from './api/errors';
export { RESOURCES } from './api/registry';
export {
  resourceFor,
  resourceByName,
  resourceByPlural,
  apiVersionOf,
  qualifiedKind,
  qualifiedResource,
} from './api/resources';
export type { ResourceType } from './api/resources';
export type { KubeObject, KubeList, ObjectMeta, OwnerReference, WatchEvent, WatchEventType } from './api/types';
export type { Clock, TimerHandle } from './clock/clock';
export { formatTimestamp, formatMicroTime } from './clock/clock';
export { VirtualClock, DEFAULT_EPOCH } from './clock/virtualClock';
export { SwitchableClock } from './clock/switchableClock';
export { SeededRandom } from './clock/random';
export { Informer } from './client/informer';
export type { InformerHandlers, ListWatcher } from './client/informer';
export { ObjectCache, objectKey, splitKey } from './client/cache';
export { EventRecorder } from './client/eventRecorder';
export type { WatchHandle } from './store/watchHub';
export { VALIDATION_RULES, validateObject } from './admission/validation/index';
export { applyDefaults } from './admission/defaults/index';
