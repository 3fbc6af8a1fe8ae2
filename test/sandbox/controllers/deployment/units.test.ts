import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { canonicalJson, computeHash, fnv32a, safeEncodeString } from '../../../../sandbox/controllers/deployment/hash';
import {
  existingReplicaSetAnnotationsUnchanged,
  revisionOf,
  setNewReplicaSetAnnotations,
} from '../../../../sandbox/controllers/deployment/annotations';
import { resolveFenceposts } from '../../../../sandbox/controllers/deployment/fenceposts';
import { equalIgnoreHash, findNewReplicaSet } from '../../../../sandbox/controllers/deployment/replicaSets';
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { PodTemplateSpec } from 'kubernetes-types/core/v1';

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

describe('canonicalJson', () => {
  /** The text as first defined: sorted keys, undefined members dropped, undefined items as null. */
  const reference = (value: unknown): string => {
    if (Array.isArray(value)) return `[${value.map((v) => reference(v ?? null)).join(',')}]`;
    if (typeof value === 'object' && value !== null) {
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj)
        .filter((k) => obj[k] !== undefined)
        .sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${reference(obj[k])}`).join(',')}}`;
    }
    return JSON.stringify(value);
  };

  test('sorts keys at every level, drops undefined members, writes undefined items as null', () => {
    const value = { b: [1, undefined, { z: 'é', a: null }], a: { y: undefined, 'x"q': true }, ä: 'ü\n' };
    assert.equal(canonicalJson(value), '{"a":{"x\\"q":true},"b":[1,null,{"a":null,"z":"é"}],"ä":"ü\\n"}');
    assert.equal(canonicalJson(value), reference(value));
  });

  test('gives the reference text for any JSON value, with undefined members and items mixed in', () => {
    const withUndefined = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 2 }),
        fc.constant(undefined),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(fc.string({ maxLength: 4 }), tie('value'), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 4 }), withUndefined, { maxKeys: 5 }), (value) => {
        assert.equal(canonicalJson(value), reference(value));
      }),
      { numRuns: 300 },
    );
  });
});

describe('equalIgnoreHash and findNewReplicaSet', () => {
  const spec = { containers: [{ name: 'app', image: 'nginx:1.27' }] };
  const template = (labels?: Record<string, string>, extra: Record<string, unknown> = {}) =>
    ({ metadata: labels === undefined ? {} : { labels }, spec, ...extra }) as PodTemplateSpec;

  test('the pod-template-hash label is ignored on either side, nothing else is', () => {
    assert.ok(equalIgnoreHash(template({ app: 'a', 'pod-template-hash': 'x1' }), template({ app: 'a' })));
    assert.ok(equalIgnoreHash(template({ app: 'a' }), template({ app: 'a', 'pod-template-hash': 'y2' })));
    assert.ok(!equalIgnoreHash(template({ app: 'a', 'pod-template-hash': 'x1' }), template({ app: 'b' })));
    assert.ok(!equalIgnoreHash(template({ app: 'a' }), template({ app: 'a', tier: 'web' })));
    assert.ok(!equalIgnoreHash(template({ app: 'a' }), template({ app: 'a' }, { spec: { containers: [] } })));
    assert.ok(
      !equalIgnoreHash(
        template({ app: 'a' }, { metadata: { labels: { app: 'a' }, annotations: { n: '1' } } }),
        template({ app: 'a' }),
      ),
    );
  });

  test('no labels, only the hash label, no metadata and no template are all the same', () => {
    assert.ok(equalIgnoreHash(template({ 'pod-template-hash': 'x1' }), template()));
    assert.ok(equalIgnoreHash({ spec }, template({})));
    assert.ok(equalIgnoreHash(undefined, {}));
    assert.ok(!equalIgnoreHash(undefined, { spec }));
    // An undefined member is an absent one (as in JSON).
    assert.ok(
      equalIgnoreHash(
        template({ app: 'a' }, { metadata: { labels: { app: 'a' }, name: undefined } }),
        template({ app: 'a' }),
      ),
    );
  });

  test('two frozen templates are compared once per pair; an unfrozen one afresh every time', () => {
    let reads = 0;
    // A frozen template whose spec counts its reads: a comparison that walks it reads it.
    const counted = (labels: Record<string, string>): PodTemplateSpec =>
      Object.freeze({
        metadata: Object.freeze({ labels: Object.freeze(labels) }),
        get spec() {
          reads++;
          return spec;
        },
      }) as PodTemplateSpec;
    const rsTemplate = counted({ app: 'a', 'pod-template-hash': 'x1' });
    const same = Object.freeze(template({ app: 'a' }));
    const other = Object.freeze(template({ app: 'b' }));
    assert.ok(equalIgnoreHash(rsTemplate, same));
    const once = reads;
    assert.ok(once > 0, 'the first comparison walks the template');
    assert.ok(equalIgnoreHash(rsTemplate, same));
    assert.equal(reads, once, 'the same frozen pair is not walked again');
    assert.ok(!equalIgnoreHash(rsTemplate, other), 'another template is compared, not taken from the last answer');
    assert.ok(equalIgnoreHash(rsTemplate, same), 'and back again');
    const open = template({ app: 'a' });
    assert.ok(equalIgnoreHash(rsTemplate, open));
    open.metadata = { labels: { app: 'c' } };
    assert.ok(!equalIgnoreHash(rsTemplate, open), 'an unfrozen template can change: compared every time');
  });

  test('the new ReplicaSet is the oldest match, the earlier in the list among equals', () => {
    const d = { spec: { selector: {}, template: template({ app: 'a' }) } } as Deployment;
    const rs = (name: string, created: string, labels: Record<string, string>) =>
      ({
        metadata: { name, creationTimestamp: created },
        spec: { selector: {}, template: template(labels) },
      }) as ReplicaSet;
    const newer = rs('a-2', '2026-01-01T00:00:02Z', { app: 'a', 'pod-template-hash': '2' });
    const older = rs('a-1', '2026-01-01T00:00:01Z', { app: 'a', 'pod-template-hash': '1' });
    const other = rs('a-0', '2026-01-01T00:00:00Z', { app: 'b', 'pod-template-hash': '0' });
    assert.equal(findNewReplicaSet(d, [newer, other, older]), older);
    assert.equal(findNewReplicaSet(d, [other]), undefined);
    const twinA = rs('a-9', '2026-01-01T00:00:03Z', { app: 'a' });
    const twinB = rs('a-9', '2026-01-01T00:00:03Z', { app: 'a' });
    assert.equal(findNewReplicaSet(d, [twinB, twinA]), twinB);
  });
});

describe('existingReplicaSetAnnotationsUnchanged', () => {
  const key = fc.constantFrom(
    'a',
    'b',
    'constructor',
    'deployment.kubernetes.io/revision',
    'deployment.kubernetes.io/revision-history',
    'deployment.kubernetes.io/desired-replicas',
    'kubectl.kubernetes.io/last-applied-configuration',
  );
  const value = fc.constantFrom('', '1', '2', '3', 'x', '+2', '-1');
  const annotations = fc.option(fc.dictionary(key, value, { maxKeys: 4 }), { nil: undefined });

  test('true exactly when setNewReplicaSetAnnotations on a copy would change nothing (and the revision parses)', () => {
    fc.assert(
      fc.property(annotations, annotations, fc.integer({ min: 0, max: 4 }), (dAnn, rsAnn, newRevision) => {
        const d: Deployment = { metadata: { name: 'd', ...(dAnn ? { annotations: dAnn } : {}) } };
        const rs: ReplicaSet = { metadata: { name: 'rs', ...(rsAnn ? { annotations: rsAnn } : {}) } };
        const before = JSON.stringify(rs);
        const unchanged = existingReplicaSetAnnotationsUnchanged(d, rs, newRevision);
        assert.equal(JSON.stringify(rs), before, 'the RS is only read');
        const copy: ReplicaSet = { metadata: { ...rs.metadata, annotations: { ...(rsAnn ?? {}) } } };
        const changed = setNewReplicaSetAnnotations(d, copy, newRevision, true, 1);
        const same = JSON.stringify(copy.metadata!.annotations) === JSON.stringify(rsAnn ?? {});
        if (unchanged) assert.ok(!changed && same, 'nothing would change');
        else assert.ok(changed || !same || revisionOf(rs) === undefined, 'something would change, or no revision');
      }),
      { numRuns: 2000 },
    );
  });
});
