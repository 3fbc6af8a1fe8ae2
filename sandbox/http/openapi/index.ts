/**
 * `/openapi/v2` and `/openapi/v3[/…]` as kube-apiserver serves them: the v3
 * index lists each group version's document at a URL carrying its hash;
 * a document requested with its current hash may be cached for good, one
 * requested with a stale hash redirects to the current one, and every answer
 * carries an ETag. Documents are built on first request and kept (the schema
 * and the served kinds never change while the process runs). v3 documents are
 * JSON; `/openapi/v2` is JSON or gnostic's protobuf, which is how client-go
 * asks for it.
 */
import { createHash } from 'node:crypto';
import { acceptedMediaRanges, servedGroups } from '../discovery';
import { defaultRegistry } from '../../api/registry';
import type { ResourceRegistry } from '../../api/registry';
import { swaggerToProtobuf } from './protobuf';
import { openApiV2Document } from './v2';
import { openApiV3Document } from './v3';

/** What the HTTP layer sends: status (200 when absent), headers (ETag, Cache-Control, Location, Vary) and body. */
export interface OpenApiResponse {
  status?: number;
  contentType: string;
  body: string | Buffer;
  headers?: Record<string, string>;
}

interface Built {
  body: Buffer;
  /** sha512 of the body, upper-case hex, as upstream's hash and ETag. */
  hash: string;
}

const builtByRegistry = new WeakMap<ResourceRegistry, { generation: number; built: Map<string, Built> }>();
let current: ResourceRegistry = defaultRegistry();

/** The documents built for the registry being served, forgotten when it changes (a CRD came or went). */
function builtFor(registry: ResourceRegistry): Map<string, Built> {
  let m = builtByRegistry.get(registry);
  if (m === undefined || m.generation !== registry.generation) {
    m = { generation: registry.generation, built: new Map() };
    builtByRegistry.set(registry, m);
  }
  return m.built;
}

function build(
  key: string,
  make: () => unknown,
  encode: (doc: unknown) => Buffer = (doc) => Buffer.from(JSON.stringify(doc)),
): Built {
  const built = builtFor(current);
  let b = built.get(key);
  if (b === undefined) {
    const body = encode(make());
    b = { body, hash: createHash('sha512').update(body).digest('hex').toUpperCase() };
    built.set(key, b);
  }
  return b;
}

/** The media types of `/openapi/v2`: gnostic's protobuf (both spellings kube-openapi accepts). */
const V2_PROTOBUF = new Set([
  'com.github.proto-openapi.spec.v2@v1.0+protobuf',
  'com.github.proto-openapi.spec.v2.v1.0+protobuf',
]);
const V2_PROTOBUF_CONTENT_TYPE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/** For each range in the client's order of preference: JSON first when both fit (`*\/*`), as kube-openapi does. */
function v2Format(accept: string | undefined): 'json' | 'protobuf' | undefined {
  for (const r of acceptedMediaRanges(accept)) {
    if (r.type === '*' && r.subtype === '*') return 'json';
    if (r.type !== 'application') continue;
    if (r.subtype === 'json' || r.subtype === '*') return 'json';
    if (V2_PROTOBUF.has(r.subtype)) return 'protobuf';
  }
  return undefined;
}

/** `api/v1`, `apis/apps/v1`: the index keys of every served group version. */
function groupVersionKeys(): { key: string; group: string; version: string }[] {
  return servedGroups(current).flatMap((g) =>
    g.versions.map((version) => ({
      key: g.name === '' ? `api/${version}` : `apis/${g.name}/${version}`,
      group: g.name,
      version,
    })),
  );
}

function v3Built(group: string, version: string): Built {
  const registry = current;
  return build(`v3:${group}/${version}`, () => openApiV3Document(group, version, registry));
}

function serverRelativeURL(key: string, hash: string): string {
  return `/openapi/v3/${key}?hash=${hash}`;
}

function acceptsJson(accept: string | undefined): boolean {
  return acceptedMediaRanges(accept).some(
    (r) =>
      (r.type === '*' && r.subtype === '*') ||
      (r.type === 'application' && (r.subtype === 'json' || r.subtype === '*')),
  );
}

const NOT_ACCEPTABLE: OpenApiResponse = {
  status: 406,
  contentType: 'text/plain; charset=utf-8',
  body: '',
  headers: { Vary: 'Accept' },
};

function json(b: Built, headers: Record<string, string> = {}): OpenApiResponse {
  return { contentType: 'application/json', body: b.body, headers: { ETag: `"${b.hash}"`, ...headers } };
}

/**
 * The OpenAPI answer for `path`, or undefined when `path` is not an OpenAPI
 * document (an unknown group version included: the caller answers 404).
 * `accept` is the request's Accept header (absent: anything).
 */
export function openApiDocument(
  path: string,
  query: URLSearchParams,
  accept?: string,
  registry: ResourceRegistry = defaultRegistry(),
): OpenApiResponse | undefined {
  current = registry;
  if (path === '/openapi/v2') {
    const format = v2Format(accept);
    if (format === undefined) return NOT_ACCEPTABLE;
    const v2 = () => openApiV2Document(registry);
    if (format === 'json') return json(build('v2', v2), { Vary: 'Accept' });
    const pb = build('v2-protobuf', v2, (doc) => swaggerToProtobuf(doc as ReturnType<typeof openApiV2Document>));
    return { contentType: V2_PROTOBUF_CONTENT_TYPE, body: pb.body, headers: { ETag: `"${pb.hash}"`, Vary: 'Accept' } };
  }
  if (path === '/openapi/v3') {
    const index = build('v3-index', () => ({
      paths: Object.fromEntries(
        groupVersionKeys().map((gv) => [
          gv.key,
          { serverRelativeURL: serverRelativeURL(gv.key, v3Built(gv.group, gv.version).hash) },
        ]),
      ),
    }));
    return json(index);
  }
  if (!path.startsWith('/openapi/v3/')) return undefined;
  const key = path.slice('/openapi/v3/'.length);
  const gv = groupVersionKeys().find((g) => g.key === key);
  if (gv === undefined) return undefined;
  if (!acceptsJson(accept)) return NOT_ACCEPTABLE;
  const doc = v3Built(gv.group, gv.version);
  const hash = query.get('hash');
  if (hash !== null && hash !== '' && hash !== doc.hash) {
    return {
      status: 301,
      contentType: 'text/plain; charset=utf-8',
      body: '',
      headers: { Location: serverRelativeURL(key, doc.hash), Vary: 'Accept' },
    };
  }
  // With the current hash the URL names this exact content: clients may keep it as long as they like.
  return json(
    doc,
    hash === doc.hash ? { Vary: 'Accept', 'Cache-Control': 'public, immutable, max-age=31536000' } : { Vary: 'Accept' },
  );
}
