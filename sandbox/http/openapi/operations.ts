/**
 * The REST operations the HTTP API serves, one entry per path and method, in
 * the terms OpenAPI publishes them: operation ids, `x-kubernetes-action`,
 * `x-kubernetes-group-version-kind`, query parameters, request and response
 * bodies. Derived from discovery (verbs and subresources), so the documents
 * describe exactly what is served; v2.ts and v3.ts render it.
 */
import type { ResourceType } from '../../api/resources';
import type { ResourceRegistry } from '../../api/registry';
import { kindEntry } from '../../schema/schema';
import { resourceVerbs, resourcesOf, subresources } from '../discovery';
import { customDefinitionName } from './custom';
import type { Gvk, Subresource } from '../discovery';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type Action = 'get' | 'list' | 'post' | 'put' | 'patch' | 'delete' | 'deletecollection';

/** A query parameter: its type and what it does. */
export interface QueryParameter {
  name: string;
  type: 'string' | 'integer' | 'boolean';
  description: string;
}

function param(name: string, type: QueryParameter['type'], description: string): QueryParameter {
  return { name, type, description };
}

/** The description upstream gives a path parameter: the namespace's, or "name of the <Kind>". */
function pathParamDescription(name: 'namespace' | 'name', item: PathItem): string {
  return name === 'namespace'
    ? 'object name and auth scope, such as for teams and projects'
    : `name of the ${item.nameOf}`;
}

/** The media types a PATCH takes, in upstream's order. */
export const PATCH_MEDIA_TYPES: readonly string[] = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];

/** The description of each response code. */
export const CODE_TEXT: Readonly<Record<number, string>> = { 200: 'OK', 201: 'Created', 202: 'Accepted' };

/** How a document version writes a parameter's type: Swagger 2 inline (`type`), OpenAPI 3 under `schema`. */
export type ParameterType = (type: QueryParameter['type']) => Record<string, unknown>;

export function queryParameter(p: QueryParameter, typed: ParameterType): Record<string, unknown> {
  return { description: p.description, in: 'query', name: p.name, ...typed(p.type) };
}

/** A path item's parameters: its path parameters by name, then `pretty`. */
export function pathParameters(item: PathItem, typed: ParameterType): Record<string, unknown>[] {
  const params = item.pathParams.map((name) => ({
    description: pathParamDescription(name, item),
    in: 'path',
    name,
    required: true,
    ...typed('string'),
  }));
  params.sort((a, b) => (a.name < b.name ? -1 : 1));
  return [...params, queryParameter(PRETTY, typed)];
}

export const PRETTY = param('pretty', 'string', "If 'true', the output is pretty printed.");
const LIST = [
  param('allowWatchBookmarks', 'boolean', 'Ask a watch for BOOKMARK events carrying the latest resourceVersion.'),
  param('continue', 'string', 'The continue token of the previous page of a chunked list.'),
  param('fieldSelector', 'string', 'Restrict the objects returned by their fields. Defaults to everything.'),
  param('labelSelector', 'string', 'Restrict the objects returned by their labels. Defaults to everything.'),
  param(
    'limit',
    'integer',
    'The maximum number of objects in one page of a list; the rest come with the continue token.',
  ),
  param('resourceVersion', 'string', 'The resourceVersion a list or watch is served from. Defaults to the latest.'),
  param('resourceVersionMatch', 'string', 'How resourceVersion applies to a list: Exact or NotOlderThan.'),
  param('timeoutSeconds', 'integer', 'How long a list or watch call may last.'),
  param('watch', 'boolean', 'Stream the changes of the objects (ADDED, MODIFIED, DELETED) instead of listing them.'),
];
const DRY_RUN = param('dryRun', 'string', 'When All, the request is processed but nothing is persisted.');
const FIELD_MANAGER = param(
  'fieldManager',
  'string',
  'The name of the actor making the change, recorded in managedFields. Required for apply patches.',
);
const FIELD_VALIDATION = param(
  'fieldValidation',
  'string',
  'What to do with unknown or duplicate fields in the body: Ignore drops them, Warn (the default) drops them with a warning, Strict rejects the request.',
);
const FORCE = param(
  'force',
  'boolean',
  'Force an apply patch: take the fields other managers own. Must be unset for other patch types.',
);
const DELETE = [
  DRY_RUN,
  param(
    'gracePeriodSeconds',
    'integer',
    "Seconds before the object is deleted; zero deletes immediately. Defaults to the kind's own period.",
  ),
  param('orphanDependents', 'boolean', 'Deprecated: use propagationPolicy. Whether dependents are orphaned.'),
  param('propagationPolicy', 'string', 'Garbage collection of dependents: Orphan, Background or Foreground.'),
];
const WRITE = [DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION];
const LIST_NAMES = new Set([
  'continue',
  'fieldSelector',
  'labelSelector',
  'limit',
  'resourceVersion',
  'resourceVersionMatch',
  'timeoutSeconds',
]);
const DELETE_COLLECTION = [...LIST.filter((p) => LIST_NAMES.has(p.name)), ...DELETE].sort((a, b) =>
  a.name < b.name ? -1 : 1,
);
const LOG = [
  param('container', 'string', 'The container whose logs to stream. Defaults to the only container of the pod.'),
  param('follow', 'boolean', 'Keep streaming the log as it grows.'),
  param('limitBytes', 'integer', 'Stop after this many bytes of log.'),
  param('previous', 'boolean', 'The log of the previous, terminated instance of the container.'),
  param('sinceSeconds', 'integer', 'Only the log of the last seconds.'),
  param('tailLines', 'integer', 'Only the last lines of the log.'),
  param('timestamps', 'boolean', 'Prefix every line with its RFC3339 timestamp.'),
];

/** The body of a request or answer: a named definition, a patch, or text. */
export type Body = { definition: string } | { patch: true } | { text: true };

export interface Operation {
  method: Method;
  operationId: string;
  description: string;
  action: Action;
  gvk: Gvk;
  query: readonly QueryParameter[];
  request?: Body;
  response: Body;
  /** Status codes with a body, besides 401. */
  codes: readonly number[];
  /** A list that can also be watched (`?watch=true`). */
  watchable?: boolean;
}

export interface PathItem {
  path: string;
  /** Path parameters, in URL order; `name` is described as the name of `nameOf`. */
  pathParams: readonly ('namespace' | 'name')[];
  nameOf: string;
  operations: Operation[];
}

const STATUS = 'io.k8s.apimachinery.pkg.apis.meta.v1.Status';
const DELETE_OPTIONS = 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions';

/** `Core`, `Apps`, `RbacAuthorization`: the group as operation ids spell it. */
function groupWord(group: string): string {
  if (group === '') return 'Core';
  return group
    .replace(/\.k8s\.io$/, '')
    .split('.')
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join('');
}

/** The tag upstream files a group version's operations under: `core_v1`, `rbacAuthorization_v1`. */
export function tagOf(group: string, version: string): string {
  const word = groupWord(group);
  return `${word.charAt(0).toLowerCase()}${word.slice(1)}_${version}`;
}

function definitionOf(g: Gvk, r?: ResourceType): string {
  if (r?.custom !== undefined && g.group === r.group && g.version === r.version)
    return customDefinitionName(g.group, g.version, g.kind);
  const apiVersion = g.group === '' ? g.version : `${g.group}/${g.version}`;
  const entry = kindEntry(apiVersion, g.kind);
  if (entry === undefined) throw new Error(`the schema has no ${apiVersion} ${g.kind}`);
  return entry.definition;
}

function subresourceWord(s: Subresource): string {
  return s.name.charAt(0).toUpperCase() + s.name.slice(1);
}

function resourcePaths(r: ResourceType): PathItem[] {
  const prefix = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  const gv = `${groupWord(r.group)}${r.version.charAt(0).toUpperCase()}${r.version.slice(1)}`;
  const scoped = r.namespaced ? `Namespaced${r.kind}` : r.kind;
  const collection = r.namespaced ? `${prefix}/namespaces/{namespace}/${r.plural}` : `${prefix}/${r.plural}`;
  const scopeParams: ('namespace' | 'name')[] = r.namespaced ? ['namespace'] : [];
  const gvk: Gvk = { group: r.group, version: r.version, kind: r.kind };
  const object: Body = { definition: definitionOf(gvk, r) };
  const verbs = new Set(resourceVerbs(r));
  const listKind = r.custom?.listKind ?? `${r.kind}List`;
  // Create-only kinds (reviews, bindings) have no list type.
  const list: Body = verbs.has('list') ? { definition: definitionOf({ ...gvk, kind: listKind }, r) } : object;
  const items: PathItem[] = [];

  const onCollection: Operation[] = [];
  if (verbs.has('list')) {
    onCollection.push({
      method: 'get',
      operationId: `list${gv}${scoped}`,
      description: `list or watch objects of kind ${r.kind}`,
      action: 'list',
      gvk,
      query: LIST,
      response: list,
      codes: [200],
      watchable: verbs.has('watch'),
    });
  }
  if (verbs.has('create')) {
    onCollection.push({
      method: 'post',
      operationId: `create${gv}${scoped}`,
      description: `create ${article(r.kind)} ${r.kind}`,
      action: 'post',
      gvk,
      query: WRITE,
      request: object,
      response: object,
      codes: [200, 201, 202],
    });
  }
  if (verbs.has('deletecollection')) {
    onCollection.push({
      method: 'delete',
      operationId: `delete${gv}Collection${scoped}`,
      description: `delete collection of ${r.kind}`,
      action: 'deletecollection',
      gvk,
      query: DELETE_COLLECTION,
      request: { definition: DELETE_OPTIONS },
      response: { definition: STATUS },
      codes: [200],
    });
  }
  items.push({ path: collection, pathParams: scopeParams, nameOf: r.kind, operations: onCollection });

  const one: Operation[] = [];
  if (verbs.has('get'))
    one.push({
      method: 'get',
      operationId: `read${gv}${scoped}`,
      description: `read the specified ${r.kind}`,
      action: 'get',
      gvk,
      query: [],
      response: object,
      codes: [200],
    });
  if (verbs.has('update'))
    one.push({
      method: 'put',
      operationId: `replace${gv}${scoped}`,
      description: `replace the specified ${r.kind}`,
      action: 'put',
      gvk,
      query: WRITE,
      request: object,
      response: object,
      codes: [200, 201],
    });
  if (verbs.has('patch'))
    one.push({
      method: 'patch',
      operationId: `patch${gv}${scoped}`,
      description: `partially update the specified ${r.kind}`,
      action: 'patch',
      gvk,
      query: [...WRITE, FORCE],
      request: { patch: true },
      response: object,
      codes: [200, 201],
    });
  if (verbs.has('delete'))
    one.push({
      method: 'delete',
      operationId: `delete${gv}${scoped}`,
      description: `delete ${article(r.kind)} ${r.kind}`,
      action: 'delete',
      gvk,
      query: DELETE,
      request: { definition: DELETE_OPTIONS },
      response: object,
      codes: [200, 202],
    });
  items.push({ path: `${collection}/{name}`, pathParams: [...scopeParams, 'name'], nameOf: r.kind, operations: one });

  for (const s of subresources(r)) {
    const id = `${gv}${scoped}${subresourceWord(s)}`;
    const sub: Operation[] = [];
    const sVerbs = new Set(s.verbs);
    const body: Body = s.name === 'log' ? { text: true } : { definition: definitionOf(s.kind, r) };
    if (sVerbs.has('get'))
      sub.push({
        method: 'get',
        operationId: `read${id}`,
        description: `read ${s.name} of the specified ${r.kind}`,
        action: 'get',
        gvk: s.kind,
        query: s.name === 'log' ? LOG : [],
        response: body,
        codes: [200],
      });
    if (sVerbs.has('create'))
      sub.push({
        method: 'post',
        operationId: `create${id}`,
        description: `create ${s.name} of ${article(r.kind)} ${r.kind}`,
        action: 'post',
        gvk: s.kind,
        query: WRITE,
        request: body,
        response: body,
        codes: [200, 201, 202],
      });
    if (sVerbs.has('update'))
      sub.push({
        method: 'put',
        operationId: `replace${id}`,
        description: `replace ${s.name} of the specified ${r.kind}`,
        action: 'put',
        gvk: s.kind,
        query: WRITE,
        request: body,
        response: body,
        codes: [200, 201],
      });
    if (sVerbs.has('patch'))
      sub.push({
        method: 'patch',
        operationId: `patch${id}`,
        description: `partially update ${s.name} of the specified ${r.kind}`,
        action: 'patch',
        gvk: s.kind,
        query: [...WRITE, FORCE],
        request: { patch: true },
        response: body,
        codes: [200, 201],
      });
    items.push({
      path: `${collection}/{name}/${s.name}`,
      pathParams: [...scopeParams, 'name'],
      nameOf: s.name === 'log' || s.name === 'finalize' || s.name === 'status' ? r.kind : s.kind.kind,
      operations: sub,
    });
  }

  if (r.namespaced && verbs.has('list')) {
    items.push({
      path: `${prefix}/${r.plural}`,
      pathParams: [],
      nameOf: r.kind,
      operations: [
        {
          method: 'get',
          operationId: `list${gv}${r.kind}ForAllNamespaces`,
          description: `list or watch objects of kind ${r.kind}`,
          action: 'list',
          gvk,
          query: LIST,
          response: list,
          codes: [200],
          watchable: verbs.has('watch'),
        },
      ],
    });
  }
  return items;
}

function article(kind: string): string {
  return /^[AEIOU]/.test(kind) ? 'an' : 'a';
}

/** Every path the HTTP API serves for one group version, sorted as upstream serializes them. */
export function pathsOf(group: string, version: string, registry?: ResourceRegistry): PathItem[] {
  return resourcesOf(group, version, registry)
    .flatMap(resourcePaths)
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The definitions the operations of `paths` name, as roots for the schemas a document carries. */
export function definitionsUsed(paths: readonly PathItem[]): Set<string> {
  const names = new Set<string>();
  for (const p of paths) {
    for (const op of p.operations) {
      for (const b of [op.request, op.response]) if (b !== undefined && 'definition' in b) names.add(b.definition);
    }
  }
  return names;
}
