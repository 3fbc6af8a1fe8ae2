/**
 * The GitOps sync loop on a whole cluster in virtual time: apply, prune,
 * self-heal of hand-made drift, and rejected documents.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Cluster } from '../../../sandbox/cluster/cluster';
import { gitOpsFor } from '../../../sandbox/gitops/forCluster';
import type { GitOpsSync } from '../../../sandbox/gitops/gitOpsSync';
import { SOURCE_ANNOTATION } from '../../../sandbox/gitops/desiredState';
import type { KubeObject } from '../../../sandbox/api/types';
import { configMap, deployment, pod } from '../fixtures';

function setup(selfHeal = true): { c: Cluster; g: GitOpsSync } {
  const c = new Cluster({ seed: 1 });
  const g = gitOpsFor(c, { selfHeal });
  c.start();
  g.start();
  c.runUntilSettled();
  return { c, g };
}

/** `type reason: message` of every event the sync loop recorded, oldest first, with its involved object. */
function gitopsEvents(c: Cluster): string[] {
  return c.api
    .list('events')
    .items.filter((e) => (e.source as { component: string }).component === 'gitops-sync')
    .map((e) => {
      const inv = e.involvedObject as { kind: string; name: string };
      return `${String(e.type)} ${String(e.reason)} ${inv.kind}/${inv.name} x${String(e.count)}: ${String(e.message)}`;
    });
}

const replicas = (c: Cluster) => (c.api.get('deployments', 'default', 'web').spec as { replicas: number }).replicas;
const manifests = (...objects: KubeObject[]) => objects.map((object, i) => ({ line: i * 20, object }));

describe('GitOpsSync', () => {
  test('a saved file with an unknown field is refused (strict, as kubectl); an edited one changes nothing live', () => {
    const { c, g } = setup();
    g.setSource('web.yaml', manifests(deployment('web', 2)));
    c.runUntilSettled();
    const before = c.api.get('deployments', 'default', 'web');
    const typo = deployment('web', 3) as KubeObject & { spec: { template: { spec: { containers: object[] } } } };
    typo.spec.template.spec.containers = [{ name: 'app', image: 'nginx:1.27', imagePulPolicy: 'Always' }];
    const result = g.setSource('web.yaml', manifests(typo));
    assert.equal(result.outcomes[0].ok, false);
    assert.equal(result.outcomes[0].status?.code, 422);
    assert.match(
      result.outcomes[0].message,
      /strict decoding error: unknown field "spec\.template\.spec\.containers\[0\]\.imagePulPolicy"$/,
    );
    assert.deepEqual(result.outcomes[0].fields, ['spec.template.spec.containers[0].imagePulPolicy']);
    assert.deepEqual(result.pruned, []);
    assert.equal(c.api.get('deployments', 'default', 'web'), before, 'nothing changed, no new rollout');
    const fresh = g.setSource('new.yaml', manifests({ ...typo, metadata: { name: 'other' } }));
    assert.equal(fresh.outcomes[0].status?.code, 400);
    assert.equal(c.api.tryGet('deployments', 'default', 'other'), undefined);
  });

  test('a saved file with a field of the wrong type is refused as decoding refuses it (400), located at the field', () => {
    const { c, g } = setup();
    const typed = deployment('typed', 2) as KubeObject & { spec: { template: { spec: { containers: object[] } } } };
    typed.spec.template.spec.containers = [{ name: 'app', image: 'nginx:1.27', ports: [{ containerPort: '80' }] }];
    const rv = c.api.resourceVersion;
    const result = g.setSource('typed.yaml', manifests(typed));
    assert.equal(result.outcomes[0].ok, false);
    assert.equal(result.outcomes[0].status?.code, 400);
    assert.equal(
      result.outcomes[0].message,
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32',
    );
    assert.deepEqual(result.outcomes[0].fields, ['spec.template.spec.containers[0].ports[0].containerPort']);
    assert.equal(c.api.tryGet('deployments', 'default', 'typed'), undefined);
    assert.equal(c.api.resourceVersion, rv, 'nothing stored');
  });

  test('a half-typed `livenessProbe:` (null) is applied as absent, never stored as null', () => {
    const { c, g } = setup();
    const d = deployment('web', 1) as KubeObject & { spec: { template: { spec: { containers: object[] } } } };
    d.spec.template.spec.containers = [{ name: 'app', image: 'nginx:1.27', livenessProbe: null }];
    assert.equal(g.setSource('web.yaml', manifests(d)).outcomes[0].ok, true);
    const live = c.api.get('deployments', 'default', 'web');
    const container = (live.spec as { template: { spec: { containers: object[] } } }).template.spec.containers[0];
    assert.equal('livenessProbe' in container, false);
  });

  test('applies a source, annotates what it tracks, and controller writes are not drift', () => {
    const { c, g } = setup();
    const result = g.setSource('web.yaml', manifests(deployment('web', 3), configMap('cfg', { a: '1' })));
    assert.deepEqual(result, {
      outcomes: [
        { line: 0, message: 'deployment.apps/web created', ok: true, action: 'created' },
        { line: 20, message: 'configmap/cfg created', ok: true, action: 'created' },
      ],
      pruned: [],
    });
    assert.equal(c.runUntilSettled().settled, true);
    assert.equal(c.api.get('deployments', 'default', 'web').metadata.annotations?.[SOURCE_ANNOTATION], 'web.yaml');
    assert.equal(c.api.get('configmaps', 'default', 'cfg').metadata.annotations?.[SOURCE_ANNOTATION], 'web.yaml');
    assert.deepEqual(gitopsEvents(c), []);
    assert.deepEqual(g.desired('deployments', 'default', 'web')?.source, 'web.yaml');
    assert.deepEqual(g.desired('deployments', 'default', 'web')?.manifest, deployment('web', 3));
  });

  test('a bare Pod and a Service settle without drift (defaults and allocated fields are not drift)', () => {
    const { c, g } = setup();
    const svc: KubeObject = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web' },
      spec: { selector: { app: 'web' }, ports: [{ port: 80 }] },
    };
    const docs = manifests(pod('solo', { labels: { app: 'web' } }), svc);
    assert.deepEqual(
      g.setSource('solo.yaml', docs).outcomes.map((o) => o.message),
      ['pod/solo created', 'service/web created'],
    );
    assert.equal(c.runUntilSettled().settled, true);
    c.runFor(10_000);
    assert.deepEqual(
      g.setSource('solo.yaml', docs).outcomes.map((o) => o.message),
      ['pod/solo unchanged', 'service/web unchanged'],
    );
    assert.deepEqual(gitopsEvents(c), []);
  });

  test('a hand-scaled Deployment is scaled back, with a DriftReverted event and log line', () => {
    const { c, g } = setup();
    g.setSource('web.yaml', manifests(deployment('web', 3)));
    c.runUntilSettled();
    c.scale('deployments', 'default', 'web', 5);
    assert.equal(replicas(c), 5);
    c.runFor(2000);
    assert.equal(replicas(c), 3);
    assert.deepEqual(gitopsEvents(c), ['Normal DriftReverted Deployment/web x1: spec.replicas 5 → 3 from web.yaml']);
    const lines = c.log.recent().filter((e) => e.reason === 'DriftReverted');
    assert.deepEqual(
      lines.map((e) => ({ component: e.component, level: e.level, object: e.object, message: e.message })),
      [
        {
          component: 'gitops-sync',
          level: 'Normal',
          object: 'default/web',
          message: 'spec.replicas 5 → 3 from web.yaml',
        },
      ],
    );
    assert.equal(c.runUntilSettled().settled, true);
    assert.equal(replicas(c), 3);
  });

  test('an edited container image is put back, named by its path in the list', () => {
    const { c, g } = setup();
    g.setSource('web.yaml', manifests(deployment('web', 1)));
    c.runUntilSettled();
    const live = c.api.get('deployments', 'default', 'web') as KubeObject & {
      spec: { template: { spec: { containers: { image: string }[] } } };
    };
    const edited = structuredClone(live);
    edited.spec.template.spec.containers[0].image = 'nginx:1.26';
    c.api.update(edited);
    c.runFor(2000);
    const image = (c.api.get('deployments', 'default', 'web').spec as typeof live.spec).template.spec.containers[0]
      .image;
    assert.equal(image, 'nginx:1.27');
    assert.deepEqual(gitopsEvents(c), [
      'Normal DriftReverted Deployment/web x1: spec.template.spec.containers[0].image nginx:1.26 → nginx:1.27 from web.yaml',
    ]);
  });

  test('with self-heal off the drift stays, reported once as DriftDetected', () => {
    const { c, g } = setup(false);
    g.setSource('web.yaml', manifests(deployment('web', 3)));
    c.runUntilSettled();
    c.scale('deployments', 'default', 'web', 5);
    assert.equal(c.runUntilSettled().settled, true);
    c.runFor(30_000);
    assert.equal(replicas(c), 5);
    assert.deepEqual(gitopsEvents(c), ['Warning DriftDetected Deployment/web x1: spec.replicas 5 → 3 from web.yaml']);
  });

  test('turning self-heal on reverts standing drift', () => {
    const { c, g } = setup(false);
    g.setSource('web.yaml', manifests(deployment('web', 3)));
    c.scale('deployments', 'default', 'web', 1);
    c.runUntilSettled();
    g.selfHeal = true;
    c.runFor(2000);
    assert.equal(replicas(c), 3);
    assert.deepEqual(gitopsEvents(c), [
      'Warning DriftDetected Deployment/web x1: spec.replicas 1 → 3 from web.yaml',
      'Normal DriftReverted Deployment/web x1: spec.replicas 1 → 3 from web.yaml',
    ]);
  });

  test('an object deleted by hand is recreated', () => {
    const { c, g } = setup();
    g.setSource('cfg.yaml', manifests(configMap('cfg', { a: '1' })));
    const before = c.api.get('configmaps', 'default', 'cfg');
    c.api.delete('configmaps', 'default', 'cfg');
    assert.equal(c.api.tryGet('configmaps', 'default', 'cfg'), undefined);
    c.runFor(2000);
    const after = c.api.get('configmaps', 'default', 'cfg');
    assert.notEqual(after.metadata.uid, before.metadata.uid);
    assert.deepEqual(after.data, { a: '1' });
    assert.deepEqual(gitopsEvents(c), ['Normal DriftReverted ConfigMap/cfg x1: recreated from cfg.yaml']);
  });

  test('an edited data field is put back and described by path', () => {
    const { c, g } = setup();
    g.setSource('cfg.yaml', manifests(configMap('cfg', { a: '1' })));
    const live = c.api.get('configmaps', 'default', 'cfg');
    c.api.update({ ...live, data: { a: '2', extra: 'kept' } });
    c.runFor(2000);
    assert.deepEqual(c.api.get('configmaps', 'default', 'cfg').data, { a: '1', extra: 'kept' });
    assert.deepEqual(gitopsEvents(c), ['Normal DriftReverted ConfigMap/cfg x1: data.a 2 → 1 from cfg.yaml']);
  });

  test('an object the source no longer declares is pruned; removing the source prunes the rest', () => {
    const { c, g } = setup();
    g.setSource('web.yaml', manifests(deployment('web', 2), configMap('cfg')));
    c.runUntilSettled();
    assert.deepEqual(g.setSource('web.yaml', manifests(deployment('web', 2))), {
      outcomes: [{ line: 0, message: 'deployment.apps/web unchanged', ok: true, action: 'unchanged' }],
      pruned: ['configmap/cfg'],
    });
    assert.equal(c.api.tryGet('configmaps', 'default', 'cfg'), undefined);
    c.runFor(5000);
    assert.equal(c.api.tryGet('configmaps', 'default', 'cfg'), undefined, 'a pruned object is not recreated');
    assert.deepEqual(g.removeSource('web.yaml'), { pruned: ['deployment.apps/web'] });
    assert.equal(c.runUntilSettled().settled, true);
    assert.equal(c.api.tryGet('deployments', 'default', 'web'), undefined);
    assert.deepEqual(
      c.api.list('pods', { namespace: 'default' }).items,
      [],
      'background deletion removes the pods too',
    );
    assert.deepEqual(gitopsEvents(c), []);
  });

  test('a rejected document gets its Status; the others are applied and nothing applied is lost', () => {
    const { c, g } = setup();
    g.setSource('web.yaml', manifests(deployment('web', 2), configMap('old')));
    const bad = deployment('web', -1);
    const result = g.setSource('web.yaml', [
      { line: 0, object: bad },
      { line: 30, object: configMap('new', { b: '2' }) },
    ]);
    assert.equal(result.outcomes.length, 2);
    const [rejected, applied] = result.outcomes;
    assert.deepEqual(applied, { line: 30, message: 'configmap/new created', ok: true, action: 'created' });
    assert.equal(rejected.ok, false);
    assert.equal(rejected.line, 0);
    assert.equal(rejected.status?.code, 422);
    assert.equal(rejected.status?.reason, 'Invalid');
    assert.equal(rejected.message, rejected.status?.message);
    assert.match(
      rejected.message,
      /^Deployment\.apps "web" is invalid: spec\.replicas: Invalid value: -1: must be greater than or equal to 0/,
    );
    assert.deepEqual(result.pruned, ['configmap/old']);
    assert.equal(replicas(c), 2, 'the previously applied Deployment is kept');
    assert.equal(g.desired('deployments', 'default', 'web')?.manifest.spec !== undefined, true);
  });

  test('an unknown kind is rejected with 404 and prunes nothing', () => {
    const { c, g } = setup();
    g.setSource('web.yaml', manifests(configMap('cfg')));
    const result = g.setSource('web.yaml', [
      { line: 3, object: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } } },
    ]);
    assert.deepEqual(result.pruned, []);
    assert.equal(result.outcomes[0].ok, false);
    assert.equal(result.outcomes[0].status?.code, 404);
    assert.notEqual(c.api.tryGet('configmaps', 'default', 'cfg'), undefined);
  });

  test('setSource again with the same content writes nothing', () => {
    const { c, g } = setup();
    const docs = manifests(deployment('web', 3), configMap('cfg', { a: '1' }));
    g.setSource('web.yaml', docs);
    c.runUntilSettled();
    const rv = c.api.resourceVersion;
    const again = g.setSource('web.yaml', docs);
    assert.deepEqual(
      again.outcomes.map((o) => o.message),
      ['deployment.apps/web unchanged', 'configmap/cfg unchanged'],
    );
    assert.equal(c.api.resourceVersion, rv);
    assert.equal(c.runUntilSettled().settled, true);
  });

  test('the desired state survives a round trip through its data form', () => {
    const { c, g } = setup();
    g.setSource('web.yaml', manifests(configMap('cfg', { a: '1' })));
    const data = g.desiredState();
    const other = gitOpsFor(c);
    other.loadDesiredState(JSON.parse(JSON.stringify(data)));
    assert.deepEqual(other.desiredState(), data);
    assert.deepEqual(other.desired('configmaps', 'default', 'cfg')?.manifest, configMap('cfg', { a: '1' }));
    assert.throws(() => other.loadDesiredState({ sources: [{ source: 'x', objects: [{}] }] }), /invalid desired state/);
  });
});
