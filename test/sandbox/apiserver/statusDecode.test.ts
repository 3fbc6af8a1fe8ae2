import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../sandbox/api/types';
import { definition, setKubernetesVersion } from '../../../sandbox/schema/schema';
import { rememberedClean } from '../../../sandbox/schema/strictFields';
import { ApiServer } from '../../../sandbox/apiserver/apiServer';
import { VirtualClock } from '../../../sandbox/clock/virtualClock';
import type { CleanMetadata } from '../../../sandbox/apiserver/cleanMetadata';
import { deployment, newApi, statusOf } from '../fixtures';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** A Deployment whose pod template sets PodSpec.resources: a field of 1.32 (the default release), not of 1.31. */
function withPodResources(name: string): KubeObject {
  const d = deployment(name, 1) as KubeObject & { spec: { template: { spec: Record<string, unknown> } } };
  d.spec.template.spec.resources = { limits: { cpu: '1' } };
  return d;
}

/** Whether the server would take `metadata`, carried by a status write, without a walk for unknown fields. */
const carriedClean = (api: ApiServer, metadata: object): boolean =>
  (api as unknown as { cleanMetadata: CleanMetadata }).cleanMetadata.known(metadata) === metadata;

/** What a controller sends: the stored object with a new status. */
const withStatus = (stored: KubeObject, replicas: number): KubeObject => ({ ...stored, status: { replicas } });

describe('a status write carrying the stored spec and metadata', () => {
  test('they are walked once, then remembered, the new metadata from the old; the write is the same', () => {
    const { api } = newApi();
    const live = api.create(withPodResources('web'));
    const first = api.updateStatus(withStatus(live, 1), { fieldValidation: 'Strict' });
    assert.equal(first.spec, live.spec);
    assert.equal(rememberedClean(first.spec as object, definition('io.k8s.api.apps.v1.DeploymentSpec')), true);
    // The stored metadata is the old one (walked by this write) with a new resourceVersion: known clean without a walk.
    assert.equal(rememberedClean(live.metadata, definition(OBJECT_META)), true);
    assert.notEqual(first.metadata, live.metadata);
    assert.equal(carriedClean(api, first.metadata), true);
    assert.equal(carriedClean(api, live.metadata), false, 'only the stored version is recorded');
    const second = api.updateStatus(withStatus(first, 2), { fieldValidation: 'Strict' });
    assert.deepEqual(second.status, { replicas: 2 });
    assert.equal(carriedClean(api, second.metadata), true);
    // A write of the object's spec stores metadata from its body (copied): the next status write walks it again.
    const updated = api.update({ ...second, spec: { ...(second.spec as object), replicas: 2 } } as KubeObject);
    assert.equal(carriedClean(api, updated.metadata), false);
    const third = api.updateStatus(withStatus(updated, 3));
    assert.equal(carriedClean(api, third.metadata), true);
    // An unknown field added to the carried members is still refused: a changed member is not the remembered one.
    const typo = { ...third, spec: { ...(third.spec as object), replicass: 2 }, status: { replicas: 4 } };
    assert.equal(
      statusOf(() => api.updateStatus(typo as KubeObject, { fieldValidation: 'Strict' })).message,
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replicass"',
    );
    const metaTypo = {
      ...third,
      metadata: Object.freeze({ ...third.metadata, labelz: {} }),
      status: { replicas: 4 },
    };
    assert.equal(
      statusOf(() => api.updateStatus(metaTypo as KubeObject, { fieldValidation: 'Strict' })).message,
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "metadata.labelz"',
    );
    assert.equal(carriedClean(api, api.get('deployments', 'default', 'web').metadata), true, 'nothing was written');
    // A deleted object is forgotten.
    api.delete('deployments', 'default', 'web');
    assert.equal(carriedClean(api, third.metadata), false);
  });

  test('the release switched between writes: the walk runs again and refuses what the new release refuses', () => {
    // A 1.32 API server drops PodSpec.resources on create (PodLevelResources is off by default there, upstream
    // dropDisabledPodFields); one serving 1.34, where the gate is on, stores it for the switch below to meet.
    const api = new ApiServer({ clock: new VirtualClock(), random: 1, kubernetesVersion: '1.34' });
    const live = api.create(withPodResources('web'));
    let stored = api.updateStatus(withStatus(live, 1), { fieldValidation: 'Strict' });
    stored = api.updateStatus(withStatus(stored, 2), { fieldValidation: 'Strict' });
    assert.equal(carriedClean(api, stored.metadata), true);
    setKubernetesVersion('1.31');
    try {
      assert.equal(carriedClean(api, stored.metadata), false, 'recorded under 1.32: walked again');
      const refused = 'strict decoding error: unknown field "spec.template.spec.resources"';
      assert.equal(
        statusOf(() => api.updateStatus(withStatus(stored, 3), { fieldValidation: 'Strict' })).message,
        `Deployment in version "v1" cannot be handled as a Deployment: ${refused}`,
      );
      // Refused every time, not only on the first write after the switch.
      assert.match(
        statusOf(() => api.updateStatus(withStatus(stored, 3), { fieldValidation: 'Strict' })).message,
        /unknown field "spec.template.spec.resources"/,
      );
      const warnings: string[] = [];
      stored = api.updateStatus(withStatus(stored, 3), { warn: (w) => warnings.push(w) });
      assert.deepEqual(warnings, ['unknown field "spec.template.spec.resources"']);
      assert.deepEqual(stored.status, { replicas: 3 });
    } finally {
      setKubernetesVersion('1.32');
    }
    const back = api.updateStatus(withStatus(stored, 4), { fieldValidation: 'Strict' });
    assert.deepEqual(back.status, { replicas: 4 });
  });

  test("an apps status write with the same annotations keeps the stored map; changed ones are the body's", () => {
    const { api } = newApi();
    const live = api.create({
      ...deployment('web', 1),
      metadata: { name: 'web', namespace: 'default', annotations: { a: '1', b: '2' } },
    } as KubeObject);
    const same = api.updateStatus(withStatus(live, 1));
    assert.equal(same.metadata.annotations, live.metadata.annotations);
    assert.equal(carriedClean(api, same.metadata), true);
    const reordered = { ...same, metadata: { ...same.metadata, annotations: { b: '2', a: '1' } }, status: {} };
    const written = api.updateStatus(reordered as KubeObject);
    assert.deepEqual(Object.keys(written.metadata.annotations!), ['b', 'a']);
    const changed = { ...written, metadata: { ...written.metadata, annotations: { b: '3' } }, status: {} };
    assert.deepEqual(api.updateStatus(changed as KubeObject).metadata.annotations, { b: '3' });
  });
});
