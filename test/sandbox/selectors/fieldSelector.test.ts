import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Status } from '../../../sandbox/api/errors';
import { statusOf } from '../../builders';
import type { KubeObject } from '../../../sandbox/api/types';
import { parseFieldSelector } from '../../../sandbox/api/selectors/fieldSelector';

function badRequest(message: string): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'BadRequest',
    code: 400,
  };
}

function obj(kind: string, name: string, rest: Record<string, unknown> = {}, namespace?: string): KubeObject {
  return { apiVersion: 'v1', kind, metadata: namespace === undefined ? { name } : { name, namespace }, ...rest };
}

/** Which of `objects` the selector keeps, by name. */
function selected(text: string, kind: string, objects: KubeObject[]): string[] {
  const sel = parseFieldSelector(text, kind);
  return objects.filter((o) => sel.matches(o)).map((o) => o.metadata.name!);
}

describe('parsing', () => {
  const cases: [string, { field: string; op: string; value: string }[], string][] = [
    ['', [], ''],
    ['metadata.name=web', [{ field: 'metadata.name', op: '=', value: 'web' }], 'metadata.name=web'],
    ['metadata.name==web', [{ field: 'metadata.name', op: '=', value: 'web' }], 'metadata.name=web'],
    [
      'status.phase!=Running,metadata.name=web',
      [
        { field: 'metadata.name', op: '=', value: 'web' },
        { field: 'status.phase', op: '!=', value: 'Running' },
      ],
      'metadata.name=web,status.phase!=Running',
    ],
    ['spec.nodeName=', [{ field: 'spec.nodeName', op: '=', value: '' }], 'spec.nodeName='],
    [
      'metadata.name=a\\,b\\=c\\\\d',
      [{ field: 'metadata.name', op: '=', value: 'a,b=c\\d' }],
      'metadata.name=a\\,b\\=c\\\\d',
    ],
    ['spec.host=node-1', [{ field: 'spec.nodeName', op: '=', value: 'node-1' }], 'spec.nodeName=node-1'],
    [',metadata.name=web,', [{ field: 'metadata.name', op: '=', value: 'web' }], 'metadata.name=web'],
  ];
  for (const [text, requirements, shown] of cases) {
    test(JSON.stringify(text), () => {
      const sel = parseFieldSelector(text, 'Pod');
      assert.deepEqual(
        { requirements: sel.requirements, empty: sel.empty, shown: sel.toString() },
        { requirements, empty: requirements.length === 0, shown },
      );
    });
  }

  const errors: [string, string, string][] = [
    ['Pod', 'spec.foo=x', 'field label not supported: spec.foo'],
    ['Pod', 'metadata.name=a,spec.zzz=1,spec.aaa=2', 'field label not supported: spec.aaa'],
    ['Pod', 'metadata.name', "invalid selector: 'metadata.name'; can't understand 'metadata.name'"],
    [
      'Pod',
      'metadata.name in (a)',
      "invalid selector: 'metadata.name in (a)'; can't understand 'metadata.name in (a)'",
    ],
    ['Pod', 'metadata.name=a=b', 'invalid field selector: unescaped character in value: 61'],
    ['Pod', 'metadata.name=a\\x', 'invalid field selector: invalid escape sequence: \\x'],
    ['Pod', 'metadata.name=a\\', 'invalid field selector: invalid escape sequence: \\'],
    ['Node', 'metadata.namespace=default', 'field label not supported: metadata.namespace'],
    ['Namespace', 'spec.finalizers=x', 'field label not supported: spec.finalizers'],
    ['Event', 'involvedObject.foo=x', 'field label not supported: involvedObject.foo'],
    ['Secret', 'data=x', 'field label not supported: data'],
    ['Job', 'status.active=1', 'field label "status.active" not supported for Job'],
    [
      'Deployment',
      'spec.replicas=1',
      '"spec.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"',
    ],
    [
      'ConfigMap',
      'metadata.labels=x',
      '"metadata.labels" is not a known field selector: only "metadata.name", "metadata.namespace"',
    ],
  ];
  for (const [kind, text, message] of errors) {
    test(`${kind} ${JSON.stringify(text)} → 400`, () => {
      assert.deepEqual(
        statusOf(() => parseFieldSelector(text, kind)),
        badRequest(message),
      );
    });
  }
});

describe('matching per kind', () => {
  const pods = [
    obj('Pod', 'pending', { spec: {}, status: { phase: 'Pending' } }, 'default'),
    obj(
      'Pod',
      'running',
      {
        spec: {
          nodeName: 'node-1',
          restartPolicy: 'Always',
          schedulerName: 'default-scheduler',
          serviceAccountName: 'default',
          hostNetwork: true,
        },
        status: { phase: 'Running', podIPs: [{ ip: '10.0.0.5' }, { ip: 'fd00::5' }], nominatedNodeName: 'node-2' },
      },
      'default',
    ),
    obj(
      'Pod',
      'other-ns',
      { spec: { nodeName: 'node-2', restartPolicy: 'Never' }, status: { phase: 'Succeeded', podIP: '10.0.0.9' } },
      'kube-system',
    ),
  ];
  const podCases: [string, string[]][] = [
    ['', ['pending', 'running', 'other-ns']],
    ['metadata.name=running', ['running']],
    ['metadata.namespace=default', ['pending', 'running']],
    ['metadata.namespace!=default', ['other-ns']],
    ['spec.nodeName=', ['pending']],
    ['spec.nodeName!=', ['running', 'other-ns']],
    ['spec.host=node-1', ['running']],
    ['spec.restartPolicy=Never', ['other-ns']],
    ['spec.schedulerName=default-scheduler', ['running']],
    ['spec.serviceAccountName=default', ['running']],
    ['spec.hostNetwork=true', ['running']],
    ['spec.hostNetwork=false', ['pending', 'other-ns']],
    ['status.phase=Running', ['running']],
    ['status.phase!=Running,status.phase!=Succeeded', ['pending']],
    ['status.podIP=10.0.0.5', ['running']],
    ['status.podIP=fd00::5', []],
    ['status.podIP=10.0.0.9', ['other-ns']],
    ['status.podIPs=', ['pending', 'running', 'other-ns']],
    ['status.nominatedNodeName=node-2', ['running']],
    ['metadata.namespace=default,spec.nodeName=node-1', ['running']],
  ];
  for (const [text, names] of podCases) {
    test(`Pod ${JSON.stringify(text)}`, () => assert.deepEqual(selected(text, 'Pod', pods), names));
  }

  const events = [
    obj(
      'Event',
      'e1',
      {
        involvedObject: {
          kind: 'Pod',
          namespace: 'default',
          name: 'web-1',
          uid: 'u1',
          apiVersion: 'v1',
          resourceVersion: '42',
          fieldPath: 'spec.containers{web}',
        },
        reason: 'Scheduled',
        source: { component: 'default-scheduler' },
        type: 'Normal',
      },
      'default',
    ),
    obj(
      'Event',
      'e2',
      {
        involvedObject: { kind: 'ReplicaSet', name: 'web-abc' },
        reason: 'SuccessfulCreate',
        reportingComponent: 'replicaset-controller',
        type: 'Normal',
      },
      'default',
    ),
    obj(
      'Event',
      'e3',
      { involvedObject: { kind: 'Pod', name: 'web-2' }, reason: 'BackOff', source: {}, type: 'Warning' },
      'default',
    ),
  ];
  const eventCases: [string, string[]][] = [
    ['involvedObject.kind=Pod', ['e1', 'e3']],
    ['involvedObject.namespace=default', ['e1']],
    ['involvedObject.name=web-abc', ['e2']],
    ['involvedObject.uid=u1', ['e1']],
    ['involvedObject.apiVersion=v1', ['e1']],
    ['involvedObject.resourceVersion=42', ['e1']],
    ['involvedObject.fieldPath=spec.containers{web}', ['e1']],
    ['reason=BackOff', ['e3']],
    ['type=Warning', ['e3']],
    ['reportingComponent=replicaset-controller', ['e2']],
    ['source=default-scheduler', ['e1']],
    ['source=replicaset-controller', ['e2']],
    ['source=', ['e3']],
    ['metadata.namespace=default,type=Normal', ['e1', 'e2']],
  ];
  for (const [text, names] of eventCases) {
    test(`Event ${JSON.stringify(text)}`, () => assert.deepEqual(selected(text, 'Event', events), names));
  }

  const others: [string, string, KubeObject[], string[]][] = [
    [
      'Node',
      'spec.unschedulable=true',
      [obj('Node', 'n1', { spec: { unschedulable: true } }), obj('Node', 'n2', { spec: {} })],
      ['n1'],
    ],
    [
      'Node',
      'spec.unschedulable=false',
      [obj('Node', 'n1', { spec: { unschedulable: true } }), obj('Node', 'n2', {})],
      ['n2'],
    ],
    ['Node', 'metadata.name=n2', [obj('Node', 'n1'), obj('Node', 'n2')], ['n2']],
    [
      'Namespace',
      'status.phase=Terminating',
      [
        obj('Namespace', 'a', { status: { phase: 'Active' } }),
        obj('Namespace', 'b', { status: { phase: 'Terminating' } }),
      ],
      ['b'],
    ],
    [
      'Secret',
      'type=kubernetes.io/tls',
      [obj('Secret', 's1', { type: 'Opaque' }, 'd'), obj('Secret', 's2', { type: 'kubernetes.io/tls' }, 'd')],
      ['s2'],
    ],
    [
      'Service',
      'spec.type=NodePort',
      [
        obj('Service', 'a', { spec: { type: 'ClusterIP' } }, 'd'),
        obj('Service', 'b', { spec: { type: 'NodePort' } }, 'd'),
      ],
      ['b'],
    ],
    [
      'ReplicaSet',
      'status.replicas=0',
      [obj('ReplicaSet', 'old', { status: {} }, 'd'), obj('ReplicaSet', 'new', { status: { replicas: 3 } }, 'd')],
      ['old'],
    ],
    [
      'ReplicaSet',
      'status.replicas=3',
      [obj('ReplicaSet', 'old', { status: {} }, 'd'), obj('ReplicaSet', 'new', { status: { replicas: 3 } }, 'd')],
      ['new'],
    ],
    [
      'Job',
      'status.successful=1',
      [obj('Job', 'j1', { status: { succeeded: 1 } }, 'd'), obj('Job', 'j2', {}, 'd')],
      ['j1'],
    ],
    ['Deployment', 'metadata.namespace=d', [obj('Deployment', 'a', {}, 'd'), obj('Deployment', 'b', {}, 'e')], ['a']],
    ['ClusterRole', 'metadata.namespace=', [obj('ClusterRole', 'admin')], ['admin']],
  ];
  for (const [kind, text, objects, names] of others) {
    test(`${kind} ${JSON.stringify(text)}`, () => assert.deepEqual(selected(text, kind, objects), names));
  }
});
