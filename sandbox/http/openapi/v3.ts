/**
 * One group version as an OpenAPI 3.0 document (`/openapi/v3/apis/apps/v1`),
 * the document kubectl reads to explain fields, to find patch strategies for
 * `kubectl apply`, and to learn that the server validates fields itself
 * (a PATCH operation of the kind with a `fieldValidation` parameter).
 */
import { versionInfo } from '../discovery';
import { PRETTY, definitionsUsed, pathParamDescription, pathsOf, tagOf } from './operations';
import type { Body, Operation, PathItem, QueryParameter } from './operations';
import { gvkExtension, refTo, schemasFor } from './schemas';
import type { JsonSchema } from './schemas';

const PATCH_TYPES = ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json'];
const CODE_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted' };

function queryParameter(p: QueryParameter): JsonSchema {
  return { description: p.description, in: 'query', name: p.name, schema: { type: p.type, uniqueItems: true } };
}

function pathParameters(item: PathItem): JsonSchema[] {
  const params: JsonSchema[] = item.pathParams.map((name) => ({
    description: pathParamDescription(name, item),
    in: 'path',
    name,
    required: true,
    schema: { type: 'string', uniqueItems: true },
  }));
  params.sort((a, b) => ((a.name as string) < (b.name as string) ? -1 : 1));
  return [...params, queryParameter(PRETTY)];
}

function content(body: Body, watchable: boolean): JsonSchema {
  if ('text' in body) return { 'text/plain': { schema: { type: 'string' } } };
  if ('patch' in body) return Object.fromEntries(PATCH_TYPES.map((t) => [t, { schema: { type: 'object' } }]));
  const schema = refTo(body.definition, 'v3');
  return { 'application/json': { schema }, ...(watchable ? { 'application/json;stream=watch': { schema } } : {}) };
}

function operation(op: Operation, tag: string): JsonSchema {
  const responses: JsonSchema = {};
  for (const code of op.codes) responses[String(code)] = { content: content(op.response, op.watchable === true), description: CODE_TEXT[code] };
  responses['401'] = { description: 'Unauthorized' };
  return {
    description: op.description,
    operationId: op.operationId,
    ...(op.query.length > 0 ? { parameters: op.query.map(queryParameter) } : {}),
    ...(op.request !== undefined ? { requestBody: { content: 'definition' in op.request ? { '*/*': { schema: refTo(op.request.definition, 'v3') } } : content(op.request, false) } } : {}),
    responses,
    tags: [tag],
    'x-kubernetes-action': op.action,
    'x-kubernetes-group-version-kind': gvkExtension(op.gvk),
  };
}

/** The OpenAPI 3.0 document of one served group version. */
export function openApiV3Document(group: string, version: string): JsonSchema {
  const items = pathsOf(group, version);
  const tag = tagOf(group, version);
  const paths: JsonSchema = {};
  for (const item of items) {
    const entry: JsonSchema = {};
    for (const op of item.operations) entry[op.method] = operation(op, tag);
    entry.parameters = pathParameters(item);
    paths[item.path] = entry;
  }
  return {
    components: {
      schemas: schemasFor(definitionsUsed(items), 'v3'),
      securitySchemes: { BearerToken: { description: 'Bearer Token authentication', in: 'header', name: 'authorization', type: 'apiKey' } },
    },
    info: { title: 'Kubernetes', version: versionInfo().gitVersion },
    openapi: '3.0.0',
    paths,
  };
}
