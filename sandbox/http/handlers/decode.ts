/**
 * Turning a request body into the object a write handler passes on: decoded
 * by Content-Type, `apiVersion` and `kind` filled from the URL when missing
 * and checked when present (upstream's wording for either mismatch), and
 * values of the wrong JSON type refused. Field validation (unknown and
 * duplicate fields, nulls) is the API server's, on every write.
 */
import { badRequest } from '../../api/errors';
import type { KubeObject } from '../../api/types';
import { parseApiVersion } from '../../api/types';
import { decodeObjectBody } from '../body';
import type { RequestContext } from '../context';
import { typeMismatch } from '../../schema/typeCheck';
import { keysAsWritten, recordKeyOrder } from '../../util/keyOrder';

/**
 * The type a body must be: `apps/v1` Deployment, `autoscaling/v1` Scale, … (`also` lists other accepted apiVersions).
 */
export interface BodyType {
  apiVersion: string;
  kind: string;
  also?: readonly string[];
}

/**
 * Drops `null` members, as decoding into Go structs reads them as zero values:
 * Go clients send `"creationTimestamp": null` and the like in every object.
 */
function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = dropNulls(v);
  return out;
}

/**
 * Reads and decodes a body of `type`, filling and checking its apiVersion and kind. `keepNulls`: for object writes,
 * whose nulls the API server decodes as Go does; other bodies (Scale, Eviction, Binding…) lose them here.
 */
export async function decodeTyped(ctx: RequestContext, type: BodyType, keepNulls = false): Promise<KubeObject> {
  const body = decodeObjectBody(await ctx.body(), ctx.req.headers['content-type'], type.kind);
  const raw = (keepNulls ? body : dropNulls(body)) as Record<string, unknown>;
  const apiVersion: unknown =
    raw.apiVersion === undefined || raw.apiVersion === null || raw.apiVersion === '' ? type.apiVersion : raw.apiVersion;
  const kind = raw.kind === undefined || raw.kind === null || raw.kind === '' ? type.kind : raw.kind;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') {
    throw badRequest(
      `the object provided is unrecognized (must be of type ${type.kind}): couldn't get version/kind; json parse error: json: cannot unmarshal ${typeof (typeof apiVersion !== 'string' ? apiVersion : kind)} into Go struct field .${typeof apiVersion !== 'string' ? 'apiVersion' : 'kind'} of type string`,
    );
  }
  if (kind !== type.kind) {
    throw badRequest(
      `${kind} in version "${parseApiVersion(apiVersion).version}" cannot be handled as a ${type.kind}: the kind of the object (${kind}) does not match the kind of the URL (${type.kind})`,
    );
  }
  if (apiVersion !== type.apiVersion && !(type.also ?? []).includes(apiVersion)) {
    throw badRequest(
      `the API version in the data (${apiVersion}) does not match the expected API version (${type.apiVersion})`,
    );
  }
  checkBodyTypes(raw, apiVersion, kind, type.kind);
  // apiVersion and kind first, as upstream encodes them; keys written twice stay known to field validation.
  const { apiVersion: _apiVersion, kind: _kind, ...rest } = raw;
  const out = { apiVersion: type.apiVersion, kind, ...rest };
  const written = keysAsWritten(raw);
  if (written.length > Object.keys(raw).length) recordKeyOrder(out, written);
  return out as KubeObject;
}

/**
 * 400 when a field's value has the wrong JSON type for `apiVersion`/`kind`, in
 * the words of upstream's decoding: `Deployment in version "v1" cannot be
 * handled as a Deployment: json: cannot unmarshal string into Go struct field
 * DeploymentSpec.spec.replicas of type int32`. Also for patched objects.
 */
export function checkBodyTypes(
  obj: Readonly<Record<string, unknown>>,
  apiVersion: string,
  kind: string,
  urlKind = kind,
): void {
  const reason = typeMismatch(obj, apiVersion, kind);
  if (reason !== undefined)
    throw badRequest(
      `${kind} in version "${parseApiVersion(apiVersion).version}" cannot be handled as a ${urlKind}: ${reason}`,
    );
}

/** 400 unless the body names the object of the URL (upstream's checkName). */
export function checkName(obj: KubeObject, name: string, namespace: string | undefined): void {
  const objName = obj.metadata?.name ?? '';
  if (objName !== name)
    throw badRequest(`the name of the object (${objName}) does not match the name on the URL (${name})`);
  const objNs = obj.metadata?.namespace;
  if (namespace && objNs && objNs !== namespace)
    throw badRequest(`the namespace of the object (${objNs}) does not match the namespace on the URL (${namespace})`);
}
