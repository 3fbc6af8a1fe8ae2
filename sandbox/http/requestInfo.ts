/**
 * What a resource URL asks for, parsed the way kube-apiserver's RequestInfo
 * does (staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go):
 * `/api/v1/…` or `/apis/<group>/<version>/…`, then an optional legacy
 * `watch/`, then `namespaces/<ns>/<plural>[/<name>[/<subresource>]]` or
 * `<plural>[/<name>[/<subresource>]]`. The verb comes from the method, the
 * presence of a name and `?watch`.
 */
import { methodNotAllowed, resourceNotFound } from '../api/errors';
import type { ResourceType } from '../api/resources';
import { defaultRegistry } from '../api/registry';
import type { ResourceRegistry } from '../api/registry';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export interface ResourceRequest {
  verb: Verb;
  resource: ResourceType;
  /** The request's namespace; undefined for cluster-scoped kinds and for lists across all namespaces. */
  namespace?: string;
  name?: string;
  subresource?: string;
}

/** Path segments of the namespace object itself that are subresources, not kinds (`namespaces/<n>/status`). */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

const TRUE_VALUES = new Set(['1', 't', 'T', 'true', 'TRUE', 'True']);

/** Go's strconv.ParseBool truth, as `?watch=1` and `?watch=true` are read upstream. */
export function isTrue(value: string | null): boolean {
  return value !== null && TRUE_VALUES.has(value);
}

/** `/api`, `/apis`, `/api/v1`, `/apis/<g>`, `/apis/<g>/<v>`: the paths discovery answers. */
export function isDiscoveryPath(path: string): boolean {
  const parts = splitPath(path);
  if (parts === undefined) return false;
  if (parts[0] === 'api') return parts.length <= 2;
  if (parts[0] === 'apis') return parts.length <= 3;
  return false;
}

/** Path segments with `%xx` decoded; undefined for an empty segment or bad escape (nothing routes there). */
function splitPath(path: string): string[] | undefined {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  if (trimmed === '') return [];
  const parts = trimmed.split('/');
  try {
    const decoded = parts.map((p) => decodeURIComponent(p));
    return decoded.some((p) => p === '') ? undefined : decoded;
  } catch {
    return undefined;
  }
}

/**
 * Parses a resource request. 404 (`the server could not find the requested
 * resource`) for anything that does not name a served kind in a valid scope;
 * 405 for a method no route of that path takes.
 */
export function parseResourceRequest(
  method: string,
  path: string,
  query: URLSearchParams,
  registry: ResourceRegistry = defaultRegistry(),
): ResourceRequest {
  const parts = splitPath(path);
  if (parts === undefined) throw resourceNotFound();
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 3) {
    group = '';
    version = parts[1];
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1];
    version = parts[2];
    rest = parts.slice(3);
  } else {
    throw resourceNotFound();
  }
  let legacyWatch = false;
  if (rest[0] === 'watch') {
    legacyWatch = true;
    rest = rest.slice(1);
  }
  let namespace: string | undefined;
  let inNamespace = false;
  if (rest[0] === 'namespaces' && rest.length > 1) {
    namespace = rest[1];
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2])) {
      rest = rest.slice(2);
      inNamespace = true;
    }
  }
  if (rest.length === 0 || rest.length > 3) throw resourceNotFound();
  const [plural, name, subresource] = rest;
  const resource = registry.forPlural(group, version, plural);
  if (!resource) throw resourceNotFound();

  if (resource.namespaced ? namespace === undefined && name !== undefined : inNamespace) throw resourceNotFound();
  if (!resource.namespaced) namespace = undefined;
  if (legacyWatch && (method !== 'GET' || subresource !== undefined)) throw resourceNotFound();

  const verb = verbFor(method, name !== undefined, legacyWatch || (name === undefined && isTrue(query.get('watch'))));
  if (resource.namespaced && namespace === undefined && verb !== 'list' && verb !== 'watch') throw methodNotAllowed();
  const out: ResourceRequest = { verb, resource };
  if (namespace !== undefined) out.namespace = namespace;
  if (name !== undefined) out.name = name;
  if (subresource !== undefined) out.subresource = subresource;
  return out;
}

function verbFor(method: string, named: boolean, watch: boolean): Verb {
  switch (method) {
    case 'GET':
      if (watch) return 'watch';
      return named ? 'get' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return named ? 'delete' : 'deletecollection';
    default:
      throw methodNotAllowed();
  }
}
