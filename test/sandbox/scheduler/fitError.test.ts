import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  FIT_CPU,
  FIT_MEMORY,
  FIT_PODS,
  FIT_UNRESOLVABLE,
  NODE_AFFINITY,
  NODE_PORTS,
  NODE_RESOURCES_FIT,
  NODE_UNSCHEDULABLE,
  TAINT_TOLERATION,
} from '../../../sandbox/scheduler/filters';
import { fitErrorMessage } from '../../../sandbox/scheduler/fitError';

const fit = (mask: number) => NODE_RESOURCES_FIT | (mask << 4);
const taint = '{node-role.kubernetes.io/control-plane: }';

function message(verdicts: number[], preemptNever = false, tooSmallIsUnresolvable = false): string {
  return fitErrorMessage(
    verdicts.length,
    verdicts,
    verdicts.length,
    () => `node(s) had untolerated taint ${taint}`,
    preemptNever,
    tooSmallIsUnresolvable,
  );
}

describe('FitError message (FitError.Error + DefaultPreemption PostFilter)', () => {
  test('3 nodes short of cpu', () => {
    assert.equal(
      message([fit(FIT_CPU), fit(FIT_CPU), fit(FIT_CPU)]),
      '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
    );
  });

  test('a tainted control plane and two full workers', () => {
    assert.equal(
      message([TAINT_TOLERATION, fit(FIT_CPU), fit(FIT_CPU)]),
      `0/3 nodes are available: 1 node(s) had untolerated taint ${taint}, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.`,
    );
  });

  test('a node with several fit reasons counts each; ports and resources are for preemption, cordon is not', () => {
    assert.equal(
      message([fit(FIT_PODS | FIT_MEMORY), fit(FIT_CPU | FIT_UNRESOLVABLE), NODE_PORTS, NODE_UNSCHEDULABLE]),
      "0/4 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 Too many pods, 1 node(s) didn't have free ports for the requested pod ports, 1 node(s) were unschedulable. preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.",
    );
  });

  test('since 1.34 a node smaller than the request is not helped by preemption', () => {
    assert.equal(
      message([fit(FIT_CPU | FIT_UNRESOLVABLE), fit(FIT_CPU)], false, true),
      '0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.',
    );
  });

  test('counts sort as strings, as Go sort.Strings does ("10 …" before "2 …")', () => {
    const verdicts = [...Array(10).fill(NODE_AFFINITY), fit(FIT_CPU), fit(FIT_CPU)];
    assert.equal(
      message(verdicts),
      "0/12 nodes are available: 10 node(s) didn't match Pod's node affinity/selector, 2 Insufficient cpu. preemption: 0/12 nodes are available: 10 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.",
    );
  });

  test('preemptionPolicy Never', () => {
    assert.equal(
      message([fit(FIT_CPU)], true),
      '0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.',
    );
  });
});
