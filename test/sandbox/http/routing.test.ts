import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { configMap, serve } from './helpers';
import type { Served } from './helpers';

describe('HTTP API routing and authentication', () => {
  let s: Served;
  before(async () => {
    s = await serve();
  });
  after(() => s.close());

  it('answers health checks without a token', async () => {
    for (const path of ['/healthz', '/livez', '/readyz', '/readyz/ping']) {
      const r = await s.request('GET', path, { token: null });
      assert.equal(r.status, 200, path);
      assert.equal(r.text, 'ok');
    }
  });

  it('refuses anything else without the right bearer token: 401 Unauthorized', async () => {
    for (const token of [null, 'wrong', `${'x'}`]) {
      const r = await s.request('GET', '/api/v1/namespaces/default/configmaps', { token });
      assert.equal(r.status, 401);
      assert.deepEqual(r.json, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Unauthorized',
        reason: 'Unauthorized',
        code: 401,
      });
    }
    const version = await s.request('GET', '/version', { token: null });
    assert.equal(version.status, 401);
    const basic = await s.request('GET', '/api', { token: null, headers: { Authorization: 'Basic dGVzdA==' } });
    assert.equal(basic.status, 401);
  });

  it('routes /version, discovery and OpenAPI to their documents', async () => {
    const version = await s.request('GET', '/version');
    assert.equal(version.status, 200);
    assert.equal(typeof version.json.gitVersion, 'string');
    const api = await s.request('GET', '/api');
    assert.equal(api.status, 200);
    assert.equal(api.json.kind, 'APIVersions');
    const apps = await s.request('GET', '/apis/apps/v1');
    assert.equal(apps.json.kind, 'APIResourceList');
    const openapi = await s.request('GET', '/openapi/v3');
    assert.equal(openapi.status, 200);
    assert.ok((openapi.json.paths as Record<string, unknown>)['apis/apps/v1']);
    const unknownGroup = await s.request('GET', '/apis/nope.example.com/v1');
    assert.equal(unknownGroup.status, 404);
    const post = await s.request('POST', '/api', { body: {} });
    assert.equal(post.status, 405);
  });

  it('addresses namespaced objects, all-namespace lists and cluster-scoped kinds as upstream paths do', async () => {
    assert.equal(
      (await s.request('POST', '/api/v1/namespaces/default/configmaps', { body: configMap('one') })).status,
      201,
    );
    assert.equal(
      (await s.request('POST', '/api/v1/namespaces/kube-system/configmaps', { body: configMap('two') })).status,
      201,
    );
    const one = await s.request('GET', '/api/v1/namespaces/default/configmaps/one');
    assert.equal(one.status, 200);
    assert.equal((one.json.metadata as { name: string }).name, 'one');
    const all = await s.request('GET', '/api/v1/configmaps');
    const names = (all.json.items as { metadata: { namespace: string; name: string } }[]).map(
      (i) => `${i.metadata.namespace}/${i.metadata.name}`,
    );
    assert.ok(names.includes('default/one') && names.includes('kube-system/two'), names.join());
    const inDefault = await s.request('GET', '/api/v1/namespaces/default/configmaps/');
    assert.deepEqual(
      (inDefault.json.items as { metadata: { name: string } }[]).map((i) => i.metadata.name),
      ['one'],
    );
    const ns = await s.request('GET', '/api/v1/namespaces/default');
    assert.equal(ns.json.kind, 'Namespace');
    const nodes = await s.request('GET', '/api/v1/nodes');
    assert.equal(nodes.json.kind, 'NodeList');
  });

  it('answers 404 for unknown kinds, versions, scopes and subresources', async () => {
    const paths = [
      '/api/v1/widgets',
      '/apis/apps/v2/deployments',
      '/api/v1/namespaces/default/nodes',
      '/api/v1/configmaps/one',
      '/api/v1/namespaces/default/configmaps/one/scale',
      '/api/v1/namespaces/default/configmaps/one/status/extra',
      '/nothing/here',
    ];
    for (const path of paths) {
      const r = await s.request('GET', path);
      assert.equal(r.status, 404, path);
      assert.equal(r.json.message, 'the server could not find the requested resource', path);
      assert.equal(r.json.reason, 'NotFound');
    }
    const missing = await s.request('GET', '/api/v1/namespaces/default/configmaps/ghost');
    assert.equal(missing.status, 404);
    assert.equal(missing.json.message, 'configmaps "ghost" not found');
    assert.deepEqual(missing.json.details, { name: 'ghost', group: '', kind: 'configmaps' });
  });

  it('answers 405 for a method the path does not take', async () => {
    const cases: [string, string][] = [
      ['PUT', '/api/v1/namespaces/default/configmaps'],
      ['POST', '/api/v1/namespaces/default/configmaps/one'],
      ['POST', '/api/v1/configmaps'],
      ['DELETE', '/api/v1/configmaps'],
      ['OPTIONS', '/api/v1/namespaces/default/configmaps'],
      ['GET', '/api/v1/namespaces/default/pods/x/binding'],
    ];
    for (const [method, path] of cases) {
      const r = await s.request(method, path, method === 'OPTIONS' ? {} : { body: {} });
      assert.equal(r.status, 405, `${method} ${path}`);
      assert.equal(r.json.reason, 'MethodNotAllowed');
    }
  });

  it('sends the headers upstream sends', async () => {
    const r = await s.request('GET', '/api/v1/namespaces/default/configmaps/one');
    assert.equal(r.headers['content-type'], 'application/json');
    assert.equal(r.headers['cache-control'], 'no-cache, private');
    const err = await s.request('GET', '/api/v1/widgets');
    assert.equal(err.headers['content-type'], 'application/json');
  });

  it('turns an unexpected exception into 500 InternalError and keeps serving', async () => {
    // An own property shadows the method for this request only.
    Reflect.set(s.cluster.api, 'list', () => {
      throw new Error('boom');
    });
    try {
      const r = await s.request('GET', '/api/v1/namespaces/default/configmaps');
      assert.equal(r.status, 500);
      assert.equal(r.json.reason, 'InternalError');
      assert.equal(r.json.message, 'Internal error occurred: boom');
    } finally {
      Reflect.deleteProperty(s.cluster.api, 'list');
    }
    const next = await s.request('GET', '/api/v1/namespaces/default/configmaps');
    assert.equal(next.status, 200);
  });

  it('indents JSON when asked with ?pretty=true', async () => {
    const r = await s.request('GET', '/api/v1/namespaces/default/configmaps/one?pretty=true');
    assert.match(r.text, /^\{\n {2}"apiVersion"/);
    const plain = await s.request('GET', '/api/v1/namespaces/default/configmaps/one');
    assert.ok(!plain.text.slice(0, -1).includes('\n'));
  });
});

describe('HTTP API over TLS', () => {
  it('serves https with a self-signed certificate for 127.0.0.1 that clients can pin', async () => {
    const s = await serve({ tls: true });
    try {
      assert.match(s.server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
      const { X509Certificate } = await import('node:crypto');
      const cert = new X509Certificate(s.server.certificateAuthority!);
      assert.equal(cert.checkIP('127.0.0.1'), '127.0.0.1');
      assert.ok(cert.verify(cert.publicKey));
      const r = await s.request('GET', '/api/v1/namespaces');
      assert.equal(r.status, 200);
      assert.equal(r.json.kind, 'NamespaceList');
      const { request } = await import('node:https');
      const untrusted = await new Promise<Error>((resolve) => {
        const req = request(`${s.server.url}/healthz`, (res) => resolve(new Error(`unexpected ${res.statusCode}`)));
        req.on('error', resolve);
        req.end();
      });
      assert.match(untrusted.message, /self[- ]signed|certificate/i);
    } finally {
      await s.close();
    }
  });
});
