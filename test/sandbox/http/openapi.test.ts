import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import { RESOURCES } from '../../../sandbox/api/registry';
import { apiVersionOf } from '../../../sandbox/api/resources';
import { defaultRegistry } from '../../../sandbox/api/registry';
import { openApiDocument } from '../../../sandbox/http/openapi/index';
import { definition, describeType, kindEntry } from '../../../sandbox/schema/schema';
import { listStrategy } from '../../../sandbox/schema/listStrategies';

type Json = Record<string, unknown>;

function get(
  path: string,
  query = '',
  accept?: string,
): { status: number; contentType: string; headers: Record<string, string>; json: Json; raw: string } {
  const res = openApiDocument(path, new URLSearchParams(query), accept);
  assert.ok(res, `${path} is an OpenAPI path`);
  const raw = res.body.toString();
  return {
    status: res.status ?? 200,
    contentType: res.contentType,
    headers: res.headers ?? {},
    json: raw === '' ? {} : (JSON.parse(raw) as Json),
    raw,
  };
}

function docKey(apiVersion: string): string {
  return apiVersion.includes('/') ? `apis/${apiVersion}` : `api/${apiVersion}`;
}

function v3(apiVersion: string): Json {
  return get(`/openapi/v3/${docKey(apiVersion)}`).json;
}

function gvkOf(apiVersion: string, kind: string): Json {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  return { group, kind, version };
}

// Every group version a 1.32 server serves: the stored kinds' and those of create-only resources (reviews) and
// older versions served by conversion (autoscaling/v1).
const servedVersions = [...new Set(defaultRegistry().list().map(apiVersionOf))];

/** Every `$ref` in a document. */
function refs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refs(v, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// A reader of OpenAPI v3 the way kubectl explain reads it (kubectl/pkg/explain/v2/templates/plaintext.tmpl).

function resolve(doc: Json, schema: Json): Json {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const name = ref.replace('#/components/schemas/', '');
  const found = (doc.components as { schemas: Record<string, Json> }).schemas[name];
  assert.ok(found, `${ref} resolves`);
  return found;
}

/** kubectl's "typeGuess". */
function typeGuess(doc: Json, schema: Json): string {
  if (schema.items) return `[]${typeGuess(doc, schema.items as Json)}`;
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object')
    return `map[string]${typeGuess(doc, schema.additionalProperties as Json)}`;
  const allOf = schema.allOf as Json[] | undefined;
  if (allOf && !schema.properties && allOf.length === 1) return typeGuess(doc, allOf[0]);
  if (typeof schema.$ref === 'string') {
    const target = resolve(doc, schema);
    if (!target.type || target.type === 'object') return schema.$ref.split('.').pop()!;
    return target.type as string;
  }
  return schema.type === 'object' || schema.type === undefined ? 'Object' : (schema.type as string);
}

/** kubectl's "description": the field's own text, then the text of what it refers to. */
function descriptions(doc: Json, schema: Json): string[] {
  const s = resolve(doc, schema);
  const out: string[] = [];
  if (typeof s.description === 'string') out.push(s.description);
  for (const sub of (s.allOf as Json[] | undefined) ?? []) out.push(...descriptions(doc, sub));
  if (s.items) out.push(...descriptions(doc, s.items as Json));
  return out;
}

interface Explained {
  type: string;
  description: string[];
  fields: { name: string; type: string; required: boolean; enum?: unknown[]; description?: string }[];
}

/**
 * `kubectl explain <kind>.<path>`: finds the kind's schema by its GVK, follows the path through properties, allOf and
 * items.
 */
function explain(doc: Json, gvk: Json, path: string[]): Explained {
  const schemas = (doc.components as { schemas: Record<string, Json> }).schemas;
  const root = Object.values(schemas).find((s) =>
    ((s['x-kubernetes-group-version-kind'] as Json[] | undefined) ?? []).some(
      (g) => JSON.stringify(g) === JSON.stringify(gvk),
    ),
  );
  assert.ok(root, `a schema has ${JSON.stringify(gvk)}`);
  let field: Json = root;
  for (const name of path) {
    let s = resolve(doc, field);
    while (!s.properties) {
      if (s.items) s = resolve(doc, s.items as Json);
      else if (s.allOf) s = resolve(doc, (s.allOf as Json[])[0]);
      else assert.fail(`no field ${name}`);
    }
    field = (s.properties as Record<string, Json>)[name];
    assert.ok(field, `field ${name}`);
  }
  let target = resolve(doc, field);
  while (!target.properties && (target.allOf || target.items))
    target = resolve(doc, target.allOf ? (target.allOf as Json[])[0] : (target.items as Json));
  const props = (target.properties as Record<string, Json> | undefined) ?? {};
  return {
    type: typeGuess(doc, field),
    description: descriptions(doc, field),
    fields: Object.entries(props).map(([name, p]) => ({
      name,
      type: typeGuess(doc, p),
      required: ((target.required as string[] | undefined) ?? []).includes(name),
      ...(p.enum ? { enum: p.enum as unknown[] } : {}),
      ...(typeof p.description === 'string' ? { description: p.description } : {}),
    })),
  };
}

describe('OpenAPI v3 index', () => {
  test('lists every served group version at a URL carrying the sha512 of its document', () => {
    const index = get('/openapi/v3');
    assert.equal(index.contentType, 'application/json');
    const paths = index.json.paths as Record<string, { serverRelativeURL: string }>;
    assert.deepEqual(new Set(Object.keys(paths)), new Set(servedVersions.map(docKey)));
    for (const [key, { serverRelativeURL }] of Object.entries(paths)) {
      const url = new URL(serverRelativeURL, 'http://x');
      assert.equal(url.pathname, `/openapi/v3/${key}`);
      const hash = url.searchParams.get('hash')!;
      const doc = get(url.pathname, url.search);
      assert.equal(hash, createHash('sha512').update(doc.raw).digest('hex').toUpperCase());
      assert.equal(doc.headers.ETag, `"${hash}"`);
    }
    assert.match(index.headers.ETag ?? '', /^"[0-9A-F]{128}"$/);
  });

  test('the current hash may be cached for good; a stale one redirects to the current URL', () => {
    const current = new URL(
      (get('/openapi/v3').json.paths as Record<string, { serverRelativeURL: string }>)[
        'apis/apps/v1'
      ].serverRelativeURL,
      'http://x',
    );
    const fresh = get(current.pathname, current.search);
    assert.equal(fresh.status, 200);
    assert.match(fresh.headers['Cache-Control'] ?? '', /immutable/);
    const stale = get(current.pathname, 'hash=0123');
    assert.equal(stale.status, 301);
    assert.equal(stale.headers.Location, `${current.pathname}${current.search}`);
    const unhashed = get(current.pathname);
    assert.equal(unhashed.status, 200);
    assert.equal(unhashed.headers['Cache-Control'], undefined);
  });

  test('JSON only: protobuf-only requests get 406; unknown group versions are not OpenAPI paths', () => {
    assert.equal(
      get('/openapi/v3/api/v1', '', 'application/com.github.proto-openapi.spec.v3.v1.0+protobuf').status,
      406,
    );
    assert.equal(get('/openapi/v3/api/v1', '', 'application/json').status, 200);
    assert.equal(get('/openapi/v3/api/v1', '', '*/*').status, 200);
    assert.equal(openApiDocument('/openapi/v3/apis/apps/v2', new URLSearchParams()), undefined);
    assert.equal(openApiDocument('/openapi/v3/apis/example.com/v1', new URLSearchParams()), undefined);
    assert.equal(openApiDocument('/apis/apps/v1', new URLSearchParams()), undefined);
  });
});

describe('OpenAPI v3 documents', () => {
  test('every served kind has its schema, found by x-kubernetes-group-version-kind, and every $ref resolves', () => {
    for (const gv of servedVersions) {
      const doc = v3(gv);
      assert.equal(doc.openapi, '3.0.0');
      const schemas = (doc.components as { schemas: Record<string, Json> }).schemas;
      for (const r of RESOURCES.filter((x) => apiVersionOf(x) === gv)) {
        const name = kindEntry(gv, r.kind)!.definition;
        assert.deepEqual(schemas[name]?.['x-kubernetes-group-version-kind'], [gvkOf(gv, r.kind)], `${gv} ${r.kind}`);
        assert.ok(schemas[kindEntry(gv, `${r.kind}List`)!.definition], `${r.kind}List`);
      }
      for (const ref of refs(doc))
        assert.ok(
          ref.startsWith('#/components/schemas/') && schemas[ref.slice('#/components/schemas/'.length)],
          `${gv}: ${ref}`,
        );
    }
  });

  test('every PATCH operation of a kind takes fieldValidation, dryRun and a strategic merge patch (what kubectl checks)', () => {
    for (const gv of servedVersions) {
      const paths = v3(gv).paths as Record<string, Record<string, Json>>;
      for (const r of RESOURCES.filter((x) => apiVersionOf(x) === gv)) {
        const patches = Object.values(paths)
          .map((p) => p.patch)
          .filter(
            (op) =>
              op !== undefined &&
              JSON.stringify(op['x-kubernetes-group-version-kind']) === JSON.stringify(gvkOf(gv, r.kind)),
          );
        assert.ok(patches.length >= 1, `${r.kind} has a PATCH operation`);
        for (const op of patches) {
          const names = (op.parameters as { name: string }[]).map((p) => p.name);
          assert.ok(
            names.includes('fieldValidation') && names.includes('dryRun') && names.includes('fieldManager'),
            `${r.kind} PATCH parameters`,
          );
          const content = (op.requestBody as { content: Json }).content;
          assert.ok(
            'application/strategic-merge-patch+json' in content &&
              'application/merge-patch+json' in content &&
              'application/json-patch+json' in content,
          );
          assert.equal(op['x-kubernetes-action'], 'patch');
        }
      }
    }
  });

  test('write operations carry dryRun and fieldValidation; each operation names its action and kind', () => {
    const paths = v3('apps/v1').paths as Record<string, Record<string, Json>>;
    const collection = paths['/apis/apps/v1/namespaces/{namespace}/deployments'];
    const item = paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'];
    const names = (op: Json): string[] => ((op.parameters as { name: string }[] | undefined) ?? []).map((p) => p.name);
    assert.deepEqual(names(collection.post), ['dryRun', 'fieldManager', 'fieldValidation']);
    assert.deepEqual(names(item.put), ['dryRun', 'fieldManager', 'fieldValidation']);
    assert.ok(names(item.delete).includes('dryRun') && names(item.delete).includes('propagationPolicy'));
    assert.ok(names(collection.get).includes('watch') && names(collection.get).includes('labelSelector'));
    assert.deepEqual(
      Object.fromEntries(
        Object.entries(collection)
          .filter(([k]) => k !== 'parameters')
          .map(([m, op]) => [m, (op as Json)['x-kubernetes-action']]),
      ),
      { get: 'list', post: 'post', delete: 'deletecollection' },
    );
    const scale = paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale'];
    assert.deepEqual(scale.patch['x-kubernetes-group-version-kind'], {
      group: 'autoscaling',
      kind: 'Scale',
      version: 'v1',
    });
    assert.ok((v3('apps/v1').components as { schemas: Json }).schemas['io.k8s.api.autoscaling.v1.Scale' as keyof Json]);
    const core = v3('v1').paths as Record<string, Record<string, Json>>;
    assert.deepEqual(
      core['/api/v1/namespaces/{namespace}/pods/{name}/eviction'].post['x-kubernetes-group-version-kind'],
      { group: 'policy', kind: 'Eviction', version: 'v1' },
    );
    assert.deepEqual(
      Object.keys(
        (core['/api/v1/namespaces/{namespace}/pods/{name}/log'].get.responses as Record<string, { content?: Json }>)[
          '200'
        ].content!,
      ),
      ['text/plain'],
    );
    assert.equal(core['/api/v1/namespaces/{namespace}/pods/{name}/exec'], undefined);
  });

  test('patch strategies, merge keys and list types come from listStrategies', () => {
    const schemas = (v3('v1').components as { schemas: Record<string, Json> }).schemas;
    const containers = (schemas['io.k8s.api.core.v1.PodSpec'].properties as Record<string, Json>).containers;
    const s = listStrategy('io.k8s.api.core.v1.PodSpec', 'containers')!;
    assert.equal(containers['x-kubernetes-patch-merge-key'], 'name');
    assert.equal(containers['x-kubernetes-patch-strategy'], s.patchStrategy);
    assert.equal(containers['x-kubernetes-list-type'], s.listType);
    assert.deepEqual(containers['x-kubernetes-list-map-keys'], s.listMapKeys);
    const strategy = (
      (v3('apps/v1').components as { schemas: Record<string, Json> }).schemas['io.k8s.api.apps.v1.DeploymentSpec']
        .properties as Record<string, Json>
    ).strategy;
    assert.equal(strategy['x-kubernetes-patch-strategy'], 'retainKeys');
    // A field without a strategy has none.
    assert.equal(
      (schemas['io.k8s.api.core.v1.Container'].properties as Record<string, Json>).image['x-kubernetes-patch-strategy'],
      undefined,
    );
  });

  test('kubectl explain deployment.spec.strategy reads the schema’s descriptions, types and enums', () => {
    const got = explain(v3('apps/v1'), gvkOf('apps/v1', 'Deployment'), ['spec', 'strategy']);
    const spec = definition('io.k8s.api.apps.v1.DeploymentSpec')!;
    const strategy = definition('io.k8s.api.apps.v1.DeploymentStrategy')!;
    assert.equal(got.type, describeType(spec.properties.strategy.type));
    assert.deepEqual(got.description, [spec.properties.strategy.description, strategy.description]);
    assert.deepEqual(
      got.fields,
      Object.entries(strategy.properties).map(([name, p]) => ({
        name,
        type: describeType(p.type),
        required: strategy.required.includes(name),
        ...(p.type.kind === 'string' && p.type.enum ? { enum: [...p.type.enum] } : {}),
        description: p.description,
      })),
    );
    assert.deepEqual(got.fields.find((f) => f.name === 'type')?.enum, ['Recreate', 'RollingUpdate']);
  });

  test('kubectl’s type names: IntOrString, Quantity, timestamps as string, lists and maps', () => {
    const apps = v3('apps/v1');
    const rolling = explain(apps, gvkOf('apps/v1', 'Deployment'), ['spec', 'strategy', 'rollingUpdate']);
    assert.deepEqual(
      rolling.fields.map((f) => [f.name, f.type]),
      [
        ['maxSurge', 'IntOrString'],
        ['maxUnavailable', 'IntOrString'],
      ],
    );
    const core = v3('v1');
    assert.equal(
      explain(core, gvkOf('v1', 'Pod'), ['spec', 'containers', 'resources', 'limits']).type,
      'map[string]Quantity',
    );
    assert.equal(explain(core, gvkOf('v1', 'Pod'), ['metadata', 'creationTimestamp']).type, 'string');
    assert.equal(explain(core, gvkOf('v1', 'Pod'), ['spec', 'containers']).type, '[]Container');
    assert.equal(explain(core, gvkOf('v1', 'Pod'), ['metadata', 'labels']).type, 'map[string]string');
    const containers = explain(core, gvkOf('v1', 'Pod'), ['spec', 'containers']);
    assert.deepEqual(
      containers.fields.filter((f) => f.required).map((f) => f.name),
      definition('io.k8s.api.core.v1.Container')!.required,
    );
  });

  test('apiVersion and kind of a kind are documented (TypeMeta)', () => {
    const pod = explain(v3('v1'), gvkOf('v1', 'Pod'), []);
    const status = definition('io.k8s.apimachinery.pkg.apis.meta.v1.Status')!;
    assert.equal(
      pod.fields.find((f) => f.name === 'apiVersion')?.description,
      status.properties.apiVersion.description,
    );
    assert.equal(pod.fields.find((f) => f.name === 'kind')?.description, status.properties.kind.description);
    assert.match(status.properties.apiVersion.description ?? '', /^APIVersion defines the versioned schema/);
  });
});

describe('OpenAPI v2', () => {
  test('Swagger 2.0 JSON with every served kind, resolvable refs and fieldValidation on PATCH', () => {
    const res = get('/openapi/v2', '', 'application/json');
    assert.equal(res.status, 200);
    assert.match(res.headers.ETag ?? '', /^"[0-9A-F]{128}"$/);
    const doc = res.json;
    assert.equal(doc.swagger, '2.0');
    const defs = doc.definitions as Record<string, Json>;
    for (const ref of refs(doc))
      assert.ok(ref.startsWith('#/definitions/') && defs[ref.slice('#/definitions/'.length)], ref);
    const paths = doc.paths as Record<string, Record<string, Json>>;
    for (const r of RESOURCES) {
      const gv = apiVersionOf(r);
      assert.deepEqual(defs[kindEntry(gv, r.kind)!.definition]['x-kubernetes-group-version-kind'], [gvkOf(gv, r.kind)]);
      // QueryParamVerifier (v2): the first PATCH with the kind's GVK must list fieldValidation.
      const patch = Object.values(paths).find(
        (p) =>
          p.patch && JSON.stringify(p.patch['x-kubernetes-group-version-kind']) === JSON.stringify(gvkOf(gv, r.kind)),
      )?.patch;
      assert.ok(patch, `${gv} ${r.kind} PATCH`);
      assert.ok(
        (patch.parameters as { name: string; in: string }[]).some(
          (p) => p.name === 'fieldValidation' && p.in === 'query',
        ),
      );
      assert.ok((patch.consumes as string[]).includes('application/strategic-merge-patch+json'));
    }
    const intOrString = defs['io.k8s.apimachinery.pkg.util.intstr.IntOrString'];
    assert.deepEqual(intOrString, { type: 'string', format: 'int-or-string' });
  });

  test('negotiation: JSON for */* and JSON, protobuf when only protobuf is accepted, 406 otherwise', () => {
    assert.equal(openApiDocument('/openapi/v2', new URLSearchParams())?.contentType, 'application/json');
    assert.equal(
      openApiDocument('/openapi/v2', new URLSearchParams(), 'application/json, */*')?.contentType,
      'application/json',
    );
    for (const accept of [
      'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
      'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
    ]) {
      assert.equal(
        openApiDocument('/openapi/v2', new URLSearchParams(), accept)?.contentType,
        'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
      );
    }
    assert.equal(
      openApiDocument('/openapi/v2', new URLSearchParams(), 'application/vnd.kubernetes.protobuf')?.status,
      406,
    );
  });

  test('the protobuf (what client-go downloads) carries the same definitions, kinds and PATCH parameters', () => {
    const json = get('/openapi/v2').json;
    const res = openApiDocument(
      '/openapi/v2',
      new URLSearchParams(),
      'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
    )!;
    const doc = decode(res.body as Buffer);
    assert.equal(text(doc, 1), '2.0');
    const definitions = messages(messages(doc, 9)[0], 1);
    assert.deepEqual(
      definitions.map((d) => text(d, 1)),
      Object.keys(json.definitions as Json),
    );
    // Vendor extensions are YAML (kubectl yaml-unmarshals them).
    const deployment = definitions.find((d) => text(d, 1) === 'io.k8s.api.apps.v1.Deployment')!;
    const ext = messages(messages(deployment, 2)[0], 31).map((e) => [
      text(e, 1),
      parseYaml(text(messages(e, 2)[0], 2)!),
    ]);
    assert.deepEqual(ext, [
      ['x-kubernetes-group-version-kind', [{ group: 'apps', kind: 'Deployment', version: 'v1' }]],
    ]);
    // QueryParamVerifier (v2): paths → patch → parameters → non-body → query → name.
    const item = messages(messages(doc, 8)[0], 2).find(
      (p) => text(p, 1) === '/apis/apps/v1/namespaces/{namespace}/deployments/{name}',
    )!;
    const patch = messages(messages(item, 2)[0], 8)[0];
    const queryNames = messages(patch, 8)
      .map((p) => messages(messages(p, 1)[0], 2)[0])
      .filter(Boolean)
      .map((nb) => text(messages(nb, 3)[0], 4));
    assert.deepEqual(queryNames, ['dryRun', 'fieldManager', 'fieldValidation', 'force']);
    const patchGvk = messages(patch, 13).find((e) => text(e, 1) === 'x-kubernetes-group-version-kind')!;
    assert.deepEqual(parseYaml(text(messages(patchGvk, 2)[0], 2)!), {
      group: 'apps',
      kind: 'Deployment',
      version: 'v1',
    });
    assert.ok(strings(patch, 7).includes('application/strategic-merge-patch+json'));
    // A property with a merge key keeps it.
    const podSpec = definitions.find((d) => text(d, 1) === 'io.k8s.api.core.v1.PodSpec')!;
    const containers = messages(messages(messages(podSpec, 2)[0], 25)[0], 1).find((p) => text(p, 1) === 'containers')!;
    const containerExt = Object.fromEntries(
      messages(messages(containers, 2)[0], 31).map((e) => [text(e, 1), parseYaml(text(messages(e, 2)[0], 2)!)]),
    );
    assert.equal(containerExt['x-kubernetes-patch-merge-key'], 'name');
  });
});

// A protobuf wire-format reader, enough to check the encoding: fields by number.
type Fields = Map<number, (Buffer | number)[]>;

function decode(buf: Buffer): Fields {
  const fields: Fields = new Map();
  let i = 0;
  const varint = (): number => {
    let result = 0;
    let scale = 1;
    for (;;) {
      const b = buf[i++];
      result += (b & 0x7f) * scale;
      if ((b & 0x80) === 0) return result;
      scale *= 128;
    }
  };
  while (i < buf.length) {
    const key = varint();
    const field = Math.floor(key / 8);
    const wire = key % 8;
    let value: Buffer | number;
    if (wire === 0) value = varint();
    else if (wire === 2) {
      const len = varint();
      value = buf.subarray(i, i + len);
      i += len;
    } else if (wire === 1) {
      value = buf.subarray(i, i + 8);
      i += 8;
    } else if (wire === 5) {
      value = buf.subarray(i, i + 4);
      i += 4;
    } else throw new Error(`wire type ${wire}`);
    fields.set(field, [...(fields.get(field) ?? []), value]);
  }
  return fields;
}

function messages(m: Fields, field: number): Fields[] {
  return (m.get(field) ?? []).map((v) => decode(v as Buffer));
}

function strings(m: Fields, field: number): string[] {
  return (m.get(field) ?? []).map((v) => (v as Buffer).toString('utf8'));
}

function text(m: Fields, field: number): string | undefined {
  return strings(m, field)[0];
}
