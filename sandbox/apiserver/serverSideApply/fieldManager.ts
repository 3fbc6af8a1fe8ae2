/**
 * The field manager: keeps `metadata.managedFields` on writes and performs
 * server-side apply, as upstream's field manager chain does
 * (k8s.io/apimachinery/pkg/util/managedfields/internal).
 *
 * Update (create, update, patch, /status): the fields a write changed move to
 * its manager and out of every other manager's set. Apply: the configuration
 * is merged into the live object; fields the applier applied before and no
 * longer applies are removed unless someone else owns them; changing a field
 * another manager owns is a conflict unless forced.
 *
 * Fields never tracked: apiVersion, kind, metadata name/namespace/uid/
 * resourceVersion/generation/creationTimestamp/managedFields, `status` on the
 * main resource of kinds with a status subresource, and everything but
 * `status` on `/status`.
 */
import { LAST_APPLIED } from '../../api/annotations';
import type { ApiError } from '../../api/errors';
import { statusFailure } from '../../api/errors';
import type { ResourceType } from '../../api/resources';
import { apiVersionOf } from '../../api/resources';
import type { JsonValue, KubeObject } from '../../api/types';
import { parseApiVersion } from '../../api/types';
import { isPlainObject, jsonEqual } from '../../util/json';
import { ApplyConflicts, conflictError } from './conflicts';
import type { Conflict } from './conflicts';
import { FieldSet } from './fieldSet';
import type { Managed, ManagerEntry, Operation } from './managedFields';
import {
  ManagedFieldsError,
  copyManaged,
  decodeManaged,
  encodeManaged,
  identity,
  isResetRequest,
  tryDecodeManaged,
} from './managedFields';
import { fieldElement, goJson } from './pathElement';
import type { Shape } from './shape';
import { emptyObject, rootShape } from './shape';
import type { Comparison } from './typed';
import { compare, fieldSetOf, merge, pruneFields, validateApplied } from './typed';

export interface FieldManagerContext {
  resource: ResourceType;
  /** Set for writes through `/status`. */
  subresource?: 'status';
  /** This write's time, RFC 3339 (from the API server's clock). */
  now: string;
}

/** Update entries beyond this many are merged, oldest first, into `ancient-changes` (upstream's cap). */
const MAX_UPDATE_MANAGERS = 10;

const f = fieldElement;
/** Paths no manager ever owns (upstream's stripMeta). */
const NEVER_OWNED = FieldSet.of(
  [f('apiVersion')],
  [f('kind')],
  [f('metadata')],
  ...[
    'name',
    'namespace',
    'creationTimestamp',
    'selfLink',
    'uid',
    'clusterName',
    'generation',
    'managedFields',
    'resourceVersion',
  ].map((n) => [f('metadata'), f(n)]),
);
const STATUS = FieldSet.of([f('status')]);
const STATUS_AND_ANNOTATIONS = FieldSet.of([f('status')], [f('metadata'), f('annotations')]);

/**
 * Keeps only what this kind of write may change (upstream's reset fields): `status` is the status subresource's,
 * everything else the main resource's.
 */
function tracked(set: FieldSet, ctx: FieldManagerContext): FieldSet {
  if (ctx.subresource === 'status')
    return set.onlySubtrees(ctx.resource.group === 'apps' ? STATUS_AND_ANNOTATIONS : STATUS);
  return ctx.resource.statusSubresource ? set.withoutSubtrees(STATUS) : set;
}

function trackedComparison(c: Comparison, ctx: FieldManagerContext): Comparison {
  return { added: tracked(c.added, ctx), modified: tracked(c.modified, ctx), removed: tracked(c.removed, ctx) };
}

function withoutManagedFields(obj: KubeObject): KubeObject {
  if (obj.metadata.managedFields === undefined) return obj;
  const { managedFields: _omit, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

/**
 * Records an Update: `changed` (what this write added or modified) moves to
 * the manager's entry (with this write's time) and out of every other entry;
 * removed paths leave every entry.
 */
function recordUpdate(
  managed: Managed,
  c: Comparison,
  who: { manager: string; apiVersion: string; subresource?: string },
  now: string,
): void {
  const changed = c.modified.union(c.added);
  for (const [id, e] of managed) {
    const rest = e.set.difference(changed).difference(c.removed);
    if (rest.isEmpty()) managed.delete(id);
    else e.set = rest;
  }
  const current = changed.difference(c.removed).difference(NEVER_OWNED);
  if (current.isEmpty()) return;
  const entry: ManagerEntry = {
    manager: who.manager,
    operation: 'Update',
    apiVersion: who.apiVersion,
    set: current,
    time: now,
  };
  if (who.subresource) entry.subresource = who.subresource;
  const id = identity(entry);
  const previous = managed.get(id);
  if (previous !== undefined) entry.set = current.union(previous.set);
  managed.set(id, entry);
  capUpdateManagers(managed);
}

function timeSeconds(t: string | undefined): number {
  const ms = t === undefined ? NaN : Date.parse(t);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

/** Merges the oldest Update entries into one `ancient-changes` entry per apiVersion until at most 10 remain. */
function capUpdateManagers(managed: Managed): void {
  const updaters = [...managed].filter(([, e]) => e.operation === 'Update').map(([id]) => id);
  if (updaters.length <= MAX_UPDATE_MANAGERS) return;
  updaters.sort(
    (a, b) => timeSeconds(managed.get(a)!.time) - timeSeconds(managed.get(b)!.time) || (a < b ? -1 : a > b ? 1 : 0),
  );
  const firstByVersion = new Map<string, string>();
  let count = updaters.length;
  for (let i = 0; i < updaters.length && count > MAX_UPDATE_MANAGERS; i++) {
    const id = updaters[i];
    const e = managed.get(id)!;
    const bucketId = identity({ manager: 'ancient-changes', operation: 'Update', apiVersion: e.apiVersion });
    const first = firstByVersion.get(e.apiVersion);
    if (first === undefined) {
      firstByVersion.set(e.apiVersion, id);
      continue;
    }
    if (!managed.has(bucketId)) {
      const moved = managed.get(first)!;
      managed.delete(first);
      managed.set(bucketId, {
        manager: 'ancient-changes',
        operation: 'Update',
        apiVersion: moved.apiVersion,
        set: moved.set,
        time: moved.time,
      });
    }
    const bucket = managed.get(bucketId)!;
    managed.set(bucketId, { ...bucket, set: e.set.union(bucket.set), time: e.time });
    managed.delete(id);
    count--;
  }
}

/**
 * managedFields for a create, update, patch or `/status` write (operation
 * Update). `next` is the object about to be stored (defaulted), `live` the
 * stored one (undefined on create).
 *
 * Without a manager nothing is recorded: managedFields the body sets
 * explicitly are taken (`[]` clears them), otherwise the live ones stay.
 * With one, the body's managedFields (when valid and non-empty) or else the
 * live ones are the starting point; an existing object without managedFields
 * stays untracked until its first apply, as upstream.
 */
export function updateManagedFields(
  live: KubeObject | undefined,
  next: KubeObject,
  manager: string | undefined,
  ctx: FieldManagerContext,
): JsonValue[] | undefined {
  const liveFields = live?.metadata.managedFields;
  const given = next.metadata.managedFields;
  if (manager === undefined) {
    if (ctx.subresource !== undefined || given === undefined || given === liveFields || jsonEqual(given, liveFields))
      return liveFields;
    if (isResetRequest(given)) return undefined;
    const decoded = tryDecodeManaged(given);
    return decoded !== undefined && decoded.size > 0 ? encodeManaged(decoded) : liveFields;
  }
  let managed: Managed;
  if (ctx.subresource !== undefined) managed = tryDecodeManaged(liveFields) ?? new Map();
  else if (isResetRequest(given)) managed = new Map();
  else {
    const decoded = given === liveFields ? undefined : tryDecodeManaged(given);
    managed = decoded !== undefined && decoded.size > 0 ? decoded : (tryDecodeManaged(liveFields) ?? new Map());
  }
  if (managed.size === 0 && live !== undefined) return undefined;
  const apiVersion = apiVersionOf(ctx.resource);
  const before = live ?? (emptyObject(apiVersion, ctx.resource.kind) as KubeObject);
  const c = trackedComparison(
    compare(withoutManagedFields(before), withoutManagedFields(next), rootShape(apiVersion, ctx.resource.kind)),
    ctx,
  );
  recordUpdate(managed, c, { manager, apiVersion, subresource: ctx.subresource }, ctx.now);
  return encodeManaged(managed);
}

// ---- apply --------------------------------------------------------------

function failure(code: number, reason: '' | 'BadRequest', message: string): ApiError {
  return statusFailure(code, reason, message);
}

/** `apps/v1, Kind=Deployment`, `/v1, Kind=Pod` (Go's GroupVersionKind). */
function gvkText(apiVersion: string, kind: string): string {
  const { group, version } = parseApiVersion(apiVersion);
  return `${group}/${version}, Kind=${kind}`;
}

interface ApplyOutcome {
  object: KubeObject;
  managed: Managed;
}

/**
 * Server-side apply of `config` (the request body, decoded) by `manager`.
 * Returns the object to store — the merge, with its managedFields — which the
 * caller writes through the normal create or update path. Throws 400 for a
 * configuration of another kind or one carrying managedFields, 500 (as
 * upstream) for one that does not fit the schema, 409 for conflicts unless
 * `force`.
 */
export function applyConfiguration(
  live: KubeObject | undefined,
  config: KubeObject,
  manager: string,
  force: boolean,
  ctx: FieldManagerContext,
): KubeObject {
  const apiVersion = apiVersionOf(ctx.resource);
  if (config.apiVersion !== apiVersion || config.kind !== ctx.resource.kind)
    throw failure(400, 'BadRequest', `invalid object type: ${gvkText(config.apiVersion, config.kind)}`);
  if (config.metadata.managedFields !== undefined && config.metadata.managedFields !== null)
    throw failure(400, 'BadRequest', 'metadata.managedFields must be nil');
  const shape = rootShape(apiVersion, ctx.resource.kind);
  const problems = validateApplied(config, shape);
  if (problems.length > 0) {
    const text =
      problems.length === 1
        ? `${problems[0].path}: ${problems[0].message}`
        : ['errors:', ...problems.map((p) => `  ${p.path}: ${p.message}`)].join('\n');
    const who = `${config.metadata.namespace ?? ''}/${config.metadata.name ?? ''}; ${gvkText(config.apiVersion, config.kind)}`;
    throw failure(500, '', `failed to create typed patch object (${who}): ${text}`);
  }
  let managed: Managed;
  try {
    managed = decodeManaged(live?.metadata.managedFields);
  } catch (e) {
    if (e instanceof ManagedFieldsError) throw failure(500, '', `failed to decode managed fields: ${e.message}`);
    throw e;
  }
  const base =
    live === undefined
      ? ({ apiVersion, kind: ctx.resource.kind, metadata: {} } as KubeObject)
      : withoutManagedFields(live);
  const attempt = (forced: boolean): ApplyOutcome =>
    applyOnce(base, live !== undefined, config, managed, manager, forced, shape, ctx);
  let outcome: ApplyOutcome;
  try {
    outcome = attempt(force);
  } catch (e) {
    if (!(e instanceof ApplyConflicts)) throw e;
    // kubectl's own server-side apply takes over fields its client-side apply set (upstream's lastAppliedManager).
    const allowed = manager === 'kubectl' ? fieldsFromLastApplied(base, shape, apiVersion) : undefined;
    if (allowed === undefined) throw conflictError(e.conflicts);
    const remaining = e.conflicts.filter((c) => !allowed.has(c.path));
    if (remaining.length > 0) throw conflictError(remaining);
    outcome = attempt(true);
  }
  let object = outcome.object;
  const annotations = object.metadata.annotations;
  if (manager === 'kubectl' && annotations?.[LAST_APPLIED]) {
    object = {
      ...object,
      metadata: { ...object.metadata, annotations: { ...annotations, [LAST_APPLIED]: lastAppliedText(config) } },
    };
  }
  const encoded = encodeManaged(outcome.managed);
  const metadata = { ...object.metadata };
  if (encoded === undefined) delete metadata.managedFields;
  else metadata.managedFields = encoded;
  return { ...object, metadata };
}

function applyOnce(
  base: KubeObject,
  exists: boolean,
  config: KubeObject,
  original: Managed,
  manager: string,
  force: boolean,
  shape: Shape,
  ctx: FieldManagerContext,
): ApplyOutcome {
  const apiVersion = apiVersionOf(ctx.resource);
  const managed = copyManaged(original);
  if (managed.size === 0 && exists) {
    // An object nobody tracked yet: its current fields belong to "before-first-apply" (upstream's skipNonApplied).
    const c = trackedComparison(compare(emptyObject(apiVersion, ctx.resource.kind), base, shape), ctx);
    recordUpdate(managed, c, { manager: 'before-first-apply', apiVersion, subresource: ctx.subresource }, ctx.now);
  }
  let merged = merge(base, config, shape) as KubeObject;
  // The applier's time is always this write's; when nothing else changes, the API server keeps the old times (a no-op
  // stays a no-op).
  const applied: ManagerEntry = {
    manager,
    operation: 'Apply' as Operation,
    apiVersion,
    set: tracked(fieldSetOf(config, shape), ctx),
    time: ctx.now,
  };
  if (ctx.subresource) applied.subresource = ctx.subresource;
  const id = identity(applied);
  const last = managed.get(id);
  managed.set(id, applied);
  if (last !== undefined && !last.set.isEmpty()) {
    // Prune what this manager applied last time and applies no more, unless someone still owns it.
    let owned = new FieldSet();
    for (const e of managed.values()) owned = owned.union(e.set);
    merged = pruneFields(merged, last.set, owned, shape) as KubeObject;
  }
  const c = trackedComparison(compare(base, merged, shape), ctx);
  const changed = c.modified.union(c.added);
  const conflicts: Conflict[] = [];
  const taken = new Map<string, FieldSet>();
  for (const [other, e] of managed) {
    if (other === id) continue;
    const overlap = e.set.intersection(changed);
    if (overlap.isEmpty()) continue;
    taken.set(other, overlap);
    for (const path of overlap.paths()) conflicts.push({ manager: other, path });
  }
  if (conflicts.length > 0 && !force)
    throw new ApplyConflicts(conflicts.sort((a, b) => (a.manager < b.manager ? -1 : a.manager > b.manager ? 1 : 0)));
  for (const [other, e] of managed) {
    if (other === id) continue;
    let rest = e.set;
    const overlap = taken.get(other);
    if (overlap !== undefined) rest = rest.difference(overlap);
    if (!c.removed.isEmpty()) rest = rest.difference(c.removed);
    e.set = rest;
  }
  applied.set = applied.set.difference(NEVER_OWNED);
  for (const [other, e] of managed) if (e.set.isEmpty()) managed.delete(other);
  return { object: merged, managed };
}

/**
 * The fields kubectl's client-side apply recorded in the last-applied
 * annotation that still hold their recorded values: kubectl's server-side
 * apply may take them over without a conflict. Undefined when there is no
 * usable annotation.
 */
function fieldsFromLastApplied(live: KubeObject, shape: Shape, apiVersion: string): FieldSet | undefined {
  const text = live.metadata.annotations?.[LAST_APPLIED];
  if (!text) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isPlainObject(parsed) || parsed.apiVersion !== apiVersion || validateApplied(parsed, shape).length > 0)
    return undefined;
  const c = compare(parsed, live, shape);
  return fieldSetOf(parsed, shape).difference(c.modified).difference(c.added).difference(c.removed);
}

/**
 * The applied configuration as kubectl's last-applied annotation holds it after a server-side apply: compact JSON, keys
 * sorted, without the annotation itself.
 */
function lastAppliedText(config: KubeObject): string {
  const annotations = config.metadata.annotations;
  if (annotations === undefined) return goJson(config);
  const { [LAST_APPLIED]: _omit, ...rest } = annotations;
  return goJson({ ...config, metadata: { ...config.metadata, annotations: rest } });
}
