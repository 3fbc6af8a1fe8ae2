import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFolder, expected } from './helpers';

const service = (selector: string, extra = ''): string => `apiVersion: v1
kind: Service
metadata:
  name: web
${extra}spec:
  selector: ${selector}
  ports:
  - port: 80
`;

const deployment = (labels: string, namespace = ''): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
${namespace}spec:
  selector:
    matchLabels: ${labels}
  template:
    metadata:
      labels: ${labels}
    spec:
      containers:
      - name: web
        image: nginx
`;

const NOTHING = (selector: string, ns = 'default', line = 5): ReturnType<typeof expected> =>
  expected(
    line,
    12,
    12 + `{${selector.replace('=', ': ')}}`.length,
    'service-selector-matches-nothing',
    `Service selector ${selector} matches no pod template in namespace "${ns}" in this workspace folder; the Service would have no endpoints`,
  );

describe('service-selector-matches-nothing', () => {
  test('a selector matched by a pod template in another file of the folder is fine', () => {
    assert.deepEqual(
      checkFolder({ 'svc.yaml': service('{app: web}'), 'deploy.yaml': deployment('{app: web, tier: front}') }),
      {},
    );
  });

  test('a selector no template matches is marked on spec.selector', () => {
    assert.deepEqual(checkFolder({ 'svc.yaml': service('{app: web}'), 'deploy.yaml': deployment('{app: api}') }), {
      'svc.yaml': [NOTHING('app=web')],
    });
  });

  test('every selector label must match: a template with only some of them does not count', () => {
    const svc = service('{app: web, tier: db}');
    assert.deepEqual(checkFolder({ 'svc.yaml': svc, 'deploy.yaml': deployment('{app: web}') }), {
      'svc.yaml': [
        expected(
          5,
          12,
          32,
          'service-selector-matches-nothing',
          'Service selector app=web,tier=db matches no pod template in namespace "default" in this workspace folder; the Service would have no endpoints',
        ),
      ],
    });
  });

  test("templates count only in the Service's namespace; no namespace means default", () => {
    const other = deployment('{app: web}', '  namespace: other\n');
    assert.deepEqual(checkFolder({ 'svc.yaml': service('{app: web}'), 'deploy.yaml': other }), {
      'svc.yaml': [NOTHING('app=web')],
    });
    const explicitDefault = deployment('{app: web}', '  namespace: default\n');
    assert.deepEqual(checkFolder({ 'svc.yaml': service('{app: web}'), 'deploy.yaml': explicitDefault }), {});
    const svcInOther = service('{app: web}', '  namespace: other\n');
    assert.deepEqual(checkFolder({ 'svc.yaml': svcInOther, 'deploy.yaml': other }), {});
  });

  test('CronJob job templates, StatefulSets, DaemonSets, Jobs and bare Pods are pod templates too', () => {
    const cron = `apiVersion: batch/v1
kind: CronJob
metadata: {name: c}
spec:
  schedule: "* * * * *"
  jobTemplate:
    spec:
      template:
        metadata: {labels: {app: cron}}
        spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}
`;
    const pod =
      'apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {app: pod}}\nspec: {containers: [{name: c, image: busybox}]}\n';
    const sts = deployment('{app: sts}').replace('kind: Deployment', 'kind: StatefulSet');
    const ds = deployment('{app: ds}').replace('kind: Deployment', 'kind: DaemonSet');
    const job =
      'apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec: {template: {metadata: {labels: {app: job}}, spec: {containers: []}}}\n';
    const files = { 'cron.yaml': cron, 'pod.yaml': pod, 'sts.yaml': sts, 'ds.yaml': ds, 'job.yaml': job };
    for (const app of ['cron', 'pod', 'sts', 'ds', 'job'])
      assert.deepEqual(checkFolder({ ...files, 'svc.yaml': service(`{app: ${app}}`) }), {}, app);
    // A ConfigMap's labels are not a pod's.
    const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, labels: {app: cm}}\n';
    assert.deepEqual(checkFolder({ 'cm.yaml': cm, 'svc.yaml': service('{app: cm}') }), {
      'svc.yaml': [NOTHING('app=cm')],
    });
  });

  test('Services without a selector, or of type ExternalName, are not checked', () => {
    const noSelector = 'apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {ports: [{port: 80}]}\n';
    const external =
      'apiVersion: v1\nkind: Service\nmetadata: {name: e}\nspec: {type: ExternalName, externalName: example.com, selector: {app: x}}\n';
    assert.deepEqual(checkFolder({ 'a.yaml': noSelector, 'b.yaml': external }), {});
  });

  test('for a file outside any folder, the message names the file as the scope', () => {
    assert.deepEqual(checkFolder({ 'svc.yaml': service('{app: web}') }, 'this file'), {
      'svc.yaml': [
        expected(
          5,
          12,
          22,
          'service-selector-matches-nothing',
          'Service selector app=web matches no pod template in namespace "default" in this file; the Service would have no endpoints',
        ),
      ],
    });
  });
});
