/**
 * The HorizontalPodAutoscaler end to end on a whole cluster: load put on the pods with the `load=` action is read
 * through the simulated metrics server, and the controller scales the Deployment as upstream's does
 * (upstream: pkg/controller/podautoscaler/horizontal.go `reconcileAutoscaler`, replica_calculator.go
 * `GetResourceReplicas`; test/e2e/autoscaling/horizontal_pod_autoscaling.go scales up on CPU and back down).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { HorizontalPodAutoscaler } from 'kubernetes-types/autoscaling/v2';
import type { Deployment } from 'kubernetes-types/apps/v1';
import { Cluster } from '../../../../sandbox/cluster/cluster';
import type { KubeObject } from '../../../../sandbox/api/types';
import { parseAction, runAction } from '../../../../sandbox/cluster/actions';
import { parseTimestamp } from '../../../../sandbox/clock/clock';

function web(replicas: number): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', resources: { requests: { cpu: '100m' } } }] },
      },
    },
  };
}

function hpa(extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 1,
      maxReplicas: 10,
      metrics: [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
      ],
      ...extra,
    },
  };
}

const getHpa = (c: Cluster) =>
  c.api.get('horizontalpodautoscalers', 'default', 'web') as HorizontalPodAutoscaler & KubeObject;
const replicas = (c: Cluster) => (c.api.get('deployments', 'default', 'web') as Deployment).spec?.replicas;
const condition = (c: Cluster, type: string) => getHpa(c).status?.conditions?.find((x) => x.type === type);
const events = (c: Cluster, reason: string) =>
  c.api
    .list('events', { namespace: 'default' })
    .items.filter((e) => (e as { reason?: string }).reason === reason)
    .map((e) => e as { message?: string; lastTimestamp?: string; eventTime?: string; firstTimestamp?: string });

function load(c: Cluster, text: string): void {
  const action = parseAction(text);
  assert.notEqual(action.type, 'apply');
  if (action.type === 'apply') return;
  runAction(c, action, { line: () => undefined });
}

function started(): Cluster {
  const c = new Cluster({ seed: 1 });
  c.start();
  c.apply(web(2));
  c.apply(hpa());
  c.runUntilSettled();
  return c;
}

describe('HorizontalPodAutoscaler on a cluster', () => {
  test('idle pods: utilization shown, scaled down to minReplicas once the window has passed', () => {
    const c = started();
    const h = getHpa(c);
    // Idle usage is 2m of a 100m request: 2%, far below target; the recommendation (1) waits out the 300 s window.
    assert.equal(h.status?.currentMetrics?.[0]?.resource?.current.averageUtilization, 2);
    assert.equal(replicas(c), 1);
    assert.deepEqual(c.runUntilSettled().pending, []);
    assert.deepEqual(
      events(c, 'SuccessfulRescale').map((e) => e.message),
      ['New size: 1; reason: All metrics below target'],
    );
    assert.equal(condition(c, 'AbleToScale')?.status, 'True');
    assert.equal(condition(c, 'ScalingActive')?.status, 'True');
    assert.equal(condition(c, 'ScalingActive')?.reason, 'ValidMetricFound');
    assert.equal(
      condition(c, 'ScalingActive')?.message,
      'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
    );
  });

  test('load scales up with upstream event wording, and scale-down waits the 300 s stabilization window', () => {
    const c = started();
    assert.equal(replicas(c), 1);
    // 1 pod × 100m requested, 400m of load plus 2m idle: 402% → ceil(1 × 402/50) = 9 recommended; without `behavior`
    // one step may at most double or reach 4 (`normalizeDesiredReplicas`' scale-up limit), so 4 first. While the new
    // pods have no metrics yet the calculation proposes less, but `stabilizeRecommendation` keeps the highest
    // recommendation of the window (9), so the HPA goes on to 8, then 9 — and, as upstream's `reconcileAutoscaler`
    // builds the reason only from the metrics' own proposal, those two events carry an empty reason.
    load(c, 'load=app=web:cpu=400m');
    c.runUntilSettled();
    const up = events(c, 'SuccessfulRescale')
      .map((e) => e.message)
      .filter((m) => !/below target/.test(m ?? ''));
    assert.deepEqual(up, [
      'New size: 4; reason: cpu resource utilization (percentage of request) above target',
      'New size: 8; reason: ',
      'New size: 9; reason: ',
    ]);
    const peak = replicas(c)!;
    assert.equal(peak, 9);
    // At rest within tolerance: 400m over 9 pods is 45m each, plus 2m idle: 47% of 100m.
    assert.equal(getHpa(c).status?.desiredReplicas, 9);
    assert.equal(getHpa(c).status?.currentMetrics?.[0]?.resource?.current.averageUtilization, 47);

    // The load goes away: the recommendation drops at once, the scale-down waits 5 minutes.
    const dropAt = c.clock.now();
    load(c, 'load=app=web:cpu=0');
    c.runFor(4 * 60_000);
    assert.equal(replicas(c), peak, 'no scale-down inside the stabilization window');
    c.runUntilSettled();
    assert.ok(replicas(c)! < peak, 'scaled down after the window');
    const down = events(c, 'SuccessfulRescale').filter((e) => /All metrics below target/.test(e.message ?? ''));
    assert.equal(down.length, 1);
    const hpaNow = getHpa(c);
    const scaledAt = parseTimestamp(hpaNow.status!.lastScaleTime!);
    assert.ok(scaledAt - dropAt >= 300_000, `scale-down ${(scaledAt - dropAt) / 1000}s after the load dropped`);
    assert.ok(
      scaledAt - dropAt <= 300_000 + 45_000,
      `scale-down ${(scaledAt - dropAt) / 1000}s after the load dropped`,
    );
  });

  test('maxReplicas limits the scale-up and ScalingLimited says TooManyReplicas', () => {
    const c = new Cluster({ seed: 1 });
    c.start();
    c.apply(web(1));
    c.apply(hpa({ maxReplicas: 3 }));
    c.runUntilSettled();
    load(c, 'load=app=web:cpu=5');
    c.runUntilSettled();
    assert.equal(replicas(c), 3);
    const limited = condition(c, 'ScalingLimited');
    assert.equal(limited?.status, 'True');
    assert.equal(limited?.reason, 'TooManyReplicas');
    assert.equal(limited?.message, 'the desired replica count is more than the maximum replica count');
  });

  test('without metrics-server the HPA cannot compute a replica count and says why', () => {
    const c = new Cluster({ seed: 1, metricsServer: false });
    c.start();
    c.apply(web(2));
    c.apply(hpa());
    const run = c.runUntilSettled();
    const active = condition(c, 'ScalingActive');
    assert.equal(active?.status, 'False');
    assert.equal(active?.reason, 'FailedGetResourceMetric');
    assert.match(
      active?.message ?? '',
      /the server could not find the requested resource \(get pods\.metrics\.k8s\.io\)/,
    );
    assert.equal(replicas(c), 2);
    // The settled report names it, with the reason (never "settled" silently).
    assert.deepEqual(
      run.pending.filter((l) => l.startsWith('horizontalpodautoscaler')),
      [
        `horizontalpodautoscaler default/web: unable to scale: ScalingActive=False (FailedGetResourceMetric): ${active?.message}`,
      ],
    );
  });

  test('load= action rejects bad input with a clear message', () => {
    assert.throws(() => parseAction('load=app=web'), /load needs SELECTOR:cpu=QUANTITY/);
    assert.throws(() => parseAction('load=app=web:gpu=1'), /unknown resource "gpu"/);
    assert.throws(() => parseAction('load=app in (:cpu=1'), /invalid selector/);
    assert.deepEqual(parseAction('load=app=web:cpu=1500m,memory=1Gi'), {
      type: 'load',
      namespace: 'default',
      selector: 'app=web',
      usage: { cpuMilli: 1500, memoryBytes: 1024 ** 3 },
    });
  });
});
