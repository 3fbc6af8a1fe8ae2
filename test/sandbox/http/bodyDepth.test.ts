/**
 * Request bodies nested too deeply are 400 like any other bad body — never a
 * 500 "Maximum call stack size exceeded" — with nothing stored and the server
 * still serving. Past upstream's own limit (encoding/json and go-yaml: 10000
 * levels) the message is upstream's; past the sandbox's (100, the store's
 * limit) it says so.
 */
import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { MAX_BODY_DEPTH } from '../../../sandbox/http/body';
import { GO_JSON_MAX_DEPTH, jsonNesting, nestsDeeperThan } from '../../../sandbox/util/json';
import { configMap, serve } from './helpers';
import type { Served } from './helpers';

const CMS = '/api/v1/namespaces/default/configmaps';
const SANDBOX = `the body nests objects and arrays more than ${MAX_BODY_DEPTH} levels deep, which this sandbox does not decode (kube-apiserver decodes up to 10000)`;

const arrays = (n: number): string => '['.repeat(n) + ']'.repeat(n);
/** A ConfigMap whose extra field `x` holds `n` nested arrays: n + 1 levels with the object itself. */
const jsonObject = (name: string, n: number): string =>
  `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"},"x":${arrays(n)}}`;
const yamlFlow = (name: string, n: number): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\nx: ${arrays(n)}\n`;
/** `n` block sequences on one line (`- - - 1`), under `x:` on line 6. */
const yamlBlock = (name: string, n: number): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\nx:\n  ${'- '.repeat(n)}1\n`;

describe('jsonNesting and nestsDeeperThan', () => {
  it('measure the deepest level and name the first bracket past the limit', () => {
    assert.deepEqual(jsonNesting('{"a":[1,{"b":[]}],"c":{}}'), { deepest: 4 });
    assert.deepEqual(jsonNesting('[[{}]]', 2), { deepest: 3, overflow: { offset: 2, bracket: '{' } });
    assert.deepEqual(jsonNesting('{"a":[[]]}', 2), { deepest: 3, overflow: { offset: 6, bracket: '[' } });
    assert.deepEqual(jsonNesting('1'), { deepest: 0 });
  });

  it('skip brackets inside strings, escaped quotes included', () => {
    assert.deepEqual(jsonNesting('{"a":"[[[{{{","b\\"[[":"\\\\"}'), { deepest: 1 });
    assert.deepEqual(jsonNesting(`["${'['.repeat(50_000)}"]`, 10), { deepest: 1 });
  });

  it('stop at the first bracket past the limit, however long the text', () => {
    const r = jsonNesting('['.repeat(3_000_000));
    assert.deepEqual(r.overflow, { offset: GO_JSON_MAX_DEPTH, bracket: '[' });
  });

  it('nestsDeeperThan counts the outermost value as level 1 and survives cycles', () => {
    assert.equal(nestsDeeperThan({ a: [{}] }, 3), false);
    assert.equal(nestsDeeperThan({ a: [{}] }, 2), true);
    assert.equal(nestsDeeperThan('text', 0), false);
    assert.equal(nestsDeeperThan(JSON.parse(arrays(100_000)), 100), true);
    const cycle: unknown[] = [];
    cycle.push(cycle);
    assert.equal(nestsDeeperThan(cycle, 100), true);
  });
});

describe('HTTP: bodies nested too deeply', () => {
  let s: Served;
  before(async () => {
    s = await serve();
    const r = await s.request('POST', CMS, { body: configMap('target') });
    assert.equal(r.status, 201);
  });
  after(() => s.close());

  /** Sends one body, expects a 400 with `message`, and checks nothing changed and the server still answers. */
  async function refused(method: string, path: string, contentType: string, body: string, message: string) {
    const revision = s.cluster.api.resourceVersion;
    const r = await s.request(method, path, { body, contentType });
    assert.equal(r.status, 400, `${contentType}: ${r.text.slice(0, 300)}`);
    assert.equal(r.json.reason, 'BadRequest');
    assert.equal(r.json.message, message);
    assert.equal(s.cluster.api.resourceVersion, revision, 'nothing was written');
    const list = await s.request('GET', CMS);
    assert.equal(list.status, 200);
    assert.deepEqual(
      (list.json.items as Array<{ metadata: { name: string } }>).map((i) => i.metadata.name),
      ['target'],
    );
  }

  const summaryOf = (text: string): string => `${text.slice(0, 30)} ...`;

  it('a JSON object past encoding/json limit: upstream words, at create', async () => {
    for (const n of [GO_JSON_MAX_DEPTH, GO_JSON_MAX_DEPTH * 10, 1_000_000]) {
      const body = jsonObject('deep', n);
      await refused(
        'POST',
        CMS,
        'application/json',
        body,
        `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: invalid character '[' exceeded max depth (${summaryOf(body)})`,
      );
    }
    const objects = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep"},"x":${'{"a":'.repeat(GO_JSON_MAX_DEPTH)}1${'}'.repeat(GO_JSON_MAX_DEPTH)}}`;
    await refused(
      'POST',
      CMS,
      'application/json',
      objects,
      `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: invalid character '{' exceeded max depth (${summaryOf(objects)})`,
    );
  });

  it('past the sandbox limit but within upstream: the sandbox says so', async () => {
    for (const n of [MAX_BODY_DEPTH, 5000]) {
      const body = jsonObject('deep', n);
      await refused(
        'POST',
        CMS,
        'application/json',
        body,
        `the object provided is unrecognized (must be of type ConfigMap): ${SANDBOX} (${summaryOf(body)})`,
      );
    }
  });

  it('at the sandbox limit the body decodes (the unknown field is dropped)', async () => {
    const r = await s.request('POST', CMS, { body: jsonObject('edge', MAX_BODY_DEPTH - 1) });
    assert.equal(r.status, 201, r.text.slice(0, 300));
    assert.equal((await s.request('DELETE', `${CMS}/edge`)).status, 200);
  });

  it('YAML past go-yaml limits: its words with the line, for flow and block nesting', async () => {
    const flow = yamlFlow('deep', GO_JSON_MAX_DEPTH + 1);
    await refused(
      'POST',
      CMS,
      'application/yaml',
      flow,
      `the object provided is unrecognized (must be of type ConfigMap): yaml: line 5: exceeded max depth of 10000 (${summaryOf(flow)})`,
    );
    const oneLine = `[${arrays(GO_JSON_MAX_DEPTH)}]`;
    await refused(
      'POST',
      CMS,
      'application/yaml',
      oneLine,
      `the object provided is unrecognized (must be of type ConfigMap): yaml: exceeded max depth of 10000 (${summaryOf(oneLine)})`,
    );
    const block = yamlBlock('deep', GO_JSON_MAX_DEPTH);
    await refused(
      'POST',
      CMS,
      'application/yaml',
      block,
      `the object provided is unrecognized (must be of type ConfigMap): yaml: line 6: exceeded max depth of 10000 (${summaryOf(block)})`,
    );
  });

  it('YAML within go-yaml limits whose JSON is too deep: encoding/json words', async () => {
    const flow = yamlFlow('deep', GO_JSON_MAX_DEPTH);
    await refused(
      'POST',
      CMS,
      'application/yaml',
      flow,
      `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: invalid character '[' exceeded max depth (${summaryOf(flow)})`,
    );
  });

  it('YAML past the sandbox limit, by nesting or through aliases (even one that holds itself)', async () => {
    const chain = ['a0: &a0 [1]'];
    for (let i = 1; i < 4; i++) chain.push(`a${i}: &a${i} ${'['.repeat(40)}*a${i - 1}${']'.repeat(40)}`);
    for (const body of [
      yamlFlow('deep', MAX_BODY_DEPTH),
      yamlBlock('deep', MAX_BODY_DEPTH),
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\nx:\n  ${chain.join('\n  ')}\n`,
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\nx: &a [*a]\n',
    ]) {
      await refused(
        'POST',
        CMS,
        'application/yaml',
        body,
        `the object provided is unrecognized (must be of type ConfigMap): ${SANDBOX} (${summaryOf(body)})`,
      );
    }
  });

  it('patch bodies: each patch type in its handler words', async () => {
    const path = `${CMS}/target`;
    const deep = `{"x":${arrays(GO_JSON_MAX_DEPTH)}}`;
    const goJson = "invalid character '[' exceeded max depth";
    await refused('PATCH', path, 'application/merge-patch+json', deep, `error decoding patch: ${goJson}`);
    await refused('PATCH', path, 'application/strategic-merge-patch+json', deep, goJson);
    const ops = `[{"op":"add","path":"/x","value":${arrays(GO_JSON_MAX_DEPTH)}}]`;
    await refused('PATCH', path, 'application/json-patch+json', ops, `error decoding patch: ${goJson}`);
    const apply = `${path}?fieldManager=test`;
    await refused(
      'PATCH',
      apply,
      'application/apply-patch+yaml',
      yamlFlow('target', GO_JSON_MAX_DEPTH + 1),
      'error decoding YAML: error converting YAML to JSON: yaml: line 5: exceeded max depth of 10000',
    );
    await refused(
      'PATCH',
      apply,
      'application/apply-patch+yaml',
      yamlFlow('target', GO_JSON_MAX_DEPTH),
      `error decoding YAML: error unmarshaling JSON: while decoding JSON: ${goJson}`,
    );

    const shallow = `{"x":${arrays(MAX_BODY_DEPTH)}}`;
    await refused('PATCH', path, 'application/merge-patch+json', shallow, `error decoding patch: ${SANDBOX}`);
    await refused('PATCH', path, 'application/strategic-merge-patch+json', shallow, SANDBOX);
    const shallowOps = `[{"op":"add","path":"/x","value":${arrays(MAX_BODY_DEPTH)}}]`;
    await refused('PATCH', path, 'application/json-patch+json', shallowOps, `error decoding patch: ${SANDBOX}`);
    await refused(
      'PATCH',
      apply,
      'application/apply-patch+yaml',
      yamlBlock('target', MAX_BODY_DEPTH),
      `error decoding YAML: ${SANDBOX}`,
    );
  });

  it('a protobuf body whose managedFields hold deeply nested FieldsV1 JSON', async () => {
    for (const n of [MAX_BODY_DEPTH, GO_JSON_MAX_DEPTH]) {
      const fieldsV1 = `${'{"f:a":'.repeat(n)}{}${'}'.repeat(n)}`;
      const entry = [
        ...bytes(1, 'm'),
        ...bytes(2, 'Update'),
        ...bytes(3, 'v1'),
        ...bytes(6, 'FieldsV1'),
        ...bytes(7, bytes(1, fieldsV1)),
      ];
      const body = envelope('v1', 'ConfigMap', bytes(1, [...bytes(1, 'deep'), ...bytes(17, entry)]));
      const revision = s.cluster.api.resourceVersion;
      const r = await s.request('POST', CMS, { body, contentType: 'application/vnd.kubernetes.protobuf' });
      assert.equal(r.status, 400, r.text.slice(0, 300));
      assert.equal(r.json.message, `ConfigMap in version "v1" cannot be handled as a ConfigMap: ${SANDBOX}`);
      assert.equal(s.cluster.api.resourceVersion, revision);
    }
    assert.equal((await s.request('GET', `${CMS}/target`)).status, 200);
  });
});

function varint(value: number): number[] {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

/** A length-delimited protobuf field. */
function bytes(field: number, value: string | number[]): number[] {
  const b = typeof value === 'string' ? [...Buffer.from(value)] : value;
  return [...varint(field * 8 + 2), ...varint(b.length), ...b];
}

/** The `k8s\0` envelope (runtime.Unknown) around a message. */
function envelope(apiVersion: string, kind: string, raw: number[]): Buffer {
  return Buffer.from([
    0x6b,
    0x38,
    0x73,
    0x00,
    ...bytes(1, [...bytes(1, apiVersion), ...bytes(2, kind)]),
    ...bytes(2, raw),
  ]);
}
