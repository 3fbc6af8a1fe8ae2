/**
 * The sandbox's kube-apiserver: the verbs of the Kubernetes API over the
 * versioned store, with admission (defaults + validation), namespaces,
 * optimistic concurrency, graceful deletion and finalizers, watches, and
 * server-side apply with managedFields (sandbox/apply/serverSide).
 *
 * Objects returned by any method are the stored objects themselves: deeply
 * frozen and shared. Copy before changing (as with client-go's caches).
 */
import type { Clock } from '../clock/clock';
import { formatTimestamp } from '../clock/clock';
import { SeededRandom } from '../clock/random';
import { EventExpiry, isEventKind, lastWrittenAt } from './eventExpiry';
import { Compactor } from './compactor';
import { podQosClass } from '../admission/defaults/index';
import {
  alreadyExists,
  badRequest,
  conflict,
  expired,
  forbidden,
  invalidOptions,
  methodNotSupported,
  notFound,
  resourceNotFound,
  timeout,
  tooLarge,
  unsupportedMediaType,
} from '../api/errors';
import type { ResourceType } from '../api/resources';
import { apiVersionOf, isStored, resourceFor } from '../api/resources';
import { ResourceRegistry } from '../api/registry';
import { kubernetesVersion } from '../schema/schema';
import type { FieldError } from '../admission/validation/fieldError';
import { crdResources } from '../apiextensions/served';
import { reconcileCrdStatus } from '../apiextensions/naming';
import type { CustomResourceDefinition } from '../apiextensions/types';
import { CRD_GROUP, CRD_KIND } from '../apiextensions/types';
import {
  conversionWebhookNote,
  convertCustom,
  crdErrors,
  customDecoding,
  customScaleOf,
  customScaledParent,
  defaultCustomResource,
  markCrdTerminating,
  prepareCrdCreate,
  prepareCrdUpdate,
  storageApiVersion,
  terminatingCreate,
  validateCustomObject,
} from './customResources';
import { convertBuiltIn } from './conversion';
import { virtualCreate, virtualList } from './virtualResources';
import type { ObjectsByResource, ResourceName, Written } from '../api/resourceObjects';
import type { JsonValue, KubeList, KubeObject, WatchEvent } from '../api/types';
import { parseApiVersion } from '../api/types';
import { applyPatch } from '../api/patch/index';
import {
  applyConfiguration,
  checkManagedFieldsShape,
  sameExceptTimes,
  updateManagedFields,
} from './serverSideApply/index';
import { ObjectStore } from '../store/objectStore';
import type { ChangeRecord } from '../store/history';
import type { WatchHandle } from '../store/watchHub';
import { WatchHub } from '../store/watchHub';
import { JsonCopyError, copyJson, copyMembersCounted, deepFreeze, isPlainObject, jsonEqual } from '../util/json';
import { ServiceAllocators } from './allocators';
import { dropDisabledPodFields } from './disabledFields';
import { admitPolicies, defaultObject, invalidIfAny, PolicyAuditLog, validateOrThrow } from './admit';
import type { AdmissionAttributes, PolicySource } from '../admission/policy/index';
import type {
  AdmissionLookup,
  PluginAttributes,
  PodSecurityConfiguration,
  QuotaCharge,
} from '../admission/plugins/index';
import { mutatingAdmission, validatingAdmission } from '../admission/plugins/index';
import { EventSources, shareSubObjects, sharesSubObjects, writtenAs } from './sharedSubObjects';
import { storePolicySource } from './policySource';
import type { WebhookSource } from './webhooks';
import { admitWebhooks } from './webhooks';
import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN, defaultPropagation, finalizersFor, podGracePeriod } from './deletion';
import { boundPod, checkBindable } from './binding';
import { evictPod } from './eviction';
import type { Eviction, EvictionOptions } from './eviction';
import { scaledParent, scaleOf } from './scale';
import { generateJobSelector } from './jobSelector';
import { kindKey } from './kindKey';
import { listObjects, watchPredicate, watchRoute } from './listing';
import { checkObjectShape } from './metaShape';
import { checkPatchFields, decodeObjectFields, settleFieldErrors } from './fieldValidation';
import { decodeBuiltInBody } from './decodeBody';
import { copyObject } from '../util/sizedCopy';
import { POLICY_GROUP } from '../admission/policy/types';
import { locatedTypeMismatch } from '../schema/typeCheck';
import { CleanMetadata } from './cleanMetadata';
import { definitionOf } from '../schema/strictFields';
import type { DecodedBody } from './decodeBody';
import type { FieldValidationOptions } from './fieldValidation';
import { bootstrapObjects, namespaceAdmission, PROTECTED_NAMESPACES } from './namespaces';
import { admitPodPriority, admitPriorityClass, refuseSystemClassDelete, systemPriorityClassObjects } from './priority';
import type { DeleteOptions, ListOptions, PatchType, WatchOptions, WriteOptions } from './options';
import {
  generationChanged,
  applySchedulingGatedCondition,
  applyAppArmorVersionSkew,
  initialStatus,
  keepSystemMetadata,
  mergeSecretStringData,
  namespaceLabels,
} from './prepare';
import { allocateServiceAddresses, releaseServiceAddresses, reserveServiceAddresses } from './serviceAllocation';

/** A resource by its registry entry, or by any name kubectl accepts (`pods`, `deploy`, `deployments.apps`). */
export type ResourceRef = ResourceType | string;

export interface ApiServerOptions {
  clock: Clock;
  /** Seed or generator for UIDs, generated names and allocations. */
  random?: SeededRandom | number | string;
  /** How many changes a watch can resume from before 410 Gone (default 50,000). */
  historyCapacity?: number;
  /** Create the four system namespaces and the `kubernetes` Service (default true). */
  bootstrap?: boolean;
  /** Where exceptions thrown by watch handlers go (default: rethrown asynchronously, so they are seen). */
  onWatchError?: (error: unknown) => void;
  /** The Kubernetes release whose built-in kinds are served (default: the process's active release). */
  kubernetesVersion?: string;
  /** The PodSecurity admission plugin's configuration: levels for unlabelled namespaces, exemptions. */
  podSecurity?: PodSecurityConfiguration;
}

const GENERATE_NAME_ATTEMPTS = 8;

/** How deep and how large a request body may be (etcd's 1.5 MiB request limit, counted roughly). */
const REQUEST_LIMITS = { maxDepth: 100, maxBytes: 1_572_864 };

/** What a status write keeps of its body (upstream's status strategies take status, and apps' also annotations). */
const STATUS_MEMBERS: ReadonlySet<string> = new Set(['apiVersion', 'kind', 'metadata', 'status']);

/** managedFields already worked out by server-side apply, for the write that stores its result. */
interface ManagedFieldsPreset {
  managedFields: JsonValue[] | undefined;
}

/**
 * What a server-side apply did: the object (as stored, or as it would be with dry run) and whether it was created (201)
 * rather than updated (200).
 */
export interface ApplyResult {
  object: KubeObject;
  created: boolean;
}

export class ApiServer {
  readonly clock: Clock;
  readonly random: SeededRandom;
  /** What this server serves: its release's built-in kinds and the resources of its established CRDs. */
  readonly resources: ResourceRegistry;
  private syncingCrds = false;
  /** The resourceVersion of each CRD whose resources are registered. */
  private readonly crdVersions = new Map<string, string | undefined>();
  /** Watch conversions (`convertedForWatch`): by the resource version watched, then by the stored object. */
  private readonly watchConversions = new WeakMap<ResourceType, WeakMap<KubeObject, KubeObject>>();
  /** While set, UIDs come from here (bootstrap objects added later take their own stream, not the cluster's). */
  private uidRandom: SeededRandom | undefined;
  private readonly store: ObjectStore;
  /** The stored metadata a status write may carry without a walk for unknown fields. */
  private readonly cleanMetadata = new CleanMetadata();
  private readonly hub: WatchHub;
  private readonly allocators: ServiceAllocators;
  /** ValidatingAdmissionPolicy admission: what it reads, and the audit annotations it sets. */
  private readonly policySource: PolicySource;
  private readonly webhookSource: WebhookSource;
  readonly policyAudit = new PolicyAuditLog();
  /** Events expire an hour after their last write (kube-apiserver's `--event-ttl`). */
  private readonly eventExpiry: EventExpiry;
  /** The change history is compacted every 5 minutes (kube-apiserver's `--etcd-compaction-interval`). */
  readonly compactor: Compactor;
  /** The suffixes of `kube-api-access-…` volume names: a stream of their own, so no uid or generated name moves. */
  private readonly tokenVolumeRandom: SeededRandom;
  /** By kind: the object created last, whose frozen parts the next one shares when written alike (shareSubObjects). */
  private readonly lastCreated = new Map<string, KubeObject>();
  /** Core Events' `source` objects, shared by the Events written with the same one (sharedSubObjects.ts). */
  private readonly eventSources = new EventSources();
  private readonly podSecurity: PodSecurityConfiguration | undefined;

  constructor(options: ApiServerOptions, store?: ObjectStore) {
    this.clock = options.clock;
    this.random = options.random instanceof SeededRandom ? options.random : new SeededRandom(options.random ?? 1);
    this.store = store ?? new ObjectStore({ historyCapacity: options.historyCapacity });
    this.tokenVolumeRandom = this.random.fork('kube-api-access');
    this.podSecurity = options.podSecurity;
    const report =
      options.onWatchError ??
      ((e: unknown) =>
        queueMicrotask(() => {
          throw e;
        }));
    this.hub = new WatchHub(this.store, report);
    this.eventExpiry = new EventExpiry(this.clock, this.store);
    this.compactor = new Compactor(this.clock, this.store);
    this.allocators = new ServiceAllocators(this.random.fork('service-allocation'));
    this.resources = new ResourceRegistry(options.kubernetesVersion ?? kubernetesVersion());
    this.syncCrds();
    this.policySource = storePolicySource(this.store, (apiVersion, kind) => this.resources.forGvk(apiVersion, kind));
    this.webhookSource = this.storeWebhookSource();
    for (const svc of this.store.list(kindKey(this.resolve('services')))) reserveServiceAddresses(svc, this.allocators);
    this.leaseRestoredEvents();
    if (options.bootstrap ?? store === undefined) {
      for (const obj of bootstrapObjects()) this.create(obj);
      // The system PriorityClasses take their uids from a stream of their own: every other uid and generated name stays
      // what it was before they existed.
      const saved = this.random.getState();
      this.random.setState(this.random.fork('system-priority-classes').getState());
      for (const obj of systemPriorityClassObjects()) this.create(obj);
      this.random.setState(saved);
    }
  }

  /**
   * Hands every stored change, as it is stored, to one observer besides the watches (the causal timeline); undefined
   * removes it. Not a watch: no selectors, no bookmarks, never expired.
   */
  observeChanges(observer: ((record: ChangeRecord) => void) | undefined): void {
    this.store.observe(observer);
  }

  /** The store's latest resourceVersion. */
  get resourceVersion(): string {
    return String(this.store.revision);
  }

  /** Number of open watches. */
  get watchCount(): number {
    return this.hub.watcherCount;
  }

  /** The registry entry for a reference; 404 when the server does not serve it. */
  resolve(ref: ResourceRef): ResourceType {
    const r = typeof ref === 'string' ? this.resources.byName(ref) : ref;
    if (!r) throw resourceNotFound();
    return r;
  }

  /**
   * The resource of the version a built-in kind is stored as (`autoscaling/v2` for `autoscaling/v1` HPAs); `r` itself
   * for custom resources and kinds served at their storage version. Tables are printed from it, as kube-apiserver
   * prints the internal object whatever version was asked for.
   */
  storageResourceOf(r: ResourceType): ResourceType {
    if (r.custom !== undefined || storageApiVersionOf(r) === apiVersionOf(r)) return r;
    return this.resources.forGvk(storageApiVersionOf(r), r.kind) ?? r;
  }

  /** The registry entry for an object's apiVersion and kind; 404 when unknown. */
  resourceOf(obj: { apiVersion?: unknown; kind?: unknown }): ResourceType {
    const r =
      typeof obj.apiVersion === 'string' && typeof obj.kind === 'string'
        ? this.resources.forGvk(obj.apiVersion, obj.kind)
        : undefined;
    if (!r) throw resourceNotFound();
    return r;
  }

  /** The resource a write body names; a body that is not an object with apiVersion and kind is decoded first (400). */
  private requestedResource(input: unknown, options: WriteOptions): ResourceType {
    const i = input as { apiVersion?: unknown; kind?: unknown } | null;
    if (!isPlainObject(input) || typeof i?.apiVersion !== 'string' || typeof i.kind !== 'string')
      this.decode(input, options);
    return this.resourceOf(input as KubeObject);
  }

  /** A stored object (of the storage version) as the version `r` serves; shared objects stay shared. */
  private out(r: ResourceType, obj: KubeObject): KubeObject;
  private out(r: ResourceType, obj: KubeObject | undefined): KubeObject | undefined;
  private out(r: ResourceType, obj: KubeObject | undefined): KubeObject | undefined {
    if (obj === undefined || obj.apiVersion === apiVersionOf(r)) return obj;
    return r.custom !== undefined ? convertCustom(obj, r) : convertBuiltIn(obj, r);
  }

  // ---- reads ------------------------------------------------------------

  /** GET. A resource named in `ObjectsByResource` (`'pods'`) answers with its type (`Typed<Pod>`). */
  get<R extends ResourceName>(ref: R, namespace: string | undefined, name: string): ObjectsByResource[R];
  get(ref: ResourceRef, namespace: string | undefined, name: string): KubeObject;
  get(ref: ResourceRef, namespace: string | undefined, name: string): KubeObject {
    const r = this.resolve(ref);
    if (r.serving === 'read-only') {
      const found = virtualList(r).items.find((o) => o.metadata.name === name);
      if (!found) throw notFound(r, name);
      return found;
    }
    const obj = this.store.get(kindKey(r), this.namespaceFor(r, namespace), name);
    if (!obj) throw notFound(r, name);
    return this.out(r, obj);
  }

  /** Like `get`, but undefined instead of 404. */
  tryGet<R extends ResourceName>(ref: R, namespace: string | undefined, name: string): ObjectsByResource[R] | undefined;
  tryGet(ref: ResourceRef, namespace: string | undefined, name: string): KubeObject | undefined;
  tryGet(ref: ResourceRef, namespace: string | undefined, name: string): KubeObject | undefined {
    const r = this.resolve(ref);
    return this.out(r, this.store.get(kindKey(r), this.namespaceFor(r, namespace), name));
  }

  list<R extends ResourceName>(ref: R, options?: ListOptions): KubeList<ObjectsByResource[R]>;
  list(ref: ResourceRef, options?: ListOptions): KubeList;
  list(ref: ResourceRef, options: ListOptions = {}): KubeList {
    const r = this.resolve(ref);
    if (r.serving === 'read-only') return virtualList(r);
    if (r.serving === 'create-only') throw methodNotSupported(r, 'list');
    const ns = r.namespaced ? options.namespace : undefined;
    const list = listObjects(r, this.store.list(kindKey(r), ns), options, this.store.revision);
    if (!list.items.some((o) => o.apiVersion !== apiVersionOf(r))) return list;
    return { ...list, apiVersion: apiVersionOf(r), items: list.items.map((o) => this.out(r, o)) };
  }

  /**
   * Watches a kind. Events are delivered synchronously, in resourceVersion
   * order, to `handler`; initial events (or the replay from
   * `resourceVersion`) arrive before this returns. 410 when the version has
   * been compacted.
   */
  watch<R extends ResourceName>(
    ref: R,
    options: WatchOptions,
    handler: (event: WatchEvent<ObjectsByResource[R]>) => void,
  ): WatchHandle;
  watch(ref: ResourceRef, options: WatchOptions, handler: (event: WatchEvent) => void): WatchHandle;
  watch(ref: ResourceRef, options: WatchOptions, handler: (event: WatchEvent) => void): WatchHandle {
    const r = this.resolve(ref);
    if (!isStored(r)) throw methodNotSupported(r, 'watch');
    if (storageApiVersionOf(r) !== apiVersionOf(r)) {
      const inner = handler;
      handler = (e) => inner(e.type === 'BOOKMARK' ? e : { ...e, object: this.convertedForWatch(r, e.object) });
    }
    const predicate = watchPredicate(r, options);
    const rv = options.resourceVersion;
    let from: number | undefined;
    if (rv !== undefined && rv !== '' && rv !== '0') {
      from = Number(rv);
      if (!Number.isInteger(from) || from < 0) throw badRequest(`invalid resource version: ${JSON.stringify(rv)}`);
      // upstream: apiserver/pkg/storage/cacher/watch_cache.go: getAllEventsSinceLocked names the oldest
      // resourceVersion still watchable (oldest kept change - 1), here the compacted revision itself.
      if (from < this.store.compactedRevision) throw expired(from, this.store.compactedRevision);
      if (from > this.store.revision)
        throw timeout(`Timeout: Too large resource version: ${from}, current: ${this.store.revision}`);
    }
    return this.hub.watch(
      {
        kindKey: kindKey(r),
        namespace: r.namespaced ? options.namespace : undefined,
        predicate,
        route: predicate ? watchRoute(r, options) : undefined,
        fromRevision: from,
        bookmarks: options.allowWatchBookmarks ?? false,
        initialEventsBookmark: (options.allowWatchBookmarks ?? false) && (options.sendInitialEvents ?? false),
        apiVersion: apiVersionOf(r),
        kind: r.kind,
      },
      handler,
    );
  }

  /**
   * A stored object as a watch of another version of its kind receives it: converted once per object and version,
   * frozen, and shared by every such watcher (the store's own objects are delivered as they are).
   */
  private convertedForWatch(r: ResourceType, obj: KubeObject): KubeObject {
    let byObject = this.watchConversions.get(r);
    if (!byObject) this.watchConversions.set(r, (byObject = new WeakMap()));
    let converted = byObject.get(obj);
    if (!converted) byObject.set(obj, (converted = deepFreeze(this.out(r, obj))));
    return converted;
  }

  /** Sends a BOOKMARK to every watch that allows them (the HTTP layer calls this periodically). */
  bookmark(): void {
    this.hub.bookmark();
  }

  /** Forgets change history at or below `resourceVersion` (default: all of it), as etcd compaction does. */
  compact(resourceVersion: string | number = this.store.revision): void {
    this.store.compact(Number(resourceVersion));
  }

  // ---- writes -----------------------------------------------------------

  /** POST. With `fieldManager`, the manager owns every field it set (managedFields, operation Update). */
  create<T extends KubeObject>(input: T, options: WriteOptions = {}): Written<T> {
    return this.createObject(input, options) as Written<T>;
  }

  private createObject(input: KubeObject, options: WriteOptions, preset?: ManagedFieldsPreset): KubeObject {
    const requested = this.requestedResource(input, options);
    if (requested.serving === 'create-only') return virtualCreate(this, requested, this.decode(input), options);
    if (requested.serving === 'read-only') throw methodNotSupported(requested, 'create');
    if (requested.custom !== undefined && this.crdTerminating(requested)) throw terminatingCreate(requested);
    const decoded = this.decode(input, options, true, requested);
    const { body, r } = this.toStorage(requested, decoded);
    const ns = this.bodyNamespace(r, body, options.namespace);
    if (body.metadata.resourceVersion) throw badRequest('resourceVersion should not be set on objects to be created');
    if (r.namespaced) namespaceAdmission(this.store, r, ns, body.metadata.name ?? '');
    delete body.metadata.deletionTimestamp;
    delete body.metadata.deletionGracePeriodSeconds;
    if (r.kind === 'Namespace') namespaceLabels(body);
    defaultObject(body, r);
    if (r.kind === 'Pod' && r.group === '') admitPodPriority(this.store, body);
    this.admitPlugins('CREATE', r, ns, body, undefined, options, 'mutating');
    dropDisabledPodFields(body, this.resources.kubernetesVersion);
    this.admitMutatingWebhooks(r, 'CREATE', body, undefined, options);
    initialStatus(body, r, podQosClass);
    if (r.kind === 'Pod' && r.group === '') {
      applySchedulingGatedCondition(body, this.clock.now());
      applyAppArmorVersionSkew(body, options.warn);
    }
    if (isCrdResource(r)) prepareCrdCreate(body as CustomResourceDefinition);
    // upstream: customresource strategy PrepareForCreate drops status when the status subresource is on.
    if (r.custom !== undefined && r.statusSubresource) delete body.status;
    if (r.kind === 'Secret') mergeSecretStringData(body);
    this.trackFields(r, undefined, body, options, undefined, preset);
    body.metadata.uid = (this.uidRandom ?? this.random).uuid();
    body.metadata.creationTimestamp = formatTimestamp(this.clock.now());
    if (r.hasGeneration) body.metadata.generation = 1;
    else delete body.metadata.generation;
    const generated = !body.metadata.name && !!body.metadata.generateName;
    if (generated) body.metadata.name = this.generatedName(r, ns, body.metadata.generateName!);
    if (r.kind === 'Job' && r.group === 'batch') generateJobSelector(body);
    validateOrThrow(body, r, undefined, this.kindErrors(r, body, undefined));
    admitPriorityClass(this.store, r, body, false);
    const charges = this.admitPlugins('CREATE', r, ns, body, undefined, options, 'validating');
    this.admitPolicies(r, 'CREATE', body, undefined, options);
    if (isCrdResource(r)) this.warnConversionWebhook(body, options);
    if (r.kind === 'Service') this.allocate(r, body);
    this.storeAs(r, body);
    if (options.dryRun) {
      if (this.store.get(kindKey(r), ns, body.metadata.name!)) throw alreadyExists(r, body.metadata.name!);
      return this.out(requested, body);
    }
    const shares = sharesSubObjects(r.group, r.kind);
    if (shares) shareSubObjects(body, this.lastCreated.get(kindKey(r)));
    else if (r.kind === 'Event' && r.group === '') this.eventSources.share(body);
    // The key is looked up once, by the store's create: taken, it writes nothing (what the sharing above did to the
    // body is thrown away with it; a source it kept is one more frozen object with the text written).
    const stored = this.putNew(r, body);
    if (stored === undefined) throw alreadyExists(r, body.metadata.name!);
    if (shares) this.lastCreated.set(kindKey(r), stored);
    if (r.kind === 'Service') reserveServiceAddresses(stored, this.allocators);
    this.chargeQuotas(charges);
    return this.out(requested, stored);
  }

  /**
   * PUT: replaces an object. A stale resourceVersion is a 409 Conflict; an empty one is unconditional.
   * With `fieldManager`, the fields it changed move to it in managedFields.
   */
  update<T extends KubeObject>(input: T, options: WriteOptions = {}): Written<T> {
    return this.updateObject(input, options) as Written<T>;
  }

  private updateObject(input: KubeObject, options: WriteOptions, preset?: ManagedFieldsPreset): KubeObject {
    const requested = this.requestedResource(input, options);
    if (!isStored(requested)) throw methodNotSupported(requested, 'update');
    const decoded = this.decode(input, options, true, requested);
    const { body, r } = this.toStorage(requested, decoded);
    const ns = this.bodyNamespace(r, body, options.namespace);
    const name = this.requireName(body);
    const stored = this.store.get(kindKey(r), ns, name);
    if (!stored) throw notFound(r, name);
    const old = r.custom !== undefined ? this.out(r, stored) : stored;
    this.checkPreconditions(r, body, old);
    keepSystemMetadata(body.metadata, old.metadata);
    if (r.statusSubresource) {
      if (old.status === undefined) delete body.status;
      else body.status = old.status;
    }
    this.checkNoNewFinalizersWhileDeleting(r, body, old);
    if (r.kind === 'Namespace') namespaceLabels(body);
    defaultObject(body, r);
    if (r.kind === 'Pod' && r.group === '') admitPodPriority(this.store, body, old);
    this.admitPlugins('UPDATE', r, ns, body, old, options, 'mutating');
    dropDisabledPodFields(body, this.resources.kubernetesVersion, old);
    this.admitMutatingWebhooks(r, 'UPDATE', body, old, options);
    if (isCrdResource(r)) prepareCrdUpdate(body as CustomResourceDefinition, old as CustomResourceDefinition);
    if (r.kind === 'Secret') mergeSecretStringData(body);
    this.trackFields(r, old, body, options, undefined, preset);
    validateOrThrow(body, r, old, this.kindErrors(r, body, old));
    admitPriorityClass(this.store, r, body, true);
    this.admitPlugins('UPDATE', r, ns, body, old, options, 'validating');
    this.admitPolicies(r, 'UPDATE', body, old, options);
    if (isCrdResource(r)) this.warnConversionWebhook(body, options);
    if (r.kind === 'Service') this.allocate(r, body, old);
    if (r.hasGeneration && generationChanged(r, body, old))
      body.metadata.generation = (old.metadata.generation ?? 0) + 1;
    this.storeAs(r, body);
    if (r.kind === 'Event' && r.group === '' && !options.dryRun) this.eventSources.share(body);
    return this.out(requested, this.commitUpdate(r, body, stored, options));
  }

  /** PUT on `/status`: changes only `status`. A `fieldManager` is recorded with subresource `status`. */
  updateStatus<T extends KubeObject>(input: T, options: WriteOptions = {}): Written<T> {
    return this.updateStatusObject(input, options) as Written<T>;
  }

  private updateStatusObject(input: KubeObject, options: WriteOptions, preset?: ManagedFieldsPreset): KubeObject {
    const requested = this.requestedResource(input, options);
    if (!requested.statusSubresource) throw resourceNotFound();
    // A built-in kind written in its storage version keeps only status and metadata of the body (below): the rest is
    // checked as decoding does (limits, unknown fields) but not copied. Conversion and custom resources need it whole.
    const narrow = requested.custom === undefined && storageApiVersionOf(requested) === apiVersionOf(requested);
    const carried = narrow && isPlainObject(input) ? this.cleanMetadata.known(input.metadata) : undefined;
    const decoded = this.decode(input, options, true, requested, narrow ? STATUS_MEMBERS : undefined, carried);
    const { body, r } = this.toStorage(requested, decoded);
    const ns = this.bodyNamespace(r, body, options.namespace);
    const name = this.requireName(body);
    const stored = this.store.get(kindKey(r), ns, name);
    if (!stored) throw notFound(r, name);
    const old = r.custom !== undefined ? this.out(r, stored) : stored;
    this.checkPreconditions(r, body, old);
    // Copies that keep their members in the object (a spread of a frozen object keeps all but four apart: issue 16).
    const next = copyObject(old);
    next.metadata = copyObject(old.metadata);
    // apps/v1 status strategies keep metadata changes other than labels (the Deployment controller
    // writes its revision annotation this way); everything else takes only status.
    if (r.group === 'apps') {
      const annotations = body.metadata.annotations;
      if (annotations === undefined) delete next.metadata.annotations;
      // The same annotations in the same order keep the stored map (the same JSON), so the stored metadata stays the
      // old one's but for its resourceVersion (below).
      else if (!writtenAs(annotations, old.metadata.annotations)) next.metadata.annotations = annotations;
    }
    if (body.status === undefined) delete next.status;
    else next.status = body.status;
    if (preset !== undefined || options.fieldManager !== undefined)
      this.trackFields(r, old, next, options, 'status', preset);
    if (r.custom !== undefined) {
      // upstream: customresource statusStrategy.ValidateUpdate runs the schema (and CEL) on the whole object.
      const err = invalidIfAny(r, name, validateCustomObject(r, next, old));
      if (err) throw err;
    }
    this.storeAs(r, next);
    const written = this.commitUpdate(r, next, stored, options);
    // The stored metadata is the old one with a new resourceVersion: when the old one was clean, the next status
    // write carrying the new one is not walked for unknown fields (cleanMetadata.ts).
    if (written !== stored && r.custom === undefined && !options.dryRun)
      this.cleanMetadata.carry(written.metadata, stored.metadata);
    return this.out(requested, written);
  }

  /**
   * PATCH with a JSON patch, JSON merge patch or strategic merge patch (a
   * `fieldManager` is recorded as an Update), or server-side apply (`apply`,
   * see `apply`), on the object or its `/status`.
   */
  patch<R extends ResourceName>(
    ref: R,
    namespace: string | undefined,
    name: string,
    type: PatchType,
    patch: unknown,
    options?: WriteOptions & { subresource?: 'status' },
  ): ObjectsByResource[R];
  patch(
    ref: ResourceRef,
    namespace: string | undefined,
    name: string,
    type: PatchType,
    patch: unknown,
    options?: WriteOptions & { subresource?: 'status' },
  ): KubeObject;
  patch(
    ref: ResourceRef,
    namespace: string | undefined,
    name: string,
    type: PatchType,
    patch: unknown,
    options: WriteOptions & { subresource?: 'status' } = {},
  ): KubeObject {
    if (type === 'apply') return this.apply(ref, namespace, name, patch, options).object;
    const r = this.resolve(ref);
    if (!isStored(r)) throw methodNotSupported(r, 'patch');
    // upstream: crdHandler serves no strategic merge patch: custom resources have no patch strategies.
    if (type === 'strategic' && r.custom !== undefined)
      throw unsupportedMediaType([
        'application/json-patch+json',
        'application/merge-patch+json',
        'application/apply-patch+yaml',
      ]);
    const ns = this.namespaceFor(r, namespace);
    const old = this.out(r, this.store.get(kindKey(r), ns, name));
    if (!old) throw notFound(r, name);
    const patched = this.decode(applyPatch(type, old, patch));
    checkPatchFields(type, patch, patched, options, r.custom !== undefined ? customDecoding(r) : undefined);
    if (patched.apiVersion !== old.apiVersion || patched.kind !== old.kind)
      throw badRequest('a patch may not change apiVersion or kind');
    if (patched.metadata.name !== name)
      throw badRequest(
        `the name of the object (${String(patched.metadata.name)}) does not match the name on the URL (${name})`,
      );
    if (patched.metadata.resourceVersion === undefined) patched.metadata.resourceVersion = old.metadata.resourceVersion;
    // Unknown fields are gone from `patched` now (or the patch failed): nothing more for field validation to say.
    const write = { ...options, namespace: r.namespaced ? ns : undefined, fieldValidation: 'Ignore' as const };
    return options.subresource === 'status' ? this.updateStatus(patched, write) : this.update(patched, write);
  }

  /**
   * Server-side apply (PATCH `application/apply-patch+yaml`): `config` is the
   * applied configuration, already decoded from YAML or JSON. Creates the
   * object when absent (`created`: the HTTP layer answers 201); otherwise
   * merges it in — applied fields win, fields this manager applied before and
   * no longer applies go unless another manager owns them, and changing a
   * field another manager owns is 409 unless `force`. Then the normal create
   * or update path (admission, generation, status rules); dry run stores nothing.
   * 422 without `fieldManager`; 400 for another kind, name or namespace.
   */
  apply(
    ref: ResourceRef,
    namespace: string | undefined,
    name: string,
    config: unknown,
    options: WriteOptions & { subresource?: 'status' } = {},
  ): ApplyResult {
    const r = this.resolve(ref);
    const ns = this.namespaceFor(r, namespace);
    const manager = options.fieldManager;
    if (manager === undefined || manager === '') {
      throw invalidOptions('PatchOptions', [
        { reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' },
      ]);
    }
    const body = this.decode(config, undefined, false);
    const old = this.out(r, this.store.get(kindKey(r), ns, name));
    if (!old && options.subresource === 'status') throw notFound(r, name);
    const merged = applyConfiguration(old, body, manager, options.force ?? false, {
      resource: r,
      subresource: options.subresource,
      now: formatTimestamp(this.clock.now()),
    });
    if (!old && merged.metadata.uid)
      throw conflict(
        r,
        name,
        `uid mismatch: the provided object specified uid ${merged.metadata.uid}, and no existing object was found`,
      );
    if (merged.metadata.name !== name)
      throw badRequest(
        `the name of the object (${merged.metadata.name ?? ''}) does not match the name on the URL (${name})`,
      );
    const bodyNs = body.metadata.namespace;
    if (r.namespaced && bodyNs && bodyNs !== ns)
      throw badRequest(`the namespace of the object (${bodyNs}) does not match the namespace on the URL (${ns})`);
    const write: WriteOptions = { dryRun: options.dryRun, namespace: r.namespaced ? ns : undefined };
    const preset = { managedFields: merged.metadata.managedFields };
    if (!old) return { object: this.createObject(merged, write, preset), created: true };
    const object =
      options.subresource === 'status'
        ? this.updateStatusObject(merged, write, preset)
        : this.updateObject(merged, write, preset);
    return { object, created: false };
  }

  /**
   * DELETE. Objects without finalizers (and pods that need no grace period)
   * go at once (DELETED); others get `deletionTimestamp` (MODIFIED) and go
   * when their finalizers are removed — or, for pods, when the kubelet
   * deletes them with grace period 0. Returns the object's last state.
   */
  delete<R extends ResourceName>(
    ref: R,
    namespace: string | undefined,
    name: string,
    options?: DeleteOptions,
  ): ObjectsByResource[R];
  delete(ref: ResourceRef, namespace: string | undefined, name: string, options?: DeleteOptions): KubeObject;
  delete(ref: ResourceRef, namespace: string | undefined, name: string, options: DeleteOptions = {}): KubeObject {
    const r = this.resolve(ref);
    if (!isStored(r)) throw methodNotSupported(r, 'delete');
    return this.out(r, this.deleteStored(r, namespace, name, options));
  }

  private deleteStored(
    r: ResourceType,
    namespace: string | undefined,
    name: string,
    options: DeleteOptions,
  ): KubeObject {
    const ns = this.namespaceFor(r, namespace);
    const old = this.store.get(kindKey(r), ns, name);
    if (!old) throw notFound(r, name);
    const pre = options.preconditions;
    if (pre?.uid !== undefined && pre.uid !== old.metadata.uid)
      throw conflict(
        r,
        name,
        `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${old.metadata.uid}`,
      );
    if (pre?.resourceVersion !== undefined && pre.resourceVersion !== old.metadata.resourceVersion) {
      throw conflict(
        r,
        name,
        `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${old.metadata.resourceVersion}`,
      );
    }
    refuseSystemClassDelete(r, name);
    this.admitPolicies(r, 'DELETE', undefined, old, { dryRun: options.dryRun });
    if (r.kind === 'Namespace') return this.deleteNamespace(r, old, options);
    if (isCrdResource(r) && old.metadata.deletionTimestamp === undefined) {
      const next = markCrdTerminating(old as CustomResourceDefinition, formatTimestamp(this.clock.now()));
      return options.dryRun ? next : this.put(r, next);
    }
    const grace = r.kind === 'Pod' ? podGracePeriod(old, options) : 0;
    if (old.metadata.deletionTimestamp !== undefined) return this.deleteAgain(r, old, grace, options);
    const policy = options.propagationPolicy ?? defaultPropagation(r);
    const finalizers = finalizersFor(old.metadata.finalizers ?? [], policy);
    if (grace === 0 && finalizers.length === 0) return options.dryRun ? old : this.remove(r, old);
    const meta = {
      ...old.metadata,
      deletionTimestamp: formatTimestamp(this.clock.now() + grace * 1000),
      deletionGracePeriodSeconds: grace,
    };
    if (finalizers.length > 0) meta.finalizers = finalizers;
    if (meta.generation !== undefined) meta.generation += 1;
    if (options.dryRun) return { ...old, metadata: meta };
    return this.put(r, { ...old, metadata: meta });
  }

  /**
   * POST `pods/<name>/binding`: assigns a pod to a node in one write (spec.nodeName and
   * PodScheduled=True). 404 when the pod is gone; 409 when it is being deleted,
   * already assigned, gated, or its uid differs from `uid`.
   */
  bind(
    namespace: string,
    name: string,
    nodeName: string,
    options?: WriteOptions & { uid?: string },
  ): ObjectsByResource['pods'];
  bind(namespace: string, name: string, nodeName: string, options: WriteOptions & { uid?: string } = {}): KubeObject {
    const r = this.resolve('pods');
    const old = this.store.get(kindKey(r), namespace, name);
    if (!old) throw notFound(r, name);
    checkBindable(old, options.uid);
    if (!nodeName)
      throw invalidIfAny(r, name, [{ code: 'binding-target', type: 'FieldValueRequired', field: 'target.name' }])!;
    const next = boundPod(old, nodeName, this.clock.now());
    return options.dryRun ? next : this.store.put(kindKey(r), next);
  }

  /**
   * POST `pods/<name>/eviction`: deletes the pod unless its PodDisruptionBudget's status allows no disruption (429
   * TooManyRequests), taking one disruption from the budget (see ./eviction.ts, upstream's EvictionREST).
   */
  evict(namespace: string, name: string, eviction: Eviction, options: EvictionOptions = {}): void {
    evictPod(this, namespace, name, eviction, options, this.clock.now());
  }

  /** GET `/scale`: the parent's `autoscaling/v1` Scale; 404 for a kind without the subresource. */
  getScale(ref: ResourceRef, namespace: string | undefined, name: string): KubeObject {
    const r = this.scalable(ref);
    const parent = this.get(r, namespace, name);
    return r.custom !== undefined ? customScaleOf(r, parent) : scaleOf(parent);
  }

  /**
   * PUT `/scale`: sets the parent's `spec.replicas` from the Scale (its resourceVersion, when set, is the
   * precondition); returns the new Scale.
   */
  updateScale(
    ref: ResourceRef,
    namespace: string | undefined,
    name: string,
    scale: KubeObject,
    options: WriteOptions = {},
  ): KubeObject {
    const r = this.scalable(ref);
    return this.writeScale(r, this.get(r, namespace, name), scale, options);
  }

  /** PATCH `/scale` (an apply of a Scale can own only `spec.replicas`: it merges like a merge patch). */
  patchScale(
    ref: ResourceRef,
    namespace: string | undefined,
    name: string,
    type: PatchType,
    patch: unknown,
    options: WriteOptions = {},
  ): KubeObject {
    const r = this.scalable(ref);
    const parent = this.get(r, namespace, name);
    const current = r.custom !== undefined ? customScaleOf(r, parent) : scaleOf(parent);
    const patched = applyPatch(type === 'apply' ? 'merge' : type, current, patch) as KubeObject;
    return this.writeScale(r, parent, patched, options);
  }

  /** `/finalize` on a Namespace: sets `spec.finalizers`; a terminating namespace with none left is removed. */
  finalizeNamespace(name: string, finalizers: string[]): ObjectsByResource['namespaces'];
  finalizeNamespace(name: string, finalizers: string[]): KubeObject {
    const r = this.resolve('namespaces');
    const old = this.store.get(kindKey(r), '', name);
    if (!old) throw notFound(r, name);
    const next: KubeObject = {
      ...old,
      metadata: { ...old.metadata },
      spec: { ...(old.spec as object), finalizers: [...finalizers] },
    };
    if (jsonEqual(next.spec, old.spec)) return old;
    if (old.metadata.deletionTimestamp && finalizers.length === 0 && (old.metadata.finalizers ?? []).length === 0)
      return this.remove(r, old);
    return this.store.put(kindKey(r), next);
  }

  // ---- internals --------------------------------------------------------

  private scalable(ref: ResourceRef): ResourceType {
    const r = this.resolve(ref);
    if (!r.scaleSubresource) throw resourceNotFound();
    return r;
  }

  private writeScale(r: ResourceType, parent: KubeObject, scale: KubeObject, options: WriteOptions): KubeObject {
    if (r.custom !== undefined) {
      const updated = this.update(customScaledParent(r, parent, scale), {
        ...options,
        namespace: parent.metadata.namespace,
      });
      return customScaleOf(r, updated);
    }
    const updated = this.update(scaledParent(parent, scale), { ...options, namespace: parent.metadata.namespace });
    return scaleOf(updated);
  }

  /**
   * Copies and shape-checks a request body (400 on a malformed one); with `fields`, also field validation (unknown and
   * duplicate fields, nulls; see fieldValidation.ts); `withManagedFields`: also managedFields' entries.
   */
  private decode(
    input: unknown,
    fields?: FieldValidationOptions,
    withManagedFields = true,
    r?: ResourceType,
    keep?: ReadonlySet<string>,
    clean?: object,
  ): KubeObject {
    let body: unknown;
    let nullMembers: string[] | undefined;
    let decoded: DecodedBody | undefined;
    // A built-in kind's body under field validation: copied, walked for unknown fields and its nulls decoded in one
    // pass (decodeBody.ts); the same outcome as the separate passes below, which everything else takes.
    const root =
      fields !== undefined && r?.custom === undefined && isPlainObject(input) ? definitionOf(input) : undefined;
    try {
      if (root !== undefined)
        decoded = decodeBuiltInBody(input as Record<string, unknown>, root, REQUEST_LIMITS, keep, clean);
      if (decoded !== undefined) body = decoded.body;
      else if (isPlainObject(input)) ({ value: body, nullMembers } = copyMembersCounted(input, REQUEST_LIMITS, keep));
      else body = copyJson(input, REQUEST_LIMITS);
    } catch (e) {
      if (e instanceof JsonCopyError) {
        if (e.kind === 'size') throw tooLarge(`Request entity too large: ${e.message}`);
        throw badRequest(e.message);
      }
      throw e;
    }
    const custom = r?.custom !== undefined ? customDecoding(r) : undefined;
    const strict =
      fields === undefined
        ? undefined
        : decoded !== undefined
          ? settleFieldErrors(body as KubeObject, decoded.errors, fields)
          : isPlainObject(body)
            ? decodeObjectFields(input, body as KubeObject, fields, custom, nullMembers)
            : undefined;
    checkObjectShape(body);
    const obj = body as KubeObject;
    // A wrong type fails upstream's decoding before its strict field errors are reported.
    refuseMistyped(r, obj, fields?.fieldValidation !== undefined);
    if (strict !== undefined) throw strict;
    if (withManagedFields && obj.metadata.managedFields !== undefined)
      checkManagedFieldsShape(obj.metadata.managedFields);
    return obj;
  }

  /**
   * Sets the managedFields a write stores (see sandbox/apply/serverSide):
   * apply's own, or the Update of `options.fieldManager`; without a manager
   * the live ones stay unless the body sets them.
   */
  private trackFields(
    r: ResourceType,
    live: KubeObject | undefined,
    next: KubeObject,
    options: WriteOptions,
    subresource: 'status' | undefined,
    preset: ManagedFieldsPreset | undefined,
  ): void {
    let fields: JsonValue[] | undefined;
    if (preset !== undefined) fields = preset.managedFields;
    else if (options.fieldManager === undefined && next.metadata.managedFields === undefined)
      fields = live?.metadata.managedFields;
    else
      fields = updateManagedFields(live, next, options.fieldManager, {
        resource: r,
        subresource,
        now: formatTimestamp(this.clock.now()),
      });
    if (fields === undefined) delete next.metadata.managedFields;
    else next.metadata.managedFields = fields;
  }

  /** The admission plugins that read the cluster (sandbox/admission/plugins): LimitRanger and the rest. */
  private admitPlugins(
    operation: 'CREATE' | 'UPDATE',
    r: ResourceType,
    namespace: string,
    object: KubeObject,
    oldObject: KubeObject | undefined,
    options: WriteOptions,
    phase: 'mutating' | 'validating',
  ): QuotaCharge[] {
    const a: PluginAttributes = {
      operation,
      resource: r,
      namespace,
      object,
      oldObject,
      dryRun: options.dryRun ?? false,
      warn: options.warn,
      randomSuffix: () => this.tokenVolumeRandom.string(5),
      podSecurity: this.podSecurity,
    };
    if (phase === 'validating') return validatingAdmission(a, this.pluginLookup);
    mutatingAdmission(a, this.pluginLookup);
    return [];
  }

  /** ResourceQuota admission records what it admitted in the quotas' `status.used` (upstream: the quota evaluator). */
  private chargeQuotas(charges: readonly QuotaCharge[]): void {
    for (const { quota, used } of charges) {
      const current = this.store.get(
        kindKey(resourceFor('v1', 'ResourceQuota')!),
        quota.metadata.namespace ?? '',
        quota.metadata.name!,
      );
      if (!current) continue;
      this.updateStatus({ ...current, status: { ...(current.status as object), used } });
    }
  }

  private readonly pluginLookup: AdmissionLookup = {
    list: (kind, namespace) => {
      const r = resourceFor('v1', kind);
      return r ? this.store.list(kindKey(r), namespace) : [];
    },
    get: (kind, namespace, name, apiVersion = 'v1') => {
      const r = resourceFor(apiVersion, kind);
      return r ? this.store.get(kindKey(r), namespace, name) : undefined;
    },
  };

  private admissionAttributes(
    r: ResourceType,
    operation: AdmissionAttributes['operation'],
    object: KubeObject | undefined,
    oldObject: KubeObject | undefined,
    options: WriteOptions,
  ): AdmissionAttributes {
    const meta = (object ?? oldObject)!.metadata;
    return {
      operation,
      resource: r,
      subresource: '',
      name: meta.name ?? '',
      namespace: r.namespaced ? (meta.namespace ?? '') : '',
      object,
      oldObject,
      dryRun: options.dryRun ?? false,
    };
  }

  /**
   * ValidatingAdmissionPolicy admission of one write (sandbox/admission/policy), then the validating admission
   * webhooks (./webhooks), in upstream's plugin order; throws the first denial.
   */
  private admitPolicies(
    r: ResourceType,
    operation: AdmissionAttributes['operation'],
    object: KubeObject | undefined,
    oldObject: KubeObject | undefined,
    options: WriteOptions,
  ): void {
    const a = this.admissionAttributes(r, operation, object, oldObject, options);
    admitPolicies(this.policySource, a, options.warn, this.policyAudit);
    admitWebhooks(this.webhookSource, 'validating', a, options.warn);
  }

  /** The mutating admission webhooks of one write (./webhooks): a call that would fail under `Fail` throws. */
  private admitMutatingWebhooks(
    r: ResourceType,
    operation: AdmissionAttributes['operation'],
    object: KubeObject,
    oldObject: KubeObject | undefined,
    options: WriteOptions,
  ): void {
    admitWebhooks(
      this.webhookSource,
      'mutating',
      this.admissionAttributes(r, operation, object, oldObject, options),
      options.warn,
    );
  }

  /** What the webhooks read: their configurations, and the Services and Endpoints they name. */
  private storeWebhookSource(): WebhookSource {
    const key = (apiVersion: string, kind: string): string => kindKey(resourceFor(apiVersion, kind)!);
    const validating = key('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration');
    const mutating = key('admissionregistration.k8s.io/v1', 'MutatingWebhookConfiguration');
    const services = key('v1', 'Service');
    const endpoints = key('v1', 'Endpoints');
    const namespaces = key('v1', 'Namespace');
    return {
      // Every write asks: a cluster without webhooks answers from the count, without building a list.
      configurations: (phase) => {
        const k = phase === 'mutating' ? mutating : validating;
        return this.store.count(k) === 0 ? [] : this.store.list(k);
      },
      service: (namespace, name) => this.store.get(services, namespace, name),
      endpoints: (namespace, name) => this.store.get(endpoints, namespace, name),
      namespace: (name) => this.store.get(namespaces, '', name),
    };
  }

  /** A CRD naming a conversion webhook the sandbox does not call: a warning on the write (as kubectl shows them). */
  private warnConversionWebhook(crd: KubeObject, options: WriteOptions): void {
    const note = conversionWebhookNote(crd);
    if (note !== undefined) options.warn?.(`CustomResourceDefinition "${crd.metadata.name ?? ''}": ${note}`);
  }

  private namespaceFor(r: ResourceType, namespace: string | undefined): string {
    if (!r.namespaced) return '';
    if (namespace === undefined || namespace === '') throw badRequest(`a namespace is required to address ${r.plural}`);
    return namespace;
  }

  /** The namespace a body is written to: request and body must agree; `default` when neither says. */
  private bodyNamespace(r: ResourceType, body: KubeObject, requested: string | undefined): string {
    if (!r.namespaced) {
      delete body.metadata.namespace;
      return '';
    }
    const inBody = body.metadata.namespace;
    if (inBody && requested && inBody !== requested)
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    const ns = inBody || requested || 'default';
    body.metadata.namespace = ns;
    return ns;
  }

  private requireName(body: KubeObject): string {
    const name = body.metadata.name;
    if (!name) throw badRequest('name is required');
    return name;
  }

  private generatedName(r: ResourceType, ns: string, generateName: string): string {
    const key = kindKey(r);
    // Upstream keeps generated names within 63 characters: the base is cut to 58.
    const prefix = generateName.slice(0, 58);
    for (let i = 0; i < GENERATE_NAME_ATTEMPTS; i++) {
      const name = `${prefix}${this.random.string(5)}`;
      if (!this.store.get(key, ns, name)) return name;
    }
    return `${prefix}${this.random.string(5)}`;
  }

  private checkPreconditions(r: ResourceType, body: KubeObject, old: KubeObject): void {
    const name = old.metadata.name!;
    const rv = body.metadata.resourceVersion;
    if (rv && rv !== old.metadata.resourceVersion) throw conflict(r, name);
    const uid = body.metadata.uid;
    if (uid && uid !== old.metadata.uid)
      throw conflict(
        r,
        name,
        `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${old.metadata.uid}`,
      );
  }

  private checkNoNewFinalizersWhileDeleting(r: ResourceType, body: KubeObject, old: KubeObject): void {
    if (!old.metadata.deletionTimestamp) return;
    const before = new Set(old.metadata.finalizers ?? []);
    const added = (body.metadata.finalizers ?? []).filter((f) => !before.has(f));
    if (added.length === 0) return;
    const list = `[]string{${added.map((f) => JSON.stringify(f)).join(', ')}}`;
    throw invalidIfAny(r, old.metadata.name!, [
      {
        code: 'metadata-finalizers-while-deleting',
        type: 'FieldValueForbidden',
        field: 'metadata.finalizers',
        detail: `no new finalizers can be added if the object is being deleted, found new finalizers ${list}`,
      },
    ])!;
  }

  private allocate(r: ResourceType, body: KubeObject, old?: KubeObject): void {
    const err = invalidIfAny(r, body.metadata.name!, allocateServiceAddresses(body, this.allocators, old));
    if (err) throw err;
  }

  /** Stores an update unless it changes nothing; completes a deletion whose last finalizer was removed. */
  private commitUpdate(r: ResourceType, next: KubeObject, old: KubeObject, options: WriteOptions): KubeObject {
    next.metadata.resourceVersion = old.metadata.resourceVersion;
    const fields = next.metadata.managedFields;
    if (fields !== old.metadata.managedFields && sameExceptTimes(fields, old.metadata.managedFields)) {
      // Only managedFields times would change: keep the old ones, so a no-op stays a no-op (upstream's
      // IgnoreManagedFieldsTimestampsTransformer).
      next.metadata.managedFields = old.metadata.managedFields;
      if (sameObject(next, old)) return old;
      next.metadata.managedFields = fields;
    }
    if (sameObject(next, old)) return old;
    const meta = next.metadata;
    const finished =
      meta.deletionTimestamp !== undefined &&
      (meta.finalizers ?? []).length === 0 &&
      (meta.deletionGracePeriodSeconds ?? 0) === 0;
    if (options.dryRun) return next;
    const specFinalizers =
      r.kind === 'Namespace' ? ((next.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []).length : 0;
    if (finished && specFinalizers === 0) return this.remove(r, next);
    const stored = this.put(r, next);
    if (r.kind === 'Service') {
      releaseServiceAddresses(old, this.allocators, stored);
      reserveServiceAddresses(stored, this.allocators);
    }
    return stored;
  }

  /** A DELETE on an object already being deleted: a pod's grace period may only shorten (0 = force). */
  private deleteAgain(r: ResourceType, old: KubeObject, grace: number, options: DeleteOptions): KubeObject {
    const current = old.metadata.deletionGracePeriodSeconds ?? 0;
    if (r.kind !== 'Pod' || options.gracePeriodSeconds === undefined || grace >= current) return old;
    if (options.dryRun) return old;
    if (grace === 0 && (old.metadata.finalizers ?? []).length === 0) return this.remove(r, old);
    const meta = {
      ...old.metadata,
      deletionTimestamp: formatTimestamp(this.clock.now() + grace * 1000),
      deletionGracePeriodSeconds: grace,
    };
    return this.put(r, { ...old, metadata: meta });
  }

  private deleteNamespace(r: ResourceType, old: KubeObject, options: DeleteOptions): KubeObject {
    const name = old.metadata.name!;
    if (PROTECTED_NAMESPACES.has(name)) throw forbidden(r, name, 'this namespace may not be deleted');
    if (old.metadata.deletionTimestamp) return old;
    const specFinalizers = ((old.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []).length;
    const finalizers = finalizersFor(old.metadata.finalizers ?? [], options.propagationPolicy ?? 'Background');
    if (specFinalizers === 0 && finalizers.length === 0) return options.dryRun ? old : this.remove(r, old);
    const meta = {
      ...old.metadata,
      deletionTimestamp: formatTimestamp(this.clock.now()),
      deletionGracePeriodSeconds: 0,
    };
    if (finalizers.length > 0) meta.finalizers = finalizers;
    else delete meta.finalizers;
    const next = { ...old, metadata: meta, status: { ...(old.status as object), phase: 'Terminating' } };
    return options.dryRun ? next : this.store.put(kindKey(r), next);
  }

  private remove(r: ResourceType, obj: KubeObject): KubeObject {
    this.cleanMetadata.forget(obj.metadata.uid);
    const last = this.store.remove(kindKey(r), obj.metadata.namespace ?? '', obj.metadata.name!)!;
    if (r.kind === 'Service') releaseServiceAddresses(last, this.allocators);
    if (isCrdResource(r)) this.syncCrds();
    return last;
  }

  /** Stores an object; a CRD's write lets its controllers act (names, conditions, the served resources). */
  private put(r: ResourceType, obj: KubeObject): KubeObject {
    return this.written(r, this.store.put(kindKey(r), obj));
  }

  /** `put` of a new object, only when nothing is stored under its key (undefined then, and nothing written). */
  private putNew(r: ResourceType, obj: KubeObject): KubeObject | undefined {
    const stored = this.store.create(kindKey(r), obj);
    return stored && this.written(r, stored);
  }

  /** What follows every stored write: an Event's expiry is scheduled; a CRD's controllers act. */
  private written(r: ResourceType, stored: KubeObject): KubeObject {
    if (isEventKind(r)) this.eventExpiry.written(kindKey(r), stored);
    if (isCrdResource(r)) this.syncCrds();
    return stored;
  }

  /** Events of a restored store expire an hour after the last time they name, oldest first. */
  private leaseRestoredEvents(): void {
    const leases: { key: string; e: KubeObject; at: number }[] = [];
    for (const r of this.resources.storedKinds()) {
      if (!isEventKind(r)) continue;
      for (const e of this.store.list(kindKey(r))) leases.push({ key: kindKey(r), e, at: lastWrittenAt(e) ?? 0 });
    }
    leases.sort((a, b) => a.at - b.at);
    for (const { key, e, at } of leases) this.eventExpiry.written(key, e, at);
  }

  /**
   * The body of a write as the kind's storage version, with the resource of that version. Built-in kinds convert
   * before admission (their rules are written for the stored version); custom resources are pruned, defaulted and
   * validated by their request version's schema first (see `kindErrors`), and only relabelled (`storeAs`).
   */
  private toStorage(requested: ResourceType, body: KubeObject): { body: KubeObject; r: ResourceType } {
    const storage = storageApiVersionOf(requested);
    if (requested.custom !== undefined || storage === apiVersionOf(requested)) {
      if (requested.custom !== undefined) defaultCustomResource(requested, body);
      return { body, r: requested };
    }
    const r = this.resources.forGvk(storage, requested.kind);
    if (r === undefined) throw resourceNotFound();
    return { body: convertBuiltIn(body, r) as KubeObject, r };
  }

  /** A custom resource's apiVersion set to its storage version, just before it is stored. */
  private storeAs(r: ResourceType, body: KubeObject): void {
    if (r.custom !== undefined) body.apiVersion = storageApiVersion(r);
  }

  /** Errors of the kind's own validation beyond the shared rules: a CRD's, a custom resource's schema. */
  private kindErrors(r: ResourceType, body: KubeObject, old: KubeObject | undefined): FieldError[] {
    if (isCrdResource(r)) return crdErrors(body, old);
    if (r.custom !== undefined) return validateCustomObject(r, body, old);
    return [];
  }

  private crdTerminating(r: ResourceType): boolean {
    const crds = this.resources.forGvk(`${CRD_GROUP}/v1`, CRD_KIND);
    const crd = crds && this.store.get(kindKey(crds), '', r.custom!.crdName);
    return crd?.metadata.deletionTimestamp !== undefined;
  }

  /**
   * The naming and establishing controllers of the apiextensions server, run at once after every CRD write (one
   * API server: nothing to wait for): each CRD's accepted names and conditions, oldest CRD first (it keeps the
   * names it was granted), then the served custom resources of every established CRD.
   */
  private syncCrds(): void {
    if (this.syncingCrds) return;
    const crdResource = this.resources.forGvk(`${CRD_GROUP}/v1`, CRD_KIND);
    if (crdResource === undefined) return;
    this.syncingCrds = true;
    try {
      const key = kindKey(crdResource);
      const now = formatTimestamp(this.clock.now());
      for (let round = 0; round < 100; round++) {
        const all = this.byAge(this.store.list(key) as CustomResourceDefinition[]);
        const changed = all.find((crd) => {
          if (crd.metadata.deletionTimestamp !== undefined) return false;
          const status = reconcileCrdStatus(crd, all, now);
          if (status === undefined) return false;
          this.store.put(key, { ...crd, metadata: { ...crd.metadata }, status });
          return true;
        });
        if (changed === undefined) break;
      }
      const all = this.store.list(key) as CustomResourceDefinition[];
      const names = new Set(all.map((c) => c.metadata.name!));
      for (const r of this.resources.list())
        if (r.custom && !names.has(r.custom.crdName)) this.resources.setCustom(r.custom.crdName, undefined);
      for (const crd of all) {
        // A CRD's resources change only with the CRD: its resourceVersion says whether they must be built again.
        const name = crd.metadata.name!;
        if (this.crdVersions.get(name) === crd.metadata.resourceVersion) continue;
        this.crdVersions.set(name, crd.metadata.resourceVersion);
        const next = crdResources(crd);
        if (next.length > 0 || this.resources.customOf(name).length > 0) this.resources.setCustom(name, next);
      }
      for (const name of [...this.crdVersions.keys()]) if (!names.has(name)) this.crdVersions.delete(name);
    } finally {
      this.syncingCrds = false;
    }
  }

  private byAge(crds: CustomResourceDefinition[]): CustomResourceDefinition[] {
    return [...crds].sort((a, b) => {
      const ta = a.metadata.creationTimestamp ?? '';
      const tb = b.metadata.creationTimestamp ?? '';
      if (ta !== tb) return ta < tb ? -1 : 1;
      return Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion);
    });
  }

  /** The underlying store, for snapshots and the sandbox's own components. */
  get objectStore(): ObjectStore {
    return this.store;
  }
}

/**
 * `jsonEqual(next, old)` of two versions of one object, its `status` compared first: a write that changes the status
 * (every status write the controllers and kubelets send) is told apart without a walk of the metadata's members, which
 * are the stored ones. The same answer: two objects equal as JSON have every member equal as JSON (an absent member and
 * an undefined one alike), so unequal statuses make them unequal. upstream: the registry's update compares the
 * encoded objects (`GuaranteedUpdate`'s `bytes.Equal` of old and new), one answer for the whole.
 */
function sameObject(next: KubeObject, old: KubeObject): boolean {
  if (next.status !== old.status && !jsonEqual(next.status, old.status)) return false;
  return jsonEqual(next, old);
}

function isCrdResource(r: ResourceType): boolean {
  return r.group === CRD_GROUP && r.kind === CRD_KIND;
}

function storageApiVersionOf(r: ResourceType): string {
  return storageApiVersion(r);
}

export { FINALIZER_FOREGROUND, FINALIZER_ORPHAN };

/**
 * 400 for a body with a field of the wrong JSON type, in the words of upstream's decoding (`Deployment in version "v1"
 * cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas
 * of type int32`; upstream: the serializer's decode in `createHandler`/`patchResource`), which refuses such a body
 * before anything stores it. `everyKind`: a create or update that names its field validation — a user's manifest
 * created in-process (`kubectl apply`'s path: operations/apply) or a body the HTTP edge already checked
 * (http/handlers/decode.ts checkBodyTypes) — is checked whatever its kind. The components' own writes are typed by
 * construction and skip the walk, except for a ValidatingAdmissionPolicy or binding: admission runs one on every
 * later request, so one of the wrong shape must never be stored. (A patch's result is left to the validation rules,
 * in-process as over HTTP.)
 */
function refuseMistyped(r: ResourceType | undefined, obj: KubeObject, everyKind: boolean): void {
  const found =
    (everyKind || r?.group === POLICY_GROUP) && typeof obj.apiVersion === 'string' && typeof obj.kind === 'string'
      ? locatedTypeMismatch(obj, obj.apiVersion, obj.kind)
      : undefined;
  if (found === undefined) return;
  const e = badRequest(
    `${obj.kind} in version "${parseApiVersion(obj.apiVersion).version}" cannot be handled as a ${obj.kind}: ${found.reason}`,
  );
  // Go's message names the struct field without indices; the path is for editors and `file:line` (never sent).
  if (found.field !== '') e.fields = [found.field];
  throw e;
}
