import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isApiError } from '../../../sandbox/api/errors';
import type { KubeObject } from '../../../sandbox/api/types';
import { restoreSnapshot, takeSnapshot } from '../../../sandbox/apiserver/snapshot';
import { Cluster } from '../../../sandbox/cluster/cluster';
import { describeNotReconciled } from '../../../sandbox/cluster/describe';
import { newApi } from '../fixtures';

type Crd = KubeObject & { spec: Record<string, unknown>; status?: Record<string, unknown> };

function widgetCrd(overrides: Record<string, unknown> = {}): Crd {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget', shortNames: ['wd'] },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          selectableFields: [{ jsonPath: '.spec.color' }],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: { color: { type: 'string' }, size: { type: 'integer', default: 3 } },
                },
                status: { type: 'object', properties: { ready: { type: 'boolean' } } },
              },
            },
          },
        },
        {
          name: 'v1beta1',
          served: true,
          storage: false,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: { color: { type: 'string' }, size: { type: 'integer', default: 1 } },
                },
              },
            },
          },
        },
      ],
      ...overrides,
    },
  };
}

function widget(name: string, spec: Record<string, unknown>, apiVersion = 'example.com/v1'): KubeObject {
  return { apiVersion, kind: 'Widget', metadata: { name, namespace: 'default' }, spec };
}

function message(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (isApiError(e)) return `${e.code} ${e.message}`;
    throw e;
  }
  return 'no error';
}

describe('CustomResourceDefinitions', () => {
  test('defaults, stored versions, accepted names and the conditions of an established CRD', () => {
    const { api } = newApi();
    const created = api.create(widgetCrd()) as Crd;
    assert.deepEqual(created.status, { acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] });
    assert.deepEqual((created.spec.names as Record<string, unknown>).listKind, 'WidgetList');
    assert.deepEqual(created.spec.conversion, { strategy: 'None' });
    const crd = api.get('customresourcedefinitions', undefined, 'widgets.example.com');
    assert.deepEqual(crd.status!.acceptedNames, {
      plural: 'widgets',
      singular: 'widget',
      shortNames: ['wd'],
      kind: 'Widget',
      listKind: 'WidgetList',
    });
    const conditions = crd.status!.conditions as { type: string; status: string; reason: string; message: string }[];
    assert.deepEqual(
      conditions.map((c) => [c.type, c.status, c.reason, c.message]),
      [
        ['NamesAccepted', 'True', 'NoConflicts', 'no conflicts found'],
        ['Established', 'True', 'InitialNamesAccepted', 'the initial names have been accepted'],
      ],
    );
    assert.deepEqual(
      api.resources
        .list()
        .filter((r) => r.custom)
        .map((r) => `${r.plural}/${r.version}`),
      ['widgets/v1', 'widgets/v1beta1'],
    );
  });

  test('invalid CRDs are refused with upstream messages and nothing is registered', () => {
    const { api } = newApi();
    const v = (widgetCrd().spec.versions as Record<string, unknown>[])[0];
    assert.equal(
      message(() => api.create(widgetCrd({ versions: [{ ...v, name: 'v2', storage: false }] }))),
      // With no storage version, storedVersions starts empty too (the strategy's PrepareForCreate), so both are said.
      '422 CustomResourceDefinition.apiextensions.k8s.io "widgets.example.com" is invalid: [spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{apiextensions.CustomResourceDefinitionVersion{Name:"v2", Served:true, Storage:false, Deprecated:false, DeprecationWarning:(*string)(nil), Schema:(*apiextensions.CustomResourceValidation)(0xc000000000), Subresources:(*apiextensions.CustomResourceSubresources)(0xc000000000), AdditionalPrinterColumns:[]apiextensions.CustomResourceColumnDefinition(nil), SelectableFields:[]apiextensions.SelectableField{...}}}: must have exactly one version marked as storage version, status.storedVersions: Invalid value: []string(nil): must have at least one stored version]',
    );
    assert.match(
      message(() =>
        api.create({
          ...widgetCrd({ group: 'example', versions: [{ name: 'v1', served: true, storage: true }] }),
          metadata: { name: 'widgets.example.com' },
        }),
      ),
      /metadata\.name: Invalid value: "widgets\.example\.com": must be spec\.names\.plural\+"\."\+spec\.group, spec\.group: Invalid value: "example": should be a domain with at least one dot, spec\.versions\[0\]\.schema\.openAPIV3Schema: Required value: schemas are required/,
    );
    assert.match(
      message(() =>
        api.create(
          widgetCrd({
            versions: [
              { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { properties: { spec: {} } } } },
            ],
          }),
        ),
      ),
      /spec\.versions\[0\]\.schema\.openAPIV3Schema\.type: Required value: must not be empty at the root, spec\.versions\[0\]\.schema\.openAPIV3Schema\.properties\[spec\]\.type: Required value: must not be empty for specified object fields/,
    );
    assert.match(
      message(() =>
        api.create({ ...widgetCrd({ group: 'example.k8s.io' }), metadata: { name: 'widgets.example.k8s.io' } }),
      ),
      /metadata\.annotations\[api-approved\.kubernetes\.io\]: Required value: protected groups must have approval annotation "api-approved\.kubernetes\.io", see https:\/\/github\.com\/kubernetes\/enhancements\/pull\/1111/,
    );
    assert.equal(api.list('customresourcedefinitions').items.length, 0);
    assert.equal(api.resources.byName('widgets'), undefined);
  });

  test('a CRD whose names clash with another CRD is not accepted and serves nothing; it is once the other goes', () => {
    const { api, clock } = newApi();
    api.create(widgetCrd());
    clock.advance(1000);
    api.create({
      ...widgetCrd({ names: { plural: 'gizmos', kind: 'Widget', shortNames: ['wd'] } }),
      metadata: { name: 'gizmos.example.com' },
    });
    const gizmos = api.get('customresourcedefinitions', undefined, 'gizmos.example.com');
    const conditions = gizmos.status!.conditions!;
    assert.deepEqual(
      conditions.map((c) => [c.type, c.status, c.reason, c.message]),
      [
        // Its singular name defaults to the kind's, `widget`, which the first CRD holds: checked before short names.
        ['NamesAccepted', 'False', 'SingularConflict', '"widget" is already in use'],
        ['Established', 'False', 'NotAccepted', 'not all names are accepted'],
      ],
    );
    assert.equal(api.resources.byName('gizmos'), undefined);
    api.delete('customresourcedefinitions', undefined, 'widgets.example.com');
    api.update({
      ...api.get('customresourcedefinitions', undefined, 'widgets.example.com'),
      metadata: { ...api.get('customresourcedefinitions', undefined, 'widgets.example.com').metadata, finalizers: [] },
    });
    assert.equal(api.tryGet('customresourcedefinitions', undefined, 'widgets.example.com'), undefined);
    assert.equal(api.resources.byName('gizmos')?.kind, 'Widget');
  });
});

describe('custom resources', () => {
  test('served in every version, stored in the storage one (conversion None), defaulted by the request version', () => {
    const { api } = newApi();
    api.create(widgetCrd());
    const beta = api.create(widget('a', { color: 'red' }, 'example.com/v1beta1'));
    assert.equal(beta.apiVersion, 'example.com/v1beta1');
    assert.deepEqual(beta.spec, { color: 'red', size: 1 });
    assert.equal(api.objectStore.list('example.com/Widget')[0].apiVersion, 'example.com/v1');
    const v1 = api.get('widgets', 'default', 'a');
    assert.equal(v1.apiVersion, 'example.com/v1');
    const viaBeta = api.get(api.resources.forGvk('example.com/v1beta1', 'Widget')!, 'default', 'a');
    assert.equal(viaBeta.apiVersion, 'example.com/v1beta1');
    assert.deepEqual(api.create(widget('b', {})).spec, { size: 3 });
  });

  test('status only through /status; generation counts spec changes; selectable fields select', () => {
    const { api } = newApi();
    api.create(widgetCrd());
    api.create({ ...widget('a', { color: 'red' }), status: { ready: true } });
    let a = api.get('widgets', 'default', 'a');
    assert.equal(a.status, undefined);
    assert.equal(a.metadata.generation, 1);
    a = api.updateStatus({ ...a, status: { ready: true } });
    assert.deepEqual(a.status, { ready: true });
    assert.equal(a.metadata.generation, 1);
    a = api.patch('widgets', 'default', 'a', 'merge', { spec: { color: 'blue' } });
    assert.equal(a.metadata.generation, 2);
    api.create(widget('b', { color: 'red' }));
    assert.deepEqual(
      api.list('widgets', { fieldSelector: 'spec.color=red' }).items.map((o) => o.metadata.name),
      ['b'],
    );
    assert.equal(
      message(() => api.list('widgets', { fieldSelector: 'spec.size=3' })),
      '400 field label not supported: spec.size',
    );
  });

  test('deleting the CRD deletes its custom resources (the cleanup finalizer), then the CRD, then the kind', () => {
    const cluster = new Cluster({ nodes: 1 });
    cluster.start();
    cluster.api.create(widgetCrd());
    cluster.api.create(widget('a', { color: 'red' }));
    cluster.api.create({
      ...widget('held', { color: 'red' }),
      metadata: { name: 'held', namespace: 'default', finalizers: ['example.com/hold'] },
    });
    cluster.api.delete('customresourcedefinitions', undefined, 'widgets.example.com');
    const terminating = cluster.api.get('customresourcedefinitions', undefined, 'widgets.example.com');
    assert.deepEqual(terminating.metadata.finalizers, ['customresourcecleanup.apiextensions.k8s.io']);
    assert.equal(
      message(() => cluster.api.create(widget('late', {}))),
      '405 create not allowed while custom resource definition is terminating',
    );
    cluster.runFor(10_000);
    assert.deepEqual(
      cluster.api.list('widgets').items.map((w) => w.metadata.name),
      ['held'],
    );
    const held = cluster.api.get('widgets', 'default', 'held');
    cluster.api.update({ ...held, metadata: { ...held.metadata, finalizers: [] } });
    cluster.runFor(10_000);
    assert.equal(cluster.api.tryGet('customresourcedefinitions', undefined, 'widgets.example.com'), undefined);
    assert.equal(cluster.api.resources.byName('widgets'), undefined);
    cluster.stop();
  });

  test('a snapshot saves and restores CRDs with their custom resources', () => {
    const { api, clock } = newApi();
    api.create(widgetCrd());
    api.create(widget('a', { color: 'red' }));
    const restored = restoreSnapshot(JSON.parse(JSON.stringify(takeSnapshot(api))), { clock });
    assert.deepEqual(restored.get('widgets', 'default', 'a').spec, { color: 'red', size: 3 });
    assert.equal(restored.resources.byName('wd')?.plural, 'widgets');
  });

  test('the settled report says custom resources and unreconciled kinds are stored, not acted on', () => {
    const { api } = newApi();
    api.create(widgetCrd());
    api.create(widget('a', { color: 'red' }));
    api.create({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'web', namespace: 'default' },
      spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } } },
    });
    assert.deepEqual(describeNotReconciled(api), [
      'ingress/web: stored; no Ingress controller runs in this sandbox (as on a cluster without one)',
      'widget.example.com/a: stored; no controller for Widget runs in this sandbox (an operator’s pods run as simulated containers)',
    ]);
  });
});

describe('conversion: Webhook', () => {
  const webhook = {
    conversion: {
      strategy: 'Webhook',
      webhook: {
        conversionReviewVersions: ['v1'],
        clientConfig: { service: { namespace: 'default', name: 'widget-webhook', path: '/convert' } },
      },
    },
  };
  const NOTE =
    'spec.conversion.strategy Webhook: the conversion webhook is not called in this sandbox; ' +
    'its versions are converted as with strategy None (only apiVersion changes)';

  test('stored and served, with a warning on each write and a line in the settled report; None warns nothing', () => {
    const { api } = newApi();
    const warnings: string[] = [];
    const warn = (text: string) => warnings.push(text);
    api.create(widgetCrd(webhook), { warn });
    assert.deepEqual(warnings, [`CustomResourceDefinition "widgets.example.com": ${NOTE}`]);
    // Both versions are served; reads in the other version change only apiVersion, as the warning says.
    api.create(widget('a', { color: 'red', size: 2 }));
    const old = api.get(api.resources.forGvk('example.com/v1beta1', 'Widget')!, 'default', 'a');
    assert.equal(old.apiVersion, 'example.com/v1beta1');
    assert.deepEqual(old.spec, { color: 'red', size: 2 });
    const live = api.get('customresourcedefinitions', '', 'widgets.example.com');
    api.update({ ...live, metadata: { ...live.metadata, labels: { a: 'b' } } }, { warn });
    assert.equal(warnings.length, 2);
    assert.deepEqual(
      describeNotReconciled(api).filter((l) => l.startsWith('customresourcedefinition')),
      [`customresourcedefinition.apiextensions.k8s.io/widgets.example.com: ${NOTE}`],
    );

    const plain = newApi().api;
    const none: string[] = [];
    plain.create(widgetCrd(), { warn: (t) => none.push(t) });
    assert.deepEqual(none, []);
    assert.deepEqual(
      describeNotReconciled(plain).filter((l) => l.startsWith('customresourcedefinition')),
      [],
    );
  });
});

describe('built-in kinds without a controller', () => {
  test('every stable kind of 1.32 is served; the system PriorityClasses exist; reviews answer without storing', () => {
    const { api } = newApi();
    for (const name of [
      'apiservices',
      'validatingwebhookconfigurations',
      'runtimeclasses',
      'csidrivers',
      'csinodes',
      'flowschemas',
      'certificatesigningrequests',
      'replicationcontrollers',
      'podtemplates',
      'validatingadmissionpolicies',
    ])
      assert.deepEqual(api.list(name).items, [], name);
    assert.deepEqual(
      api
        .list('priorityclasses')
        .items.map((p) => [
          p.metadata.name,
          (p as { value?: number }).value,
          (p as { preemptionPolicy?: string }).preemptionPolicy,
        ]),
      [
        ['system-cluster-critical', 2000000000, 'PreemptLowerPriority'],
        ['system-node-critical', 2000001000, 'PreemptLowerPriority'],
      ],
    );
    const review = api.create({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      metadata: {},
      spec: { resourceAttributes: { verb: 'get', resource: 'pods' } },
    });
    assert.equal((review.status as { allowed: boolean }).allowed, true);
    assert.equal(
      message(() => api.list('selfsubjectaccessreviews')),
      '405 list is not supported on resources of kind "selfsubjectaccessreviews.authorization.k8s.io"',
    );
  });

  test('autoscaling/v1 HorizontalPodAutoscalers are stored as v2 and read back as v1', () => {
    const { api } = newApi();
    const v1 = api.create({
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        maxReplicas: 5,
        targetCPUUtilizationPercentage: 60,
      },
    });
    assert.equal(v1.apiVersion, 'autoscaling/v1');
    assert.deepEqual(v1.spec, {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 1,
      maxReplicas: 5,
      targetCPUUtilizationPercentage: 60,
    });
    const v2 = api.get('horizontalpodautoscalers', 'default', 'web');
    assert.equal(v2.apiVersion, 'autoscaling/v2');
    assert.deepEqual((v2.spec as { metrics: unknown }).metrics, [
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
    ]);
  });

  test('webhook configurations, RBAC and storage classes are defaulted and validated as upstream', () => {
    const { api } = newApi();
    const hook = api.create({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'v' },
      webhooks: [
        {
          name: 'check.example.com',
          clientConfig: { service: { name: 's', namespace: 'default' } },
          rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }],
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
        },
      ],
    }) as KubeObject & { webhooks: Record<string, unknown>[] };
    assert.equal(hook.webhooks[0].failurePolicy, 'Fail');
    assert.equal(hook.webhooks[0].timeoutSeconds, 10);
    assert.deepEqual(hook.webhooks[0].clientConfig, { service: { name: 's', namespace: 'default', port: 443 } });
    assert.equal((hook.webhooks[0].rules as Record<string, unknown>[])[0].scope, '*');
    assert.match(
      message(() =>
        api.create({
          apiVersion: 'admissionregistration.k8s.io/v1',
          kind: 'ValidatingWebhookConfiguration',
          metadata: { name: 'w' },
          webhooks: [{ name: 'bad', clientConfig: {} }],
        }),
      ),
      /webhooks\[0\]\.name: Invalid value: "bad": should be a domain with at least three segments separated by dots, webhooks\[0\]\.sideEffects: Unsupported value: "": supported values: "None", "NoneOnDryRun", webhooks\[0\]\.admissionReviewVersions: Required value: must specify one of v1, v1beta1/,
    );
    assert.match(
      message(() =>
        api.create({
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'Role',
          metadata: { name: 'r', namespace: 'default' },
          rules: [{ apiGroups: [''], resources: ['pods'] }],
        }),
      ),
      /rules\[0\]\.verbs: Required value: verbs must contain at least one value/,
    );
    const sc = api.create({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'fast' },
      provisioner: 'example.com/csi',
    });
    assert.deepEqual([sc.reclaimPolicy, sc.volumeBindingMode], ['Delete', 'Immediate']);
  });
});
