// Scenario tests for InterPodAffinity, PodTopologySpread and DefaultPreemption, written from upstream's behaviour:
// pkg/scheduler/framework/plugins/interpodaffinity/filtering.go (Filter: satisfyPodAffinity, satisfyPodAntiAffinity,
// satisfyExistingPodsAntiAffinity), podtopologyspread/filtering.go (calPreFilterState, Filter),
// defaultpreemption/default_preemption.go (SelectVictimsOnNode) and framework/preemption/preemption.go
// (PodEligibleToPreemptOthers, prepareCandidate).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PodSpec } from 'kubernetes-types/core/v1';
import { newHarness } from '../controllers/harness';
import type { Harness } from '../controllers/harness';
import { Scheduler } from '../../../sandbox/scheduler/scheduler';
import type { KubeObject } from '../../../sandbox/api/types';
import { node, pod } from './fixtures';

function setup(nodes: KubeObject[], seed: number | string = 1): Harness {
  const h = newHarness(seed);
  for (const n of nodes) h.api.create(n);
  new Scheduler(h.ctx).start();
  return h;
}

function labelled(name: string, labels: Record<string, string>, o: { cpu?: string; spec?: Partial<PodSpec> } = {}) {
  const p = pod(name, o);
  p.metadata.labels = labels;
  return p;
}

const nodeOf = (h: Harness, name: string, ns = 'default') => h.api.get('pods', ns, name).spec?.nodeName;
const scheduledMessage = (h: Harness, name: string) =>
  h.api.get('pods', 'default', name).status?.conditions?.find((c) => c.type === 'PodScheduled')?.message;

const ZK_ANTI: Partial<PodSpec> = {
  affinity: {
    podAntiAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [
        { labelSelector: { matchLabels: { app: 'zk' } }, topologyKey: 'kubernetes.io/hostname' },
      ],
    },
  },
};

function priorityClass(name: string, value: number, preemptionPolicy?: string): KubeObject {
  return {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name },
    value,
    ...(preemptionPolicy ? { preemptionPolicy } : {}),
  };
}

describe('InterPodAffinity', () => {
  test('required anti-affinity on hostname: one replica per node, the 4th Pending with the exact message', () => {
    const h = setup([node('n1'), node('n2'), node('n3')]);
    for (let i = 0; i < 4; i++) h.api.create(labelled(`zk-${i}`, { app: 'zk' }, { spec: ZK_ANTI }));
    h.settle();
    const placed = [0, 1, 2, 3].map((i) => nodeOf(h, `zk-${i}`));
    assert.deepEqual(placed.slice(0, 3).sort(), ['n1', 'n2', 'n3']);
    assert.equal(placed[3], undefined);
    assert.equal(
      scheduledMessage(h, 'zk-3'),
      "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
    );
    // A fourth node lets it run (NodeAdd moves pods InterPodAffinity rejected).
    h.api.create(node('n4'));
    h.advance(1000);
    h.settle();
    assert.equal(nodeOf(h, 'zk-3'), 'n4');
  });

  test("an existing pod's anti-affinity keeps matching pods off its node", () => {
    const h = setup([node('n1'), node('n2')]);
    h.api.create(labelled('loner', { app: 'loner' }, { spec: { nodeName: 'n1', ...ZK_ANTI } }));
    h.api.create(labelled('zk', { app: 'zk' }));
    h.api.create(labelled('zk-pinned', { app: 'zk' }, { spec: { nodeSelector: { 'kubernetes.io/hostname': 'n1' } } }));
    h.settle();
    assert.equal(nodeOf(h, 'zk'), 'n2');
    assert.equal(
      scheduledMessage(h, 'zk-pinned'),
      "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) didn't satisfy existing pods anti-affinity rules. preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.",
    );
  });

  test('required affinity: unresolvable until a matching pod runs, then only in its domain', () => {
    const h = setup([node('n1'), node('n2'), node('n3')]);
    const spec: Partial<PodSpec> = {
      affinity: {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { labelSelector: { matchLabels: { app: 'db' } }, topologyKey: 'kubernetes.io/hostname' },
          ],
        },
      },
    };
    h.api.create(labelled('web', { app: 'web' }, { spec }));
    h.settle();
    assert.equal(
      scheduledMessage(h, 'web'),
      "0/3 nodes are available: 3 node(s) didn't match pod affinity rules. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
    );
    h.api.create(labelled('db', { app: 'db' }, { spec: { nodeName: 'n2' } }));
    h.advance(1000);
    h.settle();
    assert.equal(nodeOf(h, 'web'), 'n2');
    // The first pod of a group that matches its own affinity may go anywhere.
    h.api.create(labelled('self', { app: 'self' }, { spec: { ...spec, affinity: affinityTo('self') } }));
    h.settle();
    assert.ok(nodeOf(h, 'self'));
  });

  test('namespaces and namespaceSelector choose whose pods a term counts', () => {
    const h = setup([node('n1'), node('n2')]);
    h.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { team: 'a' } } });
    h.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-b' } });
    h.api.create({
      ...labelled('cache', { app: 'cache' }, { spec: { nodeName: 'n1' } }),
      metadata: cacheMeta('team-a'),
    });
    const anti = (term: Record<string, unknown>): Partial<PodSpec> => ({
      affinity: {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { labelSelector: { matchLabels: { app: 'cache' } }, topologyKey: 'kubernetes.io/hostname', ...term },
          ],
        },
      },
    });
    // Own namespace only: the cache in team-a does not count, both nodes are open.
    h.api.create(labelled('own-ns', {}, { spec: { ...anti({}), nodeSelector: { 'kubernetes.io/hostname': 'n1' } } }));
    // By name, and by namespace labels: the cache counts, n1 is refused.
    h.api.create(labelled('by-name', {}, { spec: { ...anti({ namespaces: ['team-a'] }), nodeName: '' } }));
    h.api.create(labelled('by-label', {}, { spec: anti({ namespaceSelector: { matchLabels: { team: 'a' } } }) }));
    h.settle();
    assert.deepEqual([nodeOf(h, 'own-ns'), nodeOf(h, 'by-name'), nodeOf(h, 'by-label')], ['n1', 'n2', 'n2']);
  });
});

function affinityTo(app: string): PodSpec['affinity'] {
  return {
    podAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [
        { labelSelector: { matchLabels: { app } }, topologyKey: 'kubernetes.io/hostname' },
      ],
    },
  };
}

function cacheMeta(namespace: string) {
  return { name: 'cache', namespace, labels: { app: 'cache' } };
}

describe('PodTopologySpread', () => {
  const zoned = (name: string, zone?: string) =>
    node(name, zone ? { labels: { 'topology.kubernetes.io/zone': zone } } : {});
  const spread = (extra: Record<string, unknown> = {}): Partial<PodSpec> => ({
    topologySpreadConstraints: [
      {
        maxSkew: 1,
        topologyKey: 'topology.kubernetes.io/zone',
        whenUnsatisfiable: 'DoNotSchedule',
        labelSelector: { matchLabels: { app: 'web' } },
        ...extra,
      },
    ],
  });

  test('two constraints on the same key count their own matching pods (upstream TpValueToMatchNum per constraint)', () => {
    const h = setup([zoned('a1', 'a'), zoned('b1', 'b')]);
    h.api.create(labelled('web', { app: 'web' }, { spec: { nodeName: 'a1' } }));
    h.api.create(labelled('cache', { tier: 'cache' }, { spec: { nodeName: 'b1' } }));
    const both = spread({ nodeAffinityPolicy: 'Ignore' });
    both.topologySpreadConstraints!.push({
      ...both.topologySpreadConstraints![0],
      labelSelector: { matchLabels: { tier: 'cache' } },
    });
    // By app: a=1, b=0, so a second web pod in zone a has skew 2. Counting both selectors together (a=1, b=1) would
    // wrongly let it in.
    // nodeAffinityPolicy Ignore: zone b stays a domain for a pod pinned to zone a.
    h.api.create(
      labelled('web-a', { app: 'web' }, { spec: { ...both, nodeSelector: { 'topology.kubernetes.io/zone': 'a' } } }),
    );
    h.settle();
    assert.equal(nodeOf(h, 'web-a'), undefined);
    assert.match(scheduledMessage(h, 'web-a')!, /1 node\(s\) didn't match pod topology spread constraints/);
  });

  test('DoNotSchedule keeps the zones within maxSkew whatever the node count per zone', () => {
    for (const seed of [1, 2, 3]) {
      const h = setup([zoned('a1', 'a'), zoned('a2', 'a'), zoned('a3', 'a'), zoned('b1', 'b')], seed);
      for (let i = 0; i < 6; i++) {
        h.api.create(labelled(`web-${i}`, { app: 'web' }, { spec: spread() }));
        h.settle();
      }
      const zones = [0, 1, 2, 3, 4, 5].map((i) => nodeOf(h, `web-${i}`)![0]);
      assert.deepEqual([zones.filter((z) => z === 'a').length, zones.filter((z) => z === 'b').length], [3, 3]);
    }
  });

  test('minDomains above the zones there are: the global minimum is 0, so each zone takes maxSkew pods', () => {
    const h = setup([zoned('a1', 'a'), zoned('b1', 'b'), zoned('b2', 'b')]);
    for (let i = 0; i < 3; i++) h.api.create(labelled(`web-${i}`, { app: 'web' }, { spec: spread({ minDomains: 3 }) }));
    h.settle();
    assert.equal([0, 1, 2].filter((i) => nodeOf(h, `web-${i}`) !== undefined).length, 2);
    const pending = [0, 1, 2].find((i) => nodeOf(h, `web-${i}`) === undefined)!;
    assert.equal(
      scheduledMessage(h, `web-${pending}`),
      "0/3 nodes are available: 3 node(s) didn't match pod topology spread constraints. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
    );
  });

  test('a node without the topology key is unresolvable; nodeAffinityPolicy Honor counts only eligible nodes', () => {
    const h = setup([zoned('a1', 'a'), zoned('b1', 'b'), zoned('none')]);
    h.api.create(labelled('old', { app: 'web' }, { spec: { nodeName: 'b1' } }));
    const onlyA: Partial<PodSpec> = { nodeSelector: { 'topology.kubernetes.io/zone': 'a' } };
    // Honor (default): zone b is not a domain for this pod, so the min is zone a's 0 and a1 fits.
    h.api.create(labelled('honor', { app: 'web' }, { spec: { ...spread(), ...onlyA } }));
    // A node missing the key, chosen by name: the missing-label reason.
    h.api.create(
      labelled('pinned', { app: 'web' }, { spec: { ...spread(), nodeSelector: { 'kubernetes.io/hostname': 'none' } } }),
    );
    h.settle();
    assert.equal(nodeOf(h, 'honor'), 'a1');
    assert.equal(
      scheduledMessage(h, 'pinned'),
      "0/3 nodes are available: 1 node(s) didn't match pod topology spread constraints (missing required label), 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
    );
    // Ignore: zone b counts (1 pod), zone a now has 1 too; a second pod for zone a would make skew 2 - 1 = 1 ≤ 1.
    h.api.create(
      labelled('ignore', { app: 'web' }, { spec: { ...spread({ nodeAffinityPolicy: 'Ignore' }), ...onlyA } }),
    );
    h.settle();
    assert.equal(nodeOf(h, 'ignore'), 'a1');
  });
});

describe('DefaultPreemption', () => {
  test('a higher-priority pod preempts a lower one: DisruptionTarget, deletion, Preempted event, nominatedNodeName', () => {
    const h = setup([node('only', { cpu: '1' })]);
    h.api.create(priorityClass('high', 1000));
    h.api.create(pod('low', { cpu: '600m', spec: { nodeName: 'only' } }));
    h.api.create(pod('high', { cpu: '600m', spec: { priorityClassName: 'high' } }));
    h.settle();
    const low = h.api.get('pods', 'default', 'low');
    assert.ok(low.metadata.deletionTimestamp, 'the victim is being deleted');
    const target = low.status?.conditions?.find((c) => c.type === 'DisruptionTarget');
    assert.deepEqual(
      [target?.status, target?.reason, target?.message],
      ['True', 'PreemptionByScheduler', 'default-scheduler: preempting to accommodate a higher priority pod'],
    );
    const high = h.api.get('pods', 'default', 'high');
    assert.equal(high.status?.nominatedNodeName, 'only');
    // Preemption succeeded: the message has no preemption part.
    assert.equal(scheduledMessage(h, 'high'), '0/1 nodes are available: 1 Insufficient cpu.');
    const preempted = h.api
      .list('events', { namespace: 'default' })
      .items.filter((e) => e.reason === 'Preempted')
      .map((e) => `${e.involvedObject.name} ${e.type}: ${e.message}`);
    assert.deepEqual(preempted, [`low Normal: Preempted by pod ${high.metadata.uid} on node only`]);
    // While the victim terminates, the preemptor does not preempt again.
    h.api.create(node('busy', { cpu: '1', labels: { x: 'y' } }));
    h.api.create(pod('filler', { cpu: '600m', spec: { nodeName: 'busy' } }));
    h.advance(1000);
    h.settle();
    assert.match(
      scheduledMessage(h, 'high')!,
      / preemption: not eligible due to a terminating pod on the nominated node\.$/,
    );
    assert.equal(h.api.get('pods', 'default', 'filler').metadata.deletionTimestamp, undefined);
    // Once the victim is gone the preemptor runs there.
    h.api.delete('pods', 'default', 'low', { gracePeriodSeconds: 0 });
    h.advance(1000);
    h.settle();
    assert.equal(nodeOf(h, 'high'), 'only');
  });

  test('the nominee keeps its place: a later lower-priority pod sees the nominated pod on the node', () => {
    // upstream: framework/runtime/framework.go RunFilterPluginsWithNominatedPods and addGlobalNominatedPods — pods
    // nominated to a node with higher or equal priority count there while the filters run.
    const h = setup([node('only', { cpu: '1' })]);
    h.api.create(priorityClass('high', 1000));
    h.api.create(pod('low', { cpu: '600m', spec: { nodeName: 'only' } }));
    h.api.create(pod('high', { cpu: '600m', spec: { priorityClassName: 'high' } }));
    h.settle();
    assert.equal(h.api.get('pods', 'default', 'high').status?.nominatedNodeName, 'only');
    // The victim goes and, before the nominee's back-off ends, a lower-priority pod asks for the same room.
    h.api.delete('pods', 'default', 'low', { gracePeriodSeconds: 0 });
    h.api.create(pod('late', { cpu: '600m' }));
    h.settle();
    assert.equal(nodeOf(h, 'late'), undefined);
    assert.match(scheduledMessage(h, 'late')!, /^0\/1 nodes are available: 1 Insufficient cpu\. preemption: /);
    h.advance(10_000);
    h.settle();
    assert.equal(nodeOf(h, 'high'), 'only');
    assert.equal(nodeOf(h, 'late'), undefined);
  });

  test('a nominated pod of lower priority does not hold its node against a higher one', () => {
    const h = setup([node('only', { cpu: '1' })]);
    h.api.create(priorityClass('high', 1000));
    h.api.create(priorityClass('top', 2000));
    h.api.create(pod('low', { cpu: '600m', spec: { nodeName: 'only' } }));
    h.api.create(pod('high', { cpu: '600m', spec: { priorityClassName: 'high' } }));
    h.settle();
    assert.equal(h.api.get('pods', 'default', 'high').status?.nominatedNodeName, 'only');
    h.api.delete('pods', 'default', 'low', { gracePeriodSeconds: 0 });
    h.api.create(pod('top', { cpu: '600m', spec: { priorityClassName: 'top' } }));
    h.settle();
    assert.equal(nodeOf(h, 'top'), 'only');
  });

  test('preemptionPolicy Never: no victims, and the message says why', () => {
    const h = setup([node('only', { cpu: '1' })]);
    h.api.create(priorityClass('polite', 1000, 'Never'));
    h.api.create(pod('low', { cpu: '600m', spec: { nodeName: 'only' } }));
    h.api.create(pod('polite', { cpu: '600m', spec: { priorityClassName: 'polite' } }));
    h.settle();
    assert.equal(h.api.get('pods', 'default', 'low').metadata.deletionTimestamp, undefined);
    assert.equal(
      scheduledMessage(h, 'polite'),
      '0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.',
    );
  });

  test('victims: as few and as low as possible; a PodDisruptionBudget steers preemption to another node', () => {
    const h = setup([node('n1', { cpu: '1' }), node('n2', { cpu: '1' })]);
    h.api.create(priorityClass('mid', 100));
    h.api.create(priorityClass('high', 1000));
    h.api.create(labelled('guarded', { app: 'guarded' }, { cpu: '600m', spec: { nodeName: 'n1' } }));
    h.api.create(labelled('free', { app: 'free' }, { cpu: '600m', spec: { nodeName: 'n2' } }));
    const pdb = h.api.create({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'guard', namespace: 'default' },
      spec: { minAvailable: 1, selector: { matchLabels: { app: 'guarded' } } },
    });
    h.api.updateStatus({
      ...pdb,
      status: { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 },
    });
    h.api.create(pod('high', { cpu: '600m', spec: { priorityClassName: 'high' } }));
    h.settle();
    assert.equal(h.api.get('pods', 'default', 'guarded').metadata.deletionTimestamp, undefined);
    assert.ok(h.api.get('pods', 'default', 'free').metadata.deletionTimestamp);
    assert.equal(h.api.get('pods', 'default', 'high').status?.nominatedNodeName, 'n2');
  });

  test('nothing of lower priority, or still no fit without them: the dry run reasons per node', () => {
    const h = setup([node('n1', { cpu: '1' }), node('n2', { cpu: '1' })]);
    h.api.create(priorityClass('high', 1000));
    h.api.create(pod('peer', { cpu: '600m', spec: { nodeName: 'n1', priorityClassName: 'high' } }));
    h.api.create(pod('low', { cpu: '100m', spec: { nodeName: 'n2' } }));
    h.api.create(pod('big', { cpu: '1500m', spec: { priorityClassName: 'high' } }));
    h.settle();
    assert.equal(
      scheduledMessage(h, 'big'),
      '0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 1 Insufficient cpu, 1 No preemption victims found for incoming pod.',
    );
    assert.equal(h.api.get('pods', 'default', 'low').metadata.deletionTimestamp, undefined);
  });
});

describe('nominated pods in PodTopologySpread and InterPodAffinity', () => {
  // upstream: framework/runtime/framework.go RunFilterPluginsWithNominatedPods → addGlobalNominatedPods →
  // RunPreFilterExtensionAddPod: a node's nominated pods of higher or equal priority are added to the plugins' cycle
  // state (interpodaffinity and podtopologyspread `AddPod` → `updateWithPod`) before the filters run there.
  test("a nominated pod's anti-affinity keeps a later replica off the node preemption freed for it", () => {
    const h = setup([node('only', { cpu: '1' })]);
    h.api.create(priorityClass('high', 1000));
    h.api.create(pod('low', { cpu: '600m', spec: { nodeName: 'only' } }));
    h.api.create(labelled('zk-0', { app: 'zk' }, { cpu: '600m', spec: { ...ZK_ANTI, priorityClassName: 'high' } }));
    h.settle();
    assert.equal(h.api.get('pods', 'default', 'zk-0').status?.nominatedNodeName, 'only');
    // The victim is gone; before the nominee's back-off ends a second replica (room for its cpu) asks for the node.
    h.api.delete('pods', 'default', 'low', { gracePeriodSeconds: 0 });
    h.api.create(labelled('zk-1', { app: 'zk' }, { cpu: '100m', spec: { ...ZK_ANTI, priorityClassName: 'high' } }));
    h.settle();
    assert.equal(nodeOf(h, 'zk-1'), undefined);
    assert.match(
      scheduledMessage(h, 'zk-1')!,
      /^0\/1 nodes are available: 1 node\(s\) didn't match pod anti-affinity rules\. preemption: /,
    );
    h.advance(10_000);
    h.settle();
    assert.equal(nodeOf(h, 'zk-0'), 'only');
    assert.equal(nodeOf(h, 'zk-1'), undefined);
  });

  test("a nominated pod's own anti-affinity term keeps a matching pod off (existing pods' anti-affinity)", () => {
    // The incoming pod has no terms; a bound pod elsewhere has anti-affinity, so InterPodAffinity's PreFilter runs
    // (it skips when nothing could constrain the pod) and AddPod counts the nominee's term matching the newcomer.
    const h = setup([node('n1', { cpu: '1' }), node('n2', { cpu: '1' })]);
    h.api.create(priorityClass('high', 1000));
    h.api.create(labelled('guard', { app: 'guard' }, { cpu: '500m', spec: { nodeName: 'n2', ...ZK_ANTI } }));
    h.api.create(pod('low', { cpu: '600m', spec: { nodeName: 'n1' } }));
    h.api.create(labelled('zk-0', { app: 'zk' }, { cpu: '600m', spec: { ...ZK_ANTI, priorityClassName: 'high' } }));
    h.settle();
    assert.equal(h.api.get('pods', 'default', 'zk-0').status?.nominatedNodeName, 'n1');
    h.api.delete('pods', 'default', 'low', { gracePeriodSeconds: 0 });
    h.api.create(labelled('plain-zk', { app: 'zk' }, { cpu: '100m', spec: { priorityClassName: 'high' } }));
    h.settle();
    // n2's guard repels it too: both nodes refuse it for existing pods' anti-affinity.
    assert.equal(nodeOf(h, 'plain-zk'), undefined);
    assert.match(
      scheduledMessage(h, 'plain-zk')!,
      /^0\/2 nodes are available: 2 node\(s\) didn't satisfy existing pods anti-affinity rules\. preemption: /,
    );
  });

  test('a nominated pod counts in the topology spread of a later replica', () => {
    const hostSpread: Partial<PodSpec> = {
      priorityClassName: 'high',
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: 'kubernetes.io/hostname',
          whenUnsatisfiable: 'DoNotSchedule',
          labelSelector: { matchLabels: { app: 'web' } },
        },
      ],
    };
    const h = setup([node('n1', { cpu: '1' }), node('n2', { cpu: '1' })]);
    h.api.create(priorityClass('high', 1000));
    h.api.create(pod('low', { cpu: '600m', spec: { nodeName: 'n1' } }));
    h.api.create(pod('blocker', { cpu: '500m', spec: { nodeName: 'n2', priorityClassName: 'high' } }));
    h.api.create(labelled('web-0', { app: 'web' }, { cpu: '600m', spec: hostSpread }));
    h.settle();
    assert.equal(h.api.get('pods', 'default', 'web-0').status?.nominatedNodeName, 'n1');
    h.api.delete('pods', 'default', 'low', { gracePeriodSeconds: 0 });
    // n1 is now the emptier node (the resource scores do not count nominees), but web-0 counts there: 1 + 1 − 0 > 1.
    h.api.create(labelled('web-1', { app: 'web' }, { cpu: '100m', spec: hostSpread }));
    h.settle();
    assert.equal(nodeOf(h, 'web-1'), 'n2');
    h.advance(10_000);
    h.settle();
    assert.equal(nodeOf(h, 'web-0'), 'n1');
  });

  test('a nominated pod of lower priority is not counted', () => {
    const h = setup([node('only', { cpu: '1' })]);
    h.api.create(priorityClass('high', 1000));
    h.api.create(priorityClass('top', 2000));
    h.api.create(pod('low', { cpu: '600m', spec: { nodeName: 'only' } }));
    h.api.create(labelled('zk-0', { app: 'zk' }, { cpu: '600m', spec: { ...ZK_ANTI, priorityClassName: 'high' } }));
    h.settle();
    h.api.delete('pods', 'default', 'low', { gracePeriodSeconds: 0 });
    h.api.create(labelled('zk-top', { app: 'zk' }, { cpu: '100m', spec: { ...ZK_ANTI, priorityClassName: 'top' } }));
    h.settle();
    assert.equal(nodeOf(h, 'zk-top'), 'only');
  });
});

describe('scores of PodTopologySpread and InterPodAffinity (weight 2 each)', () => {
  test('ScheduleAnyway: replicas go to the zone with fewer matching pods, though other nodes are emptier', () => {
    // upstream: podtopologyspread/scoring.go — score = Σ count × ln(domains + 2) + maxSkew − 1, fewer pods → higher.
    const h = setup([
      node('a1', { labels: { 'topology.kubernetes.io/zone': 'a' } }),
      node('b1', { labels: { 'topology.kubernetes.io/zone': 'b' } }),
    ]);
    for (let i = 0; i < 3; i++) h.api.create(labelled(`old-${i}`, { app: 'web' }, { spec: { nodeName: 'a1' } }));
    const soft: Partial<PodSpec> = {
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: 'topology.kubernetes.io/zone',
          whenUnsatisfiable: 'ScheduleAnyway',
          labelSelector: { matchLabels: { app: 'web' } },
        },
      ],
    };
    h.api.create(labelled('new', { app: 'web' }, { spec: soft }));
    h.settle();
    assert.equal(nodeOf(h, 'new'), 'b1');
  });

  test('ScheduleAnyway with an empty selector counts no pods: the resources decide', () => {
    // upstream: podtopologyspread/common.go countPodsMatchSelector returns 0 for an empty selector.
    const h = setup([
      node('a1', { cpu: '64', memory: '256Gi', labels: { 'topology.kubernetes.io/zone': 'a' } }),
      node('b1', { cpu: '1', memory: '1Gi', labels: { 'topology.kubernetes.io/zone': 'b' } }),
    ]);
    for (let i = 0; i < 3; i++) h.api.create(labelled(`old-${i}`, { app: 'web' }, { spec: { nodeName: 'a1' } }));
    const soft = (labelSelector: Record<string, unknown>): Partial<PodSpec> => ({
      topologySpreadConstraints: [
        { maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector },
      ],
    });
    h.api.create(labelled('everything', { app: 'web' }, { spec: soft({}) }));
    h.settle();
    assert.equal(nodeOf(h, 'everything'), 'a1');
    // The same with a selector matching the three pods: spread outweighs the emptier node.
    h.api.create(labelled('web', { app: 'web' }, { spec: soft({ matchLabels: { app: 'web' } }) }));
    h.settle();
    assert.equal(nodeOf(h, 'web'), 'b1');
  });

  test('preferred affinity pulls a pod to its peer; preferred anti-affinity pushes it away', () => {
    const h = setup([node('n1'), node('n2'), node('n3')]);
    h.api.create(labelled('cache', { app: 'cache' }, { spec: { nodeName: 'n2' } }));
    const term = { labelSelector: { matchLabels: { app: 'cache' } }, topologyKey: 'kubernetes.io/hostname' };
    h.api.create(
      labelled(
        'near',
        {},
        {
          spec: {
            affinity: {
              podAffinity: {
                preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: term }],
              },
            },
          },
        },
      ),
    );
    h.settle();
    assert.equal(nodeOf(h, 'near'), 'n2');
    h.api.create(
      labelled(
        'far',
        {},
        {
          spec: {
            nodeSelector: { 'kubernetes.io/hostname': 'n2' },
            affinity: {
              podAntiAffinity: {
                preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: term }],
              },
            },
          },
        },
      ),
    );
    // Preferred only: the one node allowed is still used.
    h.api.create(
      labelled(
        'away',
        {},
        {
          spec: {
            affinity: {
              podAntiAffinity: {
                preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: term }],
              },
            },
          },
        },
      ),
    );
    h.settle();
    assert.equal(nodeOf(h, 'far'), 'n2');
    assert.notEqual(nodeOf(h, 'away'), 'n2');
  });

  test('the cluster default constraints spread a ReplicaSet over the nodes even against LeastAllocated', () => {
    // upstream: podtopologyspread/plugin.go systemDefaultConstraints (hostname maxSkew 3, zone maxSkew 5) with the
    // selector of the controller (helper.DefaultSelector).
    const h = setup([node('big', { cpu: '64', memory: '256Gi' }), node('small', { cpu: '1', memory: '1Gi' })]);
    const rs = h.api.create({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'a', image: 'nginx' }] } },
      },
    });
    const owned = (name: string) => {
      const p = labelled(name, { app: 'web' });
      p.metadata.ownerReferences = [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.metadata.uid!, controller: true },
      ];
      return p;
    };
    for (let i = 0; i < 4; i++) h.api.create({ ...owned(`w-${i}`), spec: { ...owned('x').spec, nodeName: 'big' } });
    h.api.create(owned('next'));
    // A pod with no owner and no Service has no default constraints: LeastAllocated alone prefers the big node.
    h.api.create(labelled('bare', { app: 'web' }));
    h.settle();
    assert.equal(nodeOf(h, 'next'), 'small');
    assert.equal(nodeOf(h, 'bare'), 'big');
  });
});
