import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { Cluster } from '../../sandbox/cluster/cluster';
import type { KubeObject } from '../../sandbox/api/types';
import { writeJsonList, writeJsonListOf, writeYamlList, writeYamlListOf } from '../../cli/simulate/report';
import { yamlText } from '../../sandbox/util/yamlText';

/** A sink that keeps each write apart, to check the document and the size of its writes. */
function collector() {
  const chunks: string[] = [];
  return { chunks, write: (text: string) => chunks.push(text), text: () => chunks.join('') };
}

function smallCluster(): Cluster {
  const c = new Cluster({ seed: 3, nodes: 2 });
  c.start();
  c.apply({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  } as KubeObject);
  // Multi-line strings (with a blank line and a trailing newline) become block scalars in YAML.
  c.apply({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'text' },
    data: { script: 'line one\n\n  indented\nlast\n', empty: '', quoted: 'a: b' },
  } as KubeObject);
  c.runFor(30_000);
  return c;
}

function wholeList(c: Cluster) {
  const items: KubeObject[] = [];
  for (const r of c.api.resources.storedKinds()) for (const o of c.api.list(r).items) items.push(o);
  return { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: c.api.resourceVersion }, items };
}

const YAML_OPTIONS = { sortMapEntries: true, indentSeq: false, lineWidth: 0 };

describe('simulate -o json|yaml writes the List item by item', () => {
  test('JSON: byte for byte what one JSON.stringify(list, null, 2) prints', async () => {
    const c = smallCluster();
    const sink = collector();
    await writeJsonListOf(c.api, sink);
    const expected = `${JSON.stringify(wholeList(c), null, 2)}\n`;
    assert.ok(wholeList(c).items.length > 10);
    assert.equal(sink.text(), expected);
    c.stop();
  });

  test('YAML: byte for byte what one yamlText of the whole List prints, block scalars included', async () => {
    const c = smallCluster();
    const sink = collector();
    await writeYamlListOf(c.api, sink);
    const text = sink.text();
    assert.equal(text, yamlText(wholeList(c), YAML_OPTIONS));
    assert.match(text, /script: \|/);
    c.stop();
  });

  test('an empty List prints as the whole-document stringifiers print it', async () => {
    const json = collector();
    await writeJsonList([], '7', json);
    const list = { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '7' }, items: [] };
    assert.equal(json.text(), `${JSON.stringify(list, null, 2)}\n`);
    const yaml = collector();
    await writeYamlList([], '7', yaml);
    assert.equal(yaml.text(), yamlText(list, YAML_OPTIONS));
  });

  test('150,000 items: a valid document in writes of about 1 MiB, never one giant string', async () => {
    const count = 150_000; // more arguments than a spread into push() survives
    function* pods(): Generator<KubeObject> {
      for (let i = 0; i < count; i++)
        yield { apiVersion: 'v1', kind: 'Pod', metadata: { name: `p-${i}`, namespace: 'default' } } as KubeObject;
    }
    const sink = collector();
    await writeJsonList(pods(), '42', sink);
    assert.ok(sink.chunks.length > 10, `${sink.chunks.length} writes`);
    for (const chunk of sink.chunks) assert.ok(chunk.length < 1.1 * 2 ** 20, `a write of ${chunk.length} characters`);
    const parsed = JSON.parse(sink.text()) as { kind: string; items: KubeObject[]; metadata: object };
    assert.equal(parsed.kind, 'List');
    assert.deepEqual(parsed.metadata, { resourceVersion: '42' });
    assert.equal(parsed.items.length, count);
    assert.equal(parsed.items[count - 1].metadata.name, `p-${count - 1}`);
  });

  test('waits for drain when the stream says its buffer is full', async () => {
    const stream = new EventEmitter() as EventEmitter & { write(text: string): boolean };
    const written: string[] = [];
    stream.write = (text: string) => {
      written.push(text);
      return false;
    };
    function* big(): Generator<KubeObject> {
      for (let i = 0; i < 30_000; i++)
        yield { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c-${i}` }, data: { v: 'x'.repeat(100) } };
    }
    let finished = false;
    const done = writeJsonList(big(), '1', stream).then(() => (finished = true));
    await new Promise((r) => setImmediate(r));
    assert.equal(written.length, 1, 'one write, then it waits');
    assert.equal(finished, false);
    while (!finished) {
      stream.emit('drain');
      await new Promise((r) => setImmediate(r));
    }
    await done;
    assert.ok(written.length > 1);
    assert.equal((JSON.parse(written.join('')) as { items: unknown[] }).items.length, 30_000);
  });
});
