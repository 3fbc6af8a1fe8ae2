/**
 * Cheaper writes, the same answers (issue 16): an Event's frozen `source` kept uncopied by the decoding
 * (decodeBody.ts `KEPT_FROZEN`) and a write's no-op check comparing the status first (apiServer.ts `sameObject`).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../sandbox/api/types';
import type { FieldValidation } from '../../../sandbox/apiserver/options';
import { deepFreeze } from '../../../sandbox/util/json';
import { newApi, pod } from '../fixtures';
import { anEvent } from '../../builders';

/** What creating an Event with `source` answers: the stored JSON, or the error's words; and the warnings. */
function createEvent(source: unknown, fieldValidation?: FieldValidation): { out: string; warnings: string[] } {
  const { api } = newApi(7);
  const warnings: string[] = [];
  const body = { ...anEvent('e'), source } as unknown as KubeObject;
  try {
    const created = api.create(body, { fieldValidation, warn: (t) => warnings.push(t) });
    return { out: JSON.stringify(api.get('events', 'default', created.metadata.name!)), warnings };
  } catch (e) {
    return { out: `error: ${(e as Error).message}`, warnings };
  }
}

describe("an Event's frozen source", () => {
  test('is stored as the client sent it, one object for every Event with its text', () => {
    const { api } = newApi();
    const source = deepFreeze({ component: 'kubelet', host: 'node-1' });
    const a = api.create({ ...anEvent('a'), source } as unknown as KubeObject);
    const b = api.create({ ...anEvent('b'), source: { component: 'kubelet', host: 'node-1' } } as KubeObject);
    const c = api.create({
      ...anEvent('c'),
      source: deepFreeze({ component: 'kubelet', host: 'node-1' }),
    } as KubeObject);
    assert.equal(a.source, source, 'kept uncopied');
    assert.equal(b.source, source, 'a later copy of its text shares it');
    assert.equal(c.source, source, 'another frozen object of its text shares it');
    const other = api.create({ ...anEvent('d'), source: deepFreeze({ component: 'sched' }) } as KubeObject);
    assert.deepEqual(other.source, { component: 'sched' });
  });

  test('answers what the same source not frozen answers: unknown fields, nulls, nesting, every validation mode', () => {
    const sources: unknown[] = [
      { component: 'kubelet', host: 'node-1' },
      { component: 'kubelet', extra: 'x' },
      { component: 'kubelet', host: null },
      { host: 'node-1', component: 'kubelet' },
      { component: 'kubelet', nested: { deep: [1, { a: null }] } },
      {},
    ];
    for (const mode of [undefined, 'Ignore', 'Warn', 'Strict'] as const)
      for (const source of sources) {
        const plain = createEvent(structuredClone(source), mode);
        const frozen = createEvent(deepFreeze(structuredClone(source)), mode);
        assert.deepEqual(frozen, plain, `${mode ?? 'default'} ${JSON.stringify(source)}`);
        // Again in the same process: what the checks remembered answers the same.
        assert.deepEqual(createEvent(deepFreeze(structuredClone(source)), mode), plain);
      }
  });

  test('a source past the size limit is refused as its copy would be', () => {
    const big = 'x'.repeat(1_600_000);
    const plain = createEvent({ component: big });
    assert.match(plain.out, /Request entity too large/);
    assert.deepEqual(createEvent(deepFreeze({ component: big })), plain);
  });
});

describe("a write's no-op check compares the status first", () => {
  test('the same status (any key order) stores nothing; another status, or another label, is a new revision', () => {
    const { api } = newApi();
    api.create(pod('p'));
    const first = api.updateStatus({ ...api.get('pods', 'default', 'p'), status: { phase: 'Pending', podIP: '1' } });
    const same = api.updateStatus({ ...first, status: { podIP: '1', phase: 'Pending' } });
    assert.equal(same.metadata.resourceVersion, first.metadata.resourceVersion);
    assert.equal(same, api.get('pods', 'default', 'p'));
    const next = api.updateStatus({ ...first, status: { phase: 'Running', podIP: '1' } });
    assert.notEqual(next.metadata.resourceVersion, first.metadata.resourceVersion);
    const labelled = api.update({ ...next, metadata: { ...next.metadata, labels: { a: 'b' } } });
    assert.notEqual(labelled.metadata.resourceVersion, next.metadata.resourceVersion);
    const again = api.update({ ...labelled, metadata: { ...labelled.metadata } });
    assert.equal(again.metadata.resourceVersion, labelled.metadata.resourceVersion);
  });
});
