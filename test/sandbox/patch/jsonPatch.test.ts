/**
 * JSON patch as kube-apiserver applies it: gopkg.in/evanphx/json-patch.v4
 * v4.12.0 behind handlers/patch.go. The tables of the library's own
 * patch_test.go (TestAllCases: Cases, MutationTestCases, BadCases; TestAllTest:
 * TestCases; TestAdd; TestEquality) are ported below as data, JSON text as
 * upstream writes it; where upstream only checks that a case fails, the
 * expected message is the one its patch.go builds. The root-array cases of
 * `Cases` are checked here against what the library does: upstream's
 * compareJSON decodes into a map and so never compared them.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Status } from '../../../sandbox/api/errors';
import { isApiError } from '../../../sandbox/api/errors';
import { deepFreeze } from '../../../sandbox/util/json';
import { applyJsonPatch } from '../../../sandbox/api/patch/jsonPatch';
import type { JsonPatchOptions } from '../../../sandbox/api/patch/jsonPatch';
import { patchFailureDetail } from '../../../sandbox/api/patch/patchErrors';
import { goAtoi, goQuote } from '../../../sandbox/util/goText';

/** Applies with both inputs deep-frozen, as stored objects are. */
function apply(doc: unknown, patch: unknown, options?: JsonPatchOptions): unknown {
  return applyJsonPatch(deepFreeze(structuredClone(doc)), deepFreeze(structuredClone(patch)), options);
}

/** JSON texts, as upstream's tables hold them. */
function applyText(doc: string, patch: string, options?: JsonPatchOptions): unknown {
  return apply(JSON.parse(doc), JSON.parse(patch), options);
}

/** The ApiError `fn` throws. */
function caught(fn: () => unknown): { status: Status; detail: string | undefined } {
  try {
    fn();
  } catch (e) {
    if (isApiError(e)) return { status: e.status, detail: patchFailureDetail(e) };
    throw e;
  }
  assert.fail('expected an ApiError');
}

/** kube-apiserver's 422 for a patch that does not apply: NewGenericServerResponse drops the reason. */
const NOT_APPLIED: Status = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'the server rejected our request due to an error in our request',
  reason: 'Invalid',
  details: {},
  code: 422,
};

/** Fails with upstream's 422, the library's `detail` on the error. */
function notApplied(fn: () => unknown, detail: string): void {
  const { status, detail: got } = caught(fn);
  assert.deepEqual(status, NOT_APPLIED);
  assert.equal(got, detail);
}

function badRequest(message: string): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'BadRequest',
    code: 400,
  };
}

/** upstream patch_test.go repeatedA. */
const repeatedA = (n: number): string => 'A'.repeat(n);

describe('evanphx/json-patch v4 patch_test.go: TestAllCases (Cases, AccumulatedCopySizeLimit 100)', () => {
  const cases: Array<[doc: string, patch: string, result: string]> = [
    [`{ "foo": "bar"}`, `[{ "op": "add", "path": "/baz", "value": "qux" }]`, `{ "baz": "qux", "foo": "bar" }`],
    [
      `{ "foo": [ "bar", "baz" ] }`,
      `[{ "op": "add", "path": "/foo/1", "value": "qux" }]`,
      `{ "foo": [ "bar", "qux", "baz" ] }`,
    ],
    [
      `{ "foo": [ "bar", "baz" ] }`,
      `[{ "op": "add", "path": "/foo/-1", "value": "qux" }]`,
      `{ "foo": [ "bar", "baz", "qux" ] }`,
    ],
    [`{ "baz": "qux", "foo": "bar" }`, `[ { "op": "remove", "path": "/baz" } ]`, `{ "foo": "bar" }`],
    [`{ "foo": [ "bar", "qux", "baz" ] }`, `[ { "op": "remove", "path": "/foo/1" } ]`, `{ "foo": [ "bar", "baz" ] }`],
    [
      `{ "baz": "qux", "foo": "bar" }`,
      `[ { "op": "replace", "path": "/baz", "value": "boo" } ]`,
      `{ "baz": "boo", "foo": "bar" }`,
    ],
    [
      `{ "foo": { "bar": "baz", "waldo": "fred" }, "qux": { "corge": "grault" } }`,
      `[ { "op": "move", "from": "/foo/waldo", "path": "/qux/thud" } ]`,
      `{ "foo": { "bar": "baz" }, "qux": { "corge": "grault", "thud": "fred" } }`,
    ],
    [
      `{ "foo": [ "all", "grass", "cows", "eat" ] }`,
      `[ { "op": "move", "from": "/foo/1", "path": "/foo/3" } ]`,
      `{ "foo": [ "all", "cows", "eat", "grass" ] }`,
    ],
    [
      `{ "foo": [ "all", "grass", "cows", "eat" ] }`,
      `[ { "op": "move", "from": "/foo/1", "path": "/foo/2" } ]`,
      `{ "foo": [ "all", "cows", "grass", "eat" ] }`,
    ],
    [
      `{ "foo": "bar" }`,
      `[ { "op": "add", "path": "/child", "value": { "grandchild": { } } } ]`,
      `{ "foo": "bar", "child": { "grandchild": { } } }`,
    ],
    [
      `{ "foo": ["bar"] }`,
      `[ { "op": "add", "path": "/foo/-", "value": ["abc", "def"] } ]`,
      `{ "foo": ["bar", ["abc", "def"]] }`,
    ],
    [
      `{ "foo": "bar", "qux": { "baz": 1, "bar": null } }`,
      `[ { "op": "remove", "path": "/qux/bar" } ]`,
      `{ "foo": "bar", "qux": { "baz": 1 } }`,
    ],
    [`{ "foo": "bar" }`, `[ { "op": "add", "path": "/baz", "value": null } ]`, `{ "baz": null, "foo": "bar" }`],
    [`{ "foo": ["bar"]}`, `[ { "op": "replace", "path": "/foo/0", "value": "baz"}]`, `{ "foo": ["baz"]}`],
    [`{ "foo": ["bar","baz"]}`, `[ { "op": "replace", "path": "/foo/0", "value": "bum"}]`, `{ "foo": ["bum","baz"]}`],
    [
      `{ "foo": ["bar","qux","baz"]}`,
      `[ { "op": "replace", "path": "/foo/1", "value": "bum"}]`,
      `{ "foo": ["bar", "bum","baz"]}`,
    ],
    [
      `[ {"foo": ["bar","qux","baz"]}]`,
      `[ { "op": "replace", "path": "/0/foo/0", "value": "bum"}]`,
      `[ {"foo": ["bum","qux","baz"]}]`,
    ],
    [
      `[ {"foo": ["bar","qux","baz"], "bar": ["qux","baz"]}]`,
      `[ { "op": "copy", "from": "/0/foo/0", "path": "/0/bar/0"}]`,
      `[ {"foo": ["bar","qux","baz"], "bar": ["bar", "qux", "baz"]}]`,
    ],
    [
      `[ {"foo": ["bar","qux","baz"], "bar": ["qux","baz"]}]`,
      `[ { "op": "copy", "from": "/0/foo/0", "path": "/0/bar"}]`,
      `[ {"foo": ["bar","qux","baz"], "bar": "bar"}]`,
    ],
    [
      `[ { "foo": {"bar": ["qux","baz"]}, "baz": {"qux": "bum"}}]`,
      `[ { "op": "copy", "from": "/0/foo/bar", "path": "/0/baz/bar"}]`,
      `[ { "baz": {"bar": ["qux","baz"], "qux":"bum"}, "foo": {"bar": ["qux","baz"]}}]`,
    ],
    [`{ "foo": ["bar"]}`, `[{"op": "copy", "path": "/foo/0", "from": "/foo"}]`, `{ "foo": [["bar"], "bar"]}`],
    [`{ "foo": ["bar","qux","baz"]}`, `[ { "op": "remove", "path": "/foo/-2"}]`, `{ "foo": ["bar", "baz"]}`],
    [`{ "foo": []}`, `[ { "op": "add", "path": "/foo/-1", "value": "qux"}]`, `{ "foo": ["qux"]}`],
    [
      `{ "bar": [{"baz": null}]}`,
      `[ { "op": "replace", "path": "/bar/0/baz", "value": 1 } ]`,
      `{ "bar": [{"baz": 1}]}`,
    ],
    [
      `{ "bar": [{"baz": 1}]}`,
      `[ { "op": "replace", "path": "/bar/0/baz", "value": null } ]`,
      `{ "bar": [{"baz": null}]}`,
    ],
    [`{ "bar": [null]}`, `[ { "op": "replace", "path": "/bar/0", "value": 1 } ]`, `{ "bar": [1]}`],
    [`{ "bar": [1]}`, `[ { "op": "replace", "path": "/bar/0", "value": null } ]`, `{ "bar": [null]}`],
    [
      `{ "foo": ["A", "${repeatedA(48)}"] }`,
      `[ { "op": "copy", "path": "/foo/-", "from": "/foo/1" }, { "op": "copy", "path": "/foo/-", "from": "/foo/1" }]`,
      `{ "foo": ["A", "${repeatedA(48)}", "${repeatedA(48)}", "${repeatedA(48)}"] }`,
    ],
  ];
  cases.forEach(([doc, patch, result], i) => {
    test(`Cases[${i}] ${patch.replace(/\s+/g, ' ').slice(0, 90)}`, () =>
      assert.deepEqual(applyText(doc, patch, { copySizeLimit: 100 }), JSON.parse(result)));
  });

  // MutationTestCases: the patch applies and changes the document.
  const mutations: Array<[doc: string, patch: string]> = [
    [`{ "foo": "bar", "qux": { "baz": 1, "bar": null } }`, `[ { "op": "remove", "path": "/qux/bar" } ]`],
    [
      `{ "foo": "bar", "qux": { "baz": 1, "bar": null } }`,
      `[ { "op": "replace", "path": "/qux/baz", "value": null } ]`,
    ],
  ];
  mutations.forEach(([doc, patch], i) => {
    test(`MutationTestCases[${i}]`, () => assert.notDeepEqual(applyText(doc, patch), JSON.parse(doc)));
  });
});

describe('evanphx/json-patch v4 patch_test.go: TestAllCases (BadCases) with the library messages', () => {
  const bad: Array<[doc: string, patch: string, detail: string]> = [
    [
      `{ "foo": "bar" }`,
      `[ { "op": "add", "path": "/baz/bat", "value": "qux" } ]`,
      'add operation does not apply: doc is missing path: "/baz/bat": missing value',
    ],
    [
      `{ "a": { "b": { "d": 1 } } }`,
      `[ { "op": "remove", "path": "/a/b/c" } ]`,
      "error in remove for path: '/a/b/c': Unable to remove nonexistent key: c: missing value",
    ],
    [
      `{ "a": { "b": { "d": 1 } } }`,
      `[ { "op": "move", "from": "/a/b/c", "path": "/a/b/e" } ]`,
      "error in move for path: 'c': Unable to remove nonexistent key: c: missing value",
    ],
    [
      `{ "a": { "b": [1] } }`,
      `[ { "op": "remove", "path": "/a/b/1" } ]`,
      "error in remove for path: '/a/b/1': Unable to access invalid index: 1: invalid index referenced",
    ],
    [
      `{ "a": { "b": [1] } }`,
      `[ { "op": "move", "from": "/a/b/1", "path": "/a/b/2" } ]`,
      "error in move for path: '1': Unable to access invalid index: 1: invalid index referenced",
    ],
    [
      `{ "foo": "bar" }`,
      `[ { "op": "add", "pathz": "/baz", "value": "qux" } ]`,
      'add operation failed to decode path: missing value',
    ],
    [
      `{ "foo": "bar" }`,
      `[ { "op": "add", "path": "", "value": "qux" } ]`,
      'add operation does not apply: doc is missing path: "": missing value',
    ],
    [
      `{ "foo": ["bar","baz"]}`,
      `[ { "op": "replace", "path": "/foo/2", "value": "bum"}]`,
      'replace operation does not apply: doc is missing key: /foo/2: missing value',
    ],
    [
      `{ "foo": ["bar","baz"]}`,
      `[ { "op": "add", "path": "/foo/-4", "value": "bum"}]`,
      "error in add for path: '/foo/-4': Unable to access invalid index: -4: invalid index referenced",
    ],
    [
      `{ "name":{ "foo": "bat", "qux": "bum"}}`,
      `[ { "op": "replace", "path": "/foo/bar", "value":"baz"}]`,
      'replace operation does not apply: doc is missing path: /foo/bar: missing value',
    ],
    [
      `{ "foo": ["bar"]}`,
      `[ {"op": "add", "path": "/foo/2", "value": "bum"}]`,
      "error in add for path: '/foo/2': Unable to access invalid index: 2: invalid index referenced",
    ],
    [
      `{ "foo": []}`,
      `[ {"op": "remove", "path": "/foo/-"}]`,
      `error in remove for path: '/foo/-': strconv.Atoi: parsing "-": invalid syntax`,
    ],
    [
      `{ "foo": []}`,
      `[ {"op": "remove", "path": "/foo/-1"}]`,
      "error in remove for path: '/foo/-1': Unable to access invalid index: -1: invalid index referenced",
    ],
    [
      `{ "foo": ["bar"]}`,
      `[ {"op": "remove", "path": "/foo/-2"}]`,
      "error in remove for path: '/foo/-2': Unable to access invalid index: -2: invalid index referenced",
    ],
    [`{}`, `[ {"op":null,"path":""} ]`, 'Unexpected kind: unknown'],
    [`{}`, `[ {"op":"add","path":null} ]`, 'add operation failed to decode path: missing value'],
    [
      `{}`,
      `[ { "op": "copy", "from": null }]`,
      'copy operation failed to decode from: operation, missing from field: missing value',
    ],
    [
      `{ "foo": ["bar"]}`,
      `[{"op": "copy", "path": "/foo/6666666666", "from": "/"}]`,
      'error while adding value during copy: Unable to access invalid index: 6666666666: invalid index referenced',
    ],
    [
      `{ "foo": ["bar"]}`,
      `[{"op": "copy", "path": "/foo/2", "from": "/foo/0"}]`,
      'error while adding value during copy: Unable to access invalid index: 2: invalid index referenced',
    ],
    [
      `{ "foo": ["A", "${repeatedA(49)}"] }`,
      `[ { "op": "copy", "path": "/foo/-", "from": "/foo/1" }, { "op": "copy", "path": "/foo/-", "from": "/foo/1" }]`,
      'Unable to complete the copy, the accumulated size increase of copy is 102, exceeding the limit 100',
    ],
    [
      `{ "foo": [ "all", "grass", "cows", "eat" ] }`,
      `[ { "op": "move", "from": "/foo/1", "path": "/foo/4" } ]`,
      "error in move for path: '/foo/4': Unable to access invalid index: 4: invalid index referenced",
    ],
  ];
  bad.forEach(([doc, patch, detail], i) => {
    test(`BadCases[${i}] ${patch.replace(/\s+/g, ' ').slice(0, 90)}`, () =>
      notApplied(() => applyText(doc, patch, { copySizeLimit: 100 }), detail));
  });
});

describe('evanphx/json-patch v4 patch_test.go: TestAllTest (TestCases)', () => {
  const cases: Array<[doc: string, patch: string, failedPath?: string]> = [
    [
      `{ "baz": "qux", "foo": [ "a", 2, "c" ] }`,
      `[ { "op": "test", "path": "/baz", "value": "qux" }, { "op": "test", "path": "/foo/1", "value": 2 } ]`,
    ],
    [`{ "baz": "qux" }`, `[ { "op": "test", "path": "/baz", "value": "bar" } ]`, '/baz'],
    [
      `{ "baz": "qux", "foo": ["a", 2, "c"] }`,
      `[ { "op": "test", "path": "/baz", "value": "qux" }, { "op": "test", "path": "/foo/1", "value": "c" } ]`,
      '/foo/1',
    ],
    [`{ "baz": "qux" }`, `[ { "op": "test", "path": "/foo", "value": 42 } ]`, '/foo'],
    [`{ "baz": "qux" }`, `[ { "op": "test", "path": "/foo", "value": null } ]`],
    [`{ "foo": null }`, `[ { "op": "test", "path": "/foo", "value": null } ]`],
    [`{ "foo": {} }`, `[ { "op": "test", "path": "/foo", "value": null } ]`, '/foo'],
    [`{ "foo": [] }`, `[ { "op": "test", "path": "/foo", "value": null } ]`, '/foo'],
    [`{ "baz/foo": "qux" }`, `[ { "op": "test", "path": "/baz~1foo", "value": "qux"} ]`],
    [`{ "foo": [] }`, `[ { "op": "test", "path": "/foo"} ]`, '/foo'],
  ];
  cases.forEach(([doc, patch, failedPath], i) => {
    test(`TestCases[${i}] ${failedPath ? `fails at ${failedPath}` : 'passes'}`, () => {
      if (failedPath === undefined) assert.deepEqual(applyText(doc, patch), JSON.parse(doc));
      else notApplied(() => applyText(doc, patch), `testing value ${failedPath} failed: test failed`);
    });
  });
});

describe('evanphx/json-patch v4 patch_test.go: TestAdd (partialArray.add) and TestEquality', () => {
  // TestAdd's "negative but negative disabled" is not ported: kube-apiserver keeps SupportNegativeIndices on.
  const adds: Array<[name: string, key: string, error?: string]> = [
    ['should work', '0'],
    ['index too large', '1', 'Unable to access invalid index: 1: invalid index referenced'],
    ['negative should work', '-1'],
    ['negative too small', '-2', 'Unable to access invalid index: -2: invalid index referenced'],
  ];
  for (const [name, key, error] of adds) {
    test(name, () => {
      const patch = [{ op: 'add', path: `/a/${key}`, value: 'x' }];
      if (error === undefined) assert.deepEqual(apply({ a: [] }, patch), { a: ['x'] });
      else notApplied(() => apply({ a: [] }, patch), `error in add for path: '/a/${key}': ${error}`);
    });
  }

  test('EqualityCases: a document is not equal to one with a member more, either way round', () => {
    const a = { foo: 'bar' };
    const b = { foo: 'bar', baz: 'qux' };
    notApplied(() => apply(a, [{ op: 'test', path: '', value: b }]), 'testing value  failed: test failed');
    notApplied(() => apply(b, [{ op: 'test', path: '', value: a }]), 'testing value  failed: test failed');
    assert.deepEqual(apply(a, [{ op: 'test', path: '', value: { foo: 'bar' } }]), a);
  });
});

describe('where kube-apiserver differs from RFC 6902 (issue 11)', () => {
  const ok: Array<[name: string, doc: unknown, patch: unknown, result: unknown]> = [
    ['remove /a/-1 removes the last element', { a: [1, 2, 3] }, [{ op: 'remove', path: '/a/-1' }], { a: [1, 2] }],
    ['add /a/-1 appends', { a: [1, 2] }, [{ op: 'add', path: '/a/-1', value: 3 }], { a: [1, 2, 3] }],
    ['add /a/-3 prepends', { a: [1, 2] }, [{ op: 'add', path: '/a/-3', value: 0 }], { a: [0, 1, 2] }],
    ['replace /a/01 is index 1', { a: [1, 2] }, [{ op: 'replace', path: '/a/01', value: 9 }], { a: [1, 9] }],
    ['replace /a/+0 is index 0', { a: [1, 2] }, [{ op: 'replace', path: '/a/+0', value: 9 }], { a: [9, 2] }],
    ['test /a/-1 reads from the end', { a: [1, 2] }, [{ op: 'test', path: '/a/-1', value: 2 }], { a: [1, 2] }],
    ['replace of a missing member adds it', { a: 1 }, [{ op: 'replace', path: '/b', value: 2 }], { a: 1, b: 2 }],
    ['add without a value sets null', { a: 1 }, [{ op: 'add', path: '/b' }], { a: 1, b: null }],
    ['replace without a value sets null', { a: 1 }, [{ op: 'replace', path: '/a' }], { a: null }],
    ['copy from a missing member copies null', { a: 1 }, [{ op: 'copy', from: '/x', path: '/b' }], { a: 1, b: null }],
    ['a path without a leading / drops its first segment', { a: 1 }, [{ op: 'remove', path: 'x/a' }], {}],
    ['a ~ escape other than ~0 or ~1 is kept', { 'a~2': 1 }, [{ op: 'remove', path: '/a~2' }], {}],
    ['/ names the member ""', { '': 1, a: 2 }, [{ op: 'remove', path: '/' }], { a: 2 }],
    ['replace at the root replaces the document', { a: 1 }, [{ op: 'replace', path: '', value: { b: 2 } }], { b: 2 }],
    ['replace at the root with an array', { a: 1 }, [{ op: 'replace', path: '', value: [1] }], [1]],
    ['test of a missing member with value null passes', { a: 1 }, [{ op: 'test', path: '/b', value: null }], { a: 1 }],
    ['test of a missing member without value passes', { a: 1 }, [{ op: 'test', path: '/b' }], { a: 1 }],
    ['move onto itself', { a: 1 }, [{ op: 'move', from: '/a', path: '/a' }], { a: 1 }],
    [
      'test compares objects regardless of member order',
      { m: { a: 1, b: [1, { c: 'x' }] } },
      [{ op: 'test', path: '/m', value: { b: [1, { c: 'x' }], a: 1 } }],
      { m: { a: 1, b: [1, { c: 'x' }] } },
    ],
    ['a null patch is no operations', { a: 1 }, null, { a: 1 }],
  ];
  for (const [name, doc, patch, result] of ok) test(name, () => assert.deepEqual(apply(doc, patch), result));

  const failing: Array<[name: string, doc: unknown, patch: unknown, detail: string]> = [
    // test on a missing path: three different answers, by where the path stops.
    [
      'test under a missing parent',
      { a: 1 },
      [{ op: 'test', path: '/b/c', value: 1 }],
      'test operation does not apply: is missing path: /b/c: missing value',
    ],
    [
      'test of a missing member',
      { a: 1 },
      [{ op: 'test', path: '/b', value: 1 }],
      'testing value /b failed: test failed',
    ],
    [
      'test past the end of an array',
      { a: [1] },
      [{ op: 'test', path: '/a/5', value: 1 }],
      "error in test for path: '/a/5': Unable to access invalid index: 5: invalid index referenced",
    ],
    [
      'test with a token that is no index',
      { a: [1] },
      [{ op: 'test', path: '/a/x', value: 1 }],
      `error in test for path: '/a/x': strconv.Atoi: parsing "x": invalid syntax`,
    ],
    [
      'add with a token that is no index',
      { a: [1] },
      [{ op: 'add', path: '/a/x', value: 1 }],
      `error in add for path: '/a/x': value was not a proper array index: 'x': strconv.Atoi: parsing "x": invalid syntax`,
    ],
    [
      'an index out of int64',
      { a: [1] },
      [{ op: 'remove', path: '/a/99999999999999999999' }],
      `error in remove for path: '/a/99999999999999999999': strconv.Atoi: parsing "99999999999999999999": value out of range`,
    ],
    ['unknown op', { a: 1 }, [{ op: 'merge', path: '/a' }], 'Unexpected kind: merge'],
    ['no op', { a: 1 }, [{ path: '/a' }], 'Unexpected kind: unknown'],
    ['a null operation', { a: 1 }, [null], 'Unexpected kind: unknown'],
    ['remove without a path', { a: 1 }, [{ op: 'remove' }], 'remove operation failed to decode path: missing value'],
    [
      'replace without a path',
      { a: 1 },
      [{ op: 'replace' }],
      'replace operation failed to decode path: operation missing path field: missing value',
    ],
    [
      'test without a path',
      { a: 1 },
      [{ op: 'test' }],
      'test operation failed to decode path: operation missing path field: missing value',
    ],
    [
      'move without from',
      { a: 1 },
      [{ op: 'move', path: '/b' }],
      'move operation failed to decode from: operation, missing from field: missing value',
    ],
    [
      'move without path',
      { a: 1 },
      [{ op: 'move', from: '/a' }],
      'move operation failed to decode path: operation missing path field: missing value',
    ],
    [
      'copy without path',
      { a: 1 },
      [{ op: 'copy', from: '/a' }],
      'copy operation failed to decode path: missing value',
    ],
    [
      'a path without any /',
      { a: 1 },
      [{ op: 'remove', path: 'a' }],
      'remove operation does not apply: doc is missing path: "a": missing value',
    ],
    [
      'remove the root',
      { a: 1 },
      [{ op: 'remove', path: '' }],
      'remove operation does not apply: doc is missing path: "": missing value',
    ],
    [
      'replace at the root with a primitive',
      { a: 1 },
      [{ op: 'replace', path: '', value: 1 }],
      'replace operation value must be object or array: %!w(<nil>)',
    ],
    [
      'move into its own child: the source is gone first',
      { a: { b: 1 } },
      [{ op: 'move', from: '/a', path: '/a/b/c' }],
      'move operation does not apply: doc is missing destination path: /a/b/c: missing value',
    ],
    [
      'move from under a missing parent',
      { a: 1 },
      [{ op: 'move', from: '/x/y', path: '/b' }],
      'move operation does not apply: doc is missing from path: /x/y: missing value',
    ],
    [
      'copy from past the end',
      { a: [1] },
      [{ op: 'copy', from: '/a/3', path: '/b' }],
      "error in copy for from: '/a/3': Unable to access invalid index: 3: invalid index referenced",
    ],
    [
      'through a primitive',
      { a: 'text' },
      [{ op: 'add', path: '/a/b', value: 1 }],
      'add operation does not apply: doc is missing path: "/a/b": missing value',
    ],
    [
      'through a null member',
      { a: null },
      [{ op: 'add', path: '/a/b', value: 1 }],
      'add operation does not apply: doc is missing path: "/a/b": missing value',
    ],
    [
      'inherited members are not members',
      { a: 1 },
      [{ op: 'remove', path: '/constructor' }],
      "error in remove for path: '/constructor': Unable to remove nonexistent key: constructor: missing value",
    ],
    [
      'A.9 test with a different value',
      { baz: 'qux' },
      [{ op: 'test', path: '/baz', value: 'bar' }],
      'testing value /baz failed: test failed',
    ],
    [
      'test of a null member against a value',
      { a: null },
      [{ op: 'test', path: '/a', value: 0 }],
      'testing value /a failed: test failed',
    ],
    [
      'test: an object with a null member is not one without it',
      { m: { a: 1, b: null } },
      [{ op: 'test', path: '/m', value: { a: 1 } }],
      'testing value /m failed: test failed',
    ],
    [
      'test: a number is not its string',
      { a: 10 },
      [{ op: 'test', path: '/a', value: '10' }],
      'testing value /a failed: test failed',
    ],
  ];
  for (const [name, doc, patch, detail] of failing)
    test(`${name} → 422`, () => notApplied(() => apply(doc, patch), detail));

  test('where the library panics the server answers 500', () => {
    for (const [doc, patch] of [
      [{ a: [null] }, [{ op: 'test', path: '/a', value: [null] }]],
      [{ a: [1] }, [{ op: 'test', path: '/a', value: [null] }]],
      [{ a: 1 }, [{ op: 'replace', path: '' }]],
      [{ a: 1 }, [{ op: 'test', path: '' }]],
    ]) {
      const { status } = caught(() => apply(doc, patch));
      assert.equal(status.code, 500, JSON.stringify(patch));
      assert.equal(status.message, 'This request caused apiserver to panic. Look in the logs for details.');
    }
  });

  test('the copy limit defaults to kube-apiserver JSONPatchMaxCopyBytes (3 MiB)', () => {
    const big = 'x'.repeat(1024 * 1024);
    const copies = [1, 2, 3].map(() => ({ op: 'copy', from: '/a', path: '/b' }));
    notApplied(
      () => apply({ a: big }, copies),
      `Unable to complete the copy, the accumulated size increase of copy is ${3 * (big.length + 2)}, exceeding the limit ${3 * 1024 * 1024}`,
    );
    assert.deepEqual(apply({ a: big }, copies.slice(0, 2)), { a: big, b: big });
    // Go writes <, > and & as \u003c…: six bytes each.
    notApplied(
      () => apply({ a: '<&>' }, [{ op: 'copy', from: '/a', path: '/b' }], { copySizeLimit: 19 }),
      'Unable to complete the copy, the accumulated size increase of copy is 20, exceeding the limit 19',
    );
  });
});

describe('decoding the body (400), as the patch handler does', () => {
  const typed: Array<[name: string, ops: unknown, message: string]> = [
    ['an object', { op: 'add' }, 'json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp'],
    ['a string', 'add', 'json: cannot unmarshal string into Go value of type []handlers.jsonPatchOp'],
    ['an array of numbers', [1], 'json: cannot unmarshal number into Go value of type handlers.jsonPatchOp'],
    ['an array of arrays', [[]], 'json: cannot unmarshal array into Go value of type handlers.jsonPatchOp'],
    [
      'a number as op',
      [{ op: 5, path: '/a' }],
      'json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string',
    ],
    [
      'an object as path',
      [{ op: 'remove', path: {} }],
      'json: cannot unmarshal object into Go struct field jsonPatchOp.path of type string',
    ],
    [
      'a bool as from',
      [{ op: 'copy', from: true, path: '/b' }],
      'json: cannot unmarshal bool into Go struct field jsonPatchOp.from of type string',
    ],
  ];
  for (const [name, ops, message] of typed) {
    test(`${name}: fieldValidation Warn (the default) and Strict`, () => {
      assert.deepEqual(caught(() => apply({ a: 1 }, ops)).status, badRequest(`error decoding patch: ${message}`));
      assert.deepEqual(
        caught(() => apply({ a: 1 }, ops, { fieldValidation: 'Strict' })).status,
        badRequest(`error decoding patch: ${message}`),
      );
    });
  }

  test('fieldValidation Ignore: the library decoder alone', () => {
    const ignore = { fieldValidation: 'Ignore' } as const;
    assert.deepEqual(
      caught(() => apply({ a: 1 }, { op: 'add' }, ignore)).status,
      badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch'),
    );
    assert.deepEqual(
      caught(() => apply({ a: 1 }, [1], ignore)).status,
      badRequest('json: cannot unmarshal number into Go value of type jsonpatch.Operation'),
    );
    // Members of any type decode; the operation then reads them.
    notApplied(() => apply({ a: 1 }, [{ op: 5, path: '/a' }], ignore), 'Unexpected kind: unknown');
    notApplied(
      () => apply({ a: 1 }, [{ op: 'replace', path: 5 }], ignore),
      'replace operation failed to decode path: json: cannot unmarshal number into Go value of type string',
    );
  });

  test('more than 10000 operations → 413', () => {
    const ops = Array.from({ length: 10001 }, () => ({ op: 'test', path: '/a', value: 1 }));
    assert.deepEqual(caught(() => applyJsonPatch({ a: 1 }, ops)).status, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
      reason: 'RequestEntityTooLarge',
      code: 413,
    });
  });

  test('all or nothing, and the result shares nothing with the inputs', () => {
    const target = deepFreeze({ a: { list: [1] } });
    const ops = deepFreeze([{ op: 'add', path: '/b', value: { inner: [1] } }]);
    const out = applyJsonPatch(target, ops) as { a: { list: number[] }; b: { inner: number[] } };
    out.a.list.push(2);
    out.b.inner.push(2);
    assert.deepEqual([target, ops], [{ a: { list: [1] } }, [{ op: 'add', path: '/b', value: { inner: [1] } }]]);
    assert.throws(() =>
      applyJsonPatch(target, [
        { op: 'add', path: '/c', value: 1 },
        { op: 'test', path: '/c', value: 2 },
      ]),
    );
    assert.deepEqual(target, { a: { list: [1] } });
  });
});

describe("Go's strconv.Atoi and strconv.Quote, as the messages print them", () => {
  const atoi: Array<[string, bigint | string]> = [
    ['0', 0n],
    ['007', 7n],
    ['+5', 5n],
    ['-12', -12n],
    ['9223372036854775807', 9223372036854775807n],
    ['-9223372036854775808', -9223372036854775808n],
    ['9223372036854775808', 'strconv.Atoi: parsing "9223372036854775808": value out of range'],
    ['', 'strconv.Atoi: parsing "": invalid syntax'],
    ['-', 'strconv.Atoi: parsing "-": invalid syntax'],
    ['1_000', 'strconv.Atoi: parsing "1_000": invalid syntax'],
    [' 1', 'strconv.Atoi: parsing " 1": invalid syntax'],
    ['0x10', 'strconv.Atoi: parsing "0x10": invalid syntax'],
  ];
  for (const [s, want] of atoi) {
    test(`Atoi(${JSON.stringify(s)})`, () =>
      assert.deepEqual(goAtoi(s), typeof want === 'bigint' ? { value: want } : { error: want }));
  }
  test('Quote', () => {
    assert.equal(goQuote('a"b\\c'), '"a\\"b\\\\c"');
    assert.equal(goQuote('\n\t\u0001\u007f'), '"\\n\\t\\x01\\x7f"');
    assert.equal(goQuote('é\u00a0'), '"é\\u00a0"');
  });
});
