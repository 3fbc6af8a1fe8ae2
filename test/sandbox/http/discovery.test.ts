import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isApiError } from '../../../sandbox/api/errors';
import { RESOURCES } from '../../../sandbox/api/registry';
import { apiVersionOf } from '../../../sandbox/api/resources';
import { defaultRegistry } from '../../../sandbox/api/registry';
import type { ResourceType } from '../../../sandbox/api/resources';
import { AGGREGATED_DISCOVERY_V2, discoveryDocument, versionInfo } from '../../../sandbox/http/discovery';

/** What client-go 1.32 sends for /api and /apis (discovery_client.go acceptDiscoveryFormats). */
const KUBECTL_ACCEPT =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

interface ApiResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  storageVersionHash?: string;
}
interface ApiResourceList {
  kind: string;
  apiVersion?: string;
  groupVersion: string;
  resources: ApiResource[];
}

function body<T>(path: string, accept?: string): T {
  const doc = discoveryDocument(path, accept);
  assert.ok(doc, `${path} is a discovery path`);
  return doc.body as T;
}

function listPath(r: ResourceType): string {
  return r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
}

// Every group version a 1.32 server serves: the stored kinds' and those of create-only resources (reviews) and
// older versions served by conversion (autoscaling/v1).
const groupVersions = [...new Set(defaultRegistry().list().map(apiVersionOf))];

describe('versionInfo', () => {
  test('a v1.32 server: kubectl 1.32 sees no version skew, and the build says kube-reconcile', () => {
    const v = versionInfo();
    const m = /^v(\d+)\.(\d+)\.(\d+)(?:[-+][0-9A-Za-z.-]+)*$/.exec(v.gitVersion);
    assert.ok(m, `gitVersion ${v.gitVersion} is semver`);
    assert.equal(m[1], v.major);
    assert.equal(m[2], v.minor);
    assert.equal(`${v.major}.${v.minor}`, '1.32');
    assert.match(v.gitVersion, /kube-reconcile/);
    for (const key of ['gitCommit', 'gitTreeState', 'buildDate', 'goVersion', 'compiler', 'platform'] as const)
      assert.equal(typeof v[key], 'string');
  });
});

describe('legacy discovery', () => {
  test('/api lists v1 only', () => {
    assert.deepEqual(body<{ kind: string; versions: string[] }>('/api', 'application/json, */*').versions, ['v1']);
    assert.equal(body<{ kind: string }>('/api').kind, 'APIVersions');
  });

  test('/apis lists every served group with its versions, preferred first', () => {
    const list = body<{
      kind: string;
      groups: {
        name: string;
        versions: { groupVersion: string; version: string }[];
        preferredVersion: { groupVersion: string };
      }[];
    }>('/apis');
    assert.equal(list.kind, 'APIGroupList');
    const expected = new Set(groupVersions.filter((gv) => gv.includes('/')));
    const listed = new Set(list.groups.flatMap((g) => g.versions.map((v) => v.groupVersion)));
    assert.deepEqual(listed, expected);
    for (const g of list.groups) {
      assert.equal(g.preferredVersion.groupVersion, g.versions[0].groupVersion);
      assert.deepEqual(body<{ kind: string; name: string }>(`/apis/${g.name}`), {
        kind: 'APIGroup',
        apiVersion: 'v1',
        ...g,
      });
    }
    // Upstream's priority: apps comes first.
    assert.equal(list.groups[0].name, 'apps');
  });

  test('every served resource is listed with its kind, scope, names and the verbs the API serves', () => {
    for (const r of RESOURCES) {
      const list = body<ApiResourceList>(listPath(r));
      assert.equal(list.kind, 'APIResourceList');
      assert.equal(list.groupVersion, apiVersionOf(r));
      const entry = list.resources.find((e) => e.name === r.plural);
      assert.ok(entry, `${r.plural} in ${apiVersionOf(r)}`);
      assert.equal(entry.singularName, r.singular);
      assert.equal(entry.namespaced, r.namespaced);
      assert.equal(entry.kind, r.kind);
      assert.deepEqual(entry.shortNames ?? [], [...r.shortNames]);
      assert.deepEqual(entry.categories ?? [], [...r.categories]);
      const verbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'].filter(
        (v) => !(r.plural === 'namespaces' && v === 'deletecollection'),
      );
      assert.deepEqual(entry.verbs, verbs, `${r.plural} verbs`);
      assert.match(entry.storageVersionHash ?? '', /^[A-Za-z0-9+/]{11}=$/);
    }
  });

  test('storageVersionHash is computed as upstream does (pods: xPOwRZ+Yhw8=, configmaps: qFsyl6wFWjQ=)', () => {
    const core = body<ApiResourceList>('/api/v1').resources;
    assert.equal(core.find((e) => e.name === 'pods')?.storageVersionHash, 'xPOwRZ+Yhw8=');
    assert.equal(core.find((e) => e.name === 'configmaps')?.storageVersionHash, 'qFsyl6wFWjQ=');
  });

  test('subresources: status, scale, pod binding/eviction/log, namespace finalize', () => {
    const find = (path: string, name: string): ApiResource | undefined =>
      body<ApiResourceList>(path).resources.find((e) => e.name === name);
    for (const r of RESOURCES.filter((x) => x.statusSubresource)) {
      assert.deepEqual(find(listPath(r), `${r.plural}/status`), {
        name: `${r.plural}/status`,
        singularName: '',
        namespaced: r.namespaced,
        kind: r.kind,
        verbs: ['get', 'patch', 'update'],
      });
    }
    for (const r of RESOURCES.filter((x) => x.scaleSubresource)) {
      assert.deepEqual(find(listPath(r), `${r.plural}/scale`), {
        name: `${r.plural}/scale`,
        singularName: '',
        namespaced: true,
        group: 'autoscaling',
        version: 'v1',
        kind: 'Scale',
        verbs: ['get', 'patch', 'update'],
      });
    }
    assert.deepEqual(find('/api/v1', 'pods/eviction'), {
      name: 'pods/eviction',
      singularName: '',
      namespaced: true,
      group: 'policy',
      version: 'v1',
      kind: 'Eviction',
      verbs: ['create'],
    });
    assert.deepEqual(find('/api/v1', 'pods/binding'), {
      name: 'pods/binding',
      singularName: '',
      namespaced: true,
      kind: 'Binding',
      verbs: ['create'],
    });
    assert.deepEqual(find('/api/v1', 'pods/log'), {
      name: 'pods/log',
      singularName: '',
      namespaced: true,
      kind: 'Pod',
      verbs: ['get'],
    });
    assert.deepEqual(find('/api/v1', 'namespaces/finalize'), {
      name: 'namespaces/finalize',
      singularName: '',
      namespaced: false,
      kind: 'Namespace',
      verbs: ['update'],
    });
    // Nothing is advertised that is not served.
    assert.equal(find('/api/v1', 'pods/exec'), undefined);
    assert.equal(find('/apis/apps/v1', 'daemonsets/scale'), undefined);
  });

  test('entries are sorted by name, subresources right after their resource', () => {
    for (const gv of groupVersions) {
      const names = body<ApiResourceList>(gv === 'v1' ? '/api/v1' : `/apis/${gv}`).resources.map((e) => e.name);
      assert.deepEqual(names, [...names].sort());
    }
  });

  test('/api/v1 carries no apiVersion; group lists do (as upstream)', () => {
    assert.equal(body<ApiResourceList>('/api/v1').apiVersion, undefined);
    assert.equal(body<ApiResourceList>('/apis/apps/v1').apiVersion, 'v1');
  });

  test('unknown groups, versions and other paths are not discovery documents', () => {
    for (const p of [
      '/apis/example.com',
      '/apis/apps/v2',
      '/api/v2',
      '/apis/extensions/v1beta1',
      '/version',
      '/healthz',
      '/apis/apps/v1/deployments',
    ]) {
      assert.equal(discoveryDocument(p, undefined), undefined, p);
    }
  });
});

interface AggregatedList {
  kind: string;
  apiVersion: string;
  items: {
    metadata: { name?: string };
    versions: {
      version: string;
      freshness: string;
      resources: {
        resource: string;
        responseKind: { group: string; version: string; kind: string };
        scope: string;
        singularResource: string;
        verbs: string[];
        shortNames?: string[];
        categories?: string[];
        subresources?: {
          subresource: string;
          responseKind: { group: string; version: string; kind: string };
          verbs: string[];
        }[];
      }[];
    }[];
  }[];
}

/**
 * client-go's SplitGroupsAndResources (aggregated_discovery.go), as kubectl turns the aggregated answer into resource
 * lists.
 */
function split(list: AggregatedList): Map<string, ApiResource[]> {
  const out = new Map<string, ApiResource[]>();
  for (const g of list.items) {
    for (const v of g.versions) {
      const gv = g.metadata.name ? `${g.metadata.name}/${v.version}` : v.version;
      const resources: ApiResource[] = [];
      for (const r of v.resources) {
        const parent = {
          name: r.resource,
          singularName: r.singularResource,
          namespaced: r.scope === 'Namespaced',
          verbs: r.verbs,
        };
        resources.push({
          ...parent,
          kind: r.responseKind.kind,
          ...(r.shortNames ? { shortNames: r.shortNames } : {}),
          ...(r.categories ? { categories: r.categories } : {}),
        });
        for (const s of r.subresources ?? []) {
          resources.push({
            name: `${r.resource}/${s.subresource}`,
            singularName: r.singularResource,
            namespaced: parent.namespaced,
            group: s.responseKind.group,
            version: s.responseKind.version,
            kind: s.responseKind.kind,
            verbs: s.verbs,
          });
        }
      }
      out.set(gv, resources);
    }
  }
  return out;
}

describe('aggregated discovery', () => {
  test('kubectl’s Accept header gets apidiscovery.k8s.io/v2 with that exact Content-Type', () => {
    for (const path of ['/api', '/apis']) {
      const doc = discoveryDocument(path, KUBECTL_ACCEPT);
      assert.ok(doc);
      assert.equal(doc.contentType, AGGREGATED_DISCOVERY_V2);
      assert.equal(doc.contentType, 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
      const list = doc.body as AggregatedList;
      assert.equal(list.kind, 'APIGroupDiscoveryList');
      assert.equal(list.apiVersion, 'apidiscovery.k8s.io/v2');
      for (const g of list.items) for (const v of g.versions) assert.equal(v.freshness, 'Current');
    }
    assert.deepEqual(
      (discoveryDocument('/api', KUBECTL_ACCEPT)!.body as AggregatedList).items.map((g) => g.metadata.name ?? ''),
      [''],
    );
  });

  test('says the same as the legacy documents, once split the way client-go splits it', () => {
    const split1 = split(discoveryDocument('/api', KUBECTL_ACCEPT)!.body as AggregatedList);
    const split2 = split(discoveryDocument('/apis', KUBECTL_ACCEPT)!.body as AggregatedList);
    const all = new Map([...split1, ...split2]);
    assert.deepEqual(new Set(all.keys()), new Set(groupVersions));
    for (const gv of groupVersions) {
      const legacy = body<ApiResourceList>(gv === 'v1' ? '/api/v1' : `/apis/${gv}`).resources.map((e) => {
        const { storageVersionHash: _, ...rest } = e;
        // client-go fills group/version from the response kind and the parent's singular name into subresources.
        const [gvGroup, gvVersion] = gv.includes('/') ? gv.split('/') : ['', gv];
        if (!e.name.includes('/')) return rest;
        const parent = body<ApiResourceList>(gv === 'v1' ? '/api/v1' : `/apis/${gv}`).resources.find(
          (p) => p.name === e.name.split('/')[0],
        )!;
        return {
          ...rest,
          singularName: parent.singularName,
          group: e.group ?? gvGroup,
          version: e.version ?? gvVersion,
        };
      });
      const fromAggregated = all.get(gv)!.sort((a, b) => (a.name < b.name ? -1 : 1));
      assert.deepEqual(fromAggregated, legacy, gv);
    }
  });

  test('negotiation: order and q decide; plain JSON without the aggregated media type', () => {
    assert.equal(discoveryDocument('/apis', 'application/json')?.contentType, 'application/json');
    assert.equal(discoveryDocument('/apis', undefined)?.contentType, 'application/json');
    assert.equal(discoveryDocument('/apis', '*/*')?.contentType, 'application/json');
    assert.equal(
      discoveryDocument('/apis', `application/json;q=0.5, ${AGGREGATED_DISCOVERY_V2};q=0.9`)?.contentType,
      AGGREGATED_DISCOVERY_V2,
    );
    assert.equal(
      discoveryDocument('/apis', `application/json, ${AGGREGATED_DISCOVERY_V2}`)?.contentType,
      'application/json',
    );
    // Parameters in another order are the same media type.
    assert.equal(
      discoveryDocument('/api', 'application/json; as=APIGroupDiscoveryList; v=v2; g=apidiscovery.k8s.io')?.contentType,
      AGGREGATED_DISCOVERY_V2,
    );
    // Group version documents have no aggregated form: JSON it is.
    assert.equal(discoveryDocument('/apis/apps/v1', KUBECTL_ACCEPT)?.contentType, 'application/json');
  });

  test('406 NotAcceptable when nothing acceptable is served', () => {
    for (const accept of [
      'application/vnd.kubernetes.protobuf',
      'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList',
      'text/html',
      'application/json;q=0',
    ]) {
      assert.throws(
        () => discoveryDocument('/apis', accept),
        (e: unknown) =>
          isApiError(e, 406) &&
          e.status.reason === 'NotAcceptable' &&
          e.status.message.startsWith('only the following media types are accepted: application/json'),
        accept,
      );
    }
  });
});
