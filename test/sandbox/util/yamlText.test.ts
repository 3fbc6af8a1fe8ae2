/**
 * Every YAML writer of the product prints an object met twice in full, never as an anchor and aliases: stored objects
 * may share frozen sub-objects (a pod's admission defaults), and kubectl's YAML has no anchors.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { parse, stringify } from 'yaml';
import type { KubeObject } from '../../../sandbox/api/types';
import { yamlText } from '../../../sandbox/util/yamlText';
import { sendObject } from '../../../sandbox/http/respond';
import { objectDiff } from '../../../sandbox/plan/diff';
import { writeYamlList } from '../../../cli/simulate/report';
import { liveYaml } from '../../../client/src/model/liveYaml';
import { objectState } from '../../../client/src/webview/objectState';
import { MirrorCache } from '../../../client/src/sandbox/mirror';

/** A pod whose two tolerations are one object, and whose pod and container security contexts are one `{}`. */
function sharingPod(name = 'p'): KubeObject {
  const toleration = Object.freeze({ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });
  const empty = Object.freeze({});
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: {
      containers: [{ name: 'app', image: 'nginx', securityContext: empty }],
      securityContext: empty,
      tolerations: [toleration, toleration],
    },
  };
}

const ALIAS = /[&*]a\d/;

/** The text holds the shared objects in full: both tolerations, both `{}`s, and reads back as the object's JSON. */
function assertWrittenInFull(text: string, objects: readonly KubeObject[]): void {
  assert.doesNotMatch(text, ALIAS);
  assert.equal(text.match(/tolerationSeconds: 300/g)?.length, 2 * objects.length);
  assert.equal(text.match(/securityContext: \{\}/g)?.length, 2 * objects.length);
}

describe('YAML writers never write anchors and aliases', () => {
  test("the fixture is one yaml's own stringify aliases", () => {
    assert.match(stringify(sharingPod()), /securityContext: &a\d+ \{\}/);
  });

  test('yamlText writes a repeated object twice, with the options passed', () => {
    const pod = sharingPod();
    const text = yamlText(pod, { sortMapEntries: true, indentSeq: false, lineWidth: 0 });
    assertWrittenInFull(text, [pod]);
    assert.deepEqual(parse(text), JSON.parse(JSON.stringify(pod)));
    assert.match(text, /^apiVersion: v1\nkind: Pod\n/); // sorted
    assert.match(text, /\n {2}tolerations:\n {2}- effect: NoExecute/); // list items not indented
  });

  test("the HTTP server's YAML (sendObject), a List of two pods sharing objects", () => {
    const a = sharingPod('a');
    const b = { ...sharingPod('b'), spec: a.spec };
    let body = '';
    const res = {
      statusCode: 0,
      setHeader: () => undefined,
      end: (text: string) => (body = text),
    } as unknown as ServerResponse;
    sendObject(res, 200, { apiVersion: 'v1', kind: 'PodList', metadata: {}, items: [a, b] }, { encoding: 'yaml' });
    assertWrittenInFull(body, [a, b]);
  });

  test('simulate -o yaml (writeYamlList), item by item as one whole-List yamlText', async () => {
    const a = sharingPod('a');
    const b = { ...sharingPod('b'), spec: a.spec };
    let text = '';
    await writeYamlList([a, b], '9', { write: (t: string) => (text += t) });
    assertWrittenInFull(text, [a, b]);
    const list = { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '9' }, items: [a, b] };
    assert.equal(text, yamlText(list, { sortMapEntries: true, indentSeq: false, lineWidth: 0 }));
  });

  test('kubectl diff (objectDiff): both sides in full', () => {
    const live = sharingPod();
    const spec = live.spec as { tolerations: unknown[] };
    // A third toleration (the same object again): the hunk's context ends with the second one.
    const merged = { ...live, spec: { ...spec, tolerations: [...spec.tolerations, spec.tolerations[0]] } };
    const diff = objectDiff(live, merged);
    assert.doesNotMatch(diff, ALIAS);
    assert.match(diff, /\n\+ {2}- effect: NoExecute\n\+ {4}key: k\n/);
    assert.equal(diff.match(/tolerationSeconds: 300/g)?.length, 2); // the second's, in context, and the third's
  });

  test('Copy as YAML (liveYaml) and the Desired vs Actual live YAML (objectState)', () => {
    const pod = sharingPod();
    assertWrittenInFull(liveYaml(pod), [pod]);
    const cache = new MirrorCache();
    cache.apply({ kind: 'list', resourceVersion: '1', objects: [{ resource: 'pods', object: pod }] });
    const state = objectState({
      ref: { resource: 'pods', namespace: 'default', name: 'p' },
      cache,
      desired: {},
      fileLabel: (f) => f,
      now: 0,
    });
    assert.ok(state.liveYaml !== undefined);
    assertWrittenInFull(state.liveYaml, [pod]);
  });
});
