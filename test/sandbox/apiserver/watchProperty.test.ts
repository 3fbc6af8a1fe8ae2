/**
 * Property: for any sequence of writes (creates, label changes, deletes,
 * rejected writes, compactions), resourceVersions strictly increase and every
 * watcher's view — whatever its selector or namespace, and however late it
 * started — equals a fresh LIST with the same filters.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ListOptions } from '../../../sandbox/apiserver/options';
import { isApiError } from '../../../sandbox/api/errors';
import type { WatchEvent } from '../../../sandbox/api/types';
import { cloneJson } from '../../../sandbox/util/json';
import { newApi } from '../fixtures';

const names = ['a', 'b', 'c', 'd'];
const namespaces = ['default', 'team'];
const tiers = ['web', 'db', 'cache'];

const op = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    name: fc.constantFrom(...names),
    ns: fc.constantFrom(...namespaces),
    tier: fc.constantFrom(...tiers),
  }),
  fc.record({
    kind: fc.constant('relabel' as const),
    name: fc.constantFrom(...names),
    ns: fc.constantFrom(...namespaces),
    tier: fc.constantFrom(...tiers),
  }),
  fc.record({
    kind: fc.constant('delete' as const),
    name: fc.constantFrom(...names),
    ns: fc.constantFrom(...namespaces),
  }),
  fc.record({
    kind: fc.constant('invalid' as const),
    name: fc.constantFrom(...names),
    ns: fc.constantFrom(...namespaces),
  }),
  fc.record({ kind: fc.constant('watch' as const), filter: fc.integer({ min: 0, max: 3 }) }),
);

const filters: ListOptions[] = [
  {},
  { labelSelector: 'tier=web' },
  { namespace: 'team' },
  { labelSelector: 'tier in (db,cache)', fieldSelector: 'metadata.name!=a' },
];

interface View {
  filter: ListOptions;
  objects: Map<string, string>;
  lastRv: number;
}

test('watch views always equal a fresh list; resourceVersions strictly increase', () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
      const { api } = newApi();
      api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
      const views: View[] = [];
      const watchWith = (filter: ListOptions) => {
        const view: View = { filter, objects: new Map(), lastRv: 0 };
        views.push(view);
        api.watch('configmaps', { ...filter }, (e: WatchEvent) => {
          const rv = Number(e.object.metadata.resourceVersion);
          const key = `${e.object.metadata.namespace}/${e.object.metadata.name}`;
          if (view.lastRv > 0) assert.ok(rv > view.lastRv || e.type === 'ADDED', `rv ${rv} after ${view.lastRv}`);
          view.lastRv = Math.max(view.lastRv, rv);
          if (e.type === 'DELETED') view.objects.delete(key);
          else view.objects.set(key, e.object.metadata.resourceVersion!);
        });
      };
      watchWith(filters[0]);
      let lastRv = Number(api.resourceVersion);
      for (const o of ops) {
        try {
          if (o.kind === 'create')
            api.create({
              apiVersion: 'v1',
              kind: 'ConfigMap',
              metadata: { name: o.name, namespace: o.ns, labels: { tier: o.tier } },
            });
          else if (o.kind === 'relabel') {
            const cur = cloneJson(api.get('configmaps', o.ns, o.name));
            cur.metadata.labels = { tier: o.tier };
            api.update(cur);
          } else if (o.kind === 'delete') api.delete('configmaps', o.ns, o.name);
          else if (o.kind === 'invalid')
            api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${o.name}_BAD`, namespace: o.ns } });
          else watchWith(filters[o.filter]);
        } catch (e) {
          if (!isApiError(e)) throw e;
        }
        const rv = Number(api.resourceVersion);
        assert.ok(rv >= lastRv);
        lastRv = rv;
      }
      for (const view of views) {
        const listed = api.list('configmaps', view.filter).items;
        assert.deepEqual(
          new Map(listed.map((o) => [`${o.metadata.namespace}/${o.metadata.name}`, o.metadata.resourceVersion!])),
          view.objects,
          `view for ${JSON.stringify(view.filter)}`,
        );
      }
    }),
    { numRuns: 200, seed: 20260101 },
  );
});
