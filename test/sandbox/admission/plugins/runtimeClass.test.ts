/**
 * RuntimeClass admission (upstream: plugin/pkg/admission/runtimeclass/admission.go: prepareObjects, setOverhead,
 * setScheduling, validateOverhead), through the API server.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../sandbox/api/types';
import { newApi, statusOf } from '../../fixtures';

type Spec = Record<string, unknown> & { tolerations?: Record<string, unknown>[] };

function pod(name: string, spec: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
  };
}

function runtimeClass(name: string, extra: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name }, handler: 'runsc', ...extra };
}

describe('RuntimeClass admission', () => {
  test('a pod naming a missing RuntimeClass is refused with 403 and nothing is stored', () => {
    const { api } = newApi();
    const s = statusOf(() => api.create(pod('x', { runtimeClassName: 'gvisor' })));
    assert.equal(s.code, 403);
    assert.equal(s.reason, 'Forbidden');
    assert.equal(s.message, 'pods "x" is forbidden: pod rejected: RuntimeClass "gvisor" not found');
    assert.equal(api.list('pods', { namespace: 'default' }).items.length, 0);
  });

  test('an existing RuntimeClass admits the pod; its overhead becomes spec.overhead', () => {
    const { api } = newApi();
    api.create(runtimeClass('gvisor', { overhead: { podFixed: { cpu: '250m', memory: '120Mi' } } }));
    const p = api.create(pod('x', { runtimeClassName: 'gvisor' }));
    assert.deepEqual((p.spec as Spec).overhead, { cpu: '250m', memory: '120Mi' });
  });

  test('an overhead equal as quantities is kept; a different one is refused', () => {
    const { api } = newApi();
    api.create(runtimeClass('gvisor', { overhead: { podFixed: { cpu: '250m' } } }));
    api.create(pod('same', { runtimeClassName: 'gvisor', overhead: { cpu: '0.25' } }));
    const s = statusOf(() => api.create(pod('other', { runtimeClassName: 'gvisor', overhead: { cpu: '1' } })));
    assert.equal(s.code, 403);
    assert.equal(
      s.message,
      `pods "other" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead`,
    );
  });

  test('an overhead without a RuntimeClass overhead is refused', () => {
    const { api } = newApi();
    api.create(runtimeClass('plain'));
    const s = statusOf(() => api.create(pod('x', { runtimeClassName: 'plain', overhead: { cpu: '1' } })));
    assert.equal(
      s.message,
      'pods "x" is forbidden: pod rejected: Overhead set without corresponding RuntimeClass defined Overhead',
    );
  });

  test("the class's scheduling node selector and tolerations are merged into the pod's", () => {
    const { api } = newApi();
    const tol = { key: 'sandboxed', operator: 'Exists', effect: 'NoSchedule' };
    api.create(runtimeClass('gvisor', { scheduling: { nodeSelector: { sandbox: 'gvisor' }, tolerations: [tol] } }));
    const p = api.create(pod('x', { runtimeClassName: 'gvisor', nodeSelector: { zone: 'a' } }));
    const spec = p.spec as Spec;
    assert.deepEqual(spec.nodeSelector, { zone: 'a', sandbox: 'gvisor' });
    assert.equal(spec.tolerations!.filter((t) => t.key === 'sandboxed').length, 1);
    const s = statusOf(() => api.create(pod('y', { runtimeClassName: 'gvisor', nodeSelector: { sandbox: 'kata' } })));
    assert.equal(
      s.message,
      'pods "y" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[sandbox] = gvisor; pod.spec.nodeSelector[sandbox] = kata',
    );
  });

  test('pod updates are not checked (the plugin handles create only)', () => {
    const { api } = newApi();
    api.create(runtimeClass('gvisor'));
    const p = api.create(pod('x', { runtimeClassName: 'gvisor' }));
    api.delete('runtimeclasses', undefined, 'gvisor');
    const out = api.update({ ...p, metadata: { ...p.metadata, labels: { a: 'b' } } });
    assert.deepEqual(out.metadata.labels, { a: 'b' });
  });
});
