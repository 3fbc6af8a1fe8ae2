import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { foresightDiagnostics } from '../../../client/src/foresight/diagnostics';
import { about, replicasChange, saveImpactLenses } from '../../../client/src/foresight/lenses';
import type { PlanReport, PlanRollout } from '../../../sandbox/plan/types';

const YAML = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 5 # five
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        - name: sidecar
          image: busybox
        - name: nginx
          image: nginx:1.28
          resources:
            requests:
              cpu: "2"
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: web2
  ports:
    - port: 80
`;

const DIFF = `--- LIVE/apps.v1.Deployment.default.web
+++ MERGED/apps.v1.Deployment.default.web
@@ -16,7 +16,7 @@
 spec:
   progressDeadlineSeconds: 600
-  replicas: 3
+  replicas: 5
   revisionHistoryLimit: 10
@@ -40,7 +40,7 @@
 status:
   observedGeneration: 1
   replicas: 3
`;

function rollout(over: Partial<PlanRollout>): PlanRollout {
  return {
    deployment: 'default/web',
    replicas: 3,
    strategy: 'RollingUpdate',
    maxSurge: 1,
    maxUnavailable: 0,
    podsCreated: 0,
    podsDeleted: 0,
    peakSurge: 0,
    peakUnavailable: 0,
    durationMs: 0,
    replicaSets: [],
    outcome: 'complete',
    ...over,
  };
}

function plan(over: Partial<PlanReport>): PlanReport {
  return {
    apiVersion: 'plan.kube-reconcile.dev/v1alpha1',
    kind: 'Plan',
    settled: true,
    durationMs: 0,
    nodes: 3,
    objects: [],
    rollouts: [],
    workloads: [],
    pending: [],
    containers: [],
    services: [],
    disruptionBudgets: [],
    unsettled: [],
    findings: [],
    verdict: '',
    ...over,
  };
}

const PENDING =
  '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.';

describe('save-impact lenses', () => {
  test('a rolling update: pods replaced, peak surge and unavailability, virtual time', () => {
    const report = plan({
      objects: [{ action: 'configured', ref: 'deployment.apps/web', namespace: 'default', source: 'web.yaml:1' }],
      rollouts: [rollout({ podsCreated: 3, podsDeleted: 3, peakSurge: 1, peakUnavailable: 0, durationMs: 24_400 })],
    });
    assert.deepEqual(saveImpactLenses(report), [
      { line: 0, title: 'Save: rolling update, 3 pods replaced (surge 1, unavailable 0), ~24 s' },
    ]);
  });

  test('a scale from the diff of spec.replicas (not status), with the Pending pods the plan finds', () => {
    const report = plan({
      objects: [
        { action: 'configured', ref: 'deployment.apps/web', namespace: 'default', source: 'web.yaml:1', diff: DIFF },
        { action: 'unchanged', ref: 'service/web', namespace: 'default', source: 'web.yaml:24' },
      ],
      rollouts: [rollout({ replicas: 5, podsCreated: 2 })],
      pending: [
        { pod: 'default/web-a', owner: 'Deployment default/web', message: PENDING },
        { pod: 'default/other-b', owner: 'Deployment default/other', message: PENDING },
      ],
    });
    assert.deepEqual(saveImpactLenses(report), [{ line: 0, title: 'Save: scale 3 → 5 · 1 pod would stay Pending' }]);
    assert.deepEqual(replicasChange(DIFF), { before: 3, after: 5 });
    assert.equal(replicasChange(DIFF.replace('+  replicas: 5\n', '')), undefined);
  });

  test('a rolling update whose new pods crash-loop and fail their readiness probe says so', () => {
    const problem = { owner: 'Deployment default/web', pods: 1, pod: 'default/web-a', message: '…' };
    const report = plan({
      objects: [{ action: 'configured', ref: 'deployment.apps/web', namespace: 'default', source: 'web.yaml:1' }],
      rollouts: [
        rollout({ podsCreated: 1, podsDeleted: 0, peakSurge: 1, durationMs: 600_000, outcome: 'progressing' }),
      ],
      containers: [
        { problem: 'crashloop', container: 'app', ...problem },
        { problem: 'readiness', container: 'proxy', ...problem },
        { problem: 'crashloop', container: 'x', ...problem, owner: 'Deployment default/other' },
      ],
    });
    assert.deepEqual(
      saveImpactLenses(report).map((l) => l.title.split(' · ').slice(1)),
      [['still rolling out after 10 min', 'app would crash-loop', "proxy's readiness probe fails"]],
    );
  });

  test('created, unchanged, recreate, stuck, a StatefulSet, a DaemonSet, a refusal, a pruned object', () => {
    const report = plan({
      objects: [
        { action: 'pruned', ref: 'deployment.apps/old', namespace: 'default', source: 'web.yaml' },
        { action: 'created', ref: 'deployment.apps/new', namespace: 'default', source: 'web.yaml:1' },
        { action: 'unchanged', ref: 'deployment.apps/same', namespace: 'default', source: 'web.yaml:20' },
        { action: 'configured', ref: 'deployment.apps/rec', namespace: 'default', source: 'web.yaml:40' },
        { action: 'configured', ref: 'deployment.apps/stuck', namespace: 'default', source: 'web.yaml:60' },
        { action: 'configured', ref: 'statefulset.apps/db', namespace: 'default', source: 'web.yaml:80' },
        { action: 'created', ref: 'daemonset.apps/agent', namespace: 'default', source: 'web.yaml:100' },
        { action: 'refused', ref: 'deployment.apps/bad', namespace: 'default', source: 'web.yaml:122', message: 'x' },
        { action: 'created', ref: 'configmap/c', namespace: 'default', source: 'web.yaml:130' },
      ],
      rollouts: [
        rollout({ deployment: 'default/new', replicas: 3, podsCreated: 3 }),
        rollout({
          deployment: 'default/rec',
          strategy: 'Recreate',
          podsCreated: 2,
          podsDeleted: 2,
          durationMs: 125_000,
        }),
        rollout({
          deployment: 'default/stuck',
          podsCreated: 1,
          outcome: 'stuck',
          message: 'ReplicaSet "stuck-1" has timed out progressing.',
        }),
      ],
      workloads: [
        {
          kind: 'StatefulSet',
          workload: 'default/db',
          podsCreated: 2,
          podsDeleted: 2,
          durationMs: 60_000,
          outcome: 'complete',
        },
        {
          kind: 'DaemonSet',
          workload: 'default/agent',
          podsCreated: 3,
          podsDeleted: 0,
          durationMs: 0,
          outcome: 'complete',
        },
      ],
    });
    assert.deepEqual(
      saveImpactLenses(report).map((l) => `${l.line} ${l.title}`),
      [
        '0 Save: deletes deployment.apps/old (no longer declared)',
        '0 Save: creates 3 pods',
        '19 Save: no change',
        '39 Save: recreate, 2 pods replaced, ~2 min 5 s',
        '59 Save: configured, no pods replaced · rollout would get stuck (ReplicaSet "stuck-1" has timed out progressing.)',
        '79 Save: rolling update, 2 pods replaced (highest ordinal first), ~1 min',
        '99 Save: creates 3 pods (one per node)',
        '121 Save: refused by the API server: x',
      ],
    );
    assert.equal(about(400), '~0 s');
  });
});

describe('plan diagnostics', () => {
  const report = plan({
    objects: [
      { action: 'configured', ref: 'deployment.apps/web', namespace: 'default', source: 'web.yaml:1', diff: DIFF },
      { action: 'configured', ref: 'service/web', namespace: 'default', source: 'web.yaml:24' },
    ],
    rollouts: [rollout({ replicas: 5, podsCreated: 2 })],
    pending: [
      { pod: 'default/web-a', owner: 'Deployment default/web', message: PENDING },
      { pod: 'default/web-b', owner: 'Deployment default/web', message: PENDING },
    ],
    services: [{ service: 'default/web', before: 3, min: 0, after: 0 }],
  });

  test('Insufficient cpu: at the requests of the container that asks for cpu, with the scheduler message verbatim', () => {
    const [pending, endpoints] = foresightDiagnostics(report, YAML, {
      'default/web-a': ['node-1: Insufficient cpu', 'node-2: node(s) had untolerated taint {gpu: true}'],
    });
    assert.deepEqual(pending, {
      line: 20,
      character: 12,
      endCharacter: 20,
      code: 'pending',
      message: `2 of 5 replicas would stay Pending: ${PENDING}`,
      related: [
        'node-1: Insufficient cpu',
        'node-2: node(s) had untolerated taint {gpu: true}',
        `default/web-a: ${PENDING}`,
        `default/web-b: ${PENDING}`,
      ],
      fixes: [
        { title: 'Lower replicas to 3 (what fits)', span: { line: 5, character: 12, endCharacter: 13 }, text: '3' },
      ],
    });
    assert.deepEqual(endpoints, {
      line: 28,
      character: 2,
      endCharacter: 10,
      code: 'endpoints',
      message: 'Service default/web would have no ready endpoints (3 now)',
      related: [],
    });
  });

  test('another reason (a taint): at replicas; an owner that is not in this document: nothing', () => {
    const taint =
      '0/3 nodes are available: 3 node(s) had untolerated taint {gpu: true}. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.';
    const d = foresightDiagnostics(
      plan({
        objects: report.objects,
        rollouts: report.rollouts,
        pending: [
          { pod: 'default/web-a', owner: 'Deployment default/web', message: taint },
          { pod: 'default/x-a', owner: 'Deployment default/x', message: taint },
        ],
      }),
      YAML,
    );
    assert.deepEqual(
      d.map((x) => [x.line, x.character, x.message]),
      [[5, 2, `1 of 5 replicas would stay Pending: ${taint}`]],
    );
    assert.deepEqual(
      d[0].fixes?.map((f) => f.text),
      ['4'],
    );
  });
});

describe('crash loops and probes as diagnostics', () => {
  const APP = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  replicas: 2
  selector:
    matchLabels:
      app: api
  template:
    metadata:
      labels:
        app: api
    spec:
      initContainers:
        - name: migrate
          image: busybox
      containers:
        - name: api
          image: example/api:2
          command: ["/api", "--port=8080"]
          readinessProbe:
            httpGet:
              path: /ready
              port: 8080
        - name: cache
          image: redis:7
`;
  const objects: PlanReport['objects'] = [
    { action: 'configured', ref: 'deployment.apps/api', namespace: 'default', source: 'api.yaml:1' },
  ];
  const crash =
    'back-off 40s restarting failed container=api pod=api-6d5f7c9b8-abcde_default(0a1b2c3d-0000-4000-8000-000000000001)';

  test('a crash loop at the container’s command (image without one), a failing probe at the probe, kubelet’s words', () => {
    const d = foresightDiagnostics(
      plan({
        objects,
        containers: [
          {
            problem: 'crashloop',
            owner: 'Deployment default/api',
            container: 'api',
            pods: 2,
            pod: 'default/api-6d5f7c9b8-abcde',
            message: crash,
            exitCode: 1,
            reason: 'Error',
            restarts: 3,
            lastLogLine: 'panic: listen tcp :8080: bind: address already in use',
          },
          {
            problem: 'crashloop',
            owner: 'Deployment default/api',
            container: 'cache',
            pods: 1,
            pod: 'default/api-6d5f7c9b8-fghij',
            message: crash.replace('=api ', '=cache '),
          },
          {
            problem: 'readiness',
            owner: 'Deployment default/api',
            container: 'api',
            pods: 2,
            pod: 'default/api-6d5f7c9b8-abcde',
            message: 'Readiness probe failed: HTTP probe failed with statuscode: 503',
          },
          {
            problem: 'crashloop',
            owner: 'Deployment default/api',
            container: 'migrate',
            init: true,
            pods: 2,
            pod: 'default/api-6d5f7c9b8-abcde',
            message: crash.replace('=api ', '=migrate '),
            exitCode: 2,
          },
          // a workload of another file: nothing here
          {
            problem: 'readiness',
            owner: 'Deployment default/web',
            container: 'nginx',
            pods: 1,
            pod: 'default/web-x',
            message: 'x',
          },
        ],
      }),
      APP,
    );
    assert.deepEqual(d, [
      {
        line: 16,
        character: 10,
        endCharacter: 15,
        code: 'crashloop',
        message: `Init container migrate would crash-loop in 2 pods (CrashLoopBackOff): ${crash.replace('=api ', '=migrate ')}; last termination: exit code 2`,
        related: [],
      },
      {
        line: 20,
        character: 10,
        endCharacter: 17,
        code: 'crashloop',
        message: `Container api would crash-loop in 2 pods (CrashLoopBackOff): ${crash}; last termination: Error, exit code 1`,
        related: [
          'last log line: panic: listen tcp :8080: bind: address already in use',
          'default/api-6d5f7c9b8-abcde: 3 restarts',
        ],
      },
      {
        line: 21,
        character: 10,
        endCharacter: 24,
        code: 'probe',
        message:
          'The readiness probe of api would never pass in 2 pods: Readiness probe failed: HTTP probe failed with statuscode: 503',
        related: [],
      },
      {
        line: 26,
        character: 10,
        endCharacter: 15,
        code: 'crashloop',
        message: `Container cache would crash-loop in 1 pod (CrashLoopBackOff): ${crash.replace('=api ', '=cache ')}`,
        related: [],
      },
    ]);
  });
});
