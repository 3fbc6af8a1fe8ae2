/**
 * JSON patch over HTTP answers as kube-apiserver does: the v4 library's
 * extensions apply (`-1` from the end, `01` as an index), and a patch that
 * does not apply is a bare 422 whose details are empty.
 */
import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { serve } from './helpers';
import type { Served } from './helpers';

const CMS = '/api/v1/namespaces/default/configmaps';

describe('HTTP: application/json-patch+json', () => {
  let s: Served;
  before(async () => {
    s = await serve();
    const cm = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', finalizers: ['example.com/one', 'example.com/two', 'example.com/three'] },
      data: { k: 'v' },
    };
    assert.equal((await s.request('POST', CMS, { body: cm })).status, 201);
  });
  after(() => s.close());

  const patch = (path: string, ops: unknown) =>
    s.request('PATCH', path, { body: ops, contentType: 'application/json-patch+json' });

  it('remove /…/-1 removes the last element, replace /…/01 is index 1, add /…/-1 appends', async () => {
    const finalizers = async (ops: unknown): Promise<unknown> => {
      const r = await patch(`${CMS}/c`, ops);
      assert.equal(r.status, 200, r.text);
      return (r.json.metadata as { finalizers: unknown }).finalizers;
    };
    assert.deepEqual(await finalizers([{ op: 'remove', path: '/metadata/finalizers/-1' }]), [
      'example.com/one',
      'example.com/two',
    ]);
    assert.deepEqual(await finalizers([{ op: 'replace', path: '/metadata/finalizers/01', value: 'example.com/2' }]), [
      'example.com/one',
      'example.com/2',
    ]);
    assert.deepEqual(await finalizers([{ op: 'add', path: '/metadata/finalizers/-1', value: 'example.com/3' }]), [
      'example.com/one',
      'example.com/2',
      'example.com/3',
    ]);
  });

  it('a patch that does not apply is 422 with empty details, and changes nothing', async () => {
    const before = await s.request('GET', `${CMS}/c`);
    for (const ops of [
      [{ op: 'test', path: '/data/k', value: 'other' }],
      [{ op: 'test', path: '/data/missing/deeper', value: 'x' }],
      [{ op: 'remove', path: '/data/absent' }],
      [{ op: 'add', path: '', value: {} }],
    ]) {
      const r = await patch(`${CMS}/c`, ops);
      assert.equal(r.status, 422, JSON.stringify(ops));
      assert.deepEqual(r.json, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'the server rejected our request due to an error in our request',
        reason: 'Invalid',
        details: {},
        code: 422,
      });
    }
    const after = await s.request('GET', `${CMS}/c`);
    assert.deepEqual(after.json, before.json);
  });

  it('a body that is not a patch is 400 in the handler words', async () => {
    const r = await patch(`${CMS}/c`, { op: 'add' });
    assert.equal(r.status, 400);
    assert.equal(
      r.json.message,
      'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp',
    );
  });
});
