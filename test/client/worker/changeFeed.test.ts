/** The worker's list + watch for the host's mirror: custom resources are mirrored as `plural.group`. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../sandbox/api/types';
import { ChangeFeed } from '../../../client/src/worker/changeFeed';
import { MirrorCache } from '../../../client/src/sandbox/mirror';
import type { WatchChange } from '../../../client/src/sandbox/protocol';
import { newApi } from '../../sandbox/fixtures';

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', kind: 'Widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
} as KubeObject;

const widget = (name: string): KubeObject => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name, namespace: 'default' },
  spec: {},
});

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ChangeFeed', () => {
  test('custom resources are listed, and a CRD established later is watched from then on', async () => {
    const { api } = newApi();
    api.create(crd);
    api.create(widget('a'));
    const changes: WatchChange[] = [];
    const feed = new ChangeFeed(
      api,
      (c) => changes.push(c),
      () => assert.fail('watch lost'),
    );
    const mirror = new MirrorCache();
    mirror.apply(feed.list());
    assert.deepEqual(
      mirror.list('widgets.example.com').map((o) => o.metadata.name),
      ['a'],
    );

    api.create({
      ...crd,
      metadata: { name: 'gadgets.example.com' },
      spec: { ...(crd as unknown as { spec: object }).spec, names: { plural: 'gadgets', kind: 'Gadget' } },
    } as KubeObject);
    await tick();
    api.create({ ...widget('g'), kind: 'Gadget' });
    api.create(widget('b'));
    api.delete('widgets.example.com', 'default', 'a');
    mirror.apply({ kind: 'changes', changes });
    assert.deepEqual(
      mirror.list('widgets.example.com').map((o) => o.metadata.name),
      ['b'],
    );
    assert.deepEqual(
      mirror.list('gadgets.example.com').map((o) => o.metadata.name),
      ['g'],
    );
    feed.stop();
  });
});
