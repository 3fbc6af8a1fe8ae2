import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { computeHash, fnv32a, safeEncodeString } from '../../../../sandbox/controllers/deployment/hash';
import { resolveFenceposts } from '../../../../sandbox/controllers/deployment/fenceposts';

describe('resolveFenceposts', () => {
  const cases: [number | string, number | string, number, [number, number]][] = [
    ['25%', '25%', 1, [1, 0]],
    ['25%', '25%', 4, [1, 1]],
    ['25%', '25%', 10, [3, 2]],
    ['25%', '25%', 3, [1, 0]],
    ['0%', '1%', 2, [0, 1]],
    ['1%', '25%', 2, [1, 0]],
    ['1%', '0%', 1, [1, 0]],
    [0, 0, 5, [0, 1]],
    ['0%', '0%', 5, [0, 1]],
    [2, 3, 10, [2, 3]],
    ['50%', 0, 5, [3, 0]],
    [0, '50%', 5, [0, 2]],
    ['100%', '100%', 7, [7, 7]],
  ];
  for (const [surge, unavailable, desired, want] of cases) {
    test(`maxSurge ${surge}, maxUnavailable ${unavailable}, ${desired} replicas → ${want}`, () => {
      assert.deepEqual(resolveFenceposts(surge, unavailable, desired), want);
    });
  }
});

describe('computeHash', () => {
  test('FNV-32a of the reference vectors', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    assert.equal(fnv32a(0x811c9dc5, enc('')), 0x811c9dc5);
    assert.equal(fnv32a(0x811c9dc5, enc('a')), 0xe40c292c);
    assert.equal(fnv32a(0x811c9dc5, enc('foobar')), 0xbf9cf968);
  });

  test('SafeEncodeString maps each decimal digit as upstream does', () => {
    assert.equal(safeEncodeString('0123456789'), '456789bcdf');
  });

  test('hashes have the upstream form, ignore key order, and change with the template and the collision count', () => {
    const template = {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
    };
    const reordered = {
      spec: { containers: [{ image: 'nginx:1.27', name: 'app' }] },
      metadata: { labels: { app: 'web' } },
    };
    const h = computeHash(template);
    assert.match(h, /^[456789bcdf]{1,10}$/);
    assert.equal(computeHash(reordered), h);
    assert.notEqual(computeHash({ ...template, spec: { containers: [{ name: 'app', image: 'nginx:1.28' }] } }), h);
    assert.notEqual(computeHash(template, 0), h);
    assert.notEqual(computeHash(template, 1), computeHash(template, 0));
  });
});
