/**
 * Typed resources: the map from resource to type covers exactly the
 * resources served, and the typed reads answer objects of that kind.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiServer } from '../../../sandbox/apiserver/apiServer';
import { TYPED_RESOURCES, asResource, isKind } from '../../../sandbox/api/resourceObjects';
import { RESOURCES } from '../../../sandbox/api/registry';
import type { KubeObject } from '../../../sandbox/api/types';
import { VirtualClock } from '../../../sandbox/clock/virtualClock';

describe('typed resources', () => {
  test('every served resource has a type, and every typed resource is served', () => {
    // A plural names the core kind when two groups share it (`events`: v1 and events.k8s.io/v1).
    assert.deepEqual([...TYPED_RESOURCES].sort(), [...new Set(RESOURCES.map((r) => r.plural))].sort());
  });

  test('typed reads answer the objects the untyped ones do', () => {
    const api = new ApiServer({ clock: new VirtualClock() });
    const created = api.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', namespace: 'default' },
      data: { a: 'b' },
    });
    const typed = api.get('configmaps', 'default', 'c');
    assert.equal(typed, api.get('cm', 'default', 'c'), 'the same stored object, whatever the name used');
    assert.equal(typed.data?.a, 'b');
    assert.deepEqual(api.list('configmaps', { namespace: 'default' }).items, [created]);
  });

  test('isKind narrows by kind at run time; asResource only retypes', () => {
    const obj: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { nodeName: 'n1' } };
    assert.equal(isKind(obj, 'Pod') ? obj.spec?.nodeName : 'not a pod', 'n1');
    assert.equal(isKind(obj, 'Node'), false);
    assert.equal(asResource('pods', obj), obj);
  });
});
