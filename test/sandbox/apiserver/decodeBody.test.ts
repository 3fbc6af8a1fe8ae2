import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeBuiltInBody } from '../../../sandbox/apiserver/decodeBody';
import { decodeNulls } from '../../../sandbox/apiserver/decodeNulls';
import { pruneUnknownFields } from '../../../sandbox/apiserver/fieldValidation';
import { setKubernetesVersion } from '../../../sandbox/schema/schema';
import { definitionOf, strictFieldErrors } from '../../../sandbox/schema/strictFields';
import type { StrictFieldError } from '../../../sandbox/schema/strictFields';
import type { Definition } from '../../../sandbox/schema/types';
import { recordKeyOrder } from '../../../sandbox/util/keyOrder';
import { JsonCopyError, copyMembersCounted, deepFreeze } from '../../../sandbox/util/json';
import type { CopyLimits } from '../../../sandbox/util/json';

const REQUEST_LIMITS: CopyLimits = { maxDepth: 100, maxBytes: 1_572_864 };
const STATUS_MEMBERS: ReadonlySet<string> = new Set(['apiVersion', 'kind', 'metadata', 'status']);

/** What a decode yields, comparable with `deepEqual`: the body as JSON text (key order included) and the errors. */
type Outcome =
  | { body: string; nullsKept: string; errors: { kind: string; path: string; segments: unknown[]; parent?: string }[] }
  | { thrown: string; message: string };

function errorsOf(errors: readonly StrictFieldError[]): Extract<Outcome, { body: string }>['errors'] {
  return errors.map((e) => ({ kind: e.kind, path: e.path, segments: e.segments, parent: e.parent?.name }));
}

/** JSON text that keeps the nulls of a body apart from its missing members (`JSON.stringify` keeps both apart). */
function text(body: unknown): string {
  return JSON.stringify(body);
}

function caught(fn: () => Outcome): Outcome {
  try {
    return fn();
  } catch (e) {
    if (e instanceof JsonCopyError) return { thrown: e.kind, message: e.message };
    throw e;
  }
}

function outcome(d: { body: Record<string, unknown>; errors: readonly StrictFieldError[] }): Outcome {
  return { body: text(d.body), nullsKept: text(d.body), errors: errorsOf(d.errors) };
}

/** The separate passes the API server ran before (copy, strict walk of the input, prune, nulls of the members). */
function separately(input: Record<string, unknown>, root: Definition, limits: CopyLimits, keep?: ReadonlySet<string>) {
  return caught(() => {
    const { value, nullMembers } = copyMembersCounted(input, limits, keep);
    const errors = strictFieldErrors(input, root);
    pruneUnknownFields(value, errors);
    if (nullMembers.length > 0) decodeNulls(value, root, nullMembers);
    return { body: text(value), nullsKept: text(value), errors: errorsOf(errors) };
  });
}

function inOnePass(input: Record<string, unknown>, root: Definition, limits: CopyLimits, keep?: ReadonlySet<string>) {
  return caught(() => {
    const decoded = decodeBuiltInBody(input, root, limits, keep);
    assert.ok(decoded, 'decoded in one pass');
    pruneUnknownFields(decoded.body, decoded.errors);
    return { body: text(decoded.body), nullsKept: text(decoded.body), errors: errorsOf(decoded.errors) };
  });
}

function same(input: Record<string, unknown>, limits = REQUEST_LIMITS, keep?: ReadonlySet<string>): Outcome {
  const root = definitionOf(input)!;
  const before = separately(input, root, limits, keep);
  assert.deepEqual(inOnePass(input, root, limits, keep), before);
  return before;
}

function kubeletStatus(): Record<string, unknown> {
  return {
    phase: 'Running',
    conditions: [
      { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:00Z' },
      { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: null },
    ],
    containerStatuses: [{ name: 'app', ready: true, restartCount: 0, state: { running: { startedAt: null } } }],
    startTime: '2026-01-01T00:00:00Z',
  };
}

describe('a built-in body decoded in one pass (copy, unknown fields, nulls)', () => {
  test("a kubelet's status write: the same copy, nulls decoded as Go does (timestamps outside ObjectMeta stay null)", () => {
    const stored = deepFreeze({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default', uid: 'u', resourceVersion: '5', labels: { app: 'web' } },
      spec: { containers: [{ name: 'app', image: 'nginx' }] },
    });
    const body = { ...stored, status: kubeletStatus() };
    for (const keep of [undefined, STATUS_MEMBERS]) {
      const out = same(body, REQUEST_LIMITS, keep) as Extract<Outcome, { body: string }>;
      const decoded = JSON.parse(out.body) as { status: { conditions: Record<string, unknown>[] }; spec?: unknown };
      assert.equal(decoded.status.conditions[0].lastProbeTime, null);
      assert.equal('spec' in decoded, keep === undefined);
      assert.deepEqual(out.errors, []);
    }
  });

  test('unknown fields at every depth, in document order, with their struct; nulls of every kind of member', () => {
    const body = {
      apiVersion: 'v1',
      kind: 'Pod',
      bogus: { a: null },
      metadata: { name: 'p', labels: { a: null, b: 'x' }, creationTimestamp: null, finalizers: [null, 'f'], extra: 1 },
      spec: {
        containers: [null, { name: 'c', poarts: [{ containerPort: 80 }], ports: [{ containerPort: 80, nope: null }] }],
        nodeSelector: { zone: null },
        overhead: { cpu: null },
        livenessProbe: null, // a Container's field, not the PodSpec's: unknown here (and null)
        typo: undefined,
        volumes: [{ name: 'v', emptyDir: {}, unknown: { deep: [null] } }],
      },
      status: { conditions: [{ type: 'Ready', lastProbeTime: null, extra: null }], startTime: null },
    };
    const out = same(body) as Extract<Outcome, { body: string }>;
    assert.deepEqual(
      out.errors.map((e) => e.path),
      [
        'bogus',
        'metadata.extra',
        'spec.containers[1].poarts',
        'spec.containers[1].ports[0].nope',
        'spec.livenessProbe',
        'spec.typo',
        'spec.volumes[0].unknown',
        'status.conditions[0].extra',
      ],
    );
    assert.equal(out.errors[0].parent, 'io.k8s.api.core.v1.Pod');
  });

  test('frozen members (a cached spec or metadata spread into the body) are read as before, their walk remembered', () => {
    const spec = deepFreeze({ containers: [{ name: 'c', image: 'i', poarts: 1 }], nodeSelector: { a: 'b' } });
    const meta = deepFreeze({ name: 'p', labels: { a: 'b' } });
    for (let round = 0; round < 2; round++) {
      same({ apiVersion: 'v1', kind: 'Pod', metadata: meta, spec, status: kubeletStatus() });
      same(
        { apiVersion: 'v1', kind: 'Pod', metadata: meta, spec, status: kubeletStatus() },
        REQUEST_LIMITS,
        STATUS_MEMBERS,
      );
    }
  });

  test("a status write's carried clean metadata: the same decoded body, its members kept, counted as a copy is", () => {
    const meta = deepFreeze({
      name: 'p',
      namespace: 'default',
      uid: 'u',
      resourceVersion: '7',
      labels: { app: 'web' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'r', controller: true }],
    });
    const body = { apiVersion: 'v1', kind: 'Pod', metadata: meta, spec: { containers: [] }, status: kubeletStatus() };
    const root = definitionOf(body)!;
    const carried = decodeBuiltInBody(body, root, REQUEST_LIMITS, STATUS_MEMBERS, meta)!;
    const copied = decodeBuiltInBody(body, root, REQUEST_LIMITS, STATUS_MEMBERS)!;
    assert.deepStrictEqual(carried, copied);
    const m = carried.body.metadata as Record<string, unknown>;
    assert.notEqual(m, meta, 'a new object: the status write sets its namespace');
    assert.ok(!Object.isFrozen(m));
    assert.equal(m.labels, meta.labels, 'its members are the stored ones');
    assert.equal(m.ownerReferences, meta.ownerReferences);
    assert.notEqual((copied.body.metadata as Record<string, unknown>).labels, meta.labels);
    // Counted as its copy: the same size refusal at the same limit, with or without it.
    const size = JSON.stringify(body).length;
    for (const maxBytes of [size - 200, size - 150, size - 100, size]) {
      const limits = { maxDepth: 100, maxBytes };
      assert.deepEqual(
        caught(() => ({ ...outcome(decodeBuiltInBody(body, root, limits, STATUS_MEMBERS, meta)!) })),
        caught(() => ({ ...outcome(decodeBuiltInBody(body, root, limits, STATUS_MEMBERS)!) })),
      );
    }
    // A null in it is decoded: copied as any other frozen member (the null dropped from ObjectMeta's struct).
    const withNull = deepFreeze({ ...meta, generateName: null });
    const nulled = { ...body, metadata: withNull };
    const decoded = decodeBuiltInBody(nulled, root, REQUEST_LIMITS, STATUS_MEMBERS, withNull)!;
    assert.deepStrictEqual(decoded, decodeBuiltInBody(nulled, root, REQUEST_LIMITS, STATUS_MEMBERS)!);
    assert.notEqual((decoded.body.metadata as Record<string, unknown>).labels, meta.labels);
  });

  test('limits: the copy error wins over unknown fields, at the same value', () => {
    const deep: Record<string, unknown> = {};
    let at = deep;
    for (let i = 0; i < 8; i++) at = (at.x = {}) as Record<string, unknown>;
    const limits = { maxDepth: 6, maxBytes: 300 };
    const tooDeep = same(
      { apiVersion: 'v1', kind: 'Pod', bogus: 1, metadata: { annotations: { a: 'x' } }, spec: deep },
      limits,
    );
    assert.equal((tooDeep as { thrown: string }).thrown, 'depth');
    const tooBig = same(
      { apiVersion: 'v1', kind: 'Pod', bogus: 1, metadata: { annotations: { a: 'x'.repeat(400) } } },
      limits,
    );
    assert.equal((tooBig as { thrown: string }).thrown, 'size');
    const notJson = same({ apiVersion: 'v1', kind: 'Pod', spec: { containers: [{ name: 'c', image: Number.NaN }] } });
    assert.equal((notJson as { thrown: string }).thrown, 'type');
    const classy = same({ apiVersion: 'v1', kind: 'Pod', spec: { containers: [new Date(0)] } });
    assert.equal((classy as { thrown: string }).thrown, 'type');
  });

  test('a key written twice below the top is walked by the strict walk itself (duplicate fields)', () => {
    const spec: Record<string, unknown> = { replicas: 2, bogus: 1 };
    recordKeyOrder(spec, ['bogus', 'replicas', 'replicas']);
    const out = same({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec });
    assert.deepEqual(
      (out as Extract<Outcome, { body: string }>).errors.map((e) => `${e.kind} ${e.path}`),
      ['unknown spec.bogus', 'duplicate spec.replicas'],
    );
    const top = { apiVersion: 'v1', kind: 'Pod', metadata: {} };
    recordKeyOrder(top, ['kind', 'apiVersion', 'kind', 'metadata']);
    assert.equal(decodeBuiltInBody(top, definitionOf(top)!, REQUEST_LIMITS), undefined);
  });

  test('more than 100 unknown fields: the first 100 saved, and every null unknown member dropped all the same', () => {
    const containers = Array.from({ length: 60 }, (_, i) => ({ name: `c${i}`, a: null, b: 1 }));
    const out = same({ apiVersion: 'v1', kind: 'Pod', spec: { containers } });
    assert.equal((out as Extract<Outcome, { body: string }>).errors.length, 100);
  });

  test("decoded structs are plain objects like a copy's: the same prototype, keys and members, and nothing else", () => {
    const root = definitionOf({ apiVersion: 'v1', kind: 'Event' })!;
    // More Events than the makers size themselves on (their first few), a later one with more members than those had.
    for (let i = 0; i < 12; i++) {
      const input: Record<string, unknown> = {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: {
          name: `e${i}`,
          namespace: 'default',
          ...(i === 11 ? { labels: { a: 'b' }, uid: 'u', generation: 2 } : {}),
        },
        involvedObject: { kind: 'Pod', name: `p${i}`, namespace: 'default', uid: `u${i}`, apiVersion: 'v1' },
        reason: 'Scheduled',
        message: 'm',
        source: { component: 'default-scheduler' },
        count: i,
        type: 'Normal',
      };
      const decoded = decodeBuiltInBody(input, root, REQUEST_LIMITS)!.body;
      const copied = copyMembersCounted(input, REQUEST_LIMITS).value;
      // Strict deepEqual compares prototypes and own keys: a stray member or another prototype fails it.
      assert.deepStrictEqual(decoded, copied);
      for (const v of [decoded, decoded.metadata, decoded.involvedObject, decoded.source] as object[]) {
        assert.equal(Object.getPrototypeOf(v), Object.prototype);
        assert.equal((v as { constructor: unknown }).constructor, Object);
        assert.ok(!Object.hasOwn(v, 'constructor'));
      }
      assert.equal(JSON.stringify(decoded), JSON.stringify(input));
      assert.deepEqual(Object.keys(decoded.metadata as object), Object.keys(input.metadata as object));
    }
  });

  test('structs decoded after their plan takes a larger maker answer as a copy does, members added after included', () => {
    const root = definitionOf({ apiVersion: 'v1', kind: 'Event' })!;
    const bodies: Record<string, unknown>[] = [];
    // Events about Nodes first (no namespace), then many about pods (one member more), then a few with more still.
    for (let i = 0; i < 120; i++) {
      const node = i < 10;
      const wide = i >= 100;
      const input: Record<string, unknown> = {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: `e${i}`, namespace: 'default' },
        involvedObject: {
          kind: node ? 'Node' : 'Pod',
          name: `o${i}`,
          ...(node ? {} : { namespace: 'default' }),
          uid: `u${i}`,
          apiVersion: 'v1',
          ...(wide ? { resourceVersion: `${i}`, fieldPath: 'spec.containers{app}' } : {}),
        },
        reason: 'Scheduled',
        message: 'm',
        type: 'Normal',
      };
      const decoded = decodeBuiltInBody(input, root, REQUEST_LIMITS)!.body;
      assert.deepStrictEqual(decoded, copyMembersCounted(input, REQUEST_LIMITS).value);
      assert.equal(JSON.stringify(decoded), JSON.stringify(input));
      // What the API server adds after decoding (its metadata), as a write does, is kept in order like any member.
      const meta = decoded.metadata as Record<string, unknown>;
      meta.uid = `uid-${i}`;
      meta.creationTimestamp = '2026-01-01T00:00:00Z';
      meta.resourceVersion = `${i}`;
      assert.deepEqual(Object.keys(meta), ['name', 'namespace', 'uid', 'creationTimestamp', 'resourceVersion']);
      assert.equal(Object.getPrototypeOf(decoded.involvedObject), Object.prototype);
      assert.ok(!Object.isFrozen(decoded.involvedObject) && Object.isExtensible(decoded.involvedObject));
      bodies.push(decoded);
    }
    // Earlier objects are not changed by later decodes (a maker's first objects are read, never written).
    for (let i = 0; i < bodies.length; i++) {
      assert.equal((bodies[i].involvedObject as { name: string }).name, `o${i}`);
      assert.equal(Object.keys(bodies[i].involvedObject as object).length, i < 10 ? 4 : i >= 100 ? 7 : 5);
    }
  });

  test("a struct's members are looked up in the active release's definition, switched between decodes", () => {
    // PodSpec.resources is 1.32's (pod-level resources), unknown to 1.31: a plan kept across the switch would miss it.
    const pod = () => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'app', image: 'nginx' }], resources: { limits: { cpu: '1' } } },
    });
    const unknownPaths = () =>
      decodeBuiltInBody(pod(), definitionOf(pod())!, REQUEST_LIMITS)!.errors.map((e) => e.path);
    assert.deepEqual(unknownPaths(), []);
    setKubernetesVersion('1.31');
    try {
      assert.deepEqual(unknownPaths(), ['spec.resources']);
      assert.deepEqual(unknownPaths(), ['spec.resources']);
    } finally {
      setKubernetesVersion('1.32');
    }
    assert.deepEqual(unknownPaths(), []);
  });

  test('the same outcome as the separate passes for any body (fast-check, kinds Pod, Event and Deployment)', () => {
    const key = fc.constantFrom(
      'metadata',
      'spec',
      'status',
      'containers',
      'name',
      'image',
      'ports',
      'containerPort',
      'conditions',
      'lastProbeTime',
      'lastTransitionTime',
      'labels',
      'annotations',
      'creationTimestamp',
      'eventTime',
      'involvedObject',
      'source',
      'template',
      'replicas',
      'selector',
      'matchLabels',
      'resources',
      'requests',
      'cpu',
      'nodeSelector',
      'tolerations',
      'volumes',
      'emptyDir',
      'bogus',
      '__proto__',
    );
    const tree = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.constant(undefined),
        fc.string({ maxLength: 12 }),
        fc.integer(),
        fc.boolean(),
        fc.constant(Number.NaN),
        tie('array'),
        tie('object'),
      ),
      array: fc.array(tie('value'), { maxLength: 4 }),
      object: fc.dictionary(key, tie('value'), { maxKeys: 5 }),
    }));
    const body = fc.record({
      kind: fc.constantFrom<[string, string]>(['v1', 'Pod'], ['v1', 'Event'], ['apps/v1', 'Deployment']),
      members: fc.dictionary(key, tree.value, { maxKeys: 5 }),
      freeze: fc.integer({ min: 0, max: 3 }),
      narrow: fc.boolean(),
      small: fc.boolean(),
    });
    fc.assert(
      fc.property(body, ({ kind: [apiVersion, kind], members, freeze, narrow, small }) => {
        const input: Record<string, unknown> = { apiVersion, kind, ...members };
        // 0: nothing frozen; 1: every member; 2: every other object found; 3: the whole body's members deeply
        let n = 0;
        const visit = (v: unknown): void => {
          if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return;
          for (const x of Object.values(v)) visit(x);
          if (freeze === 2 && n++ % 2 === 0) Object.freeze(v);
        };
        for (const k of Object.keys(members)) {
          if (freeze === 1 || freeze === 3) deepFreeze(members[k]);
          else visit(members[k]);
        }
        const limits = small ? { maxDepth: 5, maxBytes: 200 } : REQUEST_LIMITS;
        const keep = narrow ? STATUS_MEMBERS : undefined;
        for (let round = 0; round < 2; round++) same(input, limits, keep);
      }),
      { numRuns: 3000 },
    );
  });
});
