/** The sandbox's CRDs for the language server: which are sent, in what shape, and when. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SANDBOX_CRDS_NOTIFICATION, SandboxCrdFeed, sandboxCrdsParams } from '../../../client/src/model/sandboxCrds';
import type { SandboxCrdsParams } from '../../../client/src/model/sandboxCrds';
import { ApiServer } from '../../../sandbox/apiserver/apiServer';
import { VirtualClock } from '../../../sandbox/clock/virtualClock';
import type { KubeObject } from '../../../sandbox/api/types';
import { workspaceCrds } from '../../../sandbox/apiextensions/workspace';
import * as server from '../../../server/src/services/customSchema/externalCrds';

function crd(plural: string, kind: string, sizeType = 'integer'): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: `${plural}.example.com`,
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' },
    },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural, kind },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: { spec: { type: 'object', properties: { size: { type: sizeType } } } },
            },
          },
        },
      ],
    },
  } as KubeObject;
}

/** CRDs as the sandbox stores them: created through the API server (defaults, NamesAccepted, Established). */
function stored(...crds: KubeObject[]): { api: ApiServer; list: () => KubeObject[] } {
  const api = new ApiServer({ clock: new VirtualClock() });
  for (const c of crds) api.create(c);
  return { api, list: () => api.list('customresourcedefinitions').items as KubeObject[] };
}

describe('sandbox CRDs for the language server', () => {
  test('the method is the one the language server listens to', () => {
    assert.equal(SANDBOX_CRDS_NOTIFICATION, server.SANDBOX_CRDS_NOTIFICATION);
  });

  test('established CRDs, by name, reduced to apiVersion, kind, name and spec; the server serves their kinds', () => {
    const { list } = stored(crd('widgets', 'Widget'), crd('gadgets', 'Gadget', 'string'));
    const params = sandboxCrdsParams(list());
    assert.deepEqual(
      params.crds.map((c) => [c.metadata, Object.keys(c)]),
      [
        [{ name: 'gadgets.example.com' }, ['apiVersion', 'kind', 'metadata', 'spec']],
        [{ name: 'widgets.example.com' }, ['apiVersion', 'kind', 'metadata', 'spec']],
      ],
    );
    // What arrives at the server (through JSON, as over the wire) serves the kinds with their schemas.
    const crds = workspaceCrds(server.sandboxCrdsOf(JSON.parse(JSON.stringify(params))));
    assert.equal(crds.serves('example.com/v1', 'Widget'), true);
    assert.equal(crds.schema('example.com/v1', 'Gadget')?.properties?.spec?.properties?.size?.type, 'string');
    assert.deepEqual(
      crds
        .check({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 'x' } } as never)
        ?.map((e) => e.field),
      ['spec.size'],
    );
  });

  test('a CRD not established, or being deleted, serves nothing: not sent', () => {
    const { list } = stored(crd('widgets', 'Widget'));
    const [established] = list();
    const notYet = {
      ...established,
      metadata: { ...established.metadata, name: 'late.example.com' },
      status: { conditions: [{ type: 'Established', status: 'False' }] },
    } as KubeObject;
    const deleting = {
      ...established,
      metadata: { ...established.metadata, name: 'gone.example.com', deletionTimestamp: '2026-01-01T00:00:00Z' },
    } as KubeObject;
    const noStatus = { ...crd('things', 'Thing') };
    assert.deepEqual(
      sandboxCrdsParams([deleting, notYet, established, noStatus]).crds.map((c) => c.metadata.name),
      ['widgets.example.com'],
    );
  });

  test('the feed sends on a change of what the server sees, not on a status or resourceVersion change', () => {
    const { api, list } = stored(crd('widgets', 'Widget'));
    const sent: SandboxCrdsParams[] = [];
    const feed = new SandboxCrdFeed((p) => void sent.push(p));
    assert.equal(feed.update(list()), true);
    assert.equal(feed.update(list()), false);
    // A label (a new resourceVersion) changes nothing the server reads.
    const live = api.get('customresourcedefinitions', undefined, 'widgets.example.com');
    api.update({ ...live, metadata: { ...live.metadata, labels: { team: 'a' } } });
    assert.equal(feed.update(list()), false);
    // A schema edit does; so does a new CRD; then its deletion.
    const again = structuredClone(api.get('customresourcedefinitions', undefined, 'widgets.example.com'));
    again.spec.versions[0].schema!.openAPIV3Schema!.properties!.spec.properties = { size: { type: 'string' } };
    api.update(again);
    assert.equal(feed.update(list()), true);
    api.create(crd('gadgets', 'Gadget'));
    assert.equal(feed.update(list()), true);
    assert.equal(feed.update([]), true);
    assert.deepEqual(
      sent.map((p) => p.crds.map((c) => c.metadata.name)),
      [['widgets.example.com'], ['widgets.example.com'], ['gadgets.example.com', 'widgets.example.com'], []],
    );
    // After the server restarts, the same set is sent again.
    feed.reset();
    assert.equal(feed.update([]), true);
  });
});
