/**
 * Kubernetes' list library (upstream: apiserver/pkg/cel/library/lists.go): `isSorted`, `sum`, `min`, `max`,
 * `indexOf`, `lastIndexOf`.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { EvaluationError } from '@marcbachmann/cel-js';
import { Duration } from '@marcbachmann/cel-js/evaluator';
import { chargeActive } from '../cost';
import { celEquals, compareValues } from './compare';

const COMPARABLE = [
  'int',
  'uint',
  'double',
  'string',
  'bytes',
  'google.protobuf.Duration',
  'google.protobuf.Timestamp',
];

export function registerLists(env: Environment): void {
  for (const t of COMPARABLE) {
    env.registerFunction(`list<${t}>.isSorted(): bool`, (l: unknown[]) => {
      chargeActive(l.length);
      return l.every((v, i) => i === 0 || compareValues(l[i - 1], v) <= 0);
    });
    env.registerFunction(`list<${t}>.min(): ${t}`, (l: unknown[]) => extreme(l, 'min', -1));
    env.registerFunction(`list<${t}>.max(): ${t}`, (l: unknown[]) => extreme(l, 'max', 1));
  }
  env.registerFunction('list<int>.sum(): int', (l: bigint[]) => l.reduce((a, b) => a + b, 0n));
  env.registerFunction('list<double>.sum(): double', (l: number[]) => l.reduce((a, b) => a + b, 0));
  env.registerFunction('list<google.protobuf.Duration>.sum(): google.protobuf.Duration', (l: Duration[]) =>
    l.reduce((a, b) => a.addDuration(b) as Duration, new Duration(0n, 0)),
  );
  env.registerFunction('list<A>.indexOf(A): int', (l: unknown[], x: unknown) => {
    chargeActive(l.length);
    return BigInt(l.findIndex((v) => celEquals(v, x)));
  });
  env.registerFunction('list<A>.lastIndexOf(A): int', (l: unknown[], x: unknown) => {
    chargeActive(l.length);
    for (let i = l.length - 1; i >= 0; i--) if (celEquals(l[i], x)) return BigInt(i);
    return -1n;
  });
}

function extreme(l: unknown[], name: string, sign: number): unknown {
  chargeActive(l.length);
  if (l.length === 0) throw new EvaluationError(`${name} called on empty list`);
  return l.reduce((best, v) => (compareValues(v, best) * sign > 0 ? v : best));
}
