/**
 * One group version as an OpenAPI 3.0 document (`/openapi/v3/apis/apps/v1`),
 * the document kubectl reads to explain fields, to find patch strategies for
 * `kubectl apply`, and to learn that the server validates fields itself
 * (a PATCH operation of the kind with a `fieldValidation` parameter).
 */
import { versionInfo } from '../discovery';
import {
  CODE_TEXT,
  PATCH_MEDIA_TYPES,
  definitionsUsed,
  pathParameters,
  pathsOf,
  queryParameter,
  tagOf,
} from './operations';
import type { Body, Operation, ParameterType } from './operations';
import { gvkExtension, refTo, schemasFor } from './schemas';
import type { ResourceRegistry } from '../../api/registry';
import { resourcesOf } from '../discovery';
import { customDefinitions } from './custom';
import type { JsonSchema } from './schemas';

/** OpenAPI 3 puts a parameter's type under `schema`. */
const typed: ParameterType = (type) => ({ schema: { type, uniqueItems: true } });
const PATCH_TYPES = [...PATCH_MEDIA_TYPES].sort();

function content(body: Body, watchable: boolean): JsonSchema {
  if ('text' in body) return { 'text/plain': { schema: { type: 'string' } } };
  if ('patch' in body) return Object.fromEntries(PATCH_TYPES.map((t) => [t, { schema: { type: 'object' } }]));
  const schema = refTo(body.definition, 'v3');
  return { 'application/json': { schema }, ...(watchable ? { 'application/json;stream=watch': { schema } } : {}) };
}

function operation(op: Operation, tag: string): JsonSchema {
  const responses: JsonSchema = {};
  for (const code of op.codes)
    responses[String(code)] = { content: content(op.response, op.watchable === true), description: CODE_TEXT[code] };
  responses['401'] = { description: 'Unauthorized' };
  return {
    description: op.description,
    operationId: op.operationId,
    ...(op.query.length > 0 ? { parameters: op.query.map((p) => queryParameter(p, typed)) } : {}),
    ...(op.request !== undefined
      ? {
          requestBody: {
            content:
              'definition' in op.request
                ? { '*/*': { schema: refTo(op.request.definition, 'v3') } }
                : content(op.request, false),
          },
        }
      : {}),
    responses,
    tags: [tag],
    'x-kubernetes-action': op.action,
    'x-kubernetes-group-version-kind': gvkExtension(op.gvk),
  };
}

/** The OpenAPI 3.0 document of one served group version. */
export function openApiV3Document(group: string, version: string, registry?: ResourceRegistry): JsonSchema {
  const items = pathsOf(group, version, registry);
  const extra: Record<string, JsonSchema> = {};
  for (const r of resourcesOf(group, version, registry))
    if (r.custom !== undefined) Object.assign(extra, customDefinitions(r, 'v3'));
  const tag = tagOf(group, version);
  const paths: JsonSchema = {};
  for (const item of items) {
    const entry: JsonSchema = {};
    for (const op of item.operations) entry[op.method] = operation(op, tag);
    entry.parameters = pathParameters(item, typed);
    paths[item.path] = entry;
  }
  return {
    components: {
      schemas: schemasFor(definitionsUsed(items), 'v3', extra),
      securitySchemes: {
        BearerToken: {
          description: 'Bearer Token authentication',
          in: 'header',
          name: 'authorization',
          type: 'apiKey',
        },
      },
    },
    info: { title: 'Kubernetes', version: versionInfo().gitVersion },
    openapi: '3.0.0',
    paths,
  };
}
