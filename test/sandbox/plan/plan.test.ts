/**
 * The plan of each classic situation, asserted whole. The rollout figures come from upstream's rollout math
 * (pkg/controller/deployment/util/deployment_util.go `ResolveFenceposts`: maxSurge is a percentage of replicas
 * rounded up, maxUnavailable rounded down; rolling.go `reconcileNewReplicaSet` scales the new ReplicaSet up to
 * replicas + maxSurge in total, `reconcileOldReplicaSets` scales old ones down while replicas - maxUnavailable stay
 * available). Each plan runs on a fork: the snapshot it is given is never changed.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Deployment } from 'kubernetes-types/apps/v1';
import type { KubeObject, Typed } from '../../../sandbox/api/types';
import { takeSnapshot } from '../../../sandbox/apiserver/snapshot';
import type { Snapshot } from '../../../sandbox/apiserver/snapshot';
import { Cluster } from '../../../sandbox/cluster/cluster';
import { withSourceAnnotation } from '../../../sandbox/gitops/desiredState';
import { formatPlanText } from '../../../sandbox/plan/format';
import { runPlan } from '../../../sandbox/plan/plan';
import type { PlanManifest } from '../../../sandbox/plan/plan';
import type { PlanReport } from '../../../sandbox/plan/types';
import { aConfigMap, aDeployment, aService } from '../../builders';

const SOURCE = 'app/web.yaml';

/** A settled 3-node cluster (4 CPUs a node) holding `objects`, applied from SOURCE as the GitOps sync applies. */
function stateWith(...objects: KubeObject[]): Snapshot {
  const cluster = new Cluster({ nodes: 3 });
  cluster.start();
  for (const o of objects) cluster.apply(withSourceAnnotation(o, SOURCE));
  cluster.runUntilSettled();
  const snapshot = JSON.parse(JSON.stringify(takeSnapshot(cluster.api))) as Snapshot;
  cluster.stop();
  return snapshot;
}

function web(o: { image?: string; replicas?: number; cpu?: string } = {}): Typed<Deployment> {
  return aDeployment('web', {
    replicas: o.replicas ?? 4,
    image: o.image ?? 'nginx:1.27',
    name: 'nginx',
    requests: { cpu: o.cpu ?? '100m' },
  });
}

const manifests = (...objects: KubeObject[]): PlanManifest[] =>
  objects.map((object, i) => ({ source: SOURCE, line: 1 + 20 * i, object }));

/** The report without what names or times depend on: diffs, ReplicaSet names and durations (asserted apart). */
function shape(report: PlanReport) {
  return {
    ...report,
    durationMs: undefined,
    verdict: undefined,
    objects: report.objects.map(({ diff: _diff, ...o }) => o),
    rollouts: report.rollouts.map(({ durationMs: _d, message: _m, ...r }) => ({
      ...r,
      replicaSets: r.replicaSets.map((rs) => ({ revision: rs.revision, replicas: rs.replicas })),
    })),
    pending: report.pending.map((p) => ({ ...p, pod: p.pod.replace(/-[a-z0-9]+-[a-z0-9]+$/, '-…') })),
  };
}

describe('runPlan', () => {
  const state = stateWith(web(), aService('web'), aConfigMap('settings', { mode: 'fast' }));
  const stateText = JSON.stringify(state);
  const base = {
    apiVersion: 'plan.kube-reconcile.dev/v1alpha1',
    kind: 'Plan',
    durationMs: undefined,
    verdict: undefined,
  };

  test('an image change rolls 4 replicas one at a time: maxSurge 25% → 1, maxUnavailable 25% → 1', () => {
    const report = runPlan({
      snapshot: state,
      manifests: manifests(web({ image: 'nginx:1.28' }), aService('web'), aConfigMap('settings', { mode: 'fast' })),
    });
    assert.deepEqual(shape(report), {
      ...base,
      settled: true,
      nodes: 3,
      objects: [
        { action: 'configured', ref: 'deployment.apps/web', namespace: 'default', source: `${SOURCE}:1` },
        { action: 'unchanged', ref: 'service/web', namespace: 'default', source: `${SOURCE}:21` },
        { action: 'unchanged', ref: 'configmap/settings', namespace: 'default', source: `${SOURCE}:41` },
      ],
      rollouts: [
        {
          deployment: 'default/web',
          replicas: 4,
          strategy: 'RollingUpdate',
          maxSurge: 1,
          maxUnavailable: 1,
          podsCreated: 4,
          podsDeleted: 4,
          peakSurge: 1,
          peakUnavailable: 1,
          replicaSets: [
            { revision: '2', replicas: 4 },
            { revision: '1', replicas: 0 },
          ],
          outcome: 'complete',
        },
      ],
      workloads: [],
      pending: [],
      containers: [],
      // the Service follows the rollout: one pod unavailable at a time, so 3 of 4 endpoints at the fewest
      services: [{ service: 'default/web', before: 4, min: 3, after: 4 }],
      disruptionBudgets: [],
      unsettled: [],
      findings: [],
    });
    const diff = report.objects[0].diff ?? '';
    assert.match(
      diff,
      /^--- LIVE\/apps\.v1\.Deployment\.default\.web\n\+\+\+ MERGED\/apps\.v1\.Deployment\.default\.web\n/,
    );
    assert.match(diff, /\n- {6}- image: nginx:1\.27\n\+ {6}- image: nginx:1\.28\n/);
    assert.match(diff, /\n- {2}generation: 1\n\+ {2}generation: 2\n/);
    assert.doesNotMatch(diff, /managedFields|^[-+] {2}resourceVersion/m);
    assert.ok(report.rollouts[0].durationMs > 0 && report.rollouts[0].durationMs <= report.durationMs);
    assert.match(report.verdict, /^1 configured, 2 unchanged; settles in \d+s\.$/);
    assert.equal(JSON.stringify(state), stateText, 'the snapshot is not changed');
  });

  test('with maxUnavailable 0 the same change never drops below 4 available (surge 1, unavailable 0)', () => {
    const strict = web({ image: 'nginx:1.28' });
    strict.spec!.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 0 } };
    const r = runPlan({ snapshot: state, manifests: manifests(strict, aService('web')) }).rollouts[0];
    assert.deepEqual(
      [r.maxSurge, r.maxUnavailable, r.podsCreated, r.podsDeleted, r.peakSurge, r.peakUnavailable, r.outcome],
      [1, 0, 4, 4, 1, 0, 'complete'],
    );
  });

  test('replicas beyond capacity leave pods Pending with the scheduler’s exact message', () => {
    // 3 nodes × 4 CPUs hold 2 pods of 1500m each: 6 of 7 are placed
    const report = runPlan({ manifests: manifests(web({ replicas: 7, cpu: '1500m' })), limitMs: 2 * 60_000 });
    assert.deepEqual(shape(report).pending, [
      {
        pod: 'default/web-…',
        owner: 'Deployment default/web',
        message:
          '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
      },
    ]);
    assert.deepEqual(report.objects, [
      { action: 'created', ref: 'deployment.apps/web', namespace: 'default', source: `${SOURCE}:1` },
    ]);
    assert.deepEqual(report.findings, ['pending', 'unsettled']);
    assert.equal(report.rollouts[0].outcome, 'progressing');
    assert.match(report.verdict, /^1 created; 1 pod would stay Pending\.$/);
  });

  test('a readiness probe that never passes stops the rollout at progressDeadlineSeconds: ProgressDeadlineExceeded', () => {
    const probed = web({ image: 'nginx:1.28' });
    probed.spec!.progressDeadlineSeconds = 120;
    probed.spec!.template.spec!.containers[0].readinessProbe = { httpGet: { path: '/', port: 8080 } };
    const report = runPlan({ snapshot: state, manifests: manifests(probed, aService('web')) });
    const r = report.rollouts[0];
    assert.deepEqual(shape(report).rollouts, [
      {
        deployment: 'default/web',
        replicas: 4,
        strategy: 'RollingUpdate',
        maxSurge: 1,
        maxUnavailable: 1,
        // the new ReplicaSet gets surge + unavailable = 2 pods, the old one keeps 3: none of the new pods is ready
        podsCreated: 2,
        podsDeleted: 1,
        peakSurge: 1,
        peakUnavailable: 1,
        replicaSets: [
          { revision: '2', replicas: 2 },
          { revision: '1', replicas: 3 },
        ],
        outcome: 'stuck',
      },
    ]);
    assert.match(r.message ?? '', /^ReplicaSet "web-[a-z0-9]+" has timed out progressing\.$/);
    assert.ok(r.durationMs >= 120_000, `stuck after the deadline, not before (${r.durationMs} ms)`);
    assert.deepEqual(report.findings, ['probe', 'stuck', 'unsettled']);
    // the 2 new pods' container runs and is never ready (nothing listens on 8080): the kubelet's Unhealthy event
    assert.deepEqual(
      report.containers.map(({ pod: _pod, message: _m, ...c }) => c),
      [{ problem: 'readiness', owner: 'Deployment default/web', container: 'nginx', pods: 2 }],
    );
    assert.match(
      report.containers[0].message,
      /^Readiness probe failed: Get "http:\/\/10\.244\.\d+\.\d+:8080\/": dial tcp 10\.244\.\d+\.\d+:8080: connect: connection refused$/,
    );
    assert.match(report.verdict, /1 probe would keep failing, 1 rollout would get stuck\.$/);
    // the Service keeps the 3 old pods' endpoints throughout
    assert.deepEqual(report.services, [{ service: 'default/web', before: 4, min: 3, after: 3 }]);
  });

  test('a Service selector change leaves it with 0 ready endpoints', () => {
    const report = runPlan({
      snapshot: state,
      manifests: manifests(web(), aService('web', { selector: { app: 'api' } })),
    });
    assert.deepEqual(report.services, [{ service: 'default/web', before: 4, min: 0, after: 0 }]);
    assert.deepEqual(report.findings, ['endpoints']);
    assert.deepEqual(
      report.objects.map((o) => [o.ref, o.action]),
      [
        ['deployment.apps/web', 'unchanged'],
        ['service/web', 'configured'],
        ['configmap/settings', 'pruned'],
      ],
    );
    assert.match(report.objects[1].diff ?? '', /\n {3}selector:\n- {4}app: web\n\+ {4}app: api\n/);
    assert.match(report.verdict, /1 Service would have no ready endpoints\.$/);
  });

  test('an object the file no longer declares is pruned; the ReplicaSets its Deployment made are not', () => {
    const report = runPlan({ snapshot: state, manifests: manifests(web()) });
    assert.deepEqual(report.objects, [
      { action: 'unchanged', ref: 'deployment.apps/web', namespace: 'default', source: `${SOURCE}:1` },
      { action: 'pruned', ref: 'service/web', namespace: 'default', source: SOURCE },
      { action: 'pruned', ref: 'configmap/settings', namespace: 'default', source: SOURCE },
    ]);
    assert.deepEqual(report.rollouts, []);
    assert.deepEqual(report.findings, []);
    // another file's plan prunes nothing of this one's
    const other = runPlan({ snapshot: state, manifests: [{ source: 'other.yaml', line: 1, object: aConfigMap('x') }] });
    assert.deepEqual(
      other.objects.map((o) => o.action),
      ['created'],
    );
  });

  test('the same files again: every object unchanged, nothing to roll out, no finding', () => {
    const report = runPlan({
      snapshot: state,
      manifests: manifests(web(), aService('web'), aConfigMap('settings', { mode: 'fast' })),
    });
    assert.deepEqual(
      report.objects.map((o) => o.action),
      ['unchanged', 'unchanged', 'unchanged'],
    );
    assert.deepEqual([report.rollouts, report.pending, report.services, report.findings], [[], [], [], []]);
    assert.equal(report.verdict, '3 unchanged; settles in 0s.');
  });

  test('a document the API server refuses is reported with its message, as validate gives it', () => {
    const bad = aDeployment('broken', { selector: { app: 'a' } });
    bad.spec!.template.metadata = { labels: { app: 'b' } };
    const report = runPlan({ snapshot: state, manifests: manifests(web(), bad) });
    assert.deepEqual(
      report.objects.map((o) => [o.ref, o.action]),
      [
        ['deployment.apps/web', 'unchanged'],
        ['deployment.apps/broken', 'refused'],
        ['service/web', 'pruned'],
        ['configmap/settings', 'pruned'],
      ],
    );
    assert.match(
      report.objects[1].message ?? '',
      /^Deployment\.apps "broken" is invalid: spec\.template\.metadata\.labels: Invalid value: .*`selector` does not match template `labels`/,
    );
    assert.deepEqual(report.findings, ['refused']);
  });

  test('the same inputs give the same plan', () => {
    const input = { snapshot: state, manifests: manifests(web({ image: 'nginx:1.28' })) };
    assert.deepEqual(runPlan(input), runPlan(input));
  });
});

describe('runPlan: StatefulSets, DaemonSets, Jobs and PodDisruptionBudgets', () => {
  const db = (image: string): KubeObject =>
    ({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db' },
      spec: {
        serviceName: 'db',
        replicas: 3,
        selector: { matchLabels: { app: 'db' } },
        template: {
          metadata: { labels: { app: 'db' } },
          spec: { containers: [{ name: 'db', image, resources: { requests: { cpu: '100m' } } }] },
        },
      },
    }) as KubeObject;
  const agent: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: { containers: [{ name: 'agent', image: 'nginx:1.27' }] },
      },
    },
  } as KubeObject;
  const job = (name: string, exit: number, completions: number): KubeObject =>
    ({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name },
      spec: {
        completions,
        backoffLimit: 0,
        template: {
          spec: {
            restartPolicy: 'Never',
            containers: [{ name: 'work', image: 'busybox:1.36', command: ['sh', '-c', `exit ${exit}`] }],
          },
        },
      },
    }) as KubeObject;
  const pdb = (minAvailable: string | number): KubeObject =>
    ({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'web' },
      spec: { minAvailable, selector: { matchLabels: { app: 'web' } } },
    }) as KubeObject;
  const headless = aService('db');
  (headless.spec as { clusterIP?: string }).clusterIP = 'None';
  const state = stateWith(db('nginx:1.27'), headless, web(), pdb(1));
  /** The files of the state (so that nothing is pruned), with `changes` instead of or after them. */
  const files = (o: { image?: string; minAvailable?: string | number } = {}, ...more: KubeObject[]) =>
    manifests(db(o.image ?? 'nginx:1.27'), headless, web(), pdb(o.minAvailable ?? 1), ...more);

  test('a StatefulSet image change replaces its ordinals one at a time, highest first', () => {
    const report = runPlan({ snapshot: state, manifests: files({ image: 'nginx:1.28' }) });
    assert.deepEqual(
      report.workloads.map(({ durationMs: _d, ...w }) => w),
      [
        {
          kind: 'StatefulSet',
          workload: 'default/db',
          podsCreated: 3,
          podsDeleted: 3,
          replaced: ['db-2', 'db-1', 'db-0'],
          replicas: 3,
          updated: 3,
          ready: 3,
          outcome: 'complete',
        },
      ],
    );
    assert.ok(report.workloads[0].durationMs > 0);
    assert.deepEqual(report.findings, []);
  });

  test('a DaemonSet covers every node; Jobs report their completions, and a failing one is a finding', () => {
    const report = runPlan({
      snapshot: state,
      manifests: files({}, agent, job('migrate', 0, 2), job('broken', 1, 1)),
    });
    assert.deepEqual(
      report.workloads.map(({ durationMs: _d, ...w }) => w),
      [
        {
          kind: 'DaemonSet',
          workload: 'default/agent',
          podsCreated: 3,
          podsDeleted: 0,
          nodesDesired: 3,
          nodesCovered: 3,
          updated: 3,
          outcome: 'complete',
        },
        {
          kind: 'Job',
          workload: 'default/broken',
          podsCreated: 1,
          podsDeleted: 0,
          completions: 1,
          succeeded: 0,
          failed: 1,
          outcome: 'failed',
          message: 'BackoffLimitExceeded: Job has reached the specified backoff limit',
        },
        {
          kind: 'Job',
          workload: 'default/migrate',
          podsCreated: 2,
          podsDeleted: 0,
          completions: 2,
          succeeded: 2,
          failed: 0,
          outcome: 'complete',
        },
      ],
    );
    assert.deepEqual(report.findings, ['failed', 'unsettled']);
    // as `simulate` says it: the failed Job's pod is not converged
    assert.equal(report.unsettled.length, 1);
    assert.match(report.unsettled[0], /^pod default\/broken-[a-z0-9]{5}: Error \(0\/1 ready\)$/);
    assert.match(report.verdict, /; 1 Job would fail\.$/);
  });

  test('a PodDisruptionBudget that leaves no room for an eviction is a finding', () => {
    const report = runPlan({ snapshot: state, manifests: files({ minAvailable: '100%' }) });
    assert.deepEqual(report.disruptionBudgets, [
      { pdb: 'default/web', currentHealthy: 4, desiredHealthy: 4, expectedPods: 4, disruptionsAllowed: 0, before: 3 },
    ]);
    assert.deepEqual(report.findings, ['disruption']);
    assert.equal(report.verdict, '1 configured, 3 unchanged; 1 PodDisruptionBudget would allow no disruption.');
    // the same budget with room for one eviction: nothing to report
    assert.deepEqual(runPlan({ snapshot: state, manifests: files({ minAvailable: 3 }) }).disruptionBudgets, []);
  });
});

describe('runPlan: crash loops, probes and free capacity', () => {
  test('a container that crashes: CrashLoopBackOff with the kubelet’s message, exit code, reason and last log line', () => {
    const crashing = web({ replicas: 2 });
    crashing.spec!.template.metadata!.annotations = { 'sandbox.kube-reconcile.dev/behavior': 'crash-after=5s exit=3' };
    const report = runPlan({ manifests: manifests(crashing), limitMs: 5 * 60_000 });
    assert.equal(report.containers.length, 1);
    const c = report.containers[0];
    assert.deepEqual(
      { ...c, pod: undefined, message: undefined, restarts: undefined, lastLogLine: undefined },
      {
        problem: 'crashloop',
        owner: 'Deployment default/web',
        container: 'nginx',
        pods: 2,
        pod: undefined,
        message: undefined,
        exitCode: 3,
        reason: 'Error',
        restarts: undefined,
        lastLogLine: undefined,
      },
    );
    // the previous instance's last log line, as the image (nginx) writes it
    assert.match(c.lastLogLine ?? '', /\[emerg\] 1#1: fatal error, exiting with code 3 \[crash-after=5s exit=3\]$/);
    // upstream kuberuntime: "back-off %s restarting failed container=%s pod=%s" with the pod as name_namespace(uid)
    const [ns, name] = c.pod.split('/');
    assert.match(
      c.message,
      new RegExp(`^back-off (10s|20s|40s|1m20s|2m40s|5m0s) restarting failed container=nginx pod=${name}_${ns}\\(`),
    );
    assert.ok((c.restarts ?? 0) >= 2, `restarted more than once (${c.restarts})`);
    assert.ok(report.findings.includes('crashloop'));
    const text = formatPlanText(report);
    assert.match(
      text,
      /^ {2}Deployment default\/web container nginx: CrashLoopBackOff in 2 pods: back-off \S+ restarting failed container=nginx pod=\S+; last exit code 3 \(Error\)\n {4}last log line: .*fatal error, exiting with code 3 \[crash-after=5s exit=3\]$/m,
    );
    assert.match(report.verdict, /; 1 container would crash-loop\.$/);
  });

  test('a liveness probe that keeps failing is the cause of the restarts: reported at the probe, not as a crash', () => {
    const dying = web({ replicas: 1 });
    dying.spec!.template.metadata!.annotations = { 'sandbox.kube-reconcile.dev/behavior': 'liveness-fail-after=1s' };
    dying.spec!.template.spec!.containers[0].livenessProbe = { httpGet: { path: '/healthz', port: 8080 } };
    const report = runPlan({ manifests: manifests(dying), limitMs: 5 * 60_000 });
    assert.deepEqual(
      report.containers.map((c) => [c.problem, c.container, c.message]),
      [['liveness', 'nginx', 'Liveness probe failed: HTTP probe failed with statuscode: 500']],
    );
    assert.ok((report.containers[0].restarts ?? 0) > 0);
    assert.deepEqual(
      report.findings.filter((f) => f === 'probe' || f === 'crashloop'),
      ['probe'],
    );
  });

  test('a healthy rollout has no container problems', () => {
    const report = runPlan({ manifests: manifests(web({ replicas: 2 })) });
    assert.deepEqual(report.containers, []);
    assert.equal(report.capacity, undefined);
  });

  test('Pending pods carry each node’s free capacity, without the owner’s own pods', () => {
    // 3 nodes × 4 CPUs; another Deployment takes 1 CPU on some node; web asks 7 × 1500m: 2 a node fit
    const other = aDeployment('other', {
      replicas: 1,
      image: 'nginx',
      name: 'nginx',
      requests: { cpu: '1', memory: '1Gi' },
    });
    const report = runPlan({ manifests: manifests(other, web({ replicas: 7, cpu: '1500m' })), limitMs: 2 * 60_000 });
    assert.ok(report.pending.length > 0);
    assert.equal(report.capacity?.length, 1);
    const cap = report.capacity![0];
    assert.equal(cap.owner, 'Deployment default/web');
    assert.deepEqual(cap.request, { cpu: '1500m', memory: '0' });
    assert.deepEqual(
      cap.nodes.map((n) => [n.node, n.allocatable.cpu, n.blocked]),
      [
        ['node-1', '4', undefined],
        ['node-2', '4', undefined],
        ['node-3', '4', undefined],
      ],
    );
    // exactly one node holds `other`: its 1 CPU is gone there; web's own pods are not counted anywhere
    assert.deepEqual(cap.nodes.map((n) => n.free.cpu).sort(), ['3', '4', '4']);
    assert.match(
      formatPlanText(report),
      /^ {2}Deployment default\/web \(a pod requests cpu 1500m, memory 0\): node-1 cpu \d+, memory 1[56]Gi; node-2 /m,
    );
    const withOther = cap.nodes.find((n) => n.free.cpu === '3')!;
    assert.equal(withOther.free.pods, withOther.allocatable.pods - 1);
  });
});
