import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../sandbox/api/types';
import { writtenAs } from '../../../sandbox/apiserver/sharedDefaults';
import { recordKeyOrder } from '../../../sandbox/util/keyOrder';
import { flatString } from '../../../sandbox/util/flatString';
import { newApi, pod } from '../fixtures';

type Obj = Record<string, unknown>;
const specOf = (p: KubeObject) => p.spec as Obj;
const projectedOf = (p: KubeObject) => ((specOf(p).volumes as Obj[])[0] as Obj).projected;

describe('pods share their admission defaults (issue 16: heap per pod)', () => {
  test("two pods' default tolerations, token volume source and empty securityContext are one frozen object each", () => {
    const { api } = newApi();
    const a = api.create(pod('a'));
    const b = api.create(pod('b'));
    const [sa, sb] = [specOf(a), specOf(b)];
    assert.equal(sa.tolerations, sb.tolerations);
    assert.equal(sa.securityContext, sb.securityContext);
    assert.equal(projectedOf(a), projectedOf(b));
    // The volumes themselves stay the pod's own: their names differ.
    assert.notEqual(sa.volumes, sb.volumes);
    assert.notEqual((sa.volumes as Obj[])[0].name, (sb.volumes as Obj[])[0].name);
    assert.ok(Object.isFrozen(sa.tolerations) && Object.isFrozen((sa.tolerations as Obj[])[0]));
    assert.ok(Object.isFrozen(projectedOf(a)));
    // What a client reads is what admission wrote.
    assert.deepEqual(sa.tolerations, [
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
    assert.equal(
      JSON.stringify(projectedOf(a)),
      JSON.stringify({
        defaultMode: 420,
        sources: [
          { serviceAccountToken: { path: 'token', expirationSeconds: 3607 } },
          { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          {
            downwardAPI: {
              items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
            },
          },
        ],
      }),
    );
  });

  test('a patch of one pod leaves the other as it was', () => {
    const { api } = newApi();
    api.create(pod('a'));
    const b = api.create(pod('b'));
    const before = JSON.stringify(b);
    const patched = api.patch('pods', 'default', 'a', 'strategic', {
      spec: { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoSchedule' }] },
    });
    assert.equal((specOf(patched).tolerations as Obj[]).length, 3);
    assert.equal(JSON.stringify(api.get('pods', 'default', 'b')), before);
    assert.equal((specOf(api.get('pods', 'default', 'b')).tolerations as Obj[]).length, 2);
  });

  test('tolerations written otherwise (another order of keys, another value) are kept as written', () => {
    const { api } = newApi();
    const a = api.create(pod('a'));
    const reordered = api.create({
      ...pod('b'),
      spec: {
        ...(pod('b').spec as Obj),
        tolerations: [
          { operator: 'Exists', key: 'node.kubernetes.io/not-ready', effect: 'NoExecute', tolerationSeconds: 300 },
          { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        ],
      },
    });
    assert.notEqual(specOf(reordered).tolerations, specOf(a).tolerations);
    assert.deepEqual(Object.keys((specOf(reordered).tolerations as Obj[])[0]), [
      'operator',
      'key',
      'effect',
      'tolerationSeconds',
    ]);
    const longer = api.create({
      ...pod('c'),
      spec: {
        ...(pod('c').spec as Obj),
        tolerations: [
          { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
        ],
      },
    });
    assert.equal((specOf(longer).tolerations as Obj[])[0].tolerationSeconds, 60);
    assert.notEqual(specOf(longer).tolerations, specOf(a).tolerations);
  });

  test('writtenAs: same JSON text and key order, no repeated key recorded', () => {
    assert.ok(writtenAs({ a: 1, b: [{ c: 'x' }] }, { a: 1, b: [{ c: 'x' }] }));
    assert.ok(!writtenAs({ b: [{ c: 'x' }], a: 1 }, { a: 1, b: [{ c: 'x' }] }));
    assert.ok(!writtenAs({ a: 1, b: [{ c: 'x' }, 2] }, { a: 1, b: [{ c: 'x' }] }));
    assert.ok(!writtenAs({ a: '1' }, { a: 1 }));
    assert.ok(!writtenAs([], {}));
    assert.ok(!writtenAs({}, []));
    const repeated = { a: 1 };
    recordKeyOrder(repeated, ['a', 'a']);
    assert.ok(!writtenAs(repeated, { a: 1 }));
  });
});

describe('flatString', () => {
  test('keeps the text', () => {
    const parts = ['Successfully pulled image "nginx:1.27"', ' in 1.2s', ' (1.2s including waiting)'];
    const built = `${parts[0]}${parts[1]}${parts[2]}`;
    assert.equal(flatString(built), parts.join(''));
    assert.equal(flatString('short'), 'short');
    // A decomposed é (e + U+0301) is not what NFC would answer: it is kept as written, not normalized.
    const decomposed = `${'Back-off pulling image "caf'}e\u0301${'" for a while'}`;
    assert.equal(flatString(decomposed), decomposed);
    assert.equal(flatString(decomposed).length, decomposed.length);
  });
});
