import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, NodeSelectorTerm, Pod } from 'kubernetes-types/core/v1';
import { FILTER_PLUGINS, filterNode, verdictReasons } from '../../../sandbox/scheduler/filters';
import { NodeState } from '../../../sandbox/scheduler/nodeState';
import { newPodInfo } from '../../../sandbox/scheduler/podInfo';
import type { Typed } from '../../../sandbox/api/types';
import { node, pod } from './fixtures';

function state(
  obj: Typed<Node>,
  usage?: { cpu?: number; memory?: number; pods?: number; ports?: string[] },
): NodeState {
  const s = new NodeState(obj.metadata.name!);
  s.setNode(obj);
  for (let i = 0; i < (usage?.pods ?? 0); i++)
    s.addPod({ cpu: 0, memory: 0, ephemeral: 0, nonZeroCpu: 0, nonZeroMemory: 0, hostPorts: [] }, 1);
  if (usage?.cpu || usage?.memory || usage?.ports) {
    s.addPod(
      {
        cpu: usage.cpu ?? 0,
        memory: usage.memory ?? 0,
        ephemeral: 0,
        nonZeroCpu: 0,
        nonZeroMemory: 0,
        hostPorts: (usage.ports ?? []).map((p) => ({ ip: p.split(' ')[0], protocolPort: p.split(' ')[1] })),
      },
      1,
    );
  }
  return s;
}

/** `[plugin, reasons]` of a verdict, or 'fits'. */
function outcome(p: Typed<Pod>, n: NodeState): 'fits' | [string, string[]] {
  const v = filterNode(newPodInfo(p), n);
  if (v === 0) return 'fits';
  return [FILTER_PLUGINS[v & 15], verdictReasons(v, n.taints[v >> 9]?.reason ?? '')];
}

const cp = { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' };
const affinity = (terms: NodeSelectorTerm[]) => ({
  affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } },
});

describe('filters, one table per plugin', () => {
  const cases: [string, Typed<Pod>, NodeState, ReturnType<typeof outcome>][] = [
    [
      'NodeUnschedulable: cordoned node',
      pod('p'),
      state(node('n', { unschedulable: true })),
      ['NodeUnschedulable', ['node(s) were unschedulable']],
    ],
    [
      'NodeUnschedulable: tolerated',
      pod('p', {
        spec: { tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] },
      }),
      state(node('n', { unschedulable: true })),
      'fits',
    ],
    [
      'NodeName: other node',
      pod('p', { spec: { nodeName: 'm' } }),
      state(node('n')),
      ['NodeName', ["node(s) didn't match the requested node name"]],
    ],
    ['NodeName: same node', pod('p', { spec: { nodeName: 'n' } }), state(node('n')), 'fits'],
    [
      'TaintToleration: NoSchedule, empty value',
      pod('p'),
      state(node('n', { taints: [cp] })),
      ['TaintToleration', ['node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }']],
    ],
    [
      'TaintToleration: first untolerated taint is named',
      pod('p', { spec: { tolerations: [{ key: 'a', operator: 'Equal', value: '1', effect: 'NoExecute' }] } }),
      state(
        node('n', {
          taints: [
            { key: 'a', value: '1', effect: 'NoExecute' },
            { key: 'b', value: '2', effect: 'NoExecute' },
          ],
        }),
      ),
      ['TaintToleration', ['node(s) had untolerated taint {b: 2}']],
    ],
    [
      'TaintToleration: value mismatch is not tolerated',
      pod('p', { spec: { tolerations: [{ key: 'a', value: '2' }] } }),
      state(node('n', { taints: [{ key: 'a', value: '1', effect: 'NoSchedule' }] })),
      ['TaintToleration', ['node(s) had untolerated taint {a: 1}']],
    ],
    [
      'TaintToleration: Exists with empty key tolerates all',
      pod('p', { spec: { tolerations: [{ operator: 'Exists' }] } }),
      state(node('n', { taints: [cp, { key: 'x', effect: 'NoExecute' }] })),
      'fits',
    ],
    [
      'TaintToleration: PreferNoSchedule does not filter',
      pod('p'),
      state(node('n', { taints: [{ key: 'x', effect: 'PreferNoSchedule' }] })),
      'fits',
    ],
    [
      'NodeAffinity: nodeSelector mismatch',
      pod('p', { spec: { nodeSelector: { disk: 'ssd' } } }),
      state(node('n', { labels: { disk: 'hdd' } })),
      ['NodeAffinity', ["node(s) didn't match Pod's node affinity/selector"]],
    ],
    [
      'NodeAffinity: nodeSelector match',
      pod('p', { spec: { nodeSelector: { disk: 'ssd' } } }),
      state(node('n', { labels: { disk: 'ssd' } })),
      'fits',
    ],
    [
      'NodeAffinity: In',
      pod('p', { spec: affinity([{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] }]) }),
      state(node('n', { labels: { zone: 'b' } })),
      'fits',
    ],
    [
      'NodeAffinity: NotIn matches a missing label',
      pod('p', { spec: affinity([{ matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }]) }),
      state(node('n')),
      'fits',
    ],
    [
      'NodeAffinity: DoesNotExist',
      pod('p', { spec: affinity([{ matchExpressions: [{ key: 'gpu', operator: 'DoesNotExist' }] }]) }),
      state(node('n', { labels: { gpu: '1' } })),
      ['NodeAffinity', ["node(s) didn't match Pod's node affinity/selector"]],
    ],
    [
      'NodeAffinity: Exists',
      pod('p', { spec: affinity([{ matchExpressions: [{ key: 'gpu', operator: 'Exists' }] }]) }),
      state(node('n', { labels: { gpu: '1' } })),
      'fits',
    ],
    [
      'NodeAffinity: Gt compares integers',
      pod('p', { spec: affinity([{ matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['8'] }] }]) }),
      state(node('n', { labels: { cores: '16' } })),
      'fits',
    ],
    [
      'NodeAffinity: Lt fails on a non-integer label',
      pod('p', { spec: affinity([{ matchExpressions: [{ key: 'cores', operator: 'Lt', values: ['8'] }] }]) }),
      state(node('n', { labels: { cores: 'many' } })),
      ['NodeAffinity', ["node(s) didn't match Pod's node affinity/selector"]],
    ],
    [
      'NodeAffinity: terms are ORed',
      pod('p', {
        spec: affinity([
          { matchExpressions: [{ key: 'zone', operator: 'In', values: ['x'] }] },
          { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n'] }] },
        ]),
      }),
      state(node('n')),
      'fits',
    ],
    [
      'NodeAffinity: an empty term matches nothing',
      pod('p', { spec: affinity([{}]) }),
      state(node('n')),
      ['NodeAffinity', ["node(s) didn't match Pod's node affinity/selector"]],
    ],
    [
      'NodePorts: same port on 0.0.0.0',
      pod('p', { spec: { containers: [{ name: 'a', image: 'x', ports: [{ containerPort: 80, hostPort: 8080 }] }] } }),
      state(node('n'), { ports: ['10.0.0.1 TCP/8080'] }),
      ['NodePorts', ["node(s) didn't have free ports for the requested pod ports"]],
    ],
    [
      'NodePorts: other protocol is free',
      pod('p', {
        spec: {
          containers: [{ name: 'a', image: 'x', ports: [{ containerPort: 80, hostPort: 8080, protocol: 'UDP' }] }],
        },
      }),
      state(node('n'), { ports: ['0.0.0.0 TCP/8080'] }),
      'fits',
    ],
    [
      'NodePorts: other IP is free',
      pod('p', {
        spec: {
          containers: [{ name: 'a', image: 'x', ports: [{ containerPort: 80, hostPort: 8080, hostIP: '10.0.0.2' }] }],
        },
      }),
      state(node('n'), { ports: ['10.0.0.1 TCP/8080'] }),
      'fits',
    ],
    [
      'NodeResourcesFit: cpu',
      pod('p', { cpu: '600m' }),
      state(node('n', { cpu: '1' }), { cpu: 500 }),
      ['NodeResourcesFit', ['Insufficient cpu']],
    ],
    [
      'NodeResourcesFit: exactly full fits',
      pod('p', { cpu: '500m' }),
      state(node('n', { cpu: '1' }), { cpu: 500 }),
      'fits',
    ],
    [
      'NodeResourcesFit: several reasons in upstream order',
      pod('p', { cpu: '2', memory: '9Gi' }),
      state(node('n', { cpu: '1', memory: '8Gi', pods: '1' }), { pods: 1 }),
      ['NodeResourcesFit', ['Too many pods', 'Insufficient cpu', 'Insufficient memory']],
    ],
    [
      'NodeResourcesFit: a pod without requests fits an overcommitted node',
      pod('p'),
      state(node('n', { cpu: '1' }), { cpu: 2000 }),
      'fits',
    ],
    [
      'NodeResourcesFit: init container maximum counts',
      pod('p', {
        cpu: '100m',
        spec: { initContainers: [{ name: 'i', image: 'x', resources: { requests: { cpu: '1500m' } } }] },
      }),
      state(node('n', { cpu: '1' })),
      ['NodeResourcesFit', ['Insufficient cpu']],
    ],
    [
      'NodeResourcesFit: overhead counts',
      pod('p', { cpu: '900m', spec: { overhead: { cpu: '200m' } } }),
      state(node('n', { cpu: '1' })),
      ['NodeResourcesFit', ['Insufficient cpu']],
    ],
    [
      'NodeResourcesFit: pods default to 110',
      pod('p'),
      state(node('n'), { pods: 110 }),
      ['NodeResourcesFit', ['Too many pods']],
    ],
    [
      'filters stop at the first failing plugin',
      pod('p', { cpu: '8' }),
      state(node('n', { cpu: '1', taints: [cp], unschedulable: true })),
      ['NodeUnschedulable', ['node(s) were unschedulable']],
    ],
  ];
  for (const [name, p, n, want] of cases) test(name, () => assert.deepEqual(outcome(p, n), want));
});
