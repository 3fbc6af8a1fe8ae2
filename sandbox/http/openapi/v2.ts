/**
 * Every served group version in one Swagger 2.0 document (`/openapi/v2`), the
 * format clients before OpenAPI v3 read (and kubectl's fallbacks: `explain
 * --output plaintext-openapiv2`, patch strategies when v3 fails).
 */
import { servedGroups, versionInfo } from '../discovery';
import {
  CODE_TEXT,
  PATCH_MEDIA_TYPES,
  definitionsUsed,
  pathParameters,
  pathsOf,
  queryParameter,
  tagOf,
} from './operations';
import type { Operation, ParameterType, PathItem } from './operations';
import { gvkExtension, refTo, schemasFor } from './schemas';
import type { ResourceRegistry } from '../../api/registry';
import { resourcesOf } from '../discovery';
import { customDefinitions } from './custom';
import type { JsonSchema } from './schemas';

/** Swagger 2.0 writes a parameter's type inline. */
const typed: ParameterType = (type) => ({ type, uniqueItems: true });

function operation(op: Operation, tag: string): JsonSchema {
  const parameters: JsonSchema[] = [];
  if (op.request !== undefined) {
    const schema = 'definition' in op.request ? refTo(op.request.definition, 'v2') : { type: 'object' };
    parameters.push({
      in: 'body',
      name: 'body',
      required: op.action !== 'delete' && op.action !== 'deletecollection',
      schema,
    });
  }
  parameters.push(...op.query.map((p) => queryParameter(p, typed)));
  const responses: JsonSchema = {};
  for (const code of op.codes) {
    const schema = 'definition' in op.response ? refTo(op.response.definition, 'v2') : { type: 'string' };
    responses[String(code)] = { description: CODE_TEXT[code], schema };
  }
  responses['401'] = { description: 'Unauthorized' };
  const text = 'text' in op.response;
  return {
    consumes: op.request !== undefined && 'patch' in op.request ? PATCH_MEDIA_TYPES : ['*/*'],
    description: op.description,
    operationId: op.operationId,
    ...(parameters.length > 0 ? { parameters } : {}),
    produces: text
      ? ['text/plain', 'application/json']
      : op.watchable
        ? ['application/json', 'application/json;stream=watch']
        : ['application/json'],
    responses,
    schemes: ['https'],
    tags: [tag],
    'x-kubernetes-action': op.action,
    'x-kubernetes-group-version-kind': gvkExtension(op.gvk),
  };
}

/** The Swagger 2.0 document of everything served. */
export function openApiV2Document(registry?: ResourceRegistry): JsonSchema {
  const items: { item: PathItem; tag: string }[] = [];
  const extra: Record<string, JsonSchema> = {};
  for (const g of servedGroups(registry)) {
    for (const v of g.versions) {
      for (const item of pathsOf(g.name, v, registry)) items.push({ item, tag: tagOf(g.name, v) });
      for (const r of resourcesOf(g.name, v, registry))
        if (r.custom !== undefined) Object.assign(extra, customDefinitions(r, 'v2'));
    }
  }
  items.sort((a, b) => (a.item.path < b.item.path ? -1 : a.item.path > b.item.path ? 1 : 0));
  const paths: JsonSchema = {};
  for (const { item, tag } of items) {
    const entry: JsonSchema = {};
    for (const op of item.operations) entry[op.method] = operation(op, tag);
    entry.parameters = pathParameters(item, typed);
    paths[item.path] = entry;
  }
  return {
    definitions: schemasFor(definitionsUsed(items.map((i) => i.item)), 'v2', extra),
    info: { title: 'Kubernetes', version: versionInfo().gitVersion },
    paths,
    security: [{ BearerToken: [] }],
    securityDefinitions: {
      BearerToken: { description: 'Bearer Token authentication', in: 'header', name: 'authorization', type: 'apiKey' },
    },
    swagger: '2.0',
  };
}
