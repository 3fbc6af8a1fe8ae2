/**
 * Converts our generated Kubernetes schema (server/src/schema/types.ts) into
 * a JSON Schema draft-07 document for yaml-language-server: one `oneOf`
 * branch per kind, keyed on `apiVersion`/`kind` constants, every object
 * strict (`additionalProperties: false`) as our validator is, so both servers
 * judge the same documents by the same source.
 */
import type { Definition, KubeSchema, SchemaType } from '../../server/src/schema/types';

type Json = Record<string, unknown>;

/** The JSON Schema (draft-07) equivalent of `schema`. */
export function toJsonSchema(schema: KubeSchema): Json {
  const definitions: Record<string, Json> = {};
  for (const [name, def] of Object.entries(schema.definitions)) definitions[name] = definition(def);
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: `Kubernetes (${schema.source})`,
    definitions,
    oneOf: schema.kinds.map((k) => ({
      allOf: [
        { $ref: `#/definitions/${k.definition}` },
        {
          properties: { apiVersion: { const: k.apiVersion }, kind: { const: k.kind } },
          required: ['apiVersion', 'kind'],
        },
      ],
    })),
  };
}

function definition(def: Definition): Json {
  const properties: Record<string, Json> = {};
  for (const [key, prop] of Object.entries(def.properties)) {
    properties[key] =
      prop.description === undefined ? type(prop.type) : { ...type(prop.type), description: prop.description };
  }
  const out: Json = { type: 'object', title: def.title, properties, additionalProperties: false };
  if (def.description !== undefined) out.description = def.description;
  if (def.required.length > 0) out.required = [...def.required];
  return out;
}

function type(t: SchemaType): Json {
  switch (t.kind) {
    case 'string':
      return t.enum === undefined ? { type: 'string' } : { type: 'string', enum: [...t.enum] };
    case 'integer':
    case 'number':
    case 'boolean':
      return { type: t.kind };
    case 'intOrString':
      return { type: ['integer', 'string'] };
    case 'quantity':
      return { type: ['string', 'number'] };
    case 'any':
      return {};
    case 'array':
      return { type: 'array', items: type(t.items) };
    case 'map':
      return { type: 'object', additionalProperties: type(t.values) };
    case 'ref':
      return { $ref: `#/definitions/${t.name}` };
  }
}
