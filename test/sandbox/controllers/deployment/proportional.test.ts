/** Upstream sync_test.go `TestScale`, on `planScale` (same Deployments, ReplicaSets and expected sizes). */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import { planScale } from '../../../../sandbox/controllers/deployment/proportional';
import { setReplicasAnnotations } from '../../../../sandbox/controllers/deployment/annotations';
import { maxSurge } from '../../../../sandbox/controllers/deployment/fenceposts';

const NEW = '2016-05-20T02:00:00Z';
const OLD = '2016-05-20T01:00:00Z';
const OLDER = '2016-05-20T00:00:00Z';

function dep(
  replicas: number,
  surge: number | string = 0,
  unavailable: number | string = 0,
  image = 'foo',
): Deployment {
  return {
    metadata: { name: 'foo', namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { foo: 'bar' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: surge, maxUnavailable: unavailable } },
      template: { metadata: { labels: { foo: 'bar' } }, spec: { containers: [{ name: 'foo', image }] } },
    },
  };
}

function rs(name: string, replicas: number, created: string, available = replicas): ReplicaSet {
  return {
    metadata: { name, uid: name, namespace: 'default', creationTimestamp: created },
    spec: { replicas, selector: {}, template: {} },
    status: { replicas, availableReplicas: available },
  };
}

interface Case {
  name: string;
  d: Deployment;
  old: Deployment;
  newRS?: ReplicaSet;
  oldRSs: ReplicaSet[];
  want: Record<string, number>;
  desired?: Record<string, number>;
}

const cases: Case[] = [
  {
    name: 'normal scaling event: 10 -> 12',
    d: dep(12),
    old: dep(10),
    newRS: rs('foo-v1', 10, NEW),
    oldRSs: [],
    want: { 'foo-v1': 12 },
  },
  {
    name: 'normal scaling event: 10 -> 5',
    d: dep(5),
    old: dep(10),
    newRS: rs('foo-v1', 10, NEW),
    oldRSs: [],
    want: { 'foo-v1': 5 },
  },
  {
    name: 'proportional scaling: 5 -> 10',
    d: dep(10),
    old: dep(5),
    newRS: rs('foo-v2', 2, NEW),
    oldRSs: [rs('foo-v1', 3, OLD)],
    want: { 'foo-v2': 4, 'foo-v1': 6 },
  },
  {
    name: 'proportional scaling: 5 -> 3',
    d: dep(3),
    old: dep(5),
    newRS: rs('foo-v2', 2, NEW),
    oldRSs: [rs('foo-v1', 3, OLD)],
    want: { 'foo-v2': 1, 'foo-v1': 2 },
  },
  {
    name: 'proportional scaling: 9 -> 4',
    d: dep(4),
    old: dep(9),
    newRS: rs('foo-v2', 8, NEW),
    oldRSs: [rs('foo-v1', 1, OLD)],
    want: { 'foo-v2': 4, 'foo-v1': 0 },
  },
  {
    name: 'proportional scaling: 7 -> 10',
    d: dep(10),
    old: dep(7),
    newRS: rs('foo-v3', 2, NEW),
    oldRSs: [rs('foo-v2', 3, OLD), rs('foo-v1', 2, OLDER)],
    want: { 'foo-v3': 3, 'foo-v2': 4, 'foo-v1': 3 },
  },
  {
    name: 'proportional scaling: 13 -> 8',
    d: dep(8),
    old: dep(13),
    newRS: rs('foo-v3', 2, NEW),
    oldRSs: [rs('foo-v2', 8, OLD), rs('foo-v1', 3, OLDER)],
    want: { 'foo-v3': 1, 'foo-v2': 5, 'foo-v1': 2 },
  },
  {
    name: 'leftover distribution: 3 -> 4',
    d: dep(4),
    old: dep(3),
    newRS: rs('foo-v3', 1, NEW),
    oldRSs: [rs('foo-v2', 1, OLD), rs('foo-v1', 1, OLDER)],
    want: { 'foo-v3': 2, 'foo-v2': 1, 'foo-v1': 1 },
  },
  {
    name: 'leftover distribution: 3 -> 2',
    d: dep(2),
    old: dep(3),
    newRS: rs('foo-v3', 1, NEW),
    oldRSs: [rs('foo-v2', 1, OLD), rs('foo-v1', 1, OLDER)],
    want: { 'foo-v3': 1, 'foo-v2': 1, 'foo-v1': 0 },
  },
  {
    name: 'proportional scaling (no new rs): 4 -> 5',
    d: dep(5),
    old: dep(4),
    oldRSs: [rs('foo-v2', 2, OLD), rs('foo-v1', 2, OLDER)],
    want: { 'foo-v2': 3, 'foo-v1': 2 },
  },
  {
    name: 'proportional scaling: 6 -> 0',
    d: dep(0),
    old: dep(6),
    newRS: rs('foo-v3', 3, NEW),
    oldRSs: [rs('foo-v2', 2, OLD), rs('foo-v1', 1, OLDER)],
    want: { 'foo-v3': 0, 'foo-v2': 0, 'foo-v1': 0 },
  },
  {
    name: 'proportional scaling: 0 -> 6',
    d: dep(6),
    old: dep(6),
    newRS: rs('foo-v3', 0, NEW),
    oldRSs: [rs('foo-v2', 0, OLD), rs('foo-v1', 0, OLDER)],
    want: { 'foo-v3': 6, 'foo-v2': 0, 'foo-v1': 0 },
  },
  {
    name: 'deployment with surge pods',
    d: dep(20, 2),
    old: dep(10, 2),
    newRS: rs('foo-v2', 6, NEW),
    oldRSs: [rs('foo-v1', 6, OLD)],
    want: { 'foo-v2': 11, 'foo-v1': 11 },
  },
  {
    name: 'change both surge and size',
    d: dep(50, 6),
    old: dep(10, 3),
    newRS: rs('foo-v2', 5, NEW),
    oldRSs: [rs('foo-v1', 8, OLD)],
    want: { 'foo-v2': 22, 'foo-v1': 34 },
  },
  {
    name: 'change both size and template',
    d: dep(14, 0, 0, 'other'),
    old: dep(10),
    oldRSs: [rs('foo-v2', 7, NEW), rs('foo-v1', 3, OLD)],
    want: { 'foo-v2': 10, 'foo-v1': 4 },
  },
  {
    name: 'saturated but broken new replica set does not affect old pods',
    d: dep(2, 1, 1),
    old: dep(2, 1, 1),
    newRS: rs('foo-v2', 2, NEW, 0),
    oldRSs: [rs('foo-v1', 1, OLD)],
    want: { 'foo-v2': 2, 'foo-v1': 1 },
  },
];

describe('planScale (upstream TestScale)', () => {
  for (const c of cases) {
    test(c.name, () => {
      for (const r of [c.newRS, ...c.oldRSs]) {
        if (!r) continue;
        const desired = c.desired?.[r.metadata!.name!] ?? c.old.spec!.replicas!;
        setReplicasAnnotations(r, desired, desired + maxSurge(c.old));
      }
      const sizes: Record<string, number> = {};
      for (const r of [c.newRS, ...c.oldRSs]) if (r) sizes[r.metadata!.name!] = r.spec!.replicas!;
      for (const step of planScale(c.d, c.newRS, c.oldRSs)) sizes[step.rs.metadata!.name!] = step.replicas;
      assert.deepEqual(sizes, c.want);
    });
  }
});
