/**
 * The Timeline section's model: the worker's reply → rows (virtual time, actor, what and why, the object a step is
 * about), links to the manifest line, the scheduler's per-node results under its decision, and the notes that say
 * what the sandbox could not record.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../sandbox/api/types';
import type { SchedulingExplanation } from '../../../sandbox/scheduler/explanation';
import type { TimelineReply, TimelineStep } from '../../../client/src/sandbox/protocol';
import { isHostMessage } from '../../../client/src/webview/protocol';
import { actorOf, stepSource, timelineView } from '../../../client/src/webview/timeline';

const T0 = Date.UTC(2026, 0, 1, 10, 0, 0);
const dep = { kind: 'Deployment', namespace: 'default', name: 'web' };
const rs = { kind: 'ReplicaSet', namespace: 'default', name: 'web-6ff4' };
const pod = { kind: 'Pod', namespace: 'default', name: 'web-6ff4-x2' };
const podSubject = { kind: 'Pod', namespace: 'default', name: 'web-6ff4-x2' };

/** A pod's chain as the worker sends it (ids and causes as the timeline records them). */
function chain(): TimelineStep[] {
  return [
    {
      id: 3,
      time: T0,
      type: 'apply',
      component: 'apply',
      subject: dep,
      what: 'configured',
      message: 'deployment/web configured',
      resourceVersion: '86',
      why: 'image nginx:1.25 → nginx:1.27',
      source: 'app/web.yaml:9',
      origin: 'app/web.yaml:9',
    },
    {
      id: 7,
      time: T0 + 2381,
      type: 'decision',
      component: 'deployment-controller',
      subject: dep,
      target: rs,
      what: 'ScalingReplicaSet',
      message: 'Scaled up replica set web-6ff4 from 1 to 2',
      why: 'new template: rolling update',
      level: 'Normal',
      cause: 3,
      origin: 'app/web.yaml:9',
    },
    {
      id: 9,
      time: T0 + 2381,
      type: 'decision',
      component: 'replicaset-controller',
      subject: rs,
      target: pod,
      what: 'SuccessfulCreate',
      message: 'Created pod: web-6ff4-x2',
      level: 'Normal',
      cause: 7,
      origin: 'app/web.yaml:9',
    },
    {
      id: 11,
      time: T0 + 2381,
      type: 'decision',
      component: 'default-scheduler',
      subject: pod,
      what: 'Scheduled',
      message: 'Successfully assigned default/web-6ff4-x2 to node-2',
      level: 'Normal',
      cause: 9,
      origin: 'app/web.yaml:9',
    },
    {
      id: 15,
      time: T0 + 4435,
      type: 'transition',
      component: 'kubelet',
      subject: pod,
      what: 'Phase',
      message: 'phase Pending → Running',
      why: 'on node-2',
      cause: 11,
      origin: 'app/web.yaml:9',
    },
    {
      id: 20,
      time: T0 + 9000,
      type: 'decision',
      component: 'kubelet',
      subject: pod,
      what: 'Unhealthy',
      message: 'Readiness probe failed: HTTP probe failed with statuscode: 503',
      level: 'Warning',
      cause: 15,
    },
  ];
}

const explanation: SchedulingExplanation = {
  pod: 'default/web-6ff4-x2',
  uid: 'u',
  time: '2026-01-01T10:00:02Z',
  attempts: 1,
  outcome: 'Scheduled',
  node: 'node-2',
  totalNodes: 3,
  evaluatedNodes: 3,
  feasibleNodes: 2,
  scored: true,
  weights: {} as SchedulingExplanation['weights'],
  nodes: [
    { node: 'node-1', rejectedBy: 'NodeResourcesFit', reasons: ['Insufficient cpu'] },
    { node: 'node-2', total: 693, chosen: true },
    { node: 'node-3', total: 593 },
  ],
};

function reply(over: Partial<TimelineReply> = {}): TimelineReply {
  return { recording: true, since: T0 - 60_000, steps: chain(), truncated: false, capacity: 10_000, ...over };
}

const livePod = (created: number) =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: pod.name, namespace: 'default', creationTimestamp: new Date(created).toISOString() },
  }) as KubeObject;

describe('timelineView: steps → rows', () => {
  test('each step: time since the first, the actor, what, text, why; steps about other objects name them', () => {
    const view = timelineView(reply(), podSubject, livePod(T0 + 2381));
    assert.deepEqual(view.notes, []);
    assert.deepEqual(
      view.rows.map((r) => [r.time, r.actor, r.what, r.text, r.why, r.about]),
      [
        [
          '+0.000s',
          'Apply',
          'configured',
          'deployment/web (resourceVersion 86)',
          'image nginx:1.25 → nginx:1.27',
          'deployment/web',
        ],
        [
          '+2.381s',
          'Controller',
          'ScalingReplicaSet',
          'Scaled up replica set web-6ff4 from 1 to 2',
          'new template: rolling update',
          'deployment/web',
        ],
        // The ReplicaSet's decision targets this pod: it is about the pod, no "about".
        ['+2.381s', 'Controller', 'SuccessfulCreate', 'Created pod: web-6ff4-x2', undefined, undefined],
        [
          '+2.381s',
          'Scheduler',
          'Scheduled',
          'Successfully assigned default/web-6ff4-x2 to node-2',
          undefined,
          undefined,
        ],
        ['+4.435s', 'Kubelet', '', 'pod/web-6ff4-x2 phase Pending → Running', 'on node-2', undefined],
        [
          '+9.000s',
          'Kubelet',
          'Unhealthy',
          'Readiness probe failed: HTTP probe failed with statuscode: 503',
          undefined,
          undefined,
        ],
      ],
    );
    assert.equal(view.rows[1].component, 'deployment-controller');
    assert.equal(view.rows[1].at, '2026-01-01T10:00:02.381Z');
    assert.deepEqual(
      view.rows.map((r) => r.warning),
      [false, false, false, false, false, true],
    );
  });

  test('steps that go back to an apply link to its file:line; the host parses the link back to a file and line', () => {
    const view = timelineView(reply(), podSubject, undefined);
    assert.deepEqual(
      view.rows.map((r) => r.link),
      ['app/web.yaml:9', 'app/web.yaml:9', 'app/web.yaml:9', 'app/web.yaml:9', 'app/web.yaml:9', undefined],
    );
    assert.deepEqual(stepSource('app/web.yaml:9'), { file: 'app/web.yaml', line: 9 });
    assert.deepEqual(stepSource('c:/w/web.yaml:12'), { file: 'c:/w/web.yaml', line: 12 });
    assert.equal(stepSource('web.yaml'), undefined);
    assert.equal(stepSource('web.yaml:0'), undefined);
    assert.equal(stepSource(':3'), undefined);
    assert.equal(stepSource(''), undefined);
  });

  test('the scheduler’s per-node results go under its decision, and only there', () => {
    const view = timelineView(reply({ scheduling: { step: 11, explanation } }), podSubject, undefined);
    const withNodes = view.rows.filter((r) => r.nodes);
    assert.deepEqual(
      withNodes.map((r) => r.id),
      [11],
    );
    assert.deepEqual(withNodes[0].nodes, [
      { node: 'node-1', verdict: 'rejected by NodeResourcesFit: Insufficient cpu', chosen: false, rejected: true },
      { node: 'node-2', verdict: 'score 693, chosen', chosen: true, rejected: false },
      { node: 'node-3', verdict: 'score 593', chosen: false, rejected: false },
    ]);
    // Detail dropped by the scheduler's memory bound: no empty fold.
    const dropped = timelineView(
      reply({ scheduling: { step: 11, explanation: { ...explanation, nodes: undefined } } }),
      podSubject,
      undefined,
    );
    assert.equal(
      dropped.rows.some((r) => r.nodes),
      false,
    );
  });

  test('the state with a timeline passes the page’s validator; a malformed row does not', () => {
    const timeline = timelineView(reply({ scheduling: { step: 11, explanation } }), podSubject, undefined);
    const state = {
      view: 'object',
      ref: { resource: 'pods', namespace: 'default', name: pod.name },
      title: `pod/${pod.name}`,
      kind: 'Pod',
      diff: [],
      events: [],
      timeline,
    };
    assert.equal(isHostMessage({ type: 'state', state }), true);
    const bad = { ...timeline, rows: [{ ...timeline.rows[0], id: 'x' }] };
    assert.equal(isHostMessage({ type: 'state', state: { ...state, timeline: bad } }), false);
    assert.equal(isHostMessage({ type: 'state', state: { ...state, timeline: { rows: [] } } }), false);
  });
});

describe('timelineView: what the sandbox could not record is said', () => {
  test('timeline off, or no answer from the sandbox: no rows, a note', () => {
    assert.deepEqual(
      timelineView({ recording: false, steps: [], truncated: false, capacity: 0 }, podSubject, undefined).notes,
      ['The sandbox is not recording its timeline (it was started with it off): no steps to show.'],
    );
    assert.deepEqual(timelineView(undefined, podSubject, undefined), {
      rows: [],
      notes: ['The timeline could not be read from the sandbox.'],
    });
  });

  test('the cap dropped the start of the chain; older steps left out of the reply', () => {
    const view = timelineView(reply({ truncated: true, omitted: 38 }), podSubject, livePod(T0));
    assert.deepEqual(view.notes, [
      "Earlier steps were dropped: the sandbox's timeline keeps its most recent 10,000 entries, and this chain starts before them.",
      '38 earlier steps are not shown: the most recent 6 are.',
    ]);
    assert.equal(view.rows.length, 6);
  });

  test('an object older than the recording (a restored sandbox) says its earlier steps were not recorded', () => {
    const since = T0 + 5_000;
    const old = timelineView(reply({ since, steps: chain().slice(4) }), podSubject, livePod(T0));
    assert.deepEqual(old.notes, [
      'Steps before 2026-01-01 10:00:05 UTC were not recorded: the timeline starts with the sandbox, and this object is older (restored from a saved sandbox, or reset since).',
    ]);
    // Created in the second recording began (creationTimestamp has whole seconds): not older.
    const same = timelineView(reply({ since: T0 + 400 }), podSubject, livePod(T0));
    assert.deepEqual(same.notes, []);
  });

  test('nothing recorded yet about an object', () => {
    assert.deepEqual(timelineView(reply({ steps: [] }), podSubject, livePod(T0)).notes, [
      'Nothing has been recorded about this object yet.',
    ]);
  });

  test('actors in a reader’s words', () => {
    assert.deepEqual(
      [
        'apply',
        'api-server',
        'kubelet',
        'default-scheduler',
        'deployment-controller',
        'endpointslice-controller',
        'gitops-sync',
        'something-else',
      ].map(actorOf),
      ['Apply', 'API server', 'Kubelet', 'Scheduler', 'Controller', 'Controller', 'GitOps sync', 'something-else'],
    );
  });
});

describe('a self-heal revert in the Timeline section', () => {
  test('an Apply row that says what it put back, linked to the field’s line', () => {
    const step: TimelineStep = {
      id: 40,
      time: T0,
      type: 'apply',
      component: 'apply',
      subject: dep,
      what: 'self-heal',
      message: 'self-heal: reverted spec.replicas 5 → 3 from app/web.yaml:16',
      resourceVersion: '120',
      source: 'app/web.yaml:16',
      origin: 'app/web.yaml:16',
    };
    const view = timelineView({ recording: true, steps: [step], truncated: false, capacity: 10_000 }, dep, undefined);
    assert.deepEqual(
      view.rows.map((r) => [r.actor, r.what, r.text, r.link]),
      [
        [
          'Apply',
          'self-heal',
          'reverted spec.replicas 5 → 3 from app/web.yaml:16 (resourceVersion 120)',
          'app/web.yaml:16',
        ],
      ],
    );
  });

  test('Revert Live to Manifest: the same row, its what `revert`', () => {
    const step: TimelineStep = {
      id: 41,
      time: T0,
      type: 'apply',
      component: 'apply',
      subject: dep,
      what: 'revert',
      message: 'Revert Live to Manifest: reverted spec.replicas 6 → 3 from app/web.yaml:16',
      resourceVersion: '130',
      source: 'app/web.yaml:16',
      origin: 'app/web.yaml:16',
    };
    const view = timelineView({ recording: true, steps: [step], truncated: false, capacity: 10_000 }, dep, undefined);
    assert.deepEqual(
      view.rows.map((r) => [r.actor, r.what, r.text, r.link]),
      [
        [
          'Apply',
          'revert',
          'reverted spec.replicas 6 → 3 from app/web.yaml:16 (resourceVersion 130)',
          'app/web.yaml:16',
        ],
      ],
    );
  });
});
