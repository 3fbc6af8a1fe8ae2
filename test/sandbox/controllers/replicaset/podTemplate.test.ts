import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { podFromTemplate } from '../../../../sandbox/controllers/replicaset/podTemplate';
import type { KubeObject, OwnerReference } from '../../../../sandbox/api/types';
import { deepFreeze } from '../../../../sandbox/util/json';

describe('podFromTemplate', () => {
  const owner: KubeObject = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web-1', namespace: 'ns' } };
  const ref: OwnerReference = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', uid: 'u1', controller: true };
  const template = deepFreeze({
    metadata: { labels: { app: 'web' }, annotations: { a: '1' } },
    spec: { containers: [{ name: 'app', image: 'nginx' }] },
  });

  test('copies the spec by default, so a caller may change it', () => {
    const pod = podFromTemplate(template, owner, ref);
    assert.notEqual(pod.spec, template.spec);
    assert.deepEqual(pod.spec, template.spec);
    assert.ok(!Object.isFrozen(pod.spec));
  });

  test('with shareSpec, the body carries the template’s own frozen spec; the metadata is the pod’s', () => {
    const pod = podFromTemplate(template, owner, ref, { shareSpec: true });
    assert.equal(pod.spec, template.spec);
    assert.deepEqual(pod.metadata, {
      generateName: 'web-1-',
      namespace: 'ns',
      labels: { app: 'web' },
      annotations: { a: '1' },
      ownerReferences: [ref],
    });
    assert.notEqual(pod.metadata.labels, template.metadata.labels);
  });

  test('with shareSpec and no spec in the template, an empty one', () => {
    assert.deepEqual(podFromTemplate({}, owner, ref, { shareSpec: true }).spec, {});
  });
});
