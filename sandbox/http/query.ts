/**
 * Query parameters of the API (`ListOptions`, `CreateOptions`, `PatchOptions`,
 * `DeleteOptions` of meta.k8s.io), checked as upstream's ParameterCodec and
 * option validation do: unparseable numbers are 400, invalid values 422 on the
 * options kind (`ListOptions.meta.k8s.io "" is invalid: …`).
 */
import { badRequest, invalidOptions } from '../api/errors';
import type { DeleteOptions, PropagationPolicy } from '../apiserver/options';
import { isTrue } from './requestInfo';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

/** Options of a list or watch request. */
export interface ListQuery {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
  timeoutSeconds?: number;
  allowWatchBookmarks: boolean;
  sendInitialEvents?: boolean;
}

/** An integer query parameter; 400 as Go's strconv would refuse it. */
export function intParam(query: URLSearchParams, name: string): number | undefined {
  const v = query.get(name);
  if (v === null || v === '') return undefined;
  if (!/^[+-]?\d+$/.test(v)) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(v)}: value out of range`);
  return n;
}

/** A boolean query parameter as Go's strconv.ParseBool reads it; undefined when absent. */
export function boolParam(query: URLSearchParams, name: string): boolean | undefined {
  const v = query.get(name);
  if (v === null || v === '') return undefined;
  if (isTrue(v)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(v)) return false;
  throw badRequest(`strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`);
}

function optional(query: URLSearchParams, name: string): string | undefined {
  const v = query.get(name);
  return v === null || v === '' ? undefined : v;
}

/** List and watch options, validated as `ValidateListOptions` does. */
export function listQuery(query: URLSearchParams, watch: boolean): ListQuery {
  const out: ListQuery = { allowWatchBookmarks: boolParam(query, 'allowWatchBookmarks') ?? false };
  const labelSelector = optional(query, 'labelSelector');
  const fieldSelector = optional(query, 'fieldSelector');
  const cont = optional(query, 'continue');
  const rv = query.get('resourceVersion') ?? undefined;
  const match = optional(query, 'resourceVersionMatch');
  const limit = intParam(query, 'limit');
  const timeoutSeconds = intParam(query, 'timeoutSeconds');
  const sendInitialEvents = boolParam(query, 'sendInitialEvents');
  if (labelSelector !== undefined) out.labelSelector = labelSelector;
  if (fieldSelector !== undefined) out.fieldSelector = fieldSelector;
  if (cont !== undefined) out.continue = cont;
  if (rv !== undefined) out.resourceVersion = rv;
  if (limit !== undefined) out.limit = limit;
  if (timeoutSeconds !== undefined) out.timeoutSeconds = timeoutSeconds;
  if (sendInitialEvents !== undefined) out.sendInitialEvents = sendInitialEvents;

  const causes = [];
  if (match !== undefined) {
    if (match !== 'Exact' && match !== 'NotOlderThan') {
      causes.push({
        reason: 'FieldValueNotSupported',
        field: 'resourceVersionMatch',
        message: `Unsupported value: "${match}": supported values: "Exact", "NotOlderThan"`,
      });
    } else {
      out.resourceVersionMatch = match;
      if (watch && !sendInitialEvents)
        causes.push({
          reason: 'FieldValueForbidden',
          field: 'resourceVersionMatch',
          message: 'Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
        });
      else if (!rv && !sendInitialEvents)
        causes.push({
          reason: 'FieldValueForbidden',
          field: 'resourceVersionMatch',
          message: 'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
        });
      if (cont !== undefined)
        causes.push({
          reason: 'FieldValueForbidden',
          field: 'resourceVersionMatch',
          message: 'Forbidden: resourceVersionMatch is forbidden when continue is provided',
        });
      if (match === 'Exact' && rv === '0')
        causes.push({
          reason: 'FieldValueForbidden',
          field: 'resourceVersionMatch',
          message: 'Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
        });
    }
  }
  if (sendInitialEvents !== undefined) {
    if (!watch)
      causes.push({
        reason: 'FieldValueForbidden',
        field: 'sendInitialEvents',
        message: 'Forbidden: sendInitialEvents is forbidden for list',
      });
    else if (match !== 'NotOlderThan')
      causes.push({
        reason: 'FieldValueForbidden',
        field: 'resourceVersionMatch',
        message: `Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan`,
      });
    if (watch && sendInitialEvents && !out.allowWatchBookmarks)
      causes.push({
        reason: 'FieldValueForbidden',
        field: 'allowWatchBookmarks',
        message: 'Forbidden: allowWatchBookmarks must be set to true when sendInitialEvents is requested',
      });
  }
  if (limit !== undefined && limit < 0)
    causes.push({
      reason: 'FieldValueInvalid',
      field: 'limit',
      message: `Invalid value: ${limit}: must be greater than or equal to 0`,
    });
  if (causes.length > 0) throw invalidOptions('ListOptions', causes);
  return out;
}

/** `?dryRun=All` → true; absent → false; anything else 422 on `optionsKind` (CreateOptions, PatchOptions, …). */
export function dryRunParam(query: URLSearchParams, optionsKind: string): boolean {
  const values = query.getAll('dryRun');
  if (values.length === 0) return false;
  if (values.every((v) => v === 'All')) return true;
  const go = `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;
  throw invalidOptions(optionsKind, [
    { reason: 'FieldValueNotSupported', field: 'dryRun', message: `Unsupported value: ${go}: supported values: "All"` },
  ]);
}

/** `?fieldValidation=` (default Warn, as the API server's default since v1.27). */
export function fieldValidationParam(query: URLSearchParams, optionsKind: string): FieldValidation {
  const v = query.get('fieldValidation');
  if (v === null || v === '') return 'Warn';
  if (v === 'Ignore' || v === 'Warn' || v === 'Strict') return v;
  throw invalidOptions(optionsKind, [
    {
      reason: 'FieldValueNotSupported',
      field: 'fieldValidation',
      message: `Unsupported value: "${v}": supported values: "", "Ignore", "Strict", "Warn"`,
    },
  ]);
}

/** `?fieldManager=`: at most 128 printable characters; required for apply. */
export function fieldManagerParam(query: URLSearchParams, optionsKind: string, required: boolean): string | undefined {
  const v = optional(query, 'fieldManager');
  if (v === undefined) {
    if (required)
      throw invalidOptions(optionsKind, [
        { reason: 'FieldValueRequired', field: 'fieldManager', message: 'Required value: is required for apply patch' },
      ]);
    return undefined;
  }
  if (v.length > 128)
    throw invalidOptions(optionsKind, [
      { reason: 'FieldValueTooLong', field: 'fieldManager', message: `Too long: may not be more than 128 bytes` },
    ]);
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(v))
    throw invalidOptions(optionsKind, [
      {
        reason: 'FieldValueInvalid',
        field: 'fieldManager',
        message: `Invalid value: ${JSON.stringify(v)}: must be a printable string`,
      },
    ]);
  return v;
}

/**
 * The field manager of a write that is not an apply: `?fieldManager`, or else
 * the client's User-Agent up to its first `/` (`kubectl`), printable
 * characters only, at most 128 — upstream's managerOrUserAgent.
 */
export function updateManager(query: URLSearchParams, optionsKind: string, userAgent: string): string | undefined {
  const given = fieldManagerParam(query, optionsKind, false);
  if (given !== undefined) return given;
  const prefix = [...(userAgent.split('/')[0] ?? '')]
    // eslint-disable-next-line no-control-regex
    .filter((c) => !/[\x00-\x1f\x7f]/.test(c))
    .join('')
    .slice(0, 128);
  return prefix === '' ? undefined : prefix;
}

const POLICIES: readonly PropagationPolicy[] = ['Background', 'Foreground', 'Orphan'];

/**
 * DeleteOptions from the body (when present) or the query, as upstream reads
 * them; 422 on DeleteOptions for an unknown policy or dryRun value.
 */
export function deleteOptions(query: URLSearchParams, body: Record<string, unknown> | undefined): DeleteOptions {
  const out: DeleteOptions = {};
  const src = body ?? {};
  const grace = body ? src.gracePeriodSeconds : intParam(query, 'gracePeriodSeconds');
  const policy = body ? src.propagationPolicy : optional(query, 'propagationPolicy');
  const dryRun = body ? src.dryRun : query.getAll('dryRun');
  const orphan = body ? src.orphanDependents : boolParam(query, 'orphanDependents');
  const causes = [];
  if (grace !== undefined && grace !== null) {
    if (typeof grace !== 'number' || !Number.isInteger(grace))
      throw badRequest('json: cannot unmarshal into Go struct field DeleteOptions.gracePeriodSeconds of type int64');
    // Negative values mean one second on the delete path (rest.BeforeDelete).
    out.gracePeriodSeconds = grace < 0 ? 1 : grace;
  }
  if (policy !== undefined && policy !== null) {
    if (!POLICIES.includes(policy as PropagationPolicy)) {
      causes.push({
        reason: 'FieldValueNotSupported',
        field: 'propagationPolicy',
        message: `Unsupported value: ${JSON.stringify(policy)}: supported values: "Foreground", "Background", "Orphan", "nil"`,
      });
    } else out.propagationPolicy = policy as PropagationPolicy;
  }
  if (orphan !== undefined && orphan !== null) {
    if (out.propagationPolicy !== undefined)
      causes.push({
        reason: 'FieldValueInvalid',
        field: 'propagationPolicy',
        message:
          'Invalid value: "' + out.propagationPolicy + '": orphanDependents and deletionPropagation cannot be both set',
      });
    else out.propagationPolicy = orphan === true ? 'Orphan' : 'Background';
  }
  if (Array.isArray(dryRun) && dryRun.length > 0) {
    if (dryRun.every((v) => v === 'All')) out.dryRun = true;
    else
      causes.push({
        reason: 'FieldValueNotSupported',
        field: 'dryRun',
        message: `Unsupported value: []string{${dryRun.map((v) => JSON.stringify(v)).join(', ')}}: supported values: "All"`,
      });
  }
  const pre = src.preconditions;
  if (pre && typeof pre === 'object' && !Array.isArray(pre)) {
    const p = pre as Record<string, unknown>;
    out.preconditions = {};
    if (typeof p.uid === 'string') out.preconditions.uid = p.uid;
    if (typeof p.resourceVersion === 'string') out.preconditions.resourceVersion = p.resourceVersion;
  }
  if (causes.length > 0) throw invalidOptions('DeleteOptions', causes);
  return out;
}
