/**
 * `metadata.managedFields`: who owns which fields. Each entry is one manager
 * identity — manager name, operation (`Apply` or `Update`), for updaters the
 * apiVersion, and the subresource — with the time of its last change and its
 * field set in FieldsV1. Entries are kept sorted as upstream sorts them.
 */
import { badRequest } from '../../api/errors';
import type { JsonValue } from '../../api/types';
import { isPlainObject, jsonEqual } from '../../util/json';
import { FieldSet } from './fieldSet';
import { FieldsV1Error, fromFieldsV1, toFieldsV1 } from './fieldsV1';
import { compareStrings } from './pathElement';

export type Operation = 'Apply' | 'Update';

export interface ManagerEntry {
  manager: string;
  operation: Operation;
  apiVersion: string;
  subresource?: string;
  /** RFC 3339, seconds. */
  time?: string;
  set: FieldSet;
}

/** Entries by manager identity (see `identity`). */
export type Managed = Map<string, ManagerEntry>;

/**
 * The identity two writes share when they are "the same manager": upstream's
 * JSON of the entry without time and fields, and without apiVersion for
 * appliers (so an applier keeps one entry across versions).
 */
export function identity(e: {
  manager: string;
  operation: Operation;
  apiVersion?: string;
  subresource?: string;
}): string {
  const parts: string[] = [];
  if (e.manager) parts.push(`"manager":${JSON.stringify(e.manager)}`);
  parts.push(`"operation":${JSON.stringify(e.operation)}`);
  if (e.operation === 'Update' && e.apiVersion) parts.push(`"apiVersion":${JSON.stringify(e.apiVersion)}`);
  if (e.subresource) parts.push(`"subresource":${JSON.stringify(e.subresource)}`);
  return `{${parts.join(',')}}`;
}

/** Why stored or requested managedFields cannot be read (upstream then falls back to the live object's). */
export class ManagedFieldsError extends Error {}

/**
 * Reads managedFields; throws ManagedFieldsError for entries upstream's decoder refuses. `undefined`/`null` is no
 * entries.
 */
export function decodeManaged(list: unknown): Managed {
  const managed: Managed = new Map();
  if (list === undefined || list === null) return managed;
  if (!Array.isArray(list)) throw new ManagedFieldsError('managedFields must be a list');
  list.forEach((raw, i) => {
    if (!isPlainObject(raw)) throw new ManagedFieldsError(`managed fields entry ${i} is not an object`);
    const operation = raw.operation;
    if (operation !== 'Apply' && operation !== 'Update')
      throw new ManagedFieldsError('operation must be `Apply` or `Update`');
    const apiVersion = typeof raw.apiVersion === 'string' ? raw.apiVersion : '';
    if (apiVersion === '') throw new ManagedFieldsError('apiVersion must not be empty');
    if (raw.fieldsType === undefined || raw.fieldsType === '')
      throw new ManagedFieldsError(`missing fieldsType in managed fields entry ${i}`);
    if (raw.fieldsType !== 'FieldsV1')
      throw new ManagedFieldsError(`invalid fieldsType ${JSON.stringify(raw.fieldsType)} in managed fields entry ${i}`);
    let set: FieldSet;
    try {
      set = raw.fieldsV1 === undefined || raw.fieldsV1 === null ? new FieldSet() : fromFieldsV1(raw.fieldsV1);
    } catch (e) {
      if (e instanceof FieldsV1Error) throw new ManagedFieldsError(`error decoding set: ${e.message}`);
      throw e;
    }
    const entry: ManagerEntry = {
      manager: typeof raw.manager === 'string' ? raw.manager : '',
      operation,
      apiVersion,
      set,
    };
    if (typeof raw.subresource === 'string' && raw.subresource !== '') entry.subresource = raw.subresource;
    if (typeof raw.time === 'string' && raw.time !== '') entry.time = raw.time;
    managed.set(identity(entry), entry);
  });
  return managed;
}

/** Like decodeManaged, but undefined instead of throwing. */
export function tryDecodeManaged(list: unknown): Managed | undefined {
  try {
    return decodeManaged(list);
  } catch (e) {
    if (e instanceof ManagedFieldsError) return undefined;
    throw e;
  }
}

function seconds(time: string | undefined): number {
  if (time === undefined) return 0;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

/**
 * The API form, sorted by operation, time, manager, apiVersion and subresource; undefined when no entry owns anything.
 */
export function encodeManaged(managed: Managed): JsonValue[] | undefined {
  const entries = [...managed.values()].filter((e) => !e.set.isEmpty());
  if (entries.length === 0) return undefined;
  entries.sort(
    (p, q) =>
      compareStrings(p.operation, q.operation) ||
      seconds(p.time) - seconds(q.time) ||
      compareStrings(p.manager, q.manager) ||
      compareStrings(p.apiVersion, q.apiVersion) ||
      compareStrings(p.subresource ?? '', q.subresource ?? ''),
  );
  return entries.map((e) => {
    const out: Record<string, JsonValue> = {};
    if (e.manager) out.manager = e.manager;
    out.operation = e.operation;
    out.apiVersion = e.apiVersion;
    if (e.time !== undefined) out.time = e.time;
    out.fieldsType = 'FieldsV1';
    out.fieldsV1 = toFieldsV1(e.set) as JsonValue;
    if (e.subresource) out.subresource = e.subresource;
    return out;
  });
}

/** A copy whose entries can be replaced without touching `managed`'s (sets are never changed in place). */
export function copyManaged(managed: Managed): Managed {
  return new Map([...managed].map(([id, e]) => [id, { ...e }]));
}

/** `[]`, or one empty entry: the client asks to clear managedFields. */
export function isResetRequest(list: unknown): boolean {
  if (!Array.isArray(list)) return false;
  if (list.length === 0) return true;
  return (
    list.length === 1 &&
    isPlainObject(list[0]) &&
    Object.values(list[0]).every((v) => v === undefined || v === '' || v === null)
  );
}

const ENTRY_STRINGS = ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'subresource'];
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function typeName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  return v === null ? 'null' : typeof v;
}

/**
 * The decoding step for a body's managedFields: a list of objects with string
 * members and RFC 3339 times, else 400 with the Go decoder's wording.
 */
export function checkManagedFieldsShape(list: unknown): void {
  if (list === undefined || list === null) return;
  if (!Array.isArray(list))
    throw badRequest(
      `json: cannot unmarshal ${typeName(list)} into Go struct field ObjectMeta.metadata.managedFields of type []v1.ManagedFieldsEntry`,
    );
  for (const entry of list) {
    if (entry === null) continue;
    if (!isPlainObject(entry))
      throw badRequest(
        `json: cannot unmarshal ${typeName(entry)} into Go struct field ObjectMeta.metadata.managedFields of type v1.ManagedFieldsEntry`,
      );
    for (const f of ENTRY_STRINGS) {
      const v = entry[f];
      if (v !== undefined && v !== null && typeof v !== 'string') {
        throw badRequest(
          `json: cannot unmarshal ${typeName(v)} into Go struct field ManagedFieldsEntry.metadata.managedFields.${f} of type ${f === 'time' ? 'v1.Time' : 'string'}`,
        );
      }
    }
    if (typeof entry.time === 'string' && entry.time !== '' && !RFC3339.test(entry.time)) {
      throw badRequest(
        `parsing time ${JSON.stringify(entry.time)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(entry.time)} as "2006"`,
      );
    }
  }
}

/**
 * Whether two managedFields lists differ at most in their times (upstream then keeps the old times, so a no-op stays a
 * no-op).
 */
export function sameExceptTimes(a: readonly JsonValue[] | undefined, b: readonly JsonValue[] | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (!isPlainObject(x) || !isPlainObject(y)) {
      if (!jsonEqual(x, y)) return false;
      continue;
    }
    if (!jsonEqual({ ...x, time: undefined }, { ...y, time: undefined })) return false;
  }
  return true;
}
