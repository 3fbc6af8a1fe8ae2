/**
 * Kubernetes' quantity library (upstream: apiserver/pkg/cel/library/quantity.go): `quantity`, `isQuantity` and the
 * methods of `kubernetes.Quantity`, on the sandbox's exact quantities (sandbox/api/quantity.ts).
 */
import type { Environment } from '@marcbachmann/cel-js';
import { EvaluationError } from '@marcbachmann/cel-js';
import { compareQuantity, parseQuantity, Quantity, QUANTITY_FORMAT_ERROR } from '../../api/quantity';

const NANO = 1_000_000_000n;
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

function parse(s: string): Quantity {
  const q = parseQuantity(s);
  if (q === undefined) throw new EvaluationError(QUANTITY_FORMAT_ERROR);
  return q;
}

function asInt64(q: Quantity): bigint | undefined {
  if (q.nanos % NANO !== 0n) return undefined;
  const v = q.nanos / NANO;
  return v > INT64_MAX || v < INT64_MIN ? undefined : v;
}

const Q = 'kubernetes.Quantity';

export function registerQuantity(env: Environment): void {
  env.registerType(Q, Quantity);
  env.registerFunction(`quantity(string): ${Q}`, parse);
  env.registerFunction('isQuantity(string): bool', (s: string) => parseQuantity(s) !== undefined);
  env.registerFunction(`${Q}.sign(): int`, (q: Quantity) => BigInt(q.nanos > 0n ? 1 : q.nanos < 0n ? -1 : 0));
  env.registerFunction(`${Q}.isInteger(): bool`, (q: Quantity) => asInt64(q) !== undefined);
  env.registerFunction(`${Q}.asInteger(): int`, (q: Quantity) => {
    const v = asInt64(q);
    if (v === undefined) throw new EvaluationError('cannot convert value to integer');
    return v;
  });
  env.registerFunction(`${Q}.asApproximateFloat(): double`, (q: Quantity) => Number(q.nanos) / 1e9);
  env.registerFunction(`${Q}.compareTo(${Q}): int`, (a: Quantity, b: Quantity) =>
    BigInt(Math.sign(compareQuantity(a, b))),
  );
  env.registerFunction(`${Q}.isGreaterThan(${Q}): bool`, (a: Quantity, b: Quantity) => compareQuantity(a, b) > 0);
  env.registerFunction(`${Q}.isLessThan(${Q}): bool`, (a: Quantity, b: Quantity) => compareQuantity(a, b) < 0);
  env.registerFunction(`${Q}.add(${Q}): ${Q}`, (a: Quantity, b: Quantity) => new Quantity(a.nanos + b.nanos, a.format));
  env.registerFunction(`${Q}.add(int): ${Q}`, (a: Quantity, b: bigint) => new Quantity(a.nanos + b * NANO, a.format));
  env.registerFunction(`${Q}.sub(${Q}): ${Q}`, (a: Quantity, b: Quantity) => new Quantity(a.nanos - b.nanos, a.format));
  env.registerFunction(`${Q}.sub(int): ${Q}`, (a: Quantity, b: bigint) => new Quantity(a.nanos - b * NANO, a.format));
  env.registerOperator(`${Q} == ${Q}`, (a: Quantity, b: Quantity) => compareQuantity(a, b) === 0);
}
