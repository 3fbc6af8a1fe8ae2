import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../sandbox/api/types';
import { Informer } from '../../../sandbox/client/informer';
import {
  ensureControllerIndex,
  PerOwnerMemo,
  type PerOwnerMemoOptions,
} from '../../../sandbox/controllers/util/controllerIndex';
import { cloneJson } from '../../../sandbox/util/json';
import { configMap, newApi } from '../fixtures';

/** A ConfigMap controlled by the owner of uid `owner` (none: an orphan). */
function owned(name: string, owner: string | undefined, namespace = 'default'): KubeObject {
  const cm = configMap(name, {}, namespace);
  if (owner !== undefined)
    cm.metadata.ownerReferences = [
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner, controller: true },
    ];
  return cm;
}

function setup<V, S = undefined>(options?: PerOwnerMemoOptions<V, S>) {
  const { api } = newApi();
  api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } } as KubeObject);
  const informer = new Informer(api, 'configmaps');
  ensureControllerIndex(informer);
  informer.start();
  return { api, memo: new PerOwnerMemo<KubeObject, V, S>(informer, options) };
}

const names = (objs: KubeObject[]) => objs.map((o) => o.metadata.name).join(',');

describe('PerOwnerMemo', () => {
  test('derives from the owner’s objects and its namespace’s orphans again only when either changed', () => {
    const { api, memo } = setup<string>();
    api.create(owned('mine', 'u1'));
    api.create(owned('orphan', undefined));
    api.create(owned('theirs', 'u2'));
    let derived = 0;
    const get = () =>
      memo.get('default/a', 'u1', 'default', (own, orphans) => `${++derived}:${names(own)}|${names(orphans)}`);
    assert.equal(get(), '1:mine|orphan');
    assert.equal(get(), '1:mine|orphan', 'nothing changed: the value derived last time');
    api.create(owned('theirs2', 'u2'));
    api.create(owned('elsewhere', undefined, 'other'));
    assert.equal(get(), '1:mine|orphan', 'another owner’s objects and another namespace’s orphans do not count');
    api.create(owned('orphan2', undefined));
    assert.equal(get(), '2:mine|orphan,orphan2', 'an orphan of its namespace');
    api.update({ ...cloneJson(api.get('configmaps', 'default', 'mine')), data: { k: 'v' } });
    assert.equal(get(), '3:mine|orphan,orphan2', 'one of its own objects');
    memo.forget('default/a');
    assert.equal(get(), '4:mine|orphan,orphan2', 'forgotten');
    assert.equal(
      memo.get('default/a', 'u3', 'default', () => 'other uid'),
      'other uid',
      'a new owner of that key',
    );
  });

  test('a signature compared by sameSignature; a value keep refuses is not kept and forgets the last one', () => {
    const { memo } = setup<{ n: number; write: boolean }, { sel: string }>({
      sameSignature: (last, cur) => last.sel === cur.sel,
      keep: (value, signature) => !value.write && signature.sel !== 'unkept',
    });
    let derived = 0;
    const get = (sel: string, write = false) =>
      memo.get('default/a', 'u1', 'default', () => ({ n: ++derived, write }), { sel }).n;
    assert.equal(get('a'), 1);
    assert.equal(get('a'), 1, 'an equal signature (another object): kept');
    assert.equal(get('b'), 2, 'another signature');
    assert.equal(get('b', true), 2, 'the same: what derive would say is not asked');
    assert.equal(get('a', true), 3);
    assert.equal(get('a', true), 4, 'a value that wrote is not kept');
    assert.equal(get('a'), 5);
    assert.equal(get('unkept'), 6, 'refused by its signature');
    assert.equal(get('a'), 7, 'the last kept value (5, for this same signature) was forgotten with it');
    assert.equal(get('a'), 7);
  });
});
